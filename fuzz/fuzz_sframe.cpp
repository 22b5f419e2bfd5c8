// SFrame sections of every version: raw (either byte order, as the bytes
// say) and, when the first byte is odd, as the .sframe of a linked file.
// Mutated at the level of header fields, FDEs and FREs
// (fuzz/mutators/sframe_mutator.h).
#include "core/diagnostic.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/sframe_mutator.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  elfmeta::NullSink sink;
  elfmeta::fuzz::check_sframe_input(data, size, sink);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_sframe_with_mode, elfmeta::fuzz::cross_over_sframe_with_mode)
