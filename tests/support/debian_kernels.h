// The Debian kernels tools/fetch-test-data unpacks into $ELFMETA_TEST_DATA
// (ctest sets it): debian-6.1/, debian-6.12/ (bookworm), trixie-6.12/ and
// sid-7.2/ (the split packages unpacked together). Each is pinned to one
// build; when the archive no longer had it, a newer build of the same series
// was fetched and LABEL/.fallback says so: tests of figures of the pinned
// build skip then (skip_unless_pinned()), the others run.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace elfmeta::testing {

struct DebianKernelTree {
  std::filesystem::path root;
  std::filesystem::path vmlinuz;  // boot/vmlinuz-VER, or usr/lib/modules/VER/vmlinuz (7.2+)
  std::filesystem::path modules;  // lib/modules/VER or usr/lib/modules/VER
  std::vector<std::string> packages;  // "linux-image-6.1.0-56-cloud-amd64" (names, in fetch order)
  std::string fallback;               // why a build other than the pinned one is here; "" when pinned
};

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// nullopt with `why` set when the tree is not there; `gone` tells a kernel
// the archive no longer has (a reason to skip, not to fail).
inline std::optional<DebianKernelTree> debian_kernel_tree(const std::string& label, std::string& why,
                                                          bool* gone = nullptr) {
  namespace fs = std::filesystem;
  const char* data = std::getenv("ELFMETA_TEST_DATA");
  if (!data) {
    why = "ELFMETA_TEST_DATA is not set (ctest sets it after tools/fetch-test-data)";
    return std::nullopt;
  }
  DebianKernelTree t;
  t.root = fs::path(data) / label;
  if (fs::exists(t.root / ".unavailable")) {
    why = read_text(t.root / ".unavailable");
    if (gone) *gone = true;
    return std::nullopt;
  }
  if (!fs::exists(t.root / ".complete")) {
    why = t.root.string() + " is missing: run tools/fetch-test-data";
    return std::nullopt;
  }
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(t.root / "boot", ec))
    if (e.path().filename().string().starts_with("vmlinuz-")) t.vmlinuz = e.path();
  for (const char* dir : {"lib/modules", "usr/lib/modules"})
    for (const auto& e : fs::directory_iterator(t.root / dir, ec)) {
      if (fs::exists(e.path() / "kernel")) t.modules = e.path();
      if (t.vmlinuz.empty() && fs::exists(e.path() / "vmlinuz")) t.vmlinuz = e.path() / "vmlinuz";
    }
  if (t.vmlinuz.empty() || t.modules.empty()) {
    why = "no vmlinuz or no modules in " + t.root.string();
    return std::nullopt;
  }
  std::istringstream packages(read_text(t.root / ".package"));
  for (std::string line; std::getline(packages, line);)
    if (!line.empty()) t.packages.push_back(line.substr(0, line.find('=')));
  if (fs::exists(t.root / ".fallback")) t.fallback = read_text(t.root / ".fallback");
  return t;
}

// A test per Debian kernel ("debian-6.1", "debian-6.12", "trixie-6.12",
// "sid-7.2"): skipped without test data or when the archive no longer has
// the kernel, failed when ctest promised it and it is missing.
class DebianTreeTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string why;
    bool gone = false;
    const auto tree = debian_kernel_tree(GetParam(), why, &gone);
    if (!tree && (gone || !std::getenv("ELFMETA_TEST_DATA"))) GTEST_SKIP() << why;
    ASSERT_TRUE(tree) << why;
    tree_ = *tree;
    package_ = tree_.packages.empty() ? "" : tree_.packages.front();
  }
  // The figures a test asserts belong to the pinned build.
  bool pinned() const { return tree_.fallback.empty(); }
  DebianKernelTree tree_;
  std::string package_;  // the first package: "linux-image-6.1.0-56-cloud-amd64", "linux-binary-7.2.13+deb14-cloud-amd64"
};

// "debian-6.12" -> "Debian6_12", "sid-7.2" -> "Sid7_2": test names.
inline std::string debian_tree_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n;
  bool upper = true;
  for (char c : info.param) {
    if (c == '-' || c == '.') {
      if (c == '.') n += '_';
      upper = c == '-';
      continue;
    }
    n += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return n;
}

}  // namespace elfmeta::testing

// In a DebianTreeTest: skips a test of figures of the pinned build when
// another build was fetched (tools/fetch-test-data's fallback).
#define ELFMETA_SKIP_UNLESS_PINNED()                                        \
  do {                                                                      \
    if (!pinned()) GTEST_SKIP() << "figures of the pinned build: " << tree_.fallback; \
  } while (0)
