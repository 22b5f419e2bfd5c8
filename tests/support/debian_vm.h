// A test fixture that boots one of the Debian kernels of tools/fetch-test-data
// under qemu (the parameter is "debian-6.1" or "debian-6.12"). Skipped when
// qemu or the kernels are not here.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "btf/artifact_check.h"
#include "input/artifact.h"
#include "oracle/vm_oracle.h"
#include "tests/support/debian_kernels.h"
#include "tests/support/require.h"

namespace elfmeta::testing {

class DebianVmTest : public DebianTreeTest {
 protected:
  void SetUp() override {
    std::string why;
    ELFMETA_REQUIRE_INSTALLED(vm_.available(&why), why);
    DebianTreeTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto opened = input::open_input(tree_.vmlinuz.string());
    ASSERT_TRUE(opened.artifact) << opened.error;
    image_ = std::move(opened.artifact);
    kernel_ = btf::kernel_of(*image_);
    ASSERT_EQ(kernel_.how.rfind("banner", 0), 0u) << kernel_.how;
  }
  // The booted kernel's own BTF, checked under `options`.
  btf::ArtifactCheck vmlinux_btf(const btf::CheckOptions& options) const {
    DiagnosticList ignored;
    return btf::check_artifact_btf(*image_, nullptr, options, ignored);
  }

  oracle::VmOracle vm_{oracle::default_vm_init_path()};
  std::unique_ptr<input::Artifact> image_;  // the decompressed vmlinux
  btf::KernelChoice kernel_;                // from its banner
};

inline std::string debian_vm_name(const ::testing::TestParamInfo<std::string>& info) {
  return info.param == "debian-6.1" ? "Linux6_1" : "Linux6_12";
}

}  // namespace elfmeta::testing
