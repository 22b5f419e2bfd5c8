// The Debian kernel packages tools/fetch-test-data unpacks into
// $ELFMETA_TEST_DATA (ctest sets it): debian-6.1/ and debian-6.12/.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace elfmeta::testing {

struct DebianKernelTree {
  std::filesystem::path root, vmlinuz, modules;  // modules: lib/modules/<release>
};

// nullopt with `why` set when the tree is not there.
inline std::optional<DebianKernelTree> debian_kernel_tree(const std::string& label, std::string& why) {
  namespace fs = std::filesystem;
  const char* data = std::getenv("ELFMETA_TEST_DATA");
  if (!data) {
    why = "ELFMETA_TEST_DATA is not set (ctest sets it after tools/fetch-test-data)";
    return std::nullopt;
  }
  DebianKernelTree t;
  t.root = fs::path(data) / label;
  if (!fs::exists(t.root / ".complete")) {
    why = t.root.string() + " is missing: run tools/fetch-test-data";
    return std::nullopt;
  }
  for (const auto& e : fs::directory_iterator(t.root / "boot"))
    if (e.path().filename().string().starts_with("vmlinuz-")) t.vmlinuz = e.path();
  if (fs::exists(t.root / "lib" / "modules"))
    for (const auto& e : fs::directory_iterator(t.root / "lib" / "modules")) t.modules = e.path();
  if (t.vmlinuz.empty() || t.modules.empty()) {
    why = "no vmlinuz or no modules in " + t.root.string();
    return std::nullopt;
  }
  return t;
}

// A test per Debian kernel ("debian-6.1", "debian-6.12"): skipped without
// test data, failed when ctest promised it and it is missing.
class DebianTreeTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string why;
    const auto tree = debian_kernel_tree(GetParam(), why);
    if (!tree && !std::getenv("ELFMETA_TEST_DATA")) GTEST_SKIP() << why;
    ASSERT_TRUE(tree) << why;
    tree_ = *tree;
    std::ifstream in(tree_.root / ".package");
    std::getline(in, package_);
  }
  DebianKernelTree tree_;
  std::string package_;  // "linux-image-6.1.0-56-cloud-amd64"
};

}  // namespace elfmeta::testing
