// Booting Debian's 6.1, 6.12 and 7.2 kernels under qemu and asking them about
// BTF blobs and modules; 7.2's from its split packages (the image of
// linux-binary). Skipped when qemu or the kernels are not here.
#include <gtest/gtest.h>

#include <fstream>

#include "btf/artifact_check.h"
#include "input/artifact.h"
#include "input/kernel_release.h"
#include "oracle/vm_oracle.h"
#include "synth/btf_builder.h"
#include "synth/elf_patch.h"
#include "tests/support/debian_vm.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

class VmBoot : public DebianVmTest {
 protected:
  // A module of the package, decompressed and without its signature.
  oracle::VmModule module(const std::string& relative) {
    fs::path path = tree_.modules / "kernel" / relative;
    if (!fs::exists(path)) path += ".xz";
    auto opened = input::open_input(path.string());
    EXPECT_TRUE(opened.artifact) << opened.error;
    if (!opened.artifact) return {};
    const input::Artifact& a = *opened.artifact;
    return {input::modinfo_value(a, "name").value_or("?"),
            oracle::strip_module_signature({a.content.begin(), a.content.end()})};
  }
};

TEST_P(VmBoot, AnswersForEveryBlobAndModuleInOneBoot) {
  synth::BtfBuilder valid;
  const uint32_t i = valid.add_int("int", 4, 32);
  valid.add_ptr(i);
  synth::BtfBuilder tag_kflag;  // TYPE_TAG kind_flag: only 6.15+ accept it
  const uint32_t j = tag_kflag.add_int("int", 4, 32);
  tag_kflag.add_type_tag("attr", j, /*kflag=*/true);
  const std::vector<uint8_t> garbage = {0x9f, 0xeb, 1, 0, 24, 0, 0, 0, 1};

  // A library module of every release here (lib/crc7 is gone by 7.2),
  // without init or exit: it unloads.
  const oracle::VmModule plain = module("lib/math/cordic.ko");
  ASSERT_EQ(plain.name, "cordic");
  const auto opened = input::open_bytes("cordic.ko", plain.bytes);
  ASSERT_TRUE(opened.artifact);
  const auto where = btf::locate_btf(*opened.artifact);
  ASSERT_TRUE(where);
  std::vector<uint8_t> broken_btf(where->data.begin(), where->data.end());
  broken_btf[2] = 2;  // version 2
  auto broken = synth::replace_section(plain.bytes, ".BTF", broken_btf);
  ASSERT_TRUE(broken);

  const oracle::VmRun run = vm_.run(tree_.vmlinuz.string(), {valid.build(), tag_kflag.build(), garbage},
                                    {plain, {"cordic", *broken}});
  ASSERT_EQ(run.error, "");
  std::cout << "  " << GetParam() << ": booted under " << run.accel << " in " << run.seconds << " s\n";
  ASSERT_TRUE(run.blobs[0].answered && run.blobs[1].answered && run.blobs[2].answered);
  EXPECT_TRUE(run.blobs[0].accepted) << run.blobs[0].reason;
  if (kernel_.release >= btf::Release{6, 15}) {
    EXPECT_TRUE(run.blobs[1].accepted) << run.blobs[1].reason;
  } else {
    EXPECT_FALSE(run.blobs[1].accepted);
    EXPECT_EQ(run.blobs[1].error, EINVAL);
    EXPECT_NE(run.blobs[1].reason.find("Invalid btf_info kind_flag"), std::string::npos) << run.blobs[1].reason;
  }
  EXPECT_FALSE(run.blobs[2].accepted);

  ASSERT_TRUE(run.modules[0].answered && run.modules[1].answered);
  EXPECT_TRUE(run.modules[0].loaded) << run.modules[0].error;
  EXPECT_TRUE(run.modules[0].btf_accepted) << run.modules[0].messages;
  if (allows_btf_mismatch()) {
    // Debian's 6.1 and 6.12 set CONFIG_MODULE_ALLOW_BTF_MISMATCH: the module
    // loads, its BTF is dropped.
    EXPECT_TRUE(run.modules[1].loaded) << run.modules[1].error;
    EXPECT_FALSE(run.modules[1].btf_accepted) << run.modules[1].messages;
  } else {
    // Sid's 7.2 does not: the module is refused with the BTF verifier's
    // errno, here btf_parse_hdr()'s "Unsupported version": ENOTSUPP (524),
    // an errno of the kernel's own that finit_module() passes on.
    constexpr int kEnotsupp = 524;
    EXPECT_FALSE(run.modules[1].loaded);
    EXPECT_EQ(run.modules[1].error, kEnotsupp) << run.modules[1].messages;
  }
}

TEST_P(VmBoot, DebianPackageIsAnImage) {
  // The package itself, as a user would pass it, when the cache still has it.
  const fs::path debs = tree_.root.parent_path() / "debs";
  const std::string& name = package_;
  fs::path deb;
  if (fs::exists(debs))
    for (const auto& e : fs::directory_iterator(debs))
      if (e.path().filename().string().starts_with(name + "_")) deb = e.path();
  if (deb.empty()) GTEST_SKIP() << "the .deb of " << name << " is not in " << debs;
  synth::BtfBuilder valid;
  valid.add_int("int", 4, 32);
  const oracle::VmRun run = vm_.run(deb.string(), {valid.build()});
  ASSERT_EQ(run.error, "");
  EXPECT_TRUE(run.blobs[0].answered && run.blobs[0].accepted);
}

INSTANTIATE_TEST_SUITE_P(Debian, VmBoot, ::testing::Values("debian-6.1", "debian-6.12", "sid-7.2"), debian_vm_name);

}  // namespace
}  // namespace elfmeta::testing
