// The libFuzzer hooks of a target with a structure-aware mutator. Only the
// fuzz targets include this (it names libFuzzer's LLVMFuzzerMutate); the
// mutators themselves are in fuzz/mutators/, a library the tests link.
//
// ELFMETA_FUZZ_NO_CUSTOM_MUTATOR=1 in the environment makes the hooks pass
// every step to libFuzzer's own mutations, so that a campaign can measure
// what the structural mutations add.
#pragma once

#include <cstdlib>

#include "fuzz/mutators/mutate_input.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace elfmeta::fuzz {

inline bool custom_mutator_disabled() {
  static const bool disabled = [] {
    const char* v = std::getenv("ELFMETA_FUZZ_NO_CUSTOM_MUTATOR");
    return v && *v && *v != '0';
  }();
  return disabled;
}

}  // namespace elfmeta::fuzz

// Defines LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver from a
// StructuralMutator and a StructuralCrossOver.
#define ELFMETA_FUZZ_CUSTOM_MUTATOR(mutate, cross)                                                              \
  extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned seed) {     \
    if (elfmeta::fuzz::custom_mutator_disabled()) return LLVMFuzzerMutate(data, size, max_size);              \
    return elfmeta::fuzz::mutate_input(mutate, data, size, max_size, seed, LLVMFuzzerMutate);                 \
  }                                                                                                            \
  extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size, \
                                              uint8_t* out, size_t max_out_size, unsigned seed) {             \
    if (elfmeta::fuzz::custom_mutator_disabled()) return 0;                                                    \
    return elfmeta::fuzz::cross_over_inputs(cross, a, a_size, b, b_size, out, max_out_size, seed);             \
  }
