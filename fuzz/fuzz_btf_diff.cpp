// `elfmeta diff` of two BTF blobs (the length-prefixed head is OLD, the
// rest NEW): the type diff and the C spelling of every type of both, on any
// blob that parses, valid or not (diff reads what check refuses). The
// spellings must stay within their budget whatever the graph.
#include <cstdio>
#include <cstdlib>

#include "btf/c_type.h"
#include "btf/verifier.h"
#include "core/diagnostic.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/btf_mutator.h"
#include "fuzz_support.h"
#include "stats/btf_diff.h"

namespace {

void spell_every_type(const elfmeta::btf::Btf& b) {
  for (uint32_t id = 0; id < b.type_count() && id < 4096; ++id) {
    const std::string s = elfmeta::btf::c_type_name(b, id, 240);
    if (s.size() > 243) {
      std::fprintf(stderr, "type %u spelled in %zu characters, over the budget\n", id, s.size());
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  const auto [old_bytes, new_bytes] = fuzz::split(data, size);
  NullSink sink;
  btf::CheckOptions options;
  options.concurrent = false;
  options.lints = false;
  const btf::CheckedBtf old_btf = btf::check_btf(old_bytes, nullptr, options, "old", "", sink);
  const btf::CheckedBtf new_btf = btf::check_btf(new_bytes, nullptr, options, "new", "", sink);
  if (!old_btf.btf || !new_btf.btf) return 0;
  stats::diff_btf(*old_btf.btf, *new_btf.btf);
  spell_every_type(*old_btf.btf);
  spell_every_type(*new_btf.btf);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf_pair, nullptr)
