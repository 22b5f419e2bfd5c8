// Real BTF from other projects' test suites (regress/peer-data/): the Linux
// 7.1 vmlinux BTF with its kind-layout section, and the 7.1 bpf_testmod split
// BTF with its distilled base.
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "btf/verifier.h"
#include "core/report.h"
#include "input/artifact.h"
#include "oracle/kernel_btf_oracle.h"

namespace elfmeta::testing {
namespace {

const std::string kDir = std::string(ELFMETA_SOURCE_DIR) + "/regress/peer-data/cilium-ebpf/";

std::vector<uint8_t> read_blob(const std::string& name) {
  auto opened = input::open_input(kDir + name);
  EXPECT_TRUE(opened.artifact) << opened.error;
  if (!opened.artifact) return {};
  return {opened.artifact->raw.begin(), opened.artifact->raw.end()};
}

struct Result {
  btf::CheckedBtf checked;
  DiagnosticList list;
  std::set<std::string> rules;
};

Result check(const std::vector<uint8_t>& blob, btf::Release kernel, const btf::CheckedBtf* base = nullptr) {
  Result r;
  btf::CheckOptions options;
  options.kernel = btf::KernelProfile(kernel);
  r.checked = btf::check_btf(blob, base, options, "peer", ".BTF", r.list);
  for (const auto& d : r.list.items())
    if (d.rule) r.rules.insert(std::string(d.rule->id));
  return r;
}

// The 7.1 blob with its layout section removed as libbpf does for older
// kernels: 24-byte header, strings right after the types.
std::vector<uint8_t> without_layout(const std::vector<uint8_t>& blob) {
  uint32_t hdr_len, type_off, type_len, str_off, str_len;
  std::memcpy(&hdr_len, blob.data() + 4, 4);
  std::memcpy(&type_off, blob.data() + 8, 4);
  std::memcpy(&type_len, blob.data() + 12, 4);
  std::memcpy(&str_off, blob.data() + 16, 4);
  std::memcpy(&str_len, blob.data() + 20, 4);
  std::vector<uint8_t> out(blob.begin(), blob.begin() + 24);
  const uint32_t new_hdr = 24, new_str_off = type_len;
  std::memcpy(out.data() + 4, &new_hdr, 4);
  std::memcpy(out.data() + 16, &new_str_off, 4);
  out.insert(out.end(), blob.begin() + hdr_len + type_off, blob.begin() + hdr_len + type_off + type_len);
  out.insert(out.end(), blob.begin() + hdr_len + str_off, blob.begin() + hdr_len + str_off + str_len);
  return out;
}

TEST(PeerData, Linux71VmlinuxIsCleanUnderItsOwnProfile) {
  const auto blob = read_blob("vmlinux.btf.gz");
  ASSERT_GT(blob.size(), 4000000u);
  const Result r = check(blob, {7, 1});
  ASSERT_TRUE(r.checked.btf);
  EXPECT_EQ(r.checked.btf->own_count(), 103406u);
  EXPECT_EQ(r.list.count(Severity::Error), 0u);
  EXPECT_EQ(r.list.count(Severity::Warning), 0u);
  EXPECT_EQ(r.checked.btf->header().layout_len, 80u);
}

TEST(PeerData, Linux71VmlinuxUnder618IsUnsupportedHeaderAsTheKernelSays) {
  const auto blob = read_blob("vmlinux.btf.gz");
  const Result r = check(blob, {6, 18});
  EXPECT_EQ(r.rules, std::set<std::string>{"BTF-LAYOUT-001"});
  ASSERT_EQ(r.list.count(Severity::Error), 1u);
  const Diagnostic& d = r.list.items().front();
  EXPECT_EQ(d.location.offset, 24u);  // layout_off
  EXPECT_EQ(d.rule->log, "Unsupported btf_header");
  EXPECT_NE(d.message.find("rejected by kernels before 7.1"), std::string::npos) << d.message;
  std::string why;
  if (!oracle::kernel_btf_oracle_available(&why)) GTEST_SKIP() << "kernel oracle unavailable: " << why;
  const auto verdict = oracle::kernel_btf_load(blob, true);
  EXPECT_FALSE(verdict.accepted);
  EXPECT_EQ(verdict.error, E2BIG);
  EXPECT_NE(verdict.reason.find("Unsupported btf_header"), std::string::npos) << verdict.reason;
}

TEST(PeerData, Linux71VmlinuxWithoutItsLayoutLoadsOn618) {
  const auto blob = without_layout(read_blob("vmlinux.btf.gz"));
  const Result r = check(blob, {6, 18});
  EXPECT_EQ(r.list.count(Severity::Error), 0u);
  std::string why;
  if (!oracle::kernel_btf_oracle_available(&why)) GTEST_SKIP() << "kernel oracle unavailable: " << why;
  const auto verdict = oracle::kernel_btf_load(blob, true);
  EXPECT_TRUE(verdict.accepted) << verdict.reason;
}

TEST(PeerData, Linux71TestModuleOnItsDistilledBase) {
  const auto base_blob = read_blob("btf_testmod.btf.base");
  const auto split_blob = read_blob("btf_testmod.btf");
  const Result base = check(base_blob, {7, 1});
  ASSERT_TRUE(base.checked.btf);
  EXPECT_EQ(base.list.count(Severity::Error), 0u);
  EXPECT_EQ(base.checked.btf->own_count(), 157u);
  const Result split = check(split_blob, {7, 1}, &base.checked);
  ASSERT_TRUE(split.checked.btf);
  EXPECT_EQ(split.checked.btf->first_id(), 158u);
  EXPECT_EQ(split.list.count(Severity::Error), 0u);
  std::string why;
  if (!oracle::kernel_btf_oracle_available(&why)) GTEST_SKIP() << "kernel oracle unavailable: " << why;
  EXPECT_TRUE(oracle::kernel_btf_load(base_blob).accepted);
}

}  // namespace
}  // namespace elfmeta::testing
