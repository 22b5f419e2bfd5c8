// Differential test against the libbpf installed here (Debian bookworm:
// 1.1): `--libbpf X.Y` with X.Y the installed release must give btf__new()'s
// verdict on every blob of the differential corpus, in both byte orders, and
// on every libbpf rule case (tests/btf/libbpf_differential.h; sid's 1.7:
// libbpf_sid_differential_test.cpp).
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>

#include "btf/libbpf_model.h"
#include "tests/btf/libbpf_differential.h"

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

TEST(LibbpfDifferential, VerdictsAgreeWithTheInstalledLibbpf) {
  libbpf_set_print(quiet);
  const btf::Release release = installed_libbpf();
  ASSERT_GE(release, btf::kOldestLibbpf);
  ASSERT_LE(release, btf::kNewestLibbpf);
  const std::vector<Sample> samples = libbpf_differential_samples();
  ASSERT_GE(samples.size(), 3000u);
  expect_no_disagreement(run_libbpf_differential(samples, release, libbpf_accepts));
}

}  // namespace
}  // namespace elfmeta::testing
