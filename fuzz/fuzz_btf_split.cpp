// Split BTF: a base blob (the length-prefixed head) and a module's blob on
// top of it (the rest).
#include "btf/verifier.h"
#include "core/diagnostic.h"
#include "fuzz_support.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/btf_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  const auto [base_bytes, module_bytes] = fuzz::split(data, size);
  NullSink sink;
  btf::CheckOptions options;
  options.concurrent = false;
  const btf::CheckedBtf base = btf::check_btf(base_bytes, nullptr, options, "base", "", sink);
  if (base.btf) btf::check_btf(module_bytes, &base, options, "module", "", sink);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf_split, nullptr)
