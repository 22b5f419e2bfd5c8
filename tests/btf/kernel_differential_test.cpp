// Differential test against the running kernel: thousands of blobs (random
// type graphs over all kinds, type-closed samples of the real vmlinux BTF,
// and single mutations of both) must get the same accept/reject verdict from
// elfmeta and from bpf(BPF_BTF_LOAD).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "btf/verifier.h"
#include "core/report.h"
#include "input/artifact.h"
#include "btf/artifact_check.h"
#include "oracle/kernel_btf_oracle.h"
#include "synth/btf_generator.h"

namespace elfmeta::testing {
namespace {

struct Sample {
  std::string source;
  std::vector<uint8_t> blob;
};

struct Verdict {
  bool accepts = false;
  bool undecidable = false;  // hinges on the kernel's destructor list (BTF-FIELD-021)
  std::string reason;
};

// elfmeta's verdict for this machine's kernel, with its vmlinux BTF as context.
Verdict our_verdict(const std::vector<uint8_t>& blob, const btf::Btf* kernel_btf) {
  btf::CheckOptions options;
  options.lints = false;
  options.assume_host_order = true;
  options.kernel_btf = kernel_btf;
  DiagnosticList list;
  Verdict v;
  v.accepts = btf::check_btf(blob, nullptr, options, "blob", "", list).errors == 0;
  v.reason = "accepted";
  for (const auto& d : list.items()) {
    if (d.rule && d.rule->id == "BTF-FIELD-021") v.undecidable = true;
    if (d.severity == Severity::Error && v.reason == "accepted") {
      std::ostringstream s;
      write_text(s, d);
      v.reason = s.str().substr(0, s.str().find('\n'));
    }
  }
  return v;
}

TEST(KernelDifferential, VerdictsAgreeWithBpfBtfLoad) {
  std::string why;
  if (!oracle::kernel_btf_oracle_available(&why)) GTEST_SKIP() << "kernel oracle unavailable: " << why;

  synth::Rng rng(20261122);
  std::vector<std::pair<std::string, synth::BtfBuilder>> originals;
  for (int i = 0; i < 1000; ++i)
    originals.emplace_back(i % 2 ? "random graph (shuffled ids)" : "random graph", synth::random_type_graph(rng, i % 2));
  for (int i = 0; i < 600; ++i) originals.emplace_back("special fields", synth::special_fields_graph(rng));
  size_t sampled = 0;
  auto vmlinux = input::open_input("/sys/kernel/btf/vmlinux");
  btf::CheckedBtf kernel;
  if (vmlinux.artifact) {
    DiagnosticList ignored;
    kernel = btf::check_btf(vmlinux.artifact->raw, nullptr, {}, "vmlinux", "", ignored);
    for (int tries = 0; kernel.btf && sampled < 300 && tries < 20000; ++tries)
      if (auto sub = synth::sample_subgraph(*kernel.btf, rng, 400)) {
        originals.emplace_back("vmlinux subgraph", std::move(*sub));
        ++sampled;
      }
  }
  std::vector<Sample> samples;
  for (const auto& [source, b] : originals) {
    samples.push_back({source, b.build()});
    for (int k = 0; k < 4; ++k) {
      const auto m = static_cast<synth::Mutation>(rng() % synth::kMutationCount);
      samples.push_back({source + " + " + std::string(synth::mutation_name(m)), synth::mutate(b, rng, m)});
    }
  }
  ASSERT_GE(samples.size(), 3000u);

  std::map<std::string, std::pair<size_t, size_t>> per_source;  // accepted, rejected
  std::vector<std::string> disagreements;
  size_t undecidable = 0;
  const auto dump_dir = std::filesystem::temp_directory_path() / "elfmeta-differential";
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    const Verdict ours = our_verdict(s.blob, kernel.btf.get());
    const auto verdict = oracle::kernel_btf_load(s.blob, false);
    ASSERT_TRUE(verdict.available);
    auto& counts = per_source[s.source.substr(0, s.source.find(" + "))];
    (verdict.accepted ? counts.first : counts.second)++;
    // Whether a referenced kptr to a kernel type loads depends on the
    // kernel's destructor registrations, which no BTF carries: elfmeta says
    // so with BTF-FIELD-021 instead of guessing. Such blobs are counted
    // but cannot be compared.
    if (ours.undecidable && ours.accepts && !verdict.accepted) {
      ++undecidable;
      continue;
    }
    if (ours.accepts != verdict.accepted) {
      std::filesystem::create_directories(dump_dir);
      const auto path = dump_dir / ("sample-" + std::to_string(i) + ".btf");
      std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(s.blob.data()), s.blob.size());
      const auto reason = oracle::kernel_btf_load(s.blob, true);
      disagreements.push_back(s.source + " (" + path.string() + "): kernel " +
                              (verdict.accepted ? "accepts" : "rejects (" + oracle::errno_name(reason.error) + ": " +
                                                                  reason.reason + ")") +
                              "; elfmeta: " + ours.reason);
    }
  }
  size_t accepted = 0;
  for (const auto& [source, counts] : per_source) {
    std::cout << "  " << source << ": kernel accepted " << counts.first << ", rejected " << counts.second << "\n";
    accepted += counts.first;
  }
  std::cout << "  " << samples.size() << " blobs (" << sampled << " vmlinux subgraphs), " << disagreements.size()
            << " disagreements, " << undecidable << " hinge on a kernel destructor (BTF-FIELD-021)\n";
  EXPECT_LE(undecidable, samples.size() / 100);
  // Both verdicts must be well represented for the comparison to mean much.
  EXPECT_GE(accepted, samples.size() / 5);
  EXPECT_GE(samples.size() - accepted, samples.size() / 5);
  for (size_t i = 0; i < disagreements.size() && i < 25; ++i) ADD_FAILURE() << disagreements[i];
  EXPECT_EQ(disagreements.size(), 0u);
}

}  // namespace
}  // namespace elfmeta::testing
