// Structure-aware mutation of fuzz_btf_xc's input (u16 length, BTF, u16
// length, .BTF_ids, kallsyms text): the BTF by the BTF mutator; a word of
// the id sets (an entry's id, a count, two entries swapped, one added or
// cut); or one kallsyms line (deleted, duplicated, its address moved onto a
// neighbour's or a few bytes off, its type letter, its name given a clone
// suffix or another line's name, an id-set symbol added), so that the
// symbol and BTF id checks see near-misses rather than noise.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fuzz/mutators/mutate_input.h"

namespace elfmeta::fuzz {

struct XcInput {
  std::vector<uint8_t> btf, btf_ids;
  std::string kallsyms;
};
// nullopt when a length prefix runs past the input.
std::optional<XcInput> decode_xc_input(std::span<const uint8_t> input);
std::vector<uint8_t> encode_xc_input(const XcInput& x);

std::optional<std::vector<uint8_t>> mutate_btf_xc(std::span<const uint8_t> input, Rng& rng);

}  // namespace elfmeta::fuzz
