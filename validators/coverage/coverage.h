// How far BTF + kallsyms + ORC (kernel) or SFrame (userspace) stand in for
// DWARF, as counts per artifact (issue 31, docs/coverage.md): how many
// functions have a prototype a tracer or debugger can use, how many data
// symbols a VAR types, how much code the stack tables describe. One file per
// family (functions.cpp, variables.cpp, unwind.cpp); coverage_writer.cpp
// sums them and writes them as JSON and as a table.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "btf/btf.h"
#include "input/artifact.h"
#include "input/symbols.h"

namespace elfmeta::coverage {

// Every family has `total` and `covered`; each(family, f) visits the counts
// in the order JSON and text write them (one list of names for the writer,
// the sums and the stats), as f(name, count) on a const or a mutable family.
struct FunctionCoverage {
  uint64_t total = 0;         // function symbols (text, not __pfx_/.cold/markers), one per instance
  uint64_t covered = 0;       // abi_prototype, and known for this instance (single, or told apart)
  uint64_t with_func = 0;     // a BTF FUNC of the name (a clone's: the name it was made from)
  uint64_t abi_prototype = 0; // the symbol has the FUNC's own name: not a .isra/.constprop/.part clone
  uint64_t clone_symbols = 0; // clones (NAME.isra.N, .constprop.N, .part.N) whose NAME has a FUNC
  uint64_t clone_only_funcs = 0;  // FUNCs whose name has only clone symbols (XC-SYM-001/004 cases)
  uint64_t funcs = 0;         // FUNC records (own)
  uint64_t funcs_without_symbol = 0;  // FUNC names with no text symbol at all, clones included
  uint64_t shared_names = 0;       // names with several function symbols
  uint64_t shared_instances = 0;   // their symbols
  uint64_t told_apart = 0;         // of those with a FUNC: by a unique prototype or an addr= tag
  uint64_t by_unique_prototype = 0;  //   every FUNC of the name has one prototype
  uint64_t by_addr_tag = 0;          //   a DECL_TAG "addr=0x..." names the instance's address
  uint64_t addr_tags = 0;          // such tags
  template <typename Self, typename F>
  static void each(Self& self, F&& f) {
    f("total", self.total), f("covered", self.covered), f("with_func", self.with_func), f("abi_prototype", self.abi_prototype),
        f("clone_symbols", self.clone_symbols), f("clone_only_funcs", self.clone_only_funcs), f("funcs", self.funcs),
        f("funcs_without_symbol", self.funcs_without_symbol), f("shared_names", self.shared_names),
        f("shared_instances", self.shared_instances), f("told_apart", self.told_apart),
        f("by_unique_prototype", self.by_unique_prototype), f("by_addr_tag", self.by_addr_tag), f("addr_tags", self.addr_tags);
  }
};

struct VariableCoverage {
  uint64_t total = 0;          // data symbols (D d B b R r; percpu ones also when kallsyms calls them A)
  uint64_t covered = 0;        // a VAR of the name in the DATASEC of its section, at its offset, of its size
  uint64_t with_var = 0;       // a VAR of the name anywhere
  uint64_t wrong_offset = 0;   // a VAR of the name, but none in its DATASEC at its offset
  uint64_t wrong_size = 0;     // at its offset, but of another size than the symbol's
  uint64_t size_unchecked = 0; // covered, but the symbols give no size (kallsyms)
  uint64_t offset_unchecked = 0;  // covered by name only: no section addresses (raw BTF, not percpu)
  uint64_t percpu_total = 0, percpu_covered = 0;
  uint64_t without_var = 0;    // what an all-variables encoding would add: total - with_var
  uint64_t without_var_bytes = 0;  // their sizes, where the symbols give them
  uint64_t vars = 0;           // VAR records in DATASECs (own)
  template <typename Self, typename F>
  static void each(Self& self, F&& f) {
    f("total", self.total), f("covered", self.covered), f("with_var", self.with_var), f("wrong_offset", self.wrong_offset),
        f("wrong_size", self.wrong_size), f("size_unchecked", self.size_unchecked), f("offset_unchecked", self.offset_unchecked),
        f("percpu_total", self.percpu_total), f("percpu_covered", self.percpu_covered), f("without_var", self.without_var),
        f("without_var_bytes", self.without_var_bytes), f("vars", self.vars);
  }
};

struct UnwindCoverage {
  uint64_t total = 0;          // functions (as FunctionCoverage counts them) with a known extent
  uint64_t covered = 0;        // every byte under a defined ORC entry / an SFrame FRE
  uint64_t partial = 0;        // some bytes, not all
  uint64_t tail_only = 0;      //   of which only up to 3 bytes at the end are not (unreachable int3)
  uint64_t without_entry = 0;  // no byte: no entry at or before it, or only undefined ones
  uint64_t text_bytes = 0, covered_bytes = 0;
  uint64_t undefined_regions = 0, undefined_bytes = 0;  // runs of a function's bytes no entry describes
  uint64_t orc_tables = 0, sframe_sections = 0;
  template <typename Self, typename F>
  static void each(Self& self, F&& f) {
    f("total", self.total), f("covered", self.covered), f("partial", self.partial), f("tail_only", self.tail_only),
        f("without_entry", self.without_entry),
        f("text_bytes", self.text_bytes), f("covered_bytes", self.covered_bytes), f("undefined_regions", self.undefined_regions),
        f("undefined_bytes", self.undefined_bytes), f("orc_tables", self.orc_tables), f("sframe_sections", self.sframe_sections);
  }
};

struct Coverage {
  FunctionCoverage functions;
  VariableCoverage variables;
  UnwindCoverage unwind;
  uint64_t artifacts = 0, with_btf = 0, with_symbols = 0;
  Coverage& operator+=(const Coverage& o);
};

struct CoverageInput {
  const input::Artifact& artifact;
  const btf::Btf* btf = nullptr;                   // checked BTF (split: own records counted)
  const input::SymbolIndex* symbols = nullptr;     // kallsyms or the symtab
};

// Without symbols each family counts nothing (total 0): the symbols are what
// is covered.
FunctionCoverage function_coverage(const CoverageInput& in);
VariableCoverage variable_coverage(const CoverageInput& in);
UnwindCoverage unwind_coverage(const CoverageInput& in);
Coverage coverage_of(const CoverageInput& in);

// The sections of an artifact by address, built once: which section a
// symbol lies in, by index, or in a linked file by address (a binary
// search: a hostile file may have 65,535 sections and millions of symbols).
class SectionIndex {
 public:
  explicit SectionIndex(const input::Artifact& a);
  // Null when none holds it.
  const input::Section* holding(const input::Symbol& s) const;
  // Whether a text symbol is a function's code: in a section that is
  // executable and not writable, when the artifact has sections. sid's 7.2
  // image has a writable and executable .data, where kallsyms calls 19,660
  // variables 't' (they are data), and text-letter boundaries outside every
  // section (which would otherwise span megabytes to the next symbol).
  bool in_code(const input::Symbol& s) const;

 private:
  const input::Artifact& a_;
  std::vector<const input::Section*> by_address_;  // allocated, with an address, by address
};

// The name a clone was made from: "foo" for foo.isra.0, foo.constprop.0.isra.0,
// foo.part.1, foo.cold; the name itself when it has no such suffix.
std::string_view source_name(std::string_view symbol);

// {"functions": {...}, "variables": {...}, "unwind": {...}}.
nlohmann::json to_json(const Coverage& c);
// "functions.total" -> n, ...: for stats and diff.
std::map<std::string, uint64_t> flat_counts(const Coverage& c);
// One table: a row per artifact (name, counts) and a total row per package.
struct Row {
  std::string name;
  Coverage coverage;
  bool total = false;
};
void write_table(std::ostream& out, const std::vector<Row>& rows);

}  // namespace elfmeta::coverage
