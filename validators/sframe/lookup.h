// The unwinder's question: which FRE describes the frame at a PC. The same
// search libsframe's sframe_find_fre and the kernel do (binary search of
// the FDE starts, then the last FRE at or below the offset; PC-mask FDEs
// take the offset modulo their block), over a table read by read_sframe.
#pragma once

#include <optional>

#include "sframe/sframe_table.h"

namespace elfmeta::sframe {

struct FreHit {
  size_t fde = 0;
  size_t fre = 0;  // index within the FDE
};

// nullopt when no FDE covers `pc` or no FRE starts at or below it. `pc` is
// an address (linked files) or a section-relative offset (raw sections).
std::optional<FreHit> find_fre(const SframeTable& t, uint64_t pc);

}  // namespace elfmeta::sframe
