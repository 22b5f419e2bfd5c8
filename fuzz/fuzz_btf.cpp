// Raw BTF (either byte order): the whole verifier, as BPF_BTF_LOAD of the
// newest kernel and as libbpf 1.1 sees it. The shortcuts of the record
// screen and the reference pass must not change a finding or the resolve
// state: a check without them aborts on any difference.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "btf/verifier.h"
#include "core/diagnostic.h"
#include "core/report.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/btf_mutator.h"

namespace {

struct Outcome {
  std::string findings;
  elfmeta::btf::CheckedBtf checked;
};

Outcome check(const uint8_t* data, size_t size, elfmeta::btf::CheckOptions options, bool shortcuts) {
  options.shortcuts = shortcuts;
  elfmeta::DiagnosticList list;
  Outcome out;
  out.checked = elfmeta::btf::check_btf({data, size}, nullptr, options, "fuzz", "", list);
  std::ostringstream s;
  for (const auto& d : list.items()) elfmeta::write_text(s, d);
  out.findings = s.str();
  return out;
}

bool same_state(const elfmeta::btf::ResolveState* a, const elfmeta::btf::ResolveState* b) {
  if (!a || !b) return !a == !b;
  return a->visit == b->visit && a->ids == b->ids && a->sizes == b->sizes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  btf::CheckOptions options;
  options.concurrent = false;
  const Outcome with = check(data, size, options, true), without = check(data, size, options, false);
  if (with.findings != without.findings || !same_state(with.checked.resolve.get(), without.checked.resolve.get())) {
    std::fprintf(stderr, "the shortcuts change the check:\n--- with\n%s--- without\n%s", with.findings.c_str(),
                 without.findings.c_str());
    std::abort();
  }
  NullSink sink;
  options.consumer = kLibbpf;
  options.libbpf = Release{1, 1};
  btf::check_btf({data, size}, nullptr, options, "fuzz", "", sink);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf, elfmeta::fuzz::cross_over_btf)
