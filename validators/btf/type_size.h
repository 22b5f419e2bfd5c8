// Sizes of types without a resolve pass, for lints and listings.
#pragma once

#include <cstdint>
#include <optional>

#include "btf/btf.h"

namespace elfmeta::btf {

// Byte size of type `id` through typedefs, qualifiers, tags and arrays;
// nullopt for void, FWD, functions, source-only kinds, missing ids, chains
// longer than 32, or sizes that overflow u32.
std::optional<uint32_t> sizeof_type(const Btf& btf, uint32_t id);

}  // namespace elfmeta::btf
