// elfmeta coverage on real kernels: Debian's packages (bookworm's 6.1 and
// 6.12, sid's split 7.2) and the running kernel. Every figure is
// self-consistent (covered <= total, the finer counts within their whole)
// and a package's totals are the sum of its artifacts.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "tests/support/cli_run.h"
#include "tests/support/debian_kernels.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The invariants of one artifact's (or a sum's) figures.
void expect_consistent(const json& c, const std::string& what) {
  SCOPED_TRACE(what);
  for (const char* family : {"functions", "variables", "unwind"}) {
    const json& f = c.at(family);
    EXPECT_LE(f.at("covered").get<uint64_t>(), f.at("total").get<uint64_t>()) << family;
  }
  const json& fn = c.at("functions");
  EXPECT_LE(fn["covered"].get<uint64_t>(), fn["abi_prototype"].get<uint64_t>());
  EXPECT_EQ(fn["abi_prototype"].get<uint64_t>() + fn["clone_symbols"].get<uint64_t>(), fn["with_func"].get<uint64_t>());
  EXPECT_LE(fn["with_func"].get<uint64_t>(), fn["total"].get<uint64_t>());
  EXPECT_LE(fn["told_apart"].get<uint64_t>(), fn["shared_instances"].get<uint64_t>());
  const json& v = c.at("variables");
  EXPECT_EQ(v["with_var"].get<uint64_t>() + v["without_var"].get<uint64_t>(), v["total"].get<uint64_t>());
  EXPECT_EQ(v["covered"].get<uint64_t>() + v["wrong_offset"].get<uint64_t>() + v["wrong_size"].get<uint64_t>(),
            v["with_var"].get<uint64_t>());
  EXPECT_LE(v["percpu_covered"].get<uint64_t>(), v["percpu_total"].get<uint64_t>());
  const json& u = c.at("unwind");
  EXPECT_EQ(u["covered"].get<uint64_t>() + u["partial"].get<uint64_t>() + u["without_entry"].get<uint64_t>(),
            u["total"].get<uint64_t>());
  EXPECT_EQ(u["covered_bytes"].get<uint64_t>() + u["undefined_bytes"].get<uint64_t>(), u["text_bytes"].get<uint64_t>());
}

json run_coverage(const std::string& inputs) {
  const CliRun r = run_cli("coverage -j 2 --format json " + inputs);
  EXPECT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out.substr(0, 2000);
  return j;
}

class DebianCoverage : public DebianTreeTest {
 protected:
  std::string debs() const {
    std::string out;
    for (const std::string& p : tree_.packages) {
      if (p.starts_with("linux-base-")) continue;
      for (const auto& e : fs::directory_iterator(tree_.root.parent_path() / "debs"))
        if (e.path().filename().string().starts_with(p + "_")) out += " " + e.path().string();
    }
    return out;
  }
};

TEST_P(DebianCoverage, PackageTotalsAreTheSumOfItsArtifacts) {
  const std::string inputs = debs();
  if (inputs.empty()) GTEST_SKIP() << GetParam() << ": no .deb in the cache (tools/fetch-test-data)";
  const json j = run_coverage(inputs);
  ASSERT_TRUE(j.contains("packages") && j.contains("artifacts"));
  ASSERT_FALSE(j["packages"].empty());
  std::map<std::string, std::map<std::string, uint64_t>> sums;  // package -> "family.count" -> sum
  size_t images = 0;
  for (const json& a : j["artifacts"]) {
    expect_consistent(a, a["path"].get<std::string>());
    images += a["kind"] == "kernel image";
    auto& sum = sums[a.value("package", "")];
    for (const char* family : {"functions", "variables", "unwind"})
      for (const auto& [count, n] : a[family].items()) sum[std::string(family) + "." + count] += n.get<uint64_t>();
  }
  EXPECT_EQ(images, 1u);
  for (const json& p : j["packages"]) {
    expect_consistent(p, p["path"].get<std::string>());
    const auto& sum = sums[p["path"].get<std::string>()];
    for (const char* family : {"functions", "variables", "unwind"})
      for (const auto& [count, n] : p[family].items())
        EXPECT_EQ(n.get<uint64_t>(), sum.at(std::string(family) + "." + count)) << family << "." << count;
  }
  expect_consistent(j["total"], "total");
  // A kernel carries BTF prototypes for most of its functions, ORC for most
  // of its code, and pahole before global_var VARs for percpu data only.
  const json& t = j["total"];
  EXPECT_GT(t["functions"]["covered"].get<uint64_t>() * 2, t["functions"]["total"].get<uint64_t>());
  EXPECT_GT(t["unwind"]["covered_bytes"].get<uint64_t>() * 2, t["unwind"]["text_bytes"].get<uint64_t>());
  EXPECT_GT(t["variables"]["percpu_covered"].get<uint64_t>(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Packages, DebianCoverage, ::testing::Values("debian-6.1", "debian-6.12", "sid-7.2"),
                         debian_tree_name);

TEST(RunningKernelCoverage, FiguresAreSelfConsistent) {
  if (!fs::exists("/sys/kernel/btf/vmlinux")) GTEST_SKIP() << "no /sys/kernel/btf/vmlinux";
  const json j = run_coverage("/sys/kernel/btf/vmlinux");
  ASSERT_EQ(j["artifacts"].size(), 1u);
  const json& a = j["artifacts"][0];
  if (a["with_symbols"] == 0) GTEST_SKIP() << "/proc/kallsyms unreadable (kptr_restrict)";
  expect_consistent(a, "running kernel");
  EXPECT_GT(a["functions"]["total"].get<uint64_t>(), 1000u);
  EXPECT_GT(a["functions"]["covered"].get<uint64_t>(), 0u);
  EXPECT_EQ(a["unwind"]["total"], 0u);  // its ORC is in memory, not in /sys/kernel/btf
}

}  // namespace
}  // namespace elfmeta::testing
