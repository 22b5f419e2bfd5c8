// Objects and modules (relocatable): what objtool writes per code section.
#include <map>
#include <utility>

#include "core/text.h"
#include "orc/orc_checks.h"
#include "orc/orc_rules.h"

namespace elfmeta::orc {
namespace {

bool is_zero(const uint8_t* raw) {
  for (uint32_t k = 0; k < kEntrySize; ++k)
    if (raw[k]) return false;
  return true;
}

}  // namespace

// ORC-SORT-003 for relocatable tables. The kernel sorts a module's table
// when it loads it (terminators first at one address), so their order on
// disk does not matter; two different real entries at one place do: which
// of them a lookup finds depends on the sort.
void check_shared_addresses(const OrcTable& t, OrcFindings& f) {
  if (!t.layout_known) return;
  std::map<std::pair<uint32_t, uint64_t>, size_t> first_real;  // (section, address) -> entry
  for (size_t i = 0; i < t.size(); ++i) {
    const Site& s = t.sites[i];
    if (!s.resolved || is_weak(t.entries[i])) continue;
    const auto [it, fresh] = first_real.try_emplace({s.section, s.address}, i);
    if (fresh) continue;
    const size_t k = it->second;
    if (t.entries[k].bytes != t.entries[i].bytes)
      f.at_entry(rules::SORT_003, i, "entry " + std::to_string(k) + " (" + describe(t.entries[k]) +
                                         ") is also a real entry at this address");
  }
}

void check_object(const OrcTable& t, OrcFindings& f) {
  check_shared_addresses(t, f);
  struct PerSection {
    size_t entries = 0;
    bool terminated = false;
    size_t last = 0;  // the last entry seen, for repeats
  };
  std::map<uint32_t, PerSection> sections;
  // Repeated state is merged by objtool within one run; a module is several
  // runs linked together, where repeats at object boundaries are normal.
  const bool one_objtool_run = !t.artifact->is_kernel_module();
  for (size_t i = 0; i < t.size(); ++i) {
    const Site& s = t.sites[i];
    if (!s.resolved) continue;
    const input::Section* code = t.code_section(s.section);
    if (!code) continue;
    PerSection& p = sections[s.section];
    // A terminator is all zero in every layout, and weak in the table's.
    if (s.address == code->size && (t.layout_known ? is_weak(t.entries[i]) : is_zero(t.entries.raw(i)))) p.terminated = true;
    if (one_objtool_run && t.layout_known && p.entries && t.sites[p.last].section == s.section && t.entries[p.last].bytes == t.entries[i].bytes &&
        !is_weak(t.entries[i]))
      f.at_entry(rules::COV_004, i, "same state as entry " + std::to_string(p.last) + " (" + describe(t.entries[i]) + ")");
    ++p.entries;
    p.last = i;
  }
  for (const auto& [index, p] : sections)
    if (!p.terminated) {
      const input::Section* code = t.code_section(index);
      f.at_section(rules::COV_002, code->name, code->size,
                   std::to_string(p.entries) + " entries and no terminator at the section's end (" + hex(code->size) + ")");
    }
}

}  // namespace elfmeta::orc
