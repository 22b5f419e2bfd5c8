// Structure-aware mutation of SFrame sections (every version, either byte
// order): the header, FDEs and FREs are decoded into the plan the SFrame
// builder takes, one record-level field is changed (FDE start, size, FRE
// count, type and info; FRE start order, offset sizes and counts; header
// version, flags, ABI, fixed offsets, counts and offsets), and the builder
// writes the section again.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "fuzz/mutators/mutate_input.h"

namespace elfmeta::fuzz {

// A bare section: fuzz_libsframe, fuzz_sframe_libsframe_diff.
std::optional<std::vector<uint8_t>> mutate_sframe(std::span<const uint8_t> section, Rng& rng);
// fuzz_sframe: a mode byte (raw or linked) then the section.
std::optional<std::vector<uint8_t>> mutate_sframe_with_mode(std::span<const uint8_t> input, Rng& rng);
// FDEs (with their FREs) of `b` appended to `a`'s.
std::optional<std::vector<uint8_t>> cross_over_sframe(std::span<const uint8_t> a, std::span<const uint8_t> b, Rng& rng);
std::optional<std::vector<uint8_t>> cross_over_sframe_with_mode(std::span<const uint8_t> a, std::span<const uint8_t> b,
                                                                Rng& rng);

}  // namespace elfmeta::fuzz
