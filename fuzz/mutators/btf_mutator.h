// Structure-aware mutation of BTF: the blob is decoded into its type records
// and string section, one record-level change is made (kinds, vlen,
// kind_flag, references, records and their members, offsets, sizes, names,
// tags, modifier chains), and the builder the tests use writes the blob
// again, so that the header and section tiling stay consistent and the
// verifier's later passes are reached.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "fuzz/mutators/mutate_input.h"

namespace elfmeta::fuzz {

// Raw BTF in either byte order (kept): fuzz_btf, fuzz_libbpf and the BTF
// differential targets.
std::optional<std::vector<uint8_t>> mutate_btf(std::span<const uint8_t> blob, Rng& rng);
// Records of `b` appended to `a` (names carried over; ids as they were, so
// they now point into a's graph).
std::optional<std::vector<uint8_t>> cross_over_btf(std::span<const uint8_t> a, std::span<const uint8_t> b, Rng& rng);

// fuzz_btf_split's input (u16 length, base BTF, split BTF): one half is
// mutated, the split half on top of the base it continues.
std::optional<std::vector<uint8_t>> mutate_btf_split(std::span<const uint8_t> input, Rng& rng);
// fuzz_btf_diff's input (u16 length, OLD BTF, NEW BTF): one side mutated,
// sometimes after becoming a copy of the other.
std::optional<std::vector<uint8_t>> mutate_btf_pair(std::span<const uint8_t> input, Rng& rng);

}  // namespace elfmeta::fuzz
