// The parts of the VM oracle that need no VM.
#include "oracle/vm_oracle.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "tests/support/deb_builder.h"

namespace elfmeta::oracle {
namespace {

std::string save_deb(const std::string& bytes, const std::string& name) {
  const std::string path = ::testing::TempDir() + "/vm-oracle-" + name + ".deb";
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The image a VM boots, from each of Debian's package layouts.
TEST(KernelFromPackage, ImageOfEveryLayout) {
  const std::pair<const char*, const char*> layouts[] = {
      {"boot/vmlinuz-6.12.117+deb13-cloud-amd64", "linux-image-6.12.117+deb13-cloud-amd64"},
      {"boot/vmlinuz-7.1.3+deb13-cloud-amd64", "linux-binary-7.1.3+deb13-cloud-amd64"},
      {"usr/lib/modules/7.2.13+deb14-cloud-amd64/vmlinuz", "linux-binary-7.2.13+deb14-cloud-amd64"},
      {"usr/lib/modules/7.2.13+deb14-cloud-amd64/vmlinuz.unsigned", "linux-binary-unsigned-7.2.13+deb14-cloud-amd64"},
  };
  for (const auto& [path, package] : layouts) {
    const std::string deb = testing::write_deb({{std::string("./") + path, "KERNEL"}, {"./usr/share/doc/x", "d"}},
                                               "data.tar.xz", std::string("Package: ") + package + "\n");
    std::string error;
    const auto image = kernel_from_package(save_deb(deb, package), error);
    ASSERT_TRUE(image) << path << ": " << error;
    EXPECT_EQ(std::string(image->begin(), image->end()), "KERNEL");
  }
}

// 7.2's linux-image is a metapackage: the error names the package to boot.
TEST(KernelFromPackage, MetapackageNamesTheBinaryPackage) {
  const std::string deb = testing::write_deb({{"./usr/share/doc/linux-image-7.2.13+deb14-cloud-amd64/x", "d"}},
                                             "data.tar.xz", "Package: linux-image-7.2.13+deb14-cloud-amd64\n");
  std::string error;
  EXPECT_FALSE(kernel_from_package(save_deb(deb, "meta"), error));
  EXPECT_NE(error.find("it is in linux-binary-7.2.13+deb14-cloud-amd64"), std::string::npos) << error;
}

std::vector<uint8_t> with_signature(std::vector<uint8_t> ko, size_t sig_len) {
  ko.insert(ko.end(), sig_len, 0x30);
  const uint8_t info[12] = {0, 0, 2, 0, 0, 0, 0, 0,
                            uint8_t(sig_len >> 24), uint8_t(sig_len >> 16), uint8_t(sig_len >> 8), uint8_t(sig_len)};
  ko.insert(ko.end(), info, info + 12);
  const char* magic = "~Module signature appended~\n";
  ko.insert(ko.end(), magic, magic + std::strlen(magic));
  return ko;
}

TEST(ModuleSignature, AppendedSignatureIsStripped) {
  const std::vector<uint8_t> ko = {0x7f, 'E', 'L', 'F', 9, 9, 9};
  EXPECT_EQ(strip_module_signature(with_signature(ko, 700)), ko);
}

TEST(ModuleSignature, UnsignedModuleIsKept) {
  const std::vector<uint8_t> ko = {0x7f, 'E', 'L', 'F', 9, 9, 9};
  EXPECT_EQ(strip_module_signature(ko), ko);
}

TEST(ModuleSignature, SignatureLongerThanTheFileIsKept) {
  auto signed_ko = with_signature({1, 2, 3}, 4);
  signed_ko[signed_ko.size() - 28 - 1] = 200;  // sig_len 200 > file
  EXPECT_EQ(strip_module_signature(signed_ko), signed_ko);
}

TEST(VmOracle, MissingInitProgramIsReported) {
  VmOracle vm("/nonexistent/elfmeta-vm-init");
  std::string why;
  EXPECT_FALSE(vm.available(&why));
  EXPECT_FALSE(why.empty());
  const VmRun run = vm.run("/nonexistent/vmlinuz", {{1, 2, 3}});
  EXPECT_FALSE(run.error.empty());
  ASSERT_EQ(run.blobs.size(), 1u);
  EXPECT_FALSE(run.blobs[0].answered);
}

}  // namespace
}  // namespace elfmeta::oracle
