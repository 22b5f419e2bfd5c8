// Differential test against Debian's 6.1, 6.12 and 7.2 kernels booted under
// qemu (7.2: sid's, from its split packages; trixie's 6.12.117 has the same
// kernel/bpf as bookworm's, so it adds no verifier):
// `--kernel 6.1`, `6.12` and `7.2` must give the verdict those kernels give
// for every blob of the differential corpus (tests/btf/differential_corpus.h),
// which includes the trigger and twin of every rule case, version gates
// among them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "btf/artifact_check.h"
#include "btf/verifier.h"
#include "core/report.h"
#include "input/artifact.h"
#include "oracle/kernel_btf_oracle.h"
#include "oracle/vm_oracle.h"
#include "tests/btf/differential_corpus.h"
#include "tests/support/debian_vm.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;


using VmDifferential = DebianVmTest;

TEST_P(VmDifferential, VerdictsAgreeWithTheBootedKernel) {
  const btf::KernelChoice& kernel = kernel_;
  const btf::KernelProfile profile(kernel.release);
  btf::CheckOptions vmlinux_options;
  vmlinux_options.kernel = profile;
  const auto vmlinux = vmlinux_btf(vmlinux_options);
  ASSERT_TRUE(vmlinux.btf.btf);

  CorpusSpec spec;
  spec.seed = 20261122 + kernel.release.minor;
  spec.kernel = kernel.release;
  spec.vmlinux = vmlinux.btf.btf.get();
  const std::vector<Sample> samples = differential_corpus(spec);
  ASSERT_GE(samples.size(), 3000u);
  std::vector<std::vector<uint8_t>> blobs;
  for (const auto& s : samples) blobs.push_back(s.blob);
  const oracle::VmRun run = vm_.run(tree_.vmlinuz.string(), blobs);
  ASSERT_EQ(run.error, "");

  std::map<std::string, std::pair<size_t, size_t>> per_source;  // accepted, rejected
  std::vector<std::string> disagreements;
  size_t undecidable = 0, accepted = 0;
  const fs::path dump_dir = fs::temp_directory_path() / ("elfmeta-vm-differential-" + kernel.release.str());
  for (size_t i = 0; i < samples.size(); ++i) {
    const auto& theirs = run.blobs[i];
    ASSERT_TRUE(theirs.answered) << "no verdict for blob " << i;
    btf::CheckOptions options;
    options.kernel = profile;
    options.kernel_btf = vmlinux.btf.btf.get();
    const Verdict ours = verdict_of(samples[i].blob, options);
    auto& counts = per_source[source_family(samples[i].source)];
    (theirs.accepted ? counts.first : counts.second)++;
    accepted += theirs.accepted;
    if (ours.undecidable && ours.accepts && !theirs.accepted) {
      ++undecidable;
      continue;
    }
    if (ours.accepts == theirs.accepted) continue;
    fs::create_directories(dump_dir);
    const fs::path path = dump_dir / ("sample-" + std::to_string(i) + ".btf");
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(samples[i].blob.data()), static_cast<std::streamsize>(samples[i].blob.size()));
    disagreements.push_back(samples[i].source + " (" + path.string() + "): Linux " + kernel.release.str() + " " +
                            (theirs.accepted ? "accepts" : "rejects (" + oracle::errno_name(theirs.error) + ": " +
                                                               theirs.reason + ")") +
                            "; elfmeta: " + ours.reason);
  }
  for (const auto& [source, counts] : per_source)
    std::cout << "  " << source << ": Linux " << kernel.release.str() << " accepted " << counts.first << ", rejected "
              << counts.second << "\n";
  std::cout << "  " << samples.size() << " blobs in one boot (" << run.accel << ", " << run.seconds << " s), "
            << disagreements.size() << " disagreements, " << undecidable
            << " hinge on a kernel destructor (BTF-FIELD-021)\n";
  EXPECT_LE(undecidable, samples.size() / 100);
  EXPECT_GE(accepted, samples.size() / 5);
  EXPECT_GE(samples.size() - accepted, samples.size() / 5);
  for (size_t i = 0; i < disagreements.size() && i < 25; ++i) ADD_FAILURE() << disagreements[i];
  EXPECT_EQ(disagreements.size(), 0u);
}

// The running kernel's (newer) vmlinux BTF, judged by an older kernel: what
// elfmeta reports under that kernel's profile is what the kernel refuses,
// at the record the kernel names.
TEST_P(VmDifferential, RunningKernelBtfFindingsAreWhatTheOlderKernelRefuses) {
  if (!fs::exists("/sys/kernel/btf/vmlinux")) GTEST_SKIP() << "no /sys/kernel/btf/vmlinux";
  const btf::Release release = kernel_.release;
  auto running = input::open_input("/sys/kernel/btf/vmlinux");
  ASSERT_TRUE(running.artifact) << running.error;
  const std::vector<uint8_t> blob(running.artifact->raw.begin(), running.artifact->raw.end());

  btf::CheckOptions options;
  options.kernel = btf::KernelProfile(release);
  DiagnosticList list;
  btf::check_btf(blob, nullptr, options, "vmlinux", "", list);
  const oracle::VmRun run = vm_.run(tree_.vmlinuz.string(), {blob});
  ASSERT_EQ(run.error, "");
  ASSERT_TRUE(run.blobs[0].answered);
  std::set<uint32_t> error_ids;
  std::set<std::string> error_rules;
  for (const auto& d : list.items())
    if (d.severity == Severity::Error) {
      error_rules.insert(std::string(d.rule->id));
      if (d.location.index) error_ids.insert(static_cast<uint32_t>(*d.location.index));
    }
  std::cout << "  Linux " << release.str() << " on the running kernel's BTF: "
            << (run.blobs[0].accepted ? "accepted" : "rejected: " + run.blobs[0].reason) << "; elfmeta: "
            << list.count(Severity::Error) << " errors\n";
  ASSERT_EQ(run.blobs[0].accepted, error_ids.empty() && error_rules.empty());
  if (run.blobs[0].accepted) return;
  // "[63508] TYPE_TAG address_space(1) type_id=0 Invalid btf_info kind_flag"
  const std::string& reason = run.blobs[0].reason;
  ASSERT_EQ(reason.front(), '[') << reason;
  const uint32_t id = static_cast<uint32_t>(std::stoul(reason.substr(1)));
  EXPECT_TRUE(error_ids.count(id)) << "the kernel refused type " << id << "; elfmeta's errors are elsewhere";
  EXPECT_EQ(*error_ids.begin(), id) << "the kernel stops at the first refused record";
  for (const auto& d : list.items()) {
    if (d.severity != Severity::Error || d.rule->log.empty()) continue;
    EXPECT_NE(reason.find(std::string(d.rule->log).substr(0, std::string(d.rule->log).find(" /"))),
                std::string::npos)
          << d.rule->id << " logs \"" << d.rule->log << "\", the kernel said: " << reason;
  }
}

INSTANTIATE_TEST_SUITE_P(Debian, VmDifferential, ::testing::Values("debian-6.1", "debian-6.12", "sid-7.2"), debian_vm_name);

}  // namespace
}  // namespace elfmeta::testing
