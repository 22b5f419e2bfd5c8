// Functions: text symbols against BTF FUNC records. A FUNC describes the
// code of a symbol of its own name; a compiler clone's (.isra, .constprop,
// .part) ABI may differ from the source prototype (XC-SYM-004's case), so a
// clone with only its source's FUNC is "with a FUNC" but not covered; one
// with a FUNC of its own name (pahole 1.32's true_signature encodes the
// clone's real signature under it) is. A name with several instances is
// covered per instance when one prototype serves every FUNC of the name or
// an "addr=0x..." DECL_TAG on a FUNC gives the instance's address.
#include <elf.h>

#include <algorithm>
#include <charconv>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "btf/btf_format.h"
#include "btf/xc/cross_check.h"
#include "coverage/coverage.h"

namespace elfmeta::coverage {
namespace {

bool abi_changing_clone(std::string_view name) {
  for (std::string_view suffix : {".isra.", ".constprop.", ".part."})
    if (name.find(suffix) != std::string_view::npos) return true;
  return false;
}

struct FuncNames {
  std::unordered_map<std::string_view, std::set<uint32_t>> protos;     // name -> prototype ids
  std::unordered_map<std::string_view, std::unordered_set<uint64_t>> addresses;  // name -> addr= tags
  uint64_t records = 0, addr_tags = 0;
};

std::optional<uint64_t> tag_address(std::string_view value) {
  if (!value.starts_with("addr=0x")) return std::nullopt;
  value.remove_prefix(7);
  uint64_t address = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), address, 16);
  if (ec != std::errc() || end != value.data() + value.size()) return std::nullopt;
  return address;
}

FuncNames func_names(const btf::Btf& b) {
  FuncNames out;
  for (uint32_t id = b.first_id(); id < b.type_count(); ++id) {
    const btf::TypeRef t = b.type(id);
    if (t.kind() == btf::kFunc) {
      const std::string_view name = btf::xc::xc_name(b, t.name_off());
      if (name.empty()) continue;
      ++out.records;
      out.protos[name].insert(t.type());
    } else if (t.kind() == btf::kDeclTag && int32_t(t.payload(0)) == -1 && b.has_type(t.type()) &&
               b.type(t.type()).kind() == btf::kFunc) {
      const auto address = tag_address(btf::xc::xc_name(b, t.name_off()));
      if (!address) continue;
      ++out.addr_tags;
      out.addresses[btf::xc::xc_name(b, b.type(t.type()).name_off())].insert(*address);
    }
  }
  return out;
}

}  // namespace

SectionIndex::SectionIndex(const input::Artifact& a) : a_(a) {
  if (a.elf_type == ET_REL) return;  // symbols name their section
  for (const input::Section& sec : a.sections)
    if ((sec.flags & SHF_ALLOC) && sec.addr && sec.size) by_address_.push_back(&sec);
  std::stable_sort(by_address_.begin(), by_address_.end(),
                   [](const input::Section* x, const input::Section* y) { return x->addr < y->addr; });
}

const input::Section* SectionIndex::holding(const input::Symbol& s) const {
  if (s.section) return a_.section_at(s.section);
  // The last section starting at or below the address (overlapping
  // sections, which only a hostile file has, are not searched further).
  auto it = std::upper_bound(by_address_.begin(), by_address_.end(), s.address,
                             [](uint64_t address, const input::Section* sec) { return address < sec->addr; });
  if (it == by_address_.begin()) return nullptr;
  const input::Section* sec = *std::prev(it);
  return s.address - sec->addr < sec->size ? sec : nullptr;
}

bool SectionIndex::in_code(const input::Symbol& s) const {
  if (a_.sections.empty()) return true;  // a raw blob: the symbols say
  const input::Section* sec = holding(s);
  return sec && (sec->flags & SHF_EXECINSTR) && !(sec->flags & SHF_WRITE);
}

std::string_view source_name(std::string_view symbol) {
  const size_t dot = symbol.find('.');
  return dot == 0 || dot == std::string_view::npos ? symbol : symbol.substr(0, dot);
}

FunctionCoverage function_coverage(const CoverageInput& in) {
  FunctionCoverage c;
  if (!in.symbols) return c;
  const auto& symbols = in.symbols->symbols();
  // Instances per exact name, and the names with a symbol of their own
  // name or only clones.
  std::unordered_map<std::string_view, uint32_t> instances;
  std::unordered_set<std::string_view> exact, cloned;
  std::vector<const input::Symbol*> functions;
  const SectionIndex sections(in.artifact);
  for (const input::CodeStart& start : in.symbols->code_starts()) {
    if (start.role != input::CodeRole::Function) continue;
    const input::Symbol& s = symbols[start.symbol];
    if (!sections.in_code(s)) continue;
    functions.push_back(&s);
    ++instances[s.name];
    const std::string_view source = source_name(s.name);
    exact.insert(s.name);  // a FUNC of the clone's own name (pahole's true_signature) describes it
    if (abi_changing_clone(s.name))
      cloned.insert(source);
    else
      exact.insert(source);
  }
  c.total = functions.size();
  const FuncNames funcs = in.btf ? func_names(*in.btf) : FuncNames{};
  c.funcs = funcs.records;
  c.addr_tags = funcs.addr_tags;
  for (const auto& [name, protos] : funcs.protos) {
    if (exact.contains(name)) continue;
    if (cloned.contains(name))
      ++c.clone_only_funcs;
    else
      ++c.funcs_without_symbol;
  }
  for (const auto& [name, n] : instances)
    if (n > 1) ++c.shared_names;
  for (const input::Symbol* s : functions) {
    const bool shared = instances[s->name] > 1;
    c.shared_instances += shared;
    // A FUNC of the symbol's own name, else of the name it was cloned from.
    std::string_view source = s->name;
    auto protos = funcs.protos.find(source);
    const bool own_name = protos != funcs.protos.end();
    if (!own_name) protos = funcs.protos.find(source = source_name(s->name));
    if (protos == funcs.protos.end()) continue;
    ++c.with_func;
    if (!own_name && abi_changing_clone(s->name)) {
      ++c.clone_symbols;
      continue;
    }
    ++c.abi_prototype;
    if (!shared) {
      ++c.covered;
      continue;
    }
    const auto tags = funcs.addresses.find(source);
    if (tags != funcs.addresses.end() && tags->second.contains(s->address)) {
      ++c.by_addr_tag;
    } else if (protos->second.size() == 1) {
      ++c.by_unique_prototype;
    } else {
      continue;
    }
    ++c.told_apart;
    ++c.covered;
  }
  return c;
}

}  // namespace elfmeta::coverage
