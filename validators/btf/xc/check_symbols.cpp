// XC-SYM: FUNC names against text symbols, DATASEC VARs against data
// symbols (spec btf.md §3.1, figures of real kernels in §4.3 and §4.4).
#include <elf.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "btf/btf_format.h"
#include "btf/ext/btf_ext_rules.h"
#include "btf/xc/cross_check.h"
#include "btf/xc/open_table.h"
#include "btf/xc/xc_rules.h"
#include "core/text.h"

namespace elfmeta::btf::xc {
namespace {

using input::Symbol;
using input::SymbolIndex;

constexpr size_t kListed = 6;  // addresses or names listed in one message
// Names kept in CrossCheckStats per list: the findings list as many, and a
// hostile input could otherwise keep one string per symbol.
constexpr size_t kNamesKept = Findings::kPerRuleLimit;
// Notes of one kind listed per check (real kernels have a handful of
// DATASECs); the rest are counted in one closing note.
constexpr size_t kNotesListed = 16;

// A symbol's identity for "distinct addresses": in a relocatable object
// every section starts at 0, so the section is part of it.
std::pair<uint32_t, uint64_t> place(const Symbol& s) { return {s.section, s.address}; }

std::vector<const Symbol*> text_symbols(const SymbolIndex& symbols, std::string_view name) {
  auto all = symbols.find_all(name);
  std::erase_if(all, [](const Symbol* s) { return !s->function(); });
  return all;
}

// Built-in module exit code sits in .exit.text, which kallsyms does not cover.
bool exit_style(std::string_view name) {
  for (std::string_view word : {"exit", "fini", "cleanup", "deinit", "unregister", "remove"})
    if (name.find(word) != std::string_view::npos) return true;
  return false;
}

class SymbolChecker {
 public:
  SymbolChecker(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats)
      : in_(in), btf_(in.btf), symbols_(*in.symbols), findings_(findings), stats_(stats) {}

  void run() {
    stats_.symbols_checked = true;
    check_functions();
    check_function_tags();
    size_t percpu_datasecs = 0;
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (t.kind() != kDatasec) continue;
      if (name_of(t.name_off()) != ".data..percpu")
        check_global_vars(id);
      else if (percpu_datasecs++ == 0)  // the kernel has one; each check walks every symbol
        check_percpu(id);
    }
    if (percpu_datasecs > 1)
      findings_.note(btf_section(in_), std::to_string(percpu_datasecs - 1) +
                                           " more DATASECs named '.data..percpu': XC-SYM-005/007 checked the "
                                           "first only (XC-CONV-004 reports the others)");
    if (size_notes_ > kNotesListed)
      findings_.note(btf_section(in_), std::to_string(size_notes_ - kNotesListed) +
                                           " more DATASECs end short of their section (notes not listed)");
  }

 private:
  std::string_view name_of(uint32_t off) const { return xc_name(btf_, off); }
  static void keep_name(std::vector<std::string>& names, std::string_view name) {
    if (names.size() < kNamesKept) names.push_back(printable(name));
  }

  // ------------------------------------------------------------ functions
  // The FUNCs by name, in the order each name is first seen (the findings
  // then come in id order): an open table of names, each name's ids chained
  // through `next` (a map of vectors made an allocation per name, a tenth
  // of checking /sys/kernel/btf/vmlinux).
  struct FuncName {
    NameKey key;
    uint32_t first = 0, last = 0, count = 0;
  };
  void check_functions() {
    const uint32_t first_id = btf_.first_id();
    std::vector<FuncName> names;
    std::vector<uint32_t> next(btf_.type_count() - first_id, 0);
    std::vector<uint32_t> table(open_table_size(btf_.type_count() - first_id), kNoName);
    for (uint32_t id = first_id; id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (t.kind() != kFunc) continue;
      const NameKey key = name_key(btf_, t.name_off());
      if (key.name.empty()) continue;
      const size_t slot = probe(table, NameKeyHash()(key), kNoName, [&](uint32_t n) { return names[n].key == key; });
      if (table[slot] == kNoName) {
        table[slot] = static_cast<uint32_t>(names.size());
        names.push_back({key, id, id, 1});
        continue;
      }
      FuncName& f = names[table[slot]];
      next[f.last - first_id] = id;
      f.last = id;
      ++f.count;
    }
    stats_.func_names = names.size();
    const auto clones = clone_names();
    std::vector<uint32_t> ids;
    for (const FuncName& f : names) {
      const std::string_view name = f.key.name;
      const auto texts = text_symbols(symbols_, name);
      if (texts.empty())
        report_missing(f.first, name, clones);
      else
        report_ambiguous(f.first, name, texts);
      if (f.count < 2) continue;
      ids.clear();
      for (uint32_t id = f.first; ids.size() < f.count; id = next[id - first_id]) ids.push_back(id);
      report_prototypes(name, ids);
    }
  }
  static constexpr uint32_t kNoName = ~uint32_t(0);

  // The compiler clones of a name: the first seen, and the first of those
  // whose ABI the compiler may have changed.
  struct Clones {
    std::string_view first, abi;
  };

  // GCC's IPA-SRA (.isra) drops or replaces parameters and return values,
  // IPA-CP (.constprop) drops the parameters it propagated; .part and .cold
  // are pieces of a function called as the function itself.
  static bool abi_changing_clone(std::string_view name) {
    return name.find(".isra.") != std::string_view::npos || name.find(".constprop.") != std::string_view::npos;
  }

  // Compiler clones by the name they were made from: load_elf_binary.isra.0
  // under load_elf_binary.
  std::unordered_map<std::string_view, Clones> clone_names() const {
    std::unordered_map<std::string_view, Clones> clones;
    for (const Symbol& s : symbols_.symbols()) {
      if (!s.function()) continue;
      const size_t dot = s.name.find('.');
      if (dot == 0 || dot == std::string::npos) continue;
      Clones& c = clones[std::string_view(s.name).substr(0, dot)];
      if (c.first.empty()) c.first = s.name;
      if (c.abi.empty() && abi_changing_clone(s.name)) c.abi = s.name;
    }
    return clones;
  }

  void report_missing(uint32_t id, std::string_view name, const std::unordered_map<std::string_view, Clones>& clones) {
    ++stats_.funcs_without_symbol;
    std::string why;
    if (auto it = clones.find(name); it != clones.end()) {
      ++stats_.only_clones;
      if (!it->second.abi.empty()) {
        // One finding for both consequences: nothing to attach to by this
        // name, and the only code has an ABI the prototype may not give.
        ++stats_.abi_clones;
        findings_.emit(rules::SYM_004, type_location(in_, id),
                       "no text symbol '" + printable(name) + "', only the compiler clone '" +
                           printable(it->second.abi) +
                           "', whose parameters and return value the compiler may have changed: a tracer "
                           "attaching to it reads arguments this prototype does not describe");
        return;
      }
      why = "only the compiler clone '" + printable(it->second.first) + "' exists";
    } else if (symbols_.origin != "symtab" && exit_style(name)) {
      ++stats_.exit_style;
      why = "not in " + symbols_.origin +
            "; the name suggests built-in module exit code (.exit.text is outside the kallsyms text ranges)";
    } else {
      ++stats_.absent;
      keep_name(stats_.absent_names, name);
      why = "not in " + symbols_.origin + ": inlined everywhere or discarded, yet encoded";
    }
    findings_.emit(rules::SYM_001, type_location(in_, id), "no text symbol '" + printable(name) + "': " + why);
  }

  void report_ambiguous(uint32_t id, std::string_view name, const std::vector<const Symbol*>& texts) {
    std::set<std::pair<uint32_t, uint64_t>> places;
    for (const Symbol* s : texts) places.insert(place(*s));
    if (places.size() < 2) return;
    ++stats_.ambiguous_names;
    std::string list;
    size_t n = 0;
    for (const auto& [section, address] : places) {
      if (n++ == kListed) {
        list += ", ...";
        break;
      }
      list += (list.empty() ? "" : ", ") + hex(address);
    }
    findings_.emit(rules::SYM_002, type_location(in_, id),
                   "'" + printable(name) + "' has " + std::to_string(places.size()) + " text symbols (" + list +
                       "); a tracer attaching by this name gets the first");
  }

  void report_prototypes(std::string_view name, const std::vector<uint32_t>& ids) {
    std::set<uint32_t> protos;
    for (uint32_t id : ids) protos.insert(btf_.type(id).type());
    if (protos.size() < 2) return;
    ++stats_.multi_proto_names;
    std::string list;
    for (size_t i = 0; i < ids.size() && i < kListed; ++i) {
      const uint32_t proto = btf_.type(ids[i]).type();
      list += (i ? ", " : "") + std::string("type ") + std::to_string(ids[i]) + " (";
      if (btf_.has_type(proto) && btf_.type(proto).kind() == kFuncProto)
        list += std::to_string(btf_.type(proto).vlen()) + " params)";
      else
        list += "prototype " + std::to_string(proto) + ")";
    }
    findings_.emit(rules::SYM_003, type_location(in_, ids[1]),
                   std::to_string(ids.size()) + " FUNC records named '" + printable(name) + "' with " +
                       std::to_string(protos.size()) + " prototypes: " + list +
                       "; which record describes which address is unknowable");
  }

  // The addresses of the text symbols of a name, in order: looked up once
  // per name, however many tags ask (a name may have thousands of symbols).
  const std::vector<uint64_t>& text_addresses(std::string_view name) {
    auto [it, fresh] = text_addresses_.try_emplace(name);
    if (fresh)
      for (const Symbol* s : text_symbols(symbols_, name)) it->second.push_back(s->address);
    return it->second;
  }

  // DECL_TAGs on a whole FUNC: "bpf_kfunc", and the proposed "addr=0x...".
  void check_function_tags() {
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef tag = btf_.type(id);
      if (tag.kind() != kDeclTag || tag.payload(0) != ~uint32_t(0) || !btf_.has_type(tag.type())) continue;
      const TypeRef func = btf_.type(tag.type());
      if (func.kind() != kFunc) continue;
      const std::string_view value = name_of(tag.name_off());
      const std::string_view name = name_of(func.name_off());
      if (value == "bpf_kfunc") {
        if (text_addresses(name).empty())
          findings_.emit(rules::SYM_010, type_location(in_, tag.type()),
                         "kfunc '" + printable(name) + "' has no text symbol in " + symbols_.origin +
                             ": BPF programs calling it fail to load");
      } else if (value.starts_with("addr=")) {
        check_address_tag(id, tag.type(), name, value.substr(5));
      }
    }
  }

  void check_address_tag(uint32_t tag_id, uint32_t func_id, std::string_view name, std::string_view text) {
    uint64_t address = 0;
    const bool prefixed = text.starts_with("0x");
    if (prefixed) text.remove_prefix(2);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), address, 16);
    std::string problem;
    if (!prefixed || ec != std::errc() || end != text.data() + text.size()) {
      problem = "is not an address";
    } else {
      const auto& texts = text_addresses(name);
      if (!std::binary_search(texts.begin(), texts.end(), address))
        problem = texts.empty() ? "names a function with no text symbol"
                                : "is none of the " + std::to_string(texts.size()) + " addresses of '" +
                                      printable(name) + "'";
    }
    if (problem.empty()) return;
    findings_.emit(rules::SYM_012, type_location(in_, tag_id),
                   "tag 'addr=" + std::string(prefixed ? "0x" : "") + printable(text) + "' of FUNC " +
                       std::to_string(func_id) + " '" + printable(name) + "' " + problem);
  }

  // --------------------------------------------------------------- percpu
  struct Range {
    uint64_t start = 0, end = 0;
    std::string how;
  };

  // [__per_cpu_start, __per_cpu_end): kernel symbols, else the ELF section
  // (a module's .data..percpu, whose symbols are section offsets).
  std::optional<Range> percpu_range() const {
    const Symbol* start = symbols_.find("__per_cpu_start");
    const Symbol* end = symbols_.find("__per_cpu_end");
    if (start && end && end->address >= start->address)
      return Range{start->address, end->address, "__per_cpu_end - __per_cpu_start"};
    if (const input::Section* s = in_.artifact.section(".data..percpu"); s && in_.artifact.elf_type == ET_REL)
      return Range{0, s->size, "the size of section .data..percpu"};
    return std::nullopt;
  }

  bool data_symbol(const Symbol& s) const { return !s.function() && s.type != 'N' && s.type != 'n'; }

  // A symtab says where a symbol lives: a percpu variable in .data..percpu.
  // An absolute symbol whose value happens to fall in a zero-based percpu
  // range (x86-64 up to 6.14: `pgtno`, 2) is none. Kallsyms says nothing
  // (percpu symbols are 'A' there too): its address decides.
  bool in_percpu(const Symbol& s, const Range& r) const {
    if (!data_symbol(s) || s.address < r.start || s.address >= r.end) return false;
    if (in_.artifact.elf_type == ET_REL || symbols_.origin == "symtab") {
      const input::Section* sec = s.section ? in_.artifact.section_at(s.section) : nullptr;
      return sec && sec->name == ".data..percpu";
    }
    return true;
  }

  void check_percpu(uint32_t datasec) {
    const TypeRef ds = btf_.type(datasec);
    const auto range = percpu_range();
    if (!range) {
      findings_.note(btf_section(in_), "no __per_cpu_start/__per_cpu_end in " + symbols_.origin +
                                           ": percpu VAR offsets not checked");
      return;
    }
    // The percpu symbols, by address; markers (__per_cpu_start) left out.
    // And all of them by name, in address order, for the VARs to look up.
    std::vector<const Symbol*> percpu;
    std::unordered_map<std::string_view, std::vector<const Symbol*>> by_name;
    for (const Symbol& s : symbols_.symbols()) {
      if (!in_percpu(s, *range)) continue;
      by_name[s.name].push_back(&s);
      if (!s.name.starts_with("__per_cpu_")) percpu.push_back(&s);
    }
    if (percpu.empty()) {
      findings_.note(btf_section(in_), symbols_.origin + " has no percpu variables (kallsyms without "
                                                         "CONFIG_KALLSYMS_ALL?): percpu VAR offsets not checked");
      return;
    }
    stats_.percpu_checked = true;
    std::sort(percpu.begin(), percpu.end(), [](const Symbol* a, const Symbol* b) { return a->address < b->address; });
    std::unordered_set<std::string_view> var_names;
    std::unordered_set<uint64_t> var_addresses;
    for (uint32_t i = 0; i < ds.vlen(); ++i) {
      const VarSecInfo v = secinfo_at(ds, i);
      if (!btf_.has_type(v.type) || btf_.type(v.type).kind() != kVar) continue;
      ++stats_.percpu_vars;
      const std::string_view name = name_of(btf_.type(v.type).name_off());
      var_names.insert(name);
      var_addresses.insert(range->start + v.offset);
      const auto candidates = by_name.find(name);
      check_var_against(datasec, i, v, name, *range, percpu,
                        candidates == by_name.end() ? std::span<const Symbol* const>() : candidates->second);
    }
    check_section_size(datasec, range->end - range->start, range->how);
    for (const Symbol* s : percpu) {
      if (var_names.contains(s->name)) continue;
      keep_name(stats_.percpu_symbols_without_var, s->name);
      std::string why;
      std::optional<Severity> severity;
      if (s->address == range->start) {
        why = " (at offset 0: DEFINE_PER_CPU_FIRST, which pahole takes for 'no address')";
        severity = Severity::Note;
      } else if (var_addresses.contains(s->address)) {
        why = " (an alias of a variable that has a VAR: a linker-script symbol)";
        severity = Severity::Note;
      }
      Location loc = type_location(in_, datasec);
      findings_.emit(rules::SYM_007, loc,
                     "percpu symbol '" + printable(s->name) + "' at offset " + hex(s->address - range->start) +
                         " has no VAR" + why,
                     severity);
    }
  }

  // `candidates`: the percpu symbols of the VAR's name, in address order.
  void check_var_against(uint32_t datasec, uint32_t i, const VarSecInfo& v, std::string_view name, const Range& r,
                         const std::vector<const Symbol*>& percpu, std::span<const Symbol* const> candidates) {
    const uint64_t want = r.start + v.offset;
    const auto match = std::lower_bound(candidates.begin(), candidates.end(), want,
                                        [](const Symbol* s, uint64_t a) { return s->address < a; });
    Location loc = type_location(in_, datasec);
    if (loc.offset) *loc.offset += kTypeRecordSize + 12ull * i;
    if (match == candidates.end() || (*match)->address != want) {
      ++stats_.percpu_mismatched;
      std::string where = "no percpu symbol of that name";
      if (!candidates.empty()) where = "its symbol is at offset " + hex(candidates.front()->address - r.start);
      findings_.emit(rules::SYM_005, loc,
                     "VAR '" + printable(name) + "' at offset " + hex(v.offset) + ": " + where);
      return;
    }
    ++stats_.percpu_matched;
    check_linkage(v, name, **match, loc);
    // The next variable's address bounds this one's size.
    auto next = std::upper_bound(percpu.begin(), percpu.end(), want,
                                 [](uint64_t a, const Symbol* s) { return a < s->address; });
    const uint64_t limit = next == percpu.end() ? r.end : (*next)->address;
    if (want + v.size > limit) {
      ++stats_.percpu_overlapping;
      findings_.emit(rules::SYM_005, loc,
                     "VAR '" + printable(name) + "' of " + std::to_string(v.size) + " bytes at offset " +
                         hex(v.offset) + " runs " + std::to_string(want + v.size - limit) + " bytes into " +
                         (next == percpu.end() ? std::string("the end of the percpu area")
                                               : "'" + printable((*next)->name) + "'"));
    }
  }

  // XC-SYM-009 in an image or module: linkage 1 for a global symbol (nm's
  // upper-case letters), 0 for a local one. Absolute percpu symbols (kallsyms
  // of x86-64 before 6.15: all 'A') do not tell their binding.
  void check_linkage(const VarSecInfo& v, std::string_view name, const Symbol& sym, const Location& loc) {
    if (sym.type == 'A' || !std::isalpha(static_cast<unsigned char>(sym.type))) return;
    ++stats_.var_linkage_checked;
    const uint32_t linkage = btf_.type(v.type).payload(0);
    const bool global = std::isupper(static_cast<unsigned char>(sym.type));
    if ((linkage == 1) == global) return;
    ++stats_.var_linkage_mismatched;
    findings_.emit(ext::rules::XC_SYM_009, loc,
                   "VAR '" + printable(name) + "' has linkage " + std::to_string(linkage) + " (" +
                       (linkage == 1 ? "global" : "static") + "), its symbol is " + (global ? "global" : "local") +
                       " ('" + std::string(1, sym.type) + "' in " + symbols_.origin + ")");
  }

  void check_section_size(uint32_t datasec, uint64_t span, const std::string& how) {
    const TypeRef ds = btf_.type(datasec);
    const std::string name = printable(name_of(ds.name_off()));
    // A span from hostile symbols may be anything up to 2^64 - 1.
    const int64_t slack = span >= ds.size() ? int64_t(std::min<uint64_t>(span - ds.size(), INT64_MAX))
                                            : -int64_t(ds.size() - span);
    if (name == ".data..percpu") stats_.percpu_section_slack = slack;
    if (slack < 0) {
      findings_.emit(rules::SYM_006, type_location(in_, datasec),
                     "DATASEC '" + name + "' of " + std::to_string(ds.size()) + " bytes is larger than " + how +
                         " (" + std::to_string(span) + ")");
    } else if (slack > 0 && ++size_notes_ <= kNotesListed) {
      findings_.note(btf_section(in_), "DATASEC '" + name + "' ends at its last VAR, " + std::to_string(slack) +
                                           " bytes short of " + how + " (pahole 1.24's convention)");
    }
  }

  // ------------------------------------------------------------ globals
  // DATASECs of other data sections (pahole's global_var feature): offsets
  // from the section's address, or symbol values in a relocatable object.
  void check_global_vars(uint32_t datasec) {
    const TypeRef ds = btf_.type(datasec);
    const std::string_view sec_name = name_of(ds.name_off());
    const input::Section* sec = in_.artifact.section(sec_name);
    if (!sec) return;  // XC-CONV-004 reports DATASECs without a section
    const bool relocatable = in_.artifact.elf_type == ET_REL;
    for (uint32_t i = 0; i < ds.vlen(); ++i) {
      const VarSecInfo v = secinfo_at(ds, i);
      if (!btf_.has_type(v.type) || btf_.type(v.type).kind() != kVar) continue;
      ++stats_.global_vars;
      const std::string_view name = name_of(btf_.type(v.type).name_off());
      const uint64_t want = relocatable ? v.offset : sec->addr + v.offset;
      const DataSymbolsIn in = data_symbols_in(name, *sec);
      if (in.has(want)) continue;
      ++stats_.global_vars_mismatched;
      Location loc = type_location(in_, datasec);
      if (loc.offset) *loc.offset += kTypeRecordSize + 12ull * i;
      std::string where = "no symbol of that name in " + printable(sec_name);
      if (const Symbol* first = in.first())
        where = "its symbol is at offset " + hex(first->address - (relocatable ? 0 : sec->addr));
      findings_.emit(rules::SYM_008, loc,
                     "VAR '" + printable(name) + "' at offset " + hex(v.offset) + " of '" + printable(sec_name) +
                         "': " + where);
    }
    check_section_size(datasec, sec->size, "section " + printable(sec_name));
  }

  // The data symbols of a name that lie in an ELF section: those defined in
  // it (by index), and those with no section index (kallsyms) whose address
  // is inside it. Two runs of the name's data symbols, each in address
  // order; the symbols come from an index built once (a name may have
  // thousands of symbols and a DATASEC thousands of VARs of that name).
  struct DataSymbolsIn {
    std::span<const Symbol* const> defined, addressed;
    bool has(uint64_t address) const {
      for (const auto run : {defined, addressed}) {
        const auto it = std::lower_bound(run.begin(), run.end(), address,
                                         [](const Symbol* s, uint64_t a) { return s->address < a; });
        if (it != run.end() && (*it)->address == address) return true;
      }
      return false;
    }
    // The first in address order (then in the index's order), as a walk of
    // all the name's symbols would meet it.
    const Symbol* first() const {
      if (defined.empty()) return addressed.empty() ? nullptr : addressed.front();
      if (addressed.empty()) return defined.front();
      return std::min(defined.front(), addressed.front());  // symbols_ is in that order
    }
  };
  DataSymbolsIn data_symbols_in(std::string_view name, const input::Section& sec) {
    if (!data_by_name_) {
      // Each name's data symbols, by section index, each section's in
      // address order (the index's order).
      data_by_name_.emplace();
      for (const Symbol& s : symbols_.symbols())
        if (data_symbol(s)) (*data_by_name_)[s.name].push_back(&s);
      for (auto& [n, list] : *data_by_name_)
        std::stable_sort(list.begin(), list.end(),
                         [](const Symbol* a, const Symbol* b) { return a->section < b->section; });
    }
    DataSymbolsIn out;
    const auto it = data_by_name_->find(name);
    if (it == data_by_name_->end()) return out;
    const std::vector<const Symbol*>& list = it->second;
    const auto in_section = [&](uint32_t index) {
      const auto lo = std::lower_bound(list.begin(), list.end(), index,
                                       [](const Symbol* s, uint32_t i) { return s->section < i; });
      const auto hi = std::upper_bound(lo, list.end(), index,
                                       [](uint32_t i, const Symbol* s) { return i < s->section; });
      return std::span<const Symbol* const>(lo, hi);
    };
    if (sec.index) out.defined = in_section(sec.index);
    const auto unplaced = in_section(0);
    const auto lo = std::lower_bound(unplaced.begin(), unplaced.end(), sec.addr,
                                     [](const Symbol* s, uint64_t a) { return s->address < a; });
    const auto hi =
        std::partition_point(lo, unplaced.end(), [&](const Symbol* s) { return s->address - sec.addr < sec.size; });
    out.addressed = std::span<const Symbol* const>(lo, hi);
    return out;
  }

  const CrossCheckInput& in_;
  const Btf& btf_;
  const SymbolIndex& symbols_;
  Findings& findings_;
  CrossCheckStats& stats_;
  std::unordered_map<std::string_view, std::vector<uint64_t>> text_addresses_;
  std::optional<std::unordered_map<std::string_view, std::vector<const Symbol*>>> data_by_name_;
  size_t size_notes_ = 0;
};

}  // namespace

void check_symbols(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats) {
  if (!in.symbols && !in.symbols_withheld.empty()) {
    findings.note(btf_section(in), "XC-SYM checks not run: " + std::string(in.symbols_withheld));
    return;
  }
  if (!in.symbols || in.symbols->size() == 0) {
    findings.note(btf_section(in), "no symbols: XC-SYM checks skipped (pass --kallsyms FILE)");
    return;
  }
  SymbolChecker(in, findings, stats).run();
}

}  // namespace elfmeta::btf::xc
