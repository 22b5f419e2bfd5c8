// Raw BTF (either byte order): the whole verifier, as BPF_BTF_LOAD of the
// newest kernel and as libbpf 1.1 sees it.
#include "btf/verifier.h"
#include "core/diagnostic.h"

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
