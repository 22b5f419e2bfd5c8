// Structure-aware mutation of fuzz_orc's input (u16 length,
// .orc_unwind_ip, layout byte, .orc_unwind): rows of (address, entry) are
// swapped, duplicated or deleted with both tables kept aligned, one entry
// field is set to a boundary, an address is moved next to or behind its
// neighbour or out of the text, the layout byte is flipped.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "fuzz/fuzz_image.h"
#include "fuzz/mutators/mutate_input.h"

namespace elfmeta::fuzz {

// fuzz_orc's image has .orc_unwind_ip first (fuzz/fuzz_image.h).
inline constexpr uint64_t kOrcIpAddress = kImageSectionsStart;

std::optional<std::vector<uint8_t>> mutate_orc(std::span<const uint8_t> input, Rng& rng);
// Rows of `b` spliced into `a` at a random point.
std::optional<std::vector<uint8_t>> cross_over_orc(std::span<const uint8_t> a, std::span<const uint8_t> b, Rng& rng);

}  // namespace elfmeta::fuzz
