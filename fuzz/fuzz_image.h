// Where fuzz::linked_elf puts things in the ELF image it writes around a
// target's sections. Shared by the targets (fuzz_support) and the
// mutators, which work on absolute addresses: fuzz_orc's mutator moves an
// .orc_unwind_ip row and must keep what its self-relative slot points at.
#pragma once

#include <cstdint>

namespace elfmeta::fuzz {

// .text: int3, or 16 functions of kImageFunctionSize (linked_elf's
// `functions`).
inline constexpr uint64_t kImageTextStart = 0x1000, kImageTextEnd = 0x2000;
inline constexpr uint64_t kImageFunctionSize = 0x100;
// The first of the target's sections; each next one at the next 4 KiB past
// the one before.
inline constexpr uint64_t kImageSectionsStart = 0x10000;

}  // namespace elfmeta::fuzz
