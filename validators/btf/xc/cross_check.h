// Cross-checks of BTF against the rest of its input (spec btf.md §3): the
// kernel verifies that BTF is well-formed; these check that it is true —
// names backed by symbols, DATASEC offsets equal to symbol addresses, types
// equal to the DWARF they were made from, dedup that left nothing behind.
// Findings are warnings or notes and never change the kernel verdict.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "btf/bounded_name.h"
#include "btf/btf.h"
#include "core/findings.h"
#include "input/artifact.h"
#include "input/symbols.h"

namespace elfmeta::btf::xc {

// The format-independent findings (btf::Findings is the kernel verifier's).
using Findings = elfmeta::Findings;

// Names as the cross-checks read them: at most kMaxSymbolName bytes, the
// bound symbol names are kept to (so that a BTF name and a symbol name
// compare alike), plus one byte that tells a longer name. Reading whole
// names costs records x length when many records name one long string.
inline std::string_view xc_name(const Btf& btf, uint32_t off) { return bounded_name(btf, off, input::kMaxSymbolName); }
inline bool is_cut(std::string_view xc_name) { return xc_name.size() > input::kMaxSymbolName; }

// A name as a key for grouping records: a cut name (never valid BTF: the
// kernel allows KSYM_NAME_LEN - 1 bytes) is told apart by its offset, so
// that long names which share their first bytes are not taken for one.
struct NameKey {
  std::string_view name;
  uint32_t off = 0;  // 0 unless the name is cut
  bool operator==(const NameKey&) const = default;
};
struct NameKeyHash {
  size_t operator()(const NameKey& k) const { return std::hash<std::string_view>()(k.name) ^ k.off; }
};
inline NameKey name_key(const Btf& btf, uint32_t off) {
  const std::string_view n = xc_name(btf, off);
  return {n, is_cut(n) ? off : 0};
}

// The named definitions among the records of ids [first_id,
// btf.type_count()), by kind and name: which struct, union, enum, typedef,
// FUNC and VAR names the BTF has (XC-DW's other direction asks it of every
// DWARF definition).
class NameIndex {
 public:
  NameIndex(const Btf& btf, uint32_t first_id);
  // Whether a record defines `name` as `kind` (kStruct, kUnion, kEnum,
  // kTypedef, kFunc, kVar). A FWD stands for the STRUCT or UNION it
  // declares, an ENUM64 for an ENUM.
  // Names are read as xc_name() reads them: a longer `name` is looked up by
  // as much of it.
  bool has(uint32_t kind, std::string_view name) const {
    return names_.count({kind, name.substr(0, input::kMaxSymbolName + 1)}) != 0;
  }
  // The kind a record is indexed under, or 0 when it is not a named definition.
  static uint32_t kind_of(TypeRef t);

 private:
  struct Hash {
    size_t operator()(const std::pair<uint32_t, std::string_view>& k) const {
      return std::hash<std::string_view>()(k.second) * 31 + k.first;
    }
  };
  std::unordered_set<std::pair<uint32_t, std::string_view>, Hash> names_;  // views into the BTF strings
};

// The records of ids [first_id, btf.type_count()) by content: a blob's own
// records (XC-DEDUP-001), or a whole base chain, built once and shared by
// the split blobs checked on it (a kernel package has thousands of modules
// on one vmlinux; XC-DEDUP-006).
class RecordIndex {
 public:
  // With `first_copy`, also the lowest id byte-identical to each indexed
  // record (itself when none), at index id - first_id: what find() would
  // say of each, found while indexing instead of by a second lookup.
  RecordIndex(const Btf& btf, uint32_t first_id, std::vector<uint32_t>* first_copy = nullptr);
  // The lowest indexed id whose record is byte-identical to `t`, or 0.
  uint32_t find(TypeRef t) const;
  const Btf& btf() const { return btf_; }
  // The same records by name, built on the first call (once: the index is
  // shared by the threads that check a package's modules, which would
  // otherwise each read the vmlinux's 100k records again).
  const NameIndex& names() const;

 private:
  const Btf& btf_;
  uint32_t first_id_;
  // The lowest id of each distinct record content, in an open table probed
  // linearly from the hash of the record's bytes (0: an empty slot; a
  // node-based map was a fifth of a vmlinux check's time).
  std::vector<uint32_t> first_of_;
  // The slot of `bytes`: the one holding an id with those bytes, or the
  // empty one where they would go.
  size_t slot_of(std::string_view bytes) const;
  mutable std::once_flag names_once_;
  mutable std::optional<NameIndex> names_;
};

struct CrossCheckInput {
  const input::Artifact& artifact;
  // The checked blob; split BTF reaches its base chain through base().
  const Btf& btf;
  // The symbols of the code and data the BTF describes: a kernel image's
  // symtab or kallsyms tables, /proc/kallsyms, a module's or object's symtab.
  // Null when there are none (the symbol family is then skipped with a note).
  const input::SymbolIndex* symbols = nullptr;
  // The index of btf.base() from id 1, when the caller keeps one; built per
  // check otherwise.
  const RecordIndex* base_index = nullptr;
  // Why there are no symbols when there were some that could not be used
  // (XC-CTX-001): the note then says the checks did not run, and why.
  std::string_view symbols_withheld = {};
};

// What the families counted, per category (spec btf.md §4 gives the
// figures of real kernels); a finding per case goes to the Findings.
struct CrossCheckStats {
  // XC-SYM. Functions are counted by distinct name.
  bool symbols_checked = false;
  size_t func_names = 0;
  size_t funcs_without_symbol = 0;     // XC-SYM-001, of which:
  size_t only_clones = 0;              //   only NAME.isra.N etc. exist
  size_t abi_clones = 0;               //     of which .isra/.constprop: XC-SYM-004, not 001
  size_t exit_style = 0;               //   exit/fini/cleanup names (built-in .exit.text)
  size_t absent = 0;                   //   neither
  std::vector<std::string> absent_names;
  size_t ambiguous_names = 0;          // XC-SYM-002
  size_t multi_proto_names = 0;        // XC-SYM-003
  bool percpu_checked = false;
  size_t percpu_vars = 0, percpu_matched = 0, percpu_mismatched = 0, percpu_overlapping = 0;  // XC-SYM-005
  size_t var_linkage_checked = 0, var_linkage_mismatched = 0;  // XC-SYM-009 (symbols that tell their binding)
  int64_t percpu_section_slack = 0;    // section span - DATASEC size (XC-SYM-006 when < 0)
  std::vector<std::string> percpu_symbols_without_var;  // XC-SYM-007 (notes and warnings)
  size_t global_vars = 0, global_vars_mismatched = 0;   // XC-SYM-008
  size_t btf_id_sets = 0, btf_id_entries = 0;          // XC-SYM-013: sets in .BTF_ids and their entries
  // XC-DEDUP
  size_t identical_records = 0, struct_duplicates = 0, fwd_with_definition = 0, equivalent_records = 0;
  size_t strings = 0, duplicate_strings = 0, unreferenced_strings = 0, split_identical = 0;
  // XC-CONV
  bool sorted_by_name = false;
  size_t int_types = 0;
};

// Every family below, in this order. `findings` is for the BTF section.
CrossCheckStats cross_check(const CrossCheckInput& in, Findings& findings);

void check_symbols(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats);      // XC-SYM
// The BTF id sets in .BTF_ids, found by the symbols (XC-SYM-013, XC-SYM-010).
void check_btf_ids(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats);
void check_dedup(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats);        // XC-DEDUP
void check_conventions(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats);  // XC-CONV

// Where a finding about type `id` is: the record's byte offset in the blob,
// with its kind and name.
Location type_location(const CrossCheckInput& in, uint32_t id);
// The section diagnostics name: ".BTF", or "" for a raw blob.
std::string btf_section(const CrossCheckInput& in);
// XC-DW: every named struct, union, enum, typedef, FUNC and VAR against
// the artifact's DWARF (.debug_info, relocated for objects and modules).
// Does nothing when the artifact has no DWARF; ends with a note of what was
// compared and what was skipped.
void check_dwarf(const CrossCheckInput& in, Findings& findings);  // XC-DW

}  // namespace elfmeta::btf::xc
