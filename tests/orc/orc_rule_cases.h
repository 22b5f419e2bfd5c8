// One mutation per ORC rule: applied to a valid table (generated, or a real
// one from Debian's kernels), it makes exactly that rule fire. Mutations edit
// the ELF bytes (entries, slots, relocations, section headers, symbols) the
// way a broken producer would.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "input/artifact.h"
#include "input/symbols.h"
#include "orc/orc_table.h"

namespace elfmeta::testing {

// A table being mutated: the bytes of its ELF file, with the parsed original
// to find things in.
class OrcMutation {
 public:
  OrcMutation(std::vector<uint8_t> elf, std::optional<input::SymbolIndex> symbols = std::nullopt,
              std::optional<Release> kernel = std::nullopt);

  std::vector<uint8_t>& bytes() { return bytes_; }
  const input::Artifact& original() const { return *artifact_; }
  const orc::OrcTable& table() const { return *table_; }
  // Symbols an image is checked with (kallsyms of a real image); mutable.
  std::optional<input::SymbolIndex>& symbols() { return symbols_; }
  // The release it is checked with (--kernel), for objects, which carry
  // none: G1 and G2 objects can be told apart by no entry.
  std::optional<Release>& kernel() { return kernel_; }

  size_t entries() const { return table_->size(); }
  orc::Entry entry(size_t i) const { return table_->entries[i]; }
  void set_entry(size_t i, const orc::Entry& e);
  void set_raw_entry(size_t i, const std::array<uint8_t, 6>& bytes);
  uint64_t address(size_t i) const { return table_->sites[i].address; }
  // Linked images: the slot of entry i made to point at `address`.
  void set_address(size_t i, uint64_t address);
  // The first entry from `from` matching `pred`.
  std::optional<size_t> find(const std::function<bool(size_t)>& pred, size_t from = 0) const;

  // Section header fields and contents, by section name.
  void set_size(const std::string& section, uint64_t size);
  void set_flags(const std::string& section, uint64_t flags);
  void set_addr(const std::string& section, uint64_t addr);
  void set_type(const std::string& section, uint32_t type);
  uint8_t* contents(const std::string& section);
  // New contents, appended to the file (the header is pointed at them).
  void replace(const std::string& section, const std::vector<uint8_t>& data);
  void rename(const std::string& section, const std::string& same_length_name);
  // .rela.orc_unwind_ip entry k (r_offset, r_info, r_addend).
  uint8_t* rela(size_t k);
  size_t relas() const;
  // An ELF .symtab symbol's value.
  void set_symbol(const std::string& name, uint64_t value);

 private:
  uint8_t* header(const std::string& section);
  std::vector<uint8_t> bytes_;
  std::unique_ptr<input::Artifact> artifact_;
  std::optional<orc::OrcTable> table_;
  std::optional<input::SymbolIndex> symbols_;
  std::optional<Release> kernel_;
};

// The --kernel an object of `layout` is checked with: the generation's
// first release (none for G3+AX: no release has it; the entries tell).
std::optional<Release> object_kernel(orc::Layout layout);

enum OrcScope : uint32_t { kObject = 1, kModule = 2, kImage = 4, kRelocatable = kObject | kModule, kAnyScope = 7 };
// Layouts as bits, in orc::Layout order (orc_layouts.h).
enum OrcLayouts : uint32_t {
  kG1 = 1, kG2 = 2, kG3 = 4, kG4 = 8, kG3Ax = 16,
  kBefore6_4 = kG1 | kG2,          // no information marked by sp_reg undefined and `end`
  kFrom6_4 = kG3 | kG4 | kG3Ax,    // undefined and end_of_stack types; call padding (__pfx_)
  kWithSignal = kG2 | kFrom6_4,    // a signal bit in the entry
  kWithHeader = kG2 | kFrom6_4,    // an .orc_header fingerprint (6.3.10+)
  kAnyLayout = 31
};
inline uint32_t layout_bit(orc::Layout l) { return 1u << static_cast<unsigned>(l); }

struct OrcRuleCase {
  OrcRuleCase(std::string_view r, uint32_t s, uint32_t l, std::function<bool(OrcMutation&)> m,
              std::vector<std::string_view> a = {})
      : rule(r), scopes(s), layouts(l), mutate(std::move(m)), also(std::move(a)) {}

  std::string_view rule;
  uint32_t scopes = kAnyScope;
  uint32_t layouts = kAnyLayout;
  // False when the table has nothing the mutation needs (try another).
  std::function<bool(OrcMutation&)> mutate;
  std::vector<std::string_view> also;  // rules that cannot be avoided with it
  bool needs_prefixes = false;         // __pfx_ symbols (generated 6.4+ tables)
};

const std::vector<OrcRuleCase>& orc_rule_cases();

// The rules the checker reports for `m`'s bytes (with its symbols), and how
// often each.
std::map<std::string, size_t> orc_rule_counts(OrcMutation& m, std::string* listing = nullptr);
std::set<std::string> orc_rules_fired(OrcMutation& m, std::string* listing = nullptr);

}  // namespace elfmeta::testing
