// Issue 30: on a healthy kernel the text report fits a terminal screen or
// two, verdict first. The running kernel's BTF and Debian 6.12's image
// (the README's main job); each skips, saying why, where it is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "tests/support/cli_run.h"
#include "tests/support/debian_kernels.h"

namespace elfmeta::testing {
namespace {

constexpr size_t kMaxLines = 60;

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

void expect_short_report(const std::string& input) {
  const CliRun r = run_cli("check -j 2 " + input);
  ASSERT_EQ(r.status, 0) << r.err << r.out.substr(0, 4000);
  EXPECT_LT(lines(r.out), kMaxLines) << r.out;
  // The verdict first, with its three counts.
  EXPECT_EQ(r.out.rfind("elfmeta: 1 input, 0 errors, ", 0), 0u) << r.out.substr(0, 400);
  EXPECT_NE(r.out.substr(0, r.out.find('\n')).find(" notes"), std::string::npos) << r.out.substr(0, 400);
  // --verbose lists what the short report only counts.
  const CliRun verbose = run_cli("check -j 2 --verbose " + input);
  EXPECT_GT(lines(verbose.out), lines(r.out));
}

TEST(ReportLength, RunningKernelBtfFitsTwoScreens) {
  const std::string path = "/sys/kernel/btf/vmlinux";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent: the running kernel has no BTF";
  expect_short_report(path);
}

TEST(ReportLength, DebianImageFitsTwoScreens) {
  std::string why;
  const auto tree = debian_kernel_tree("debian-6.12", why);
  if (!tree) GTEST_SKIP() << why;
  expect_short_report(tree->vmlinuz.string());
}

}  // namespace
}  // namespace elfmeta::testing
