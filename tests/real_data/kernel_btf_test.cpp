// Real BTF must come out clean: the running kernel's, and that of Debian's
// cloud kernels (bookworm's 6.1 and 6.12, trixie's 6.12, sid's 7.2 from its
// split packages: the vmlinuz and every module's split BTF on that image),
// fetched by tools/fetch-test-data into $ELFMETA_TEST_DATA, each under the
// profile of its own release (from the banner).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "btf/artifact_check.h"
#include "core/report.h"
#include "input/artifact.h"
#include "tests/support/debian_kernels.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

std::string listing(const DiagnosticList& list, size_t max = 20) {
  std::ostringstream out;
  size_t n = 0;
  for (const auto& d : list.items())
    if (d.rule && n++ < max) write_text(out, d);
  return out.str();
}

TEST(RunningKernel, VmlinuxBtfHasNoFindings) {
  if (!fs::exists("/sys/kernel/btf/vmlinux")) GTEST_SKIP() << "no /sys/kernel/btf/vmlinux on this machine";
  auto opened = input::open_input("/sys/kernel/btf/vmlinux");
  ASSERT_TRUE(opened.artifact) << opened.error;
  DiagnosticList list;
  auto result = btf::check_artifact_btf(*opened.artifact, nullptr, {}, list);
  ASSERT_TRUE(result.btf.btf);
  EXPECT_GT(result.btf.btf->own_count(), 10000u);
  EXPECT_EQ(list.count(Severity::Error), 0u) << listing(list);
  EXPECT_EQ(list.count(Severity::Warning), 0u) << listing(list);
}

class DebianKernel : public DebianTreeTest {
 protected:
  void SetUp() override {
    DebianTreeTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    root_ = tree_.root;
    vmlinuz_ = tree_.vmlinuz;
  }
  fs::path root_, vmlinuz_;
};

TEST_P(DebianKernel, VmlinuzAndEveryModuleHaveNoErrors) {
  auto image = input::open_input(vmlinuz_.string());
  ASSERT_TRUE(image.artifact) << image.error;
  ASSERT_TRUE(image.artifact->is_vmlinux()) << vmlinuz_ << " did not decompress to a kernel image";
  DiagnosticList list;
  auto vmlinux = btf::check_artifact_btf(*image.artifact, nullptr, {}, list);
  ASSERT_TRUE(vmlinux.btf.btf);
  EXPECT_GT(vmlinux.btf.btf->own_count(), 90000u);
  EXPECT_EQ(list.count(Severity::Error), 0u) << listing(list);

  // Judged by its own release's profile, not the newest one's.
  const btf::KernelChoice kernel = btf::kernel_of(*image.artifact);
  EXPECT_EQ(kernel.how.rfind("banner", 0), 0u) << kernel.how;
  EXPECT_EQ(kernel.how.find("newer than the newest"), std::string::npos) << kernel.label();
  size_t modules = 0, with_btf = 0, btf_sections = 0, errors = 0;
  std::string first_errors;
  for (const auto& e : fs::recursive_directory_iterator(tree_.modules)) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || name.find(".ko") == std::string::npos) continue;
    ++modules;
    auto module = input::open_input(e.path().string());
    ASSERT_TRUE(module.artifact) << module.error;
    ASSERT_TRUE(module.artifact->is_kernel_module()) << e.path();
    DiagnosticList found;
    auto checked = btf::check_artifact_btf(*module.artifact, &vmlinux.btf, {}, found);
    btf_sections += module.artifact->section(".BTF") != nullptr;
    if (checked.checked) ++with_btf;
    errors += found.count(Severity::Error);
    if (found.has_errors() && first_errors.size() < 4000) first_errors += name + ":\n" + listing(found, 5);
  }
  std::cout << "  " << GetParam() << ": vmlinux " << vmlinux.btf.btf->own_count() << " types; " << with_btf << " of "
            << modules << " modules have split BTF\n";
  EXPECT_GE(with_btf, 200u);
  EXPECT_EQ(with_btf, btf_sections) << "every module's split BTF is checked against the image";
  EXPECT_EQ(errors, 0u) << first_errors;
}

INSTANTIATE_TEST_SUITE_P(Packages, DebianKernel, ::testing::Values("debian-6.1", "debian-6.12", "trixie-6.12", "sid-7.2"),
                         debian_tree_name);

}  // namespace
}  // namespace elfmeta::testing
