// Whole Debian kernel packages through the CLI, as CI would run them: the
// .deb checked in one run (no errors; every module on its own image), and
// the package of today compared with the baseline in regress/baselines/
// (elfmeta diff exits 1 if a finding appeared: a regression of Debian's
// build, of pahole, or of elfmeta).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/cli_run.h"
#include "tests/support/debian_kernels.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

CliRun cli(const std::string& args) { return run_cli(args); }

class DebianPackage : public DebianTreeTest {
 protected:
  // The .deb tools/fetch-test-data downloaded next to the unpacked tree.
  fs::path deb() const {
    for (const auto& e : fs::directory_iterator(tree_.root.parent_path() / "debs"))
      if (e.path().filename().string().starts_with(package_ + "_")) return e.path();
    return {};
  }
};

TEST_P(DebianPackage, WholePackageHasNoErrors) {
  const fs::path p = deb();
  ASSERT_FALSE(p.empty()) << package_ << ": no .deb in the cache";
  const CliRun r = cli("check -j 2 " + p.string());
  EXPECT_EQ(r.status, 0) << r.out.substr(r.out.size() > 4000 ? r.out.size() - 4000 : 0);
  const size_t modules = GetParam() == "debian-6.1" ? 1121 : 1138;
  EXPECT_NE(r.out.find("elfmeta: " + std::to_string(modules + 1) + " inputs, 0 errors"), std::string::npos)
      << r.out.substr(r.out.size() > 4000 ? r.out.size() - 4000 : 0);
  EXPECT_NE(r.out.find("module            " + std::to_string(modules)), std::string::npos);
  // Split BTF checked without its base would be all errors: the modules
  // used the package's own image.
  EXPECT_EQ(r.out.find("BTF-TYPE-007"), std::string::npos);
}

TEST_P(DebianPackage, MatchesItsBaseline) {
  const fs::path p = deb();
  ASSERT_FALSE(p.empty());
  const std::string baseline = std::string(ELFMETA_SOURCE_DIR) + "/regress/baselines/" + GetParam() + "-cloud-amd64.json";
  const CliRun r = cli("diff " + baseline + " " + p.string());
  std::cout << r.out.substr(0, 3000);
  EXPECT_EQ(r.status, 0) << "findings appeared since the baseline (a new Debian release? then review and "
                            "regenerate it with elfmeta stats -o)";
  EXPECT_NE(r.out.find("findings: 0 appeared"), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Packages, DebianPackage, ::testing::Values("debian-6.1", "debian-6.12"));

}  // namespace
}  // namespace elfmeta::testing
