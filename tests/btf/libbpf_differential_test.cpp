// Differential test against the libbpf installed here (Debian bookworm:
// 1.1): `--libbpf X.Y` with X.Y the installed release must give btf__new()'s
// verdict on every blob of the differential corpus, in both byte orders, and
// on every libbpf rule case.
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "btf/libbpf_model.h"
#include "btf/parse.h"
#include "btf/verifier.h"
#include "core/report.h"
#include "tests/btf/differential_corpus.h"
#include "tests/btf/rule_cases.h"

namespace elfmeta::testing {
namespace {

int quiet(enum libbpf_print_level, const char*, va_list) { return 0; }

btf::Release installed_libbpf() {
  return {static_cast<uint16_t>(libbpf_major_version()), static_cast<uint16_t>(libbpf_minor_version())};
}

bool libbpf_accepts(const std::vector<uint8_t>& blob) {
  struct btf* b = btf__new(blob.data(), static_cast<uint32_t>(blob.size()));
  if (!b) return false;
  btf__free(b);
  return true;
}

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

TEST(LibbpfDifferential, VerdictsAgreeWithTheInstalledLibbpf) {
  libbpf_set_print(quiet);
  const btf::Release release = installed_libbpf();
  ASSERT_GE(release, btf::kOldestLibbpf);
  ASSERT_LE(release, btf::kNewestLibbpf);

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
  ASSERT_GE(samples.size(), 3000u);

  std::map<std::string, std::pair<size_t, size_t>> per_source;
  std::vector<std::string> disagreements;
  for (const Sample& s : samples) {
    const bool theirs = libbpf_accepts(s.blob);
    bool ours = false;
    const std::string findings = our_libbpf_findings(s.blob, release, ours);
    auto& counts = per_source[source_family(s.source)];
    (theirs ? counts.first : counts.second)++;
    if (ours != theirs)
      disagreements.push_back(s.source + ": libbpf " + release.str() + (theirs ? " accepts" : " rejects") +
                              "; elfmeta:\n" + (findings.empty() ? "accepts\n" : findings));
  }
  for (const auto& [source, counts] : per_source)
    std::cout << "  " << source << ": libbpf " << release.str() << " accepted " << counts.first << ", rejected "
              << counts.second << "\n";
  std::cout << "  " << samples.size() << " blobs, " << disagreements.size() << " disagreements\n";
  for (size_t i = 0; i < disagreements.size() && i < 20; ++i) ADD_FAILURE() << disagreements[i];
  EXPECT_EQ(disagreements.size(), 0u);
}

}  // namespace
}  // namespace elfmeta::testing
