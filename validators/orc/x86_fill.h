// x86 instructions that are fill, not code: what an assembler pads with
// (NOP forms) and what a compiler leaves where no path goes (int3, ud2).
// objtool gives such bytes no unwind state (ORC-COV-007).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace elfmeta::orc {

// The length of the fill instruction at the start of `code`, or 0 when it
// is not one (or is cut short): 90; 66 90; 0f 1f /0 with any addressing
// and 66/2e prefixes (gas's and GCC's multi-byte NOPs, up to 15 bytes); cc
// (int3); 0f 0b (ud2).
size_t x86_fill_length(std::span<const uint8_t> code);

// Whether `code` is nothing but fill instructions, end to end.
bool x86_all_fill(std::span<const uint8_t> code);

}  // namespace elfmeta::orc
