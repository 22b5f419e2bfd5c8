// The step every custom mutator of the fuzz targets takes: decode the input
// into records, apply one structural mutation, re-serialise; fall back to
// libFuzzer's byte mutation when the input does not decode or the result
// would not fit. No libFuzzer symbol is referenced here (LLVMFuzzerMutate
// comes in as a function pointer), so the tests link this library too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

namespace elfmeta::fuzz {

using Rng = std::mt19937_64;

// LLVMFuzzerMutate, or a stand-in in tests: mutates data[0, size) in place
// within max_size bytes and returns the new size.
using RawMutator = size_t (*)(uint8_t* data, size_t size, size_t max_size);

// Decode `input`, mutate one record-level thing, re-serialise; nullopt when
// the input does not decode as the format.
using StructuralMutator = std::optional<std::vector<uint8_t>> (*)(std::span<const uint8_t> input, Rng& rng);
// Combine two decoded inputs; nullopt when either does not decode.
using StructuralCrossOver = std::optional<std::vector<uint8_t>> (*)(std::span<const uint8_t> a,
                                                                    std::span<const uint8_t> b, Rng& rng);

// One in this many structural mutations is followed by a raw one, so that
// the header corruption the re-serialisation repairs is still reached.
inline constexpr unsigned kRawAfterStructural = 8;

// LLVMFuzzerCustomMutator's body: `data` holds `size` bytes in a buffer of
// `max_size`; returns the new size (never above max_size).
size_t mutate_input(StructuralMutator mutate, uint8_t* data, size_t size, size_t max_size, unsigned seed,
                    RawMutator raw);
// LLVMFuzzerCustomCrossOver's body: writes at most max_out_size bytes to
// `out`; returns 0 (libFuzzer then skips the step) when nothing was made.
size_t cross_over_inputs(StructuralCrossOver cross, const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size,
                         uint8_t* out, size_t max_out_size, unsigned seed);

// Small helpers the format mutators share.
inline uint32_t pick(Rng& rng, size_t n) { return n ? static_cast<uint32_t>(rng() % n) : 0; }
inline bool chance(Rng& rng, unsigned one_in) { return rng() % one_in == 0; }
template <typename T, size_t N>
T pick_of(Rng& rng, const T (&values)[N]) {
  return values[rng() % N];
}

}  // namespace elfmeta::fuzz
