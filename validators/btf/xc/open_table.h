// Open tables: a power of two of slots, at least twice the entries, probed
// linearly from a hash, each slot an id or a position (an empty value marks
// a free slot). The cross-checks' indexes (XC-DEDUP's records, strings and
// classes, XC-SYM's function names) use them: node-based maps were most of
// a vmlinux check's time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace elfmeta::btf::xc {

inline size_t open_table_size(size_t entries) {
  size_t slots = 16;
  while (slots < 2 * entries) slots *= 2;
  return slots;
}

// The slot holding an entry `holds` accepts, or the empty one where it
// would go.
template <typename T, typename Holds>
size_t probe(const std::vector<T>& table, uint64_t hash, T empty, Holds holds) {
  const size_t mask = table.size() - 1;
  for (size_t slot = static_cast<size_t>(hash) & mask;; slot = (slot + 1) & mask)
    if (table[slot] == empty || holds(table[slot])) return slot;
}

}  // namespace elfmeta::btf::xc
