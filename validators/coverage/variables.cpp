// Variables: data symbols against the VARs of DATASECs. A VAR types a symbol
// when it has the symbol's name, lies in the DATASEC of the symbol's section
// at the symbol's offset there, and has its size (where the symbols give
// sizes: a symtab does, kallsyms does not). Percpu symbols are offsets from
// __per_cpu_start (kallsyms) or in .data..percpu (symtab); other symbols
// take their section from the symtab, or from the section holding their
// address in an image read through its kallsyms tables. Symbols without
// any VAR are what pahole's global_var encoding would add.
#include <elf.h>

#include <map>
#include <unordered_map>
#include <unordered_set>

#include "btf/btf_format.h"
#include "btf/xc/cross_check.h"
#include "coverage/coverage.h"

namespace elfmeta::coverage {
namespace {

constexpr std::string_view kPercpu = ".data..percpu";

struct VarAt {
  std::string_view name;
  uint32_t size = 0;
};

// The VARs of a blob's own DATASECs by (DATASEC name, offset), and their names.
struct VarIndex {
  std::map<std::pair<std::string_view, uint64_t>, std::vector<VarAt>> at;
  std::unordered_set<std::string_view> names;
  uint64_t records = 0;
  const VarAt* find(std::string_view datasec, uint64_t offset, std::string_view name) const {
    auto it = at.find({datasec, offset});
    if (it == at.end()) return nullptr;
    for (const VarAt& v : it->second)
      if (v.name == name) return &v;
    return nullptr;
  }
};

VarIndex var_index(const btf::Btf& b) {
  VarIndex out;
  for (uint32_t id = b.first_id(); id < b.type_count(); ++id) {
    const btf::TypeRef ds = b.type(id);
    if (ds.kind() != btf::kDatasec) continue;
    const std::string_view sec = btf::xc::xc_name(b, ds.name_off());
    for (uint32_t i = 0; i < ds.vlen(); ++i) {
      const btf::VarSecInfo v = btf::secinfo_at(ds, i);
      if (!b.has_type(v.type) || b.type(v.type).kind() != btf::kVar) continue;
      const std::string_view name = btf::xc::xc_name(b, b.type(v.type).name_off());
      ++out.records;
      out.names.insert(name);
      out.at[{sec, v.offset}].push_back({name, v.size});
    }
  }
  return out;
}

bool data_letter(char t) {
  return t == 'D' || t == 'd' || t == 'B' || t == 'b' || t == 'R' || t == 'r';
}

// Linker-script boundaries, not variables: kallsyms gives no size to tell
// them by (a symtab gives them size 0).
bool marker_name(std::string_view n) {
  for (std::string_view p : {"__start_", "__stop_", "__per_cpu_start", "__per_cpu_end", "__bss_start", "__bss_stop",
                             "__end_", "__init_begin", "__init_end", "_sdata", "_edata", "_end", "__brk_base",
                             "__brk_limit", "__start", "__end"})
    if (n.starts_with(p)) return true;
  return false;
}

// Text letters in a writable section are data (SectionIndex::in_code).
bool is_writable(const input::Section* s) { return s && (s->flags & SHF_WRITE); }

// A data section: allocated, and not code (or writable code: 7.2's .data).
bool is_data(const input::Section* s) {
  return s && (s->flags & SHF_ALLOC) && (!(s->flags & SHF_EXECINSTR) || (s->flags & SHF_WRITE));
}

}  // namespace

VariableCoverage variable_coverage(const CoverageInput& in) {
  VariableCoverage c;
  if (!in.symbols) return c;
  const input::Artifact& a = in.artifact;
  const bool relocatable = a.elf_type == ET_REL;
  const bool sized = in.symbols->origin == "symtab";
  const VarIndex vars = in.btf ? var_index(*in.btf) : VarIndex{};
  c.vars = vars.records;
  const input::Symbol* pcpu_start = sized ? nullptr : in.symbols->find("__per_cpu_start");
  const input::Symbol* pcpu_end = sized ? nullptr : in.symbols->find("__per_cpu_end");
  const bool pcpu_range = pcpu_start && pcpu_end && pcpu_end->address >= pcpu_start->address;
  const SectionIndex sections(a);
  for (const input::Symbol& s : in.symbols->symbols()) {
    const bool in_pcpu_range =
        pcpu_range && s.address >= pcpu_start->address && s.address < pcpu_end->address;
    if (!data_letter(s.type) && !((s.type == 'A' || s.type == 'a') && in_pcpu_range) &&
        !(s.function() && is_writable(sections.holding(s))))
      continue;
    if (sized ? s.size == 0 : marker_name(s.name)) continue;
    // Where its VAR should be: (DATASEC, offset), or nowhere known.
    std::optional<std::pair<std::string_view, uint64_t>> place;
    const input::Section* sec = s.section ? a.section_at(s.section) : nullptr;
    if (sec) {
      place = {{sec->name, relocatable ? s.address : s.address - sec->addr}};
    } else if (in_pcpu_range) {
      place = {{kPercpu, s.address - pcpu_start->address}};
    } else if (!relocatable && is_data(sec = sections.holding(s))) {
      place = {{sec->name, s.address - sec->addr}};
    }
    const bool percpu = place && place->first == kPercpu;
    ++c.total;
    c.percpu_total += percpu;
    if (!vars.names.contains(s.name)) {
      ++c.without_var;
      c.without_var_bytes += s.size;
      continue;
    }
    ++c.with_var;
    if (!place) {
      ++c.offset_unchecked;
      ++c.covered;
      continue;
    }
    const VarAt* v = vars.find(place->first, place->second, s.name);
    if (!v) {
      ++c.wrong_offset;
      continue;
    }
    if (sized && v->size != s.size) {
      ++c.wrong_size;
      continue;
    }
    c.size_unchecked += !sized;
    ++c.covered;
    c.percpu_covered += percpu;
  }
  return c;
}

}  // namespace elfmeta::coverage
