// The parts of the VM oracle that need no VM.
#include "oracle/vm_oracle.h"

#include <gtest/gtest.h>

#include <cstring>

namespace elfmeta::oracle {
namespace {

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
