// fuzz_orc's layout byte (after .orc_unwind_ip): how the checked image says
// which ORC layout its entries are in. Shared by the target (fuzz_support)
// and the mutator, which must encode entries the way the target decodes.
#pragma once

#include <cstdint>
#include <optional>

#include "orc/orc_layouts.h"

namespace elfmeta::fuzz {

struct OrcLayoutByte {
  // Bits 1-3: a row of the layout table (orc::Layout order); 5-7: none,
  // the entries decide.
  std::optional<orc::Layout> layout;
  // Bit 0: an .orc_header, with the layout's fingerprint (20 copies of the
  // byte, an unknown fingerprint, when the layout has none). Clear: the
  // image is checked with --kernel of the layout's first release, if any.
  bool header = false;
  uint8_t byte = 0;

  // The layout entries are mutated in (G4 when the entries decide).
  orc::Layout mutation_layout() const { return layout.value_or(orc::Layout::G4); }
};

inline OrcLayoutByte orc_layout_byte(uint8_t b) {
  OrcLayoutByte o;
  const unsigned k = b >> 1 & 7;
  if (k < orc::kLayoutCount) o.layout = static_cast<orc::Layout>(k);
  o.header = b & 1;
  o.byte = b;
  return o;
}

// The byte for `layout` with or without its header.
inline uint8_t orc_layout_byte_for(orc::Layout layout, bool header) {
  return static_cast<uint8_t>(static_cast<unsigned>(layout) << 1 | (header ? 1u : 0u));
}

}  // namespace elfmeta::fuzz
