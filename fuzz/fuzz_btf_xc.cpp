// The BTF cross-checks (symbols, .BTF_ids sets, dedup, conventions) on a
// kernel-like image: BTF and .BTF_ids (each length-prefixed), then the
// kallsyms text of its symbols.
#include "core/diagnostic.h"
#include "fuzz_support.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/xc_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  elfmeta::NullSink sink;
  elfmeta::fuzz::check_xc_input(data, size, sink);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf_xc, nullptr)
