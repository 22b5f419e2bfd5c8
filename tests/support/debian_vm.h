// A test fixture that boots one of the Debian kernels of tools/fetch-test-data
// under qemu (the parameter is "debian-6.1", "debian-6.12" or "sid-7.2").
// Skipped when qemu or the kernels are not here.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>

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
  // CONFIG_MODULE_ALLOW_BTF_MISMATCH of the booted kernel: a module whose BTF
  // the kernel refuses still loads, without it (Debian's 6.1 and 6.12);
  // otherwise the load fails (sid's 7.2).
  bool allows_btf_mismatch() const {
    for (const auto& config : {tree_.modules / "config", tree_.vmlinuz.parent_path() /
                                                              ("config-" + tree_.modules.filename().string())}) {
      std::ifstream in(config);
      for (std::string line; std::getline(in, line);)
        if (line == "CONFIG_MODULE_ALLOW_BTF_MISMATCH=y") return true;
    }
    return false;
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

// "debian-6.1" -> "Linux6_1", "sid-7.2" -> "Linux7_2".
inline std::string debian_vm_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string release = info.param.substr(info.param.find('-') + 1);
  for (char& c : release)
    if (c == '.') c = '_';
  return "Linux" + release;
}

}  // namespace elfmeta::testing
