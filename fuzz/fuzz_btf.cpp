// Raw BTF (either byte order): the whole verifier, as BPF_BTF_LOAD of the
// newest kernel and as libbpf 1.1 sees it. The shortcuts of the record
// screen and the fast resolver (resolve.cpp) must not change a finding or
// the resolve state: a check without them (every record's checks, and the
// reference resolver of resolve_reference.cpp) aborts on any difference.
// Nor may the check on two cores, which large blobs get: every blob is also
// checked so.
#include <cstdio>
#include <cstdlib>

#include "btf/verifier.h"
#include "core/diagnostic.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/fuzz_support.h"
#include "fuzz/mutators/btf_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  btf::CheckOptions options;
  options.concurrent = false;
  const fuzz::ShortcutComparison c = fuzz::compare_shortcuts({data, size}, options);
  if (!c.difference.empty()) {
    std::fprintf(stderr, "the shortcuts or the fast resolver change the check: %s\n", c.difference.c_str());
    std::abort();
  }
  if (const std::string d = fuzz::compare_concurrency({data, size}, options); !d.empty()) {
    std::fprintf(stderr, "two cores change the check: %s\n", d.c_str());
    std::abort();
  }
  NullSink sink;
  options.consumer = kLibbpf;
  options.libbpf = Release{1, 1};
  btf::check_btf({data, size}, nullptr, options, "fuzz", "", sink);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf, elfmeta::fuzz::cross_over_btf)
