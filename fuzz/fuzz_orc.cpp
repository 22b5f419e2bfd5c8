// ORC tables: the length-prefixed head is .orc_unwind_ip, the rest
// .orc_unwind, in a kernel-like linked image (so every image rule runs);
// the first byte of the rest chooses the layout through an .orc_header.
// Mutated at the level of rows and entry fields (fuzz/mutators/orc_mutator.h).
#include "core/diagnostic.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/orc_mutator.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  elfmeta::NullSink sink;
  elfmeta::fuzz::check_orc_input(data, size, sink);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_orc, elfmeta::fuzz::cross_over_orc)
