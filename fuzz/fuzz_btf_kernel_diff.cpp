// elfmeta's verdict against the running kernel's bpf(BPF_BTF_LOAD): any
// disagreement aborts with both reasons. Needs the syscall (root); does
// nothing where it is not permitted.
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "btf/artifact_check.h"
#include "btf/verifier.h"
#include "core/diagnostic.h"
#include "core/report.h"
#include "oracle/kernel_btf_oracle.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/btf_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  static const bool available = oracle::kernel_btf_oracle_available();
  if (!available || size > (1u << 20)) return 0;
  btf::CheckOptions options;
  options.concurrent = false;
  options.lints = false;
  options.assume_host_order = true;
  options.kernel = btf::KernelProfile(btf::running_kernel().release);
  DiagnosticList list;
  const bool ours = btf::check_btf({data, size}, nullptr, options, "fuzz", "", list).errors == 0;
  for (const auto& d : list.items()) {
    if (!d.rule) continue;
    if (d.rule->id == "BTF-FIELD-021") return 0;  // depends on the kernel's own BTF
    // Never loaded into the running kernel: a scan that holds a CPU in the
    // syscall for seconds to hours (BTF-FIELD-022), and an array whose field
    // count wraps 32 bits, which corrupts the stack of kernels 6.18 to 7.0
    // (regress/known-bugs/linux/btf-repeat-fields-count-wraps).
    if (d.rule->id == "BTF-FIELD-022") return 0;
    if (d.rule->id == "BTF-FIELD-010" && d.message.find("an array expands") != std::string::npos) return 0;
  }
  const auto kernel = oracle::kernel_btf_load({data, size});
  if (!kernel.available || kernel.accepted == ours) return 0;
  std::ostringstream why;
  for (const auto& d : list.items())
    if (d.severity == Severity::Error) {
      write_text(why, d);
      break;
    }
  std::fprintf(stderr, "kernel %s (%s: %s), elfmeta %s: %s\n", kernel.accepted ? "accepts" : "rejects",
               oracle::errno_name(kernel.error).c_str(), kernel.reason.c_str(), ours ? "accepts" : "rejects",
               why.str().c_str());
  std::abort();
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf, elfmeta::fuzz::cross_over_btf)
