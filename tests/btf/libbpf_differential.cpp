#include "tests/btf/libbpf_differential.h"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "btf/libbpf_model.h"
#include "btf/parse.h"
#include "btf/verifier.h"
#include "core/report.h"
#include "tests/btf/rule_cases.h"

namespace elfmeta::testing {

std::vector<Sample> libbpf_differential_samples() {
  CorpusSpec spec;
  const btf::CheckedBtf& kernel = running_kernel_btf();
  spec.vmlinux = kernel.btf.get();
  spec.graphs = 600;
  spec.special_field_graphs = 200;
  spec.vmlinux_samples = 200;
  std::vector<Sample> samples = differential_corpus(spec);
  // The other byte order of every third blob, and the header variants libbpf
  // treats differently from the kernel.
  const size_t n = samples.size();
  for (size_t i = 0; i < n; i += 3)
    samples.push_back({samples[i].source + " (byte-swapped)", btf::swap_byte_order(samples[i].blob, true)});
  for (const RuleCase& c : btf_rule_cases()) {
    if (c.base || c.elf || c.is_large) continue;
    samples.push_back({"rule case " + std::string(c.rule), c.make(false)});
    samples.push_back({"rule case twin " + std::string(c.rule), c.make(true)});
  }
  return samples;
}

namespace {

std::string our_libbpf_findings(const std::vector<uint8_t>& blob, btf::Release release, bool& accepts) {
  DiagnosticList list;
  const btf::CheckContext ctx{"blob", "", kLibbpf, {}};
  btf::Findings f(ctx, list);
  btf::check_libbpf(blob, nullptr, release, f);
  accepts = f.errors() == 0;
  std::ostringstream out;
  for (const auto& d : list.items()) write_text(out, d);
  return out.str();
}

}  // namespace

bool model_accepts(const std::vector<uint8_t>& blob, btf::Release release) {
  bool accepts = false;
  our_libbpf_findings(blob, release, accepts);
  return accepts;
}

LibbpfDifferential run_libbpf_differential(const std::vector<Sample>& samples, btf::Release release,
                                           const LibbpfAccepts& libbpf_accepts) {
  LibbpfDifferential d;
  for (const Sample& s : samples) {
    const bool theirs = libbpf_accepts(s.blob);
    bool ours = false;
    const std::string findings = our_libbpf_findings(s.blob, release, ours);
    auto& counts = d.per_source[source_family(s.source)];
    (theirs ? counts.first : counts.second)++;
    (theirs ? d.accepted : d.rejected)++;
    if (ours != theirs)
      d.disagreements.push_back(s.source + ": libbpf " + release.str() + (theirs ? " accepts" : " rejects") +
                                "; elfmeta:\n" + (findings.empty() ? "accepts\n" : findings));
  }
  d.blobs = samples.size();
  for (const auto& [source, counts] : d.per_source)
    std::cout << "  " << source << ": libbpf " << release.str() << " accepted " << counts.first << ", rejected "
              << counts.second << "\n";
  std::cout << "  libbpf " << release.str() << ": " << d.blobs << " blobs, " << d.accepted << " accepted, "
            << d.rejected << " rejected, " << d.disagreements.size() << " disagreements\n";
  return d;
}

void expect_no_disagreement(const LibbpfDifferential& d) {
  for (size_t i = 0; i < d.disagreements.size() && i < 20; ++i) ADD_FAILURE() << d.disagreements[i];
  EXPECT_EQ(d.disagreements.size(), 0u);
}

}  // namespace elfmeta::testing
