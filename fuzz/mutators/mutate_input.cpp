#include "fuzz/mutators/mutate_input.h"

#include <algorithm>
#include <cstring>

namespace elfmeta::fuzz {

size_t mutate_input(StructuralMutator mutate, uint8_t* data, size_t size, size_t max_size, unsigned seed,
                    RawMutator raw) {
  Rng rng(seed);
  const auto mutated = mutate({data, size}, rng);
  if (!mutated || mutated->empty() || mutated->size() > max_size) return raw(data, size, max_size);
  std::memcpy(data, mutated->data(), mutated->size());
  if (chance(rng, kRawAfterStructural)) return raw(data, mutated->size(), max_size);
  return mutated->size();
}

size_t cross_over_inputs(StructuralCrossOver cross, const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size,
                         uint8_t* out, size_t max_out_size, unsigned seed) {
  if (!cross) return 0;
  Rng rng(seed);
  const auto mixed = cross({a, a_size}, {b, b_size}, rng);
  if (!mixed || mixed->empty() || mixed->size() > max_out_size) return 0;
  std::memcpy(out, mixed->data(), mixed->size());
  return mixed->size();
}

}  // namespace elfmeta::fuzz
