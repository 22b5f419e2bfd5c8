// elfmeta's model of libbpf X.Y against the libbpf X.Y linked: the verdicts
// on any blob must be equal (libbpf rejecting what we accept is our bug, and
// the reverse too: the model claims libbpf's checks). Aborts with both.
// fuzz_btf_libbpf_diff links bookworm's libbpf 1.1; fuzz_btf_libbpf_sid_diff,
// the same source, sid's (1.7 today) built with the fuzz instrumentation.
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

// The release of the libbpf linked.
elfmeta::Release linked_libbpf() {
  return {static_cast<uint16_t>(libbpf_major_version()), static_cast<uint16_t>(libbpf_minor_version())};
}

// elfmeta's verdict under its model of that release, and the first error.
bool elfmeta_accepts(const uint8_t* data, size_t size, std::string& why) {
  elfmeta::btf::CheckOptions options;
  options.concurrent = false;
  options.lints = false;
  options.consumer = elfmeta::kLibbpf;
  options.libbpf = linked_libbpf();
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
  std::fprintf(stderr, "libbpf %s %s (errno %ld), elfmeta %s: %s\n", linked_libbpf().str().c_str(),
               theirs ? "accepts" : "rejects", -e,
               ours ? "accepts" : "rejects", why.c_str());
  std::abort();
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf, elfmeta::fuzz::cross_over_btf)
