#include "btf/ext/bpf_object.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "btf/bounded_name.h"
#include "btf/ext/btf_ext_rules.h"
#include "btf/findings.h"
#include "core/text.h"
#include "input/relocations.h"

namespace elfmeta::btf::ext {

namespace {

using namespace rules;

constexpr uint16_t kEtRel = 1;
constexpr uint16_t kEmBpf = 247;
constexpr uint32_t kShtSymtab = 2;
constexpr uint8_t kStbLocal = 0, kStbGlobal = 1, kStbWeak = 2;
constexpr uint8_t kSttFunc = 2, kSttSection = 3, kSttFile = 4;
constexpr uint32_t kLinkageStatic = 0, kLinkageGlobal = 1, kLinkageExtern = 2;

// The object's symbols by name, with the answers find() gives worked out
// once per name: a lookup per FUNC, VAR and DATASEC entry that walked every
// symbol of the name cost entries x symbols.
class Symbols {
 public:
  explicit Symbols(const input::Artifact& a) {
    for (const auto& s : a.sections) {
      if (s.type != kShtSymtab) continue;
      const uint64_t n = s.data.size() / (a.elf64 ? 24 : 16);
      all_.reserve(static_cast<size_t>(n));
      for (uint64_t i = 1; i < n; ++i) {
        auto sym = input::elf_symbol(a, s, static_cast<uint32_t>(i));
        if (!sym || sym->name.empty() || sym->type == kSttSection || sym->type == kSttFile) continue;
        add(*sym);
      }
      break;
    }
  }

  // The symbol of a VAR or FUNC named `name`: the first (in symtab order)
  // defined in `section` (0: any) with the right type, else the first
  // defined one with the right type, else the first undefined one.
  const input::ElfSymbolRef* find(std::string_view name, bool function, uint32_t section = 0) const {
    if (section)
      if (auto it = in_section_.find({name, section, function}); it != in_section_.end()) return &all_[it->second];
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) return nullptr;
    const uint32_t k = it->second.defined[function] != kNone ? it->second.defined[function] : it->second.undefined;
    return k == kNone ? nullptr : &all_[k];
  }

 private:
  static constexpr uint32_t kNone = ~uint32_t(0);
  struct Firsts {
    uint32_t defined[2] = {kNone, kNone};  // [is a function]
    uint32_t undefined = kNone;
  };
  struct Place {
    std::string_view name;
    uint32_t section;
    bool function;
    bool operator==(const Place&) const = default;
  };
  struct PlaceHash {
    size_t operator()(const Place& p) const {
      return std::hash<std::string_view>()(p.name) ^ (size_t{p.section} << 1 | p.function) * 0x9e3779b97f4a7c15ull;
    }
  };

  void add(const input::ElfSymbolRef& sym) {
    const uint32_t k = static_cast<uint32_t>(all_.size());
    all_.push_back(sym);
    const bool function = sym.type == kSttFunc;
    Firsts& f = by_name_[sym.name];
    if (sym.section == 0) {
      if (f.undefined == kNone) f.undefined = k;
      return;
    }
    if (f.defined[function] == kNone) f.defined[function] = k;
    in_section_.try_emplace({sym.name, sym.section, function}, k);
  }

  std::vector<input::ElfSymbolRef> all_;
  std::unordered_map<std::string_view, Firsts> by_name_;
  std::unordered_map<Place, uint32_t, PlaceHash> in_section_;
};

std::string_view binding_name(uint8_t bind) {
  switch (bind) {
    case kStbLocal: return "STB_LOCAL";
    case kStbGlobal: return "STB_GLOBAL";
    case kStbWeak: return "STB_WEAK";
    default: return "STB_?";
  }
}
std::string_view linkage_name(uint32_t l) {
  switch (l) {
    case kLinkageStatic: return "static";
    case kLinkageGlobal: return "global";
    case kLinkageExtern: return "extern";
    default: return "unknown";
  }
}

class ObjectChecker {
 public:
  ObjectChecker(const input::Artifact& a, const Btf& btf, elfmeta::Findings& f)
      : a_(a), btf_(btf), f_(f), symbols_(a) {}

  std::vector<uint8_t> run() {
    if (!btf_.types_complete() || btf_.base()) return {};
    fixed_.assign(btf_.data().begin(), btf_.data().end());
    int_id_ = find_int4();
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (t.kind() == kFunc) check_linkage(id, t, t.vlen(), true);
      if (t.kind() == kVar) check_linkage(id, t, t.payload(0), false);
    }
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id)
      if (btf_.type(id).kind() == kDatasec) fix_datasec(id);
    if (dummy_) append_dummy_var();
    return std::move(fixed_);
  }

 private:
  Location loc(uint32_t id, uint64_t in_record) const {
    return bounded_type_location(&btf_, id, a_.name, ".BTF", in_record);
  }
  std::string_view name(uint32_t id) const {
    const TypeRef t = btf_.type(id);
    if (!btf_.name_offset_valid(t.name_off())) return {};
    return bounded_name(btf_, t.name_off(), input::kMaxSymbolName);
  }
  void put(uint64_t offset, uint32_t v) { std::memcpy(fixed_.data() + offset, &v, 4); }
  uint32_t get(uint64_t offset) const {
    uint32_t v;
    std::memcpy(&v, fixed_.data() + offset, 4);
    return v;
  }

  // libbpf's 'dummy_ksym' VAR: its id and name offset once appended (after
  // the last type and the last string). Only where the header has the usual
  // layout (types, then strings, then nothing); otherwise no dummy is added
  // and the FUNC entries stay as they are.
  bool can_append() const {
    if (fixed_.size() < 24) return false;
    const uint32_t hdr_len = get(4), type_off = get(8), type_len = get(12), str_off = get(16), str_len = get(20);
    return type_off == 0 && str_off == type_len && uint64_t(hdr_len) + str_off + str_len == fixed_.size();
  }
  uint32_t dummy_id() {
    if (!can_append()) return 0;
    dummy_ = true;
    return btf_.type_count();
  }
  uint32_t dummy_name() {
    if (!can_append()) return 0;
    dummy_ = true;
    return get(20);  // the old str_len: the new string's offset
  }
  void append_dummy_var() {
    const uint32_t hdr_len = get(4), type_len = get(12), str_len = get(20);
    static constexpr char kName[] = "dummy_ksym";
    uint8_t var[16];
    const uint32_t words[4] = {str_len, kVar << 24, int_id_, kLinkageGlobal};
    std::memcpy(var, words, sizeof var);
    fixed_.insert(fixed_.begin() + hdr_len + type_len, var, var + sizeof var);
    fixed_.insert(fixed_.end(), kName, kName + sizeof kName);
    put(12, type_len + 16);
    put(16, type_len + 16);
    put(20, str_len + static_cast<uint32_t>(sizeof kName));
  }

  uint32_t find_int4() const {
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (t.kind() == kInt && t.size() == 4) return id;
    }
    return 0;
  }

  // XC-SYM-009: the BTF linkage against the ELF binding.
  void check_linkage(uint32_t id, TypeRef t, uint32_t linkage, bool function) {
    const std::string_view n = name(id);
    if (n.empty()) return;
    const input::ElfSymbolRef* sym = symbols_.find(n, function);
    if (!sym) return;  // optimized away, or a name the symtab does not keep
    const bool defined = sym->section != 0;
    std::string want;
    if (linkage == kLinkageExtern && defined)
      want = "an undefined symbol";
    else if (linkage != kLinkageExtern && !defined)
      want = "a defined symbol";
    else if (linkage == kLinkageStatic && sym->bind != kStbLocal)
      want = "STB_LOCAL";
    else if (linkage == kLinkageGlobal && sym->bind != kStbGlobal && sym->bind != kStbWeak)
      want = "STB_GLOBAL or STB_WEAK";
    if (want.empty()) return;
    (void)t;
    f_.emit(XC_SYM_009, loc(id, function ? 4 : 12),
            std::string(function ? "FUNC" : "VAR") + " linkage " + std::string(linkage_name(linkage)) + " needs " + want +
                ", the symbol '" + printable(n) + "' is " + std::string(binding_name(sym->bind)) +
                (defined ? "" : " and undefined"));
  }

  struct Entry {
    uint32_t type, offset, size;
  };

  void fix_datasec(uint32_t id) {
    const TypeRef t = btf_.type(id);
    const std::string_view sec = name(id);
    const uint64_t rec = btf_.record_offset(id);
    std::vector<Entry> entries(t.vlen());
    for (uint32_t i = 0; i < t.vlen(); ++i) {
      const VarSecInfo e = secinfo_at(t, i);
      entries[i] = {e.type, e.offset, e.size};
    }
    if (sec == ".kconfig" || sec == ".ksyms") {
      fix_externs(id, sec, entries);
    } else if (!fix_section(id, sec, entries)) {
      return;
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) { return x.offset < y.offset; });
    for (uint32_t i = 0; i < entries.size(); ++i) {
      put(rec + 12 + 12ull * i, entries[i].type);
      put(rec + 16 + 12ull * i, entries[i].offset);
      put(rec + 20 + 12ull * i, entries[i].size);
    }
  }

  bool is_var(uint32_t id) const { return id && btf_.has_type(id) && btf_.type(id).kind() == kVar; }

  // .kconfig and .ksyms: libbpf lays the externs out itself and makes them
  // global variables (for .ksyms: 4-byte ints standing for the addresses).
  void fix_externs(uint32_t id, std::string_view sec, std::vector<Entry>& entries) {
    const bool ksyms = sec == ".ksyms";
    uint64_t end = 0;
    for (uint32_t i = 0; i < entries.size(); ++i) {
      Entry& e = entries[i];
      if (!is_var(e.type)) {
        if (ksyms && e.type && btf_.has_type(e.type) && btf_.type(e.type).kind() == kFunc) {
          // libbpf (bpf_object__collect_externs): the FUNC becomes global,
          // its unnamed parameters take the name of a VAR 'dummy_ksym' it
          // appends (global, of the 4-byte int), and the entry becomes that
          // VAR at the extern's 4-byte slot.
          const TypeRef fn = btf_.type(e.type);
          put(btf_.record_offset(e.type) + 4, (fn.info() & ~0xffffu) | kLinkageGlobal);
          // Each prototype once: renaming is idempotent, and a .ksyms of
          // 65,535 entries on one FUNC of 65,535 parameters would otherwise
          // walk the parameters 65,535 times.
          if (btf_.has_type(fn.type()) && btf_.type(fn.type()).kind() == kFuncProto &&
              renamed_protos_.insert(fn.type()).second) {
            const uint64_t proto = btf_.record_offset(fn.type());
            for (uint32_t p = 0; p < btf_.type(fn.type()).vlen(); ++p)
              if (get(proto + 16 + 8ull * p) != 0 && get(proto + 12 + 8ull * p) == 0) put(proto + 12 + 8ull * p, dummy_name());
          }
          if (const uint32_t d = dummy_id()) e.type = d;
          e.offset = static_cast<uint32_t>(4ull * i);
          e.size = 4;
          end = e.offset + 4ull;
        }
        continue;
      }
      const uint64_t var = btf_.record_offset(e.type);
      if (get(var + 12) == kLinkageExtern) put(var + 12, kLinkageGlobal);
      if (ksyms) {
        if (int_id_) put(var + 8, int_id_);
        e.offset = static_cast<uint32_t>(4ull * i);
        e.size = 4;
        end = e.offset + 4ull;
      } else {
        const uint32_t align = e.size >= 8 ? 8 : e.size >= 4 ? 4 : e.size >= 2 ? 2 : 1;
        const uint64_t off = (end + align - 1) / align * align;
        e.offset = static_cast<uint32_t>(off);
        end = off + e.size;
      }
    }
    if (btf_.type(id).size() == 0) put(btf_.record_offset(id) + 8, static_cast<uint32_t>((end + 7) / 8 * 8));
  }

  // Any other DATASEC: its ELF section and symbols. False when there is no
  // section to take the size from (the DATASEC is then left as it is).
  bool fix_section(uint32_t id, std::string_view sec, std::vector<Entry>& entries) {
    const TypeRef t = btf_.type(id);
    const input::Section* s = a_.section(sec);
    const bool fix = t.size() == 0;
    if (!s || s->size == 0) {
      if (fix) {
        f_.emit(XC_SYM_011, loc(id, 8),
                "DATASEC '" + printable(sec) + "' of size 0 names " + (s ? "an empty" : "no") +
                    " ELF section: libbpf cannot determine its size");
        return false;
      }
    } else if (fix) {
      put(btf_.record_offset(id) + 8, static_cast<uint32_t>(std::min<uint64_t>(s->size, UINT32_MAX)));
    } else if (t.size() != s->size) {
      f_.emit(XC_SYM_011, loc(id, 8),
              "DATASEC '" + printable(sec) + "' has size " + std::to_string(t.size()) + ", its ELF section " +
                  std::to_string(s->size) + " bytes",
              Severity::Warning, kNoConsumer);
    }
    // libbpf stops at the first failure; the copy is fixed as far as it
    // can be so that the kernel's rules judge the rest.
    for (uint32_t i = 0; i < entries.size(); ++i) {
      Entry& e = entries[i];
      if (!is_var(e.type)) continue;  // the kernel's DATASEC rules report it
      const TypeRef var = btf_.type(e.type);
      const uint32_t linkage = var.payload(0);
      const std::string_view vname = name(e.type);
      const uint64_t at = 12 + 12ull * i + 4;
      if (linkage == kLinkageExtern) {
        f_.emit(XC_SYM_011, loc(id, at),
                "extern VAR '" + printable(vname) + "' in DATASEC '" + printable(sec) +
                    "': externs belong in .kconfig or .ksyms");
        continue;
      }
      const input::ElfSymbolRef* sym = symbols_.find(vname, false, s ? s->index : 0);
      const bool in_section = sym && s && sym->section == s->index;
      if (linkage != kLinkageStatic && (!sym || sym->bind == kStbLocal || !in_section)) {
        if (fix) {
          f_.emit(XC_SYM_011, loc(id, at),
                  "global VAR '" + printable(vname) + "' has no global symbol in '" + printable(sec) +
                      "': libbpf cannot place it");
        }
        continue;
      }
      if (!in_section) continue;  // a static without a symbol of its own name: nothing to compare
      if (linkage != kLinkageStatic && fix) {
        e.offset = static_cast<uint32_t>(sym->value);
        continue;
      }
      if (e.offset != sym->value)
        f_.emit(XC_SYM_011, loc(id, at),
                std::string(linkage == kLinkageStatic ? "static" : "global") + " VAR '" + printable(vname) + "' at offset " +
                    std::to_string(e.offset) + ", its symbol at " + std::to_string(sym->value) +
                    (linkage == kLinkageStatic ? " (libbpf keeps the offsets of static variables)" : ""),
                Severity::Warning, kNoConsumer);
    }
    return true;
  }

  const input::Artifact& a_;
  const Btf& btf_;
  elfmeta::Findings& f_;
  Symbols symbols_;
  std::vector<uint8_t> fixed_;
  uint32_t int_id_ = 0;
  bool dummy_ = false;
  std::unordered_set<uint32_t> renamed_protos_;
};

}  // namespace

bool is_bpf_object(const input::Artifact& a) {
  return a.kind == input::ArtifactKind::Elf && a.elf_type == kEtRel && a.machine == kEmBpf;
}

std::vector<uint8_t> check_object_btf(const input::Artifact& a, const Btf& raw, elfmeta::Findings& f) {
  return ObjectChecker(a, raw, f).run();
}

void note_object_form(const input::Artifact& a, const Btf& raw, elfmeta::Findings& f) {
  if (!raw.types_complete()) return;
  size_t unsized = 0, externs = 0;
  for (uint32_t id = raw.first_id(); id < raw.type_count(); ++id) {
    const TypeRef t = raw.type(id);
    if (t.kind() == kDatasec && t.size() == 0) ++unsized;
    if ((t.kind() == kVar && t.payload(0) == kLinkageExtern) || (t.kind() == kFunc && t.vlen() == kLinkageExtern)) ++externs;
  }
  if (!unsized && !externs) return;
  f.emit(XC_CONV_006, Location{a.name, ".BTF", std::nullopt, "", std::nullopt, "", std::nullopt},
         "BPF object: " + std::to_string(unsized) + " DATASEC(s) of size 0 and " + std::to_string(externs) +
             " extern VAR/FUNC(s) wait for libbpf's fix-up; judged as loaded raw (--consumer bpf-object judges the "
             "fixed-up BTF)");
}

}  // namespace elfmeta::btf::ext
