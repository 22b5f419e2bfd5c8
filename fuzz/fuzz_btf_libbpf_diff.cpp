// elfmeta's model of libbpf 1.1 against libbpf 1.1 itself: the verdicts on
// any blob must be equal (libbpf rejecting what we accept is our bug, and
// the reverse too: the model claims libbpf's checks). Aborts with both.
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <cerrno>
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

// elfmeta's verdict under its libbpf 1.1 model, and the first error.
bool elfmeta_accepts(const uint8_t* data, size_t size, std::string& why) {
  elfmeta::btf::CheckOptions options;
  options.concurrent = false;
  options.lints = false;
  options.consumer = elfmeta::kLibbpf;
  options.libbpf = elfmeta::Release{1, 1};
  elfmeta::DiagnosticList list;
  const bool accepts = elfmeta::btf::check_btf({data, size}, nullptr, options, "fuzz", "", list).errors == 0;
  for (const auto& d : list.items())
    if (d.severity == elfmeta::Severity::Error) {
      std::ostringstream s;
      elfmeta::write_text(s, d);
      why = s.str();
      break;
    }
  return accepts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string why;
  const bool ours = elfmeta_accepts(data, size, why);
  struct btf* blob = btf__new(data, static_cast<__u32>(size));
  const long e = libbpf_get_error(blob);
  const bool theirs = blob && !e;
  if (theirs) btf__free(blob);
  if (ours == theirs) return 0;
  std::fprintf(stderr, "libbpf 1.1 %s (errno %ld), elfmeta %s: %s\n", theirs ? "accepts" : "rejects", -e,
               ours ? "accepts" : "rejects", why.c_str());
  std::abort();
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf, elfmeta::fuzz::cross_over_btf)
