// Raw BTF (either byte order): the whole verifier, as BPF_BTF_LOAD of the
// newest kernel and as libbpf 1.1 sees it.
#include "btf/verifier.h"
#include "core/diagnostic.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/btf_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  NullSink sink;
  btf::CheckOptions options;
  options.concurrent = false;
  btf::check_btf({data, size}, nullptr, options, "fuzz", "", sink);
  options.consumer = kLibbpf;
  options.libbpf = Release{1, 1};
  btf::check_btf({data, size}, nullptr, options, "fuzz", "", sink);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf, elfmeta::fuzz::cross_over_btf)
