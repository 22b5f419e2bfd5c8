// Debian's kernel packages in each of their layouts (input/kernel_package.h):
// the all-in-one linux-image of bookworm and trixie, the split packages of
// 6.19-7.1 (image in /boot) and of 7.2+ (image in /usr/lib/modules/VER),
// which package a .deb is and which one completes it; and unpacked trees
// given as a directory. The paths and control fields are those of the real
// packages (dpkg-deb -c / -I of Debian's 6.1.0-56, 6.12.117+deb13, 7.1.3 and
// 7.2.13 cloud kernels).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "input/kernel_package.h"
#include "tests/support/deb_builder.h"

namespace elfmeta::input {
namespace {

namespace fs = std::filesystem;
using testing::write_deb;

std::string save(const std::string& bytes) {
  static int n = 0;
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path = ::testing::TempDir() + "/kpkg-" + test->test_suite_name() + "." + test->name() + "-" +
                           std::to_string(n++) + ".deb";
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string control(const std::string& package, const std::string& version) {
  return "Package: " + package + "\nSource: linux\nVersion: " + version + "\nArchitecture: amd64\nSection: kernel\n";
}

constexpr const char* kRelease72 = "7.2.13+deb14-cloud-amd64";

TEST(KernelPackageId, NamesTellKindAndRelease) {
  struct Case {
    const char* name;
    KernelPackageKind kind;
    const char* release;
  } cases[] = {
      {"linux-image-6.1.0-56-cloud-amd64", KernelPackageKind::Image, "6.1.0-56-cloud-amd64"},
      {"linux-image-6.12.117+deb12-cloud-amd64-unsigned", KernelPackageKind::Image, "6.12.117+deb12-cloud-amd64"},
      {"linux-image-7.2.13+deb14-cloud-amd64", KernelPackageKind::Image, "7.2.13+deb14-cloud-amd64"},
      {"linux-binary-7.2.13+deb14-cloud-amd64", KernelPackageKind::Binary, "7.2.13+deb14-cloud-amd64"},
      {"linux-binary-unsigned-7.2.13+deb14-cloud-amd64", KernelPackageKind::Binary, "7.2.13+deb14-cloud-amd64"},
      {"linux-modules-7.2.13+deb14-cloud-amd64", KernelPackageKind::Modules, "7.2.13+deb14-cloud-amd64"},
      {"linux-base-7.2.13+deb14-cloud-amd64", KernelPackageKind::Base, "7.2.13+deb14-cloud-amd64"},
      {"linux-image-cloud-amd64", KernelPackageKind::Image, ""},  // the flavour's metapackage
      {"linux-image-7.2.13+deb14-cloud-amd64-dbg", KernelPackageKind::Unknown, ""},
      {"linux-headers-7.2.13+deb14-common", KernelPackageKind::Unknown, ""},
      {"linux-kbuild-7.2.13+deb14", KernelPackageKind::Unknown, ""},
  };
  for (const Case& c : cases) {
    const KernelPackageId id = kernel_package_id(c.name, "1");
    EXPECT_EQ(id.kind, c.kind) << c.name;
    EXPECT_EQ(id.release, c.release) << c.name;
    EXPECT_EQ(id.package, c.name);
  }
}

TEST(KernelPackageId, CompanionOfModulesIsTheBinaryOfTheirRelease) {
  const KernelPackageId modules = kernel_package_id("linux-modules-7.2.13+deb14-cloud-amd64");
  EXPECT_EQ(companion_package(modules, KernelPackageKind::Binary), "linux-binary-7.2.13+deb14-cloud-amd64");
  EXPECT_EQ(companion_package(kernel_package_id("linux-binary-unsigned-7.2.13+deb14-cloud-amd64"), KernelPackageKind::Modules),
            "linux-modules-7.2.13+deb14-cloud-amd64");
  // The old layout: one package holds image and modules.
  const KernelPackageId old = kernel_package_id("linux-image-6.12.117+deb13-cloud-amd64");
  EXPECT_EQ(companion_package(old, KernelPackageKind::Binary), "linux-image-6.12.117+deb13-cloud-amd64");
  EXPECT_EQ(companion_package(kernel_package_id("linux-image-cloud-amd64"), KernelPackageKind::Binary), "");
}

TEST(KernelPackage, BinaryPackageOf72HasTheImageUnderUsrLibModules) {
  const std::string dir = std::string("./usr/lib/modules/") + kRelease72 + "/";
  const std::string deb =
      write_deb({{dir + "vmlinuz", "KERNEL"},
                 {"./usr/share/lintian/overrides/linux-binary-7.2.13+deb14-cloud-amd64", "o"}},
                "data.tar.xz", control("linux-binary-7.2.13+deb14-cloud-amd64", "7.2.13-1"));
  std::string error;
  const std::string path = save(deb);
  const auto id = identify_kernel_package(path, error);
  ASSERT_TRUE(id) << error;
  EXPECT_EQ(id->kind, KernelPackageKind::Binary);
  EXPECT_EQ(id->version, "7.2.13-1");
  EXPECT_EQ(id->release, kRelease72);
  auto package = read_kernel_package(path, error);
  ASSERT_TRUE(package) << error;
  EXPECT_EQ(package->id.kind, KernelPackageKind::Binary);
  ASSERT_EQ(package->images.size(), 1u);
  EXPECT_EQ(package->images[0].path, dir.substr(2) + "vmlinuz");
  EXPECT_TRUE(package->modules.empty());
  EXPECT_FALSE(package->system_map || package->config);
}

TEST(KernelPackage, UnsignedBinaryPackageHasVmlinuzUnsigned) {
  const std::string dir = std::string("./usr/lib/modules/") + kRelease72 + "/";
  auto package = [&] {
    std::string error;
    auto p = read_kernel_package(save(write_deb({{dir + "vmlinuz.unsigned", "KERNEL"}}, "data.tar.xz",
                                                 control("linux-binary-unsigned-7.2.13+deb14-cloud-amd64", "7.2.13-1"))),
                                 error);
    EXPECT_TRUE(p) << error;
    return p;
  }();
  ASSERT_TRUE(package);
  ASSERT_EQ(package->images.size(), 1u);
  EXPECT_EQ(package->id.kind, KernelPackageKind::Binary);
}

TEST(KernelPackage, BasePackageOf72HasSystemMapAndConfig) {
  const std::string dir = std::string("./usr/lib/modules/") + kRelease72 + "/";
  std::string error;
  auto package = read_kernel_package(
      save(write_deb({{dir + "System.map", "ffffffffffffffff B The real System.map is in the linux-image-" +
                                               std::string(kRelease72) + "-dbg package\n"},
                      {dir + "config", "CONFIG_DEBUG_INFO_BTF=y\nCONFIG_UNWINDER_ORC=y\n"},
                      {dir + "modules.order", "kernel/lib/crc7.ko\n"},
                      {dir + "modules.builtin", "kernel/lib/x.ko\n"}},
                     "data.tar.xz", control("linux-base-7.2.13+deb14-cloud-amd64", "7.2.13-1"))),
      error);
  ASSERT_TRUE(package) << error;
  EXPECT_EQ(package->id.kind, KernelPackageKind::Base);
  EXPECT_TRUE(package->images.empty());
  EXPECT_TRUE(package->modules.empty());
  ASSERT_TRUE(package->system_map && package->config);
  EXPECT_EQ(config_value(package->config->bytes, "UNWINDER_ORC"), "y");
}

TEST(KernelPackage, ModulesPackageOf72HasTheModules) {
  const std::string dir = std::string("./usr/lib/modules/") + kRelease72 + "/";
  std::string error;
  auto package = read_kernel_package(save(write_deb({{dir + "kernel/lib/crc7.ko.xz", "A"},
                                                     {dir + "kernel/drivers/net/virtio_net.ko.xz", "B"}},
                                                    "data.tar.xz", control("linux-modules-7.2.13+deb14-cloud-amd64", "7.2.13-1"))),
                                     error);
  ASSERT_TRUE(package) << error;
  EXPECT_EQ(package->id.kind, KernelPackageKind::Modules);
  EXPECT_TRUE(package->images.empty());
  EXPECT_EQ(package->modules.size(), 2u);
  EXPECT_EQ(companion_package(package->id, KernelPackageKind::Binary), "linux-binary-7.2.13+deb14-cloud-amd64");
}

// 6.19 to 7.1: split, but the image still in /boot.
TEST(KernelPackage, BinaryPackageOf71HasTheImageInBoot) {
  std::string error;
  auto package = read_kernel_package(save(write_deb({{"./boot/vmlinuz-7.1.3+deb13-cloud-amd64", "KERNEL"}}, "data.tar.xz",
                                                    control("linux-binary-7.1.3+deb13-cloud-amd64", "7.1.3-1~bpo13+1"))),
                                     error);
  ASSERT_TRUE(package) << error;
  EXPECT_EQ(package->images.size(), 1u);
  EXPECT_EQ(package->id.release, "7.1.3+deb13-cloud-amd64");
}

// Trixie's all-in-one package: /boot and /usr/lib/modules; the release
// read from the files when the name does not carry one.
TEST(KernelPackage, TrixiePackageHasEverything) {
  const std::string release = "6.12.117+deb13-cloud-amd64";
  std::string error;
  auto package = read_kernel_package(save(write_deb({{"./boot/vmlinuz-" + release, "KERNEL"},
                                                     {"./boot/System.map-" + release, "MAP"},
                                                     {"./boot/config-" + release, "CONFIG_X=y\n"},
                                                     {"./usr/lib/modules/" + release + "/kernel/lib/crc7.ko.xz", "M"},
                                                     {"./usr/lib/modules/" + release + "/modules.order", "O"}})),
                                     error);
  ASSERT_TRUE(package) << error;
  EXPECT_EQ(package->id.kind, KernelPackageKind::Unknown);  // "Package: x"
  EXPECT_EQ(package->id.release, release);
  EXPECT_EQ(package->images.size(), 1u);
  EXPECT_EQ(package->modules.size(), 1u);
  EXPECT_TRUE(package->system_map && package->config);
}

// 7.2's linux-image is a metapackage: no files; the kind says so.
TEST(KernelPackage, MetaImagePackageOf72IsEmpty) {
  std::string error;
  auto package = read_kernel_package(save(write_deb({{"./usr/share/doc/linux-image-7.2.13+deb14-cloud-amd64/x", "d"}},
                                                    "data.tar.xz", control("linux-image-7.2.13+deb14-cloud-amd64", "7.2.13-1"))),
                                     error);
  ASSERT_TRUE(package) << error;
  EXPECT_EQ(package->id.kind, KernelPackageKind::Image);
  EXPECT_TRUE(package->images.empty() && package->modules.empty());
  EXPECT_EQ(companion_package(package->id, KernelPackageKind::Binary), "linux-binary-7.2.13+deb14-cloud-amd64");
}

TEST(DebianControl, FieldsAreRead) {
  const std::string c = "Package: linux-base-7.2.13+deb14-cloud-amd64\nVersion:  7.2.13-1 \r\nDescription: a\n b\n";
  EXPECT_EQ(control_field(c, "Package"), "linux-base-7.2.13+deb14-cloud-amd64");
  EXPECT_EQ(control_field(c, "Version"), "7.2.13-1");
  EXPECT_FALSE(control_field(c, "Depends"));
  EXPECT_FALSE(control_field(c, "Pack"));
}

// ------------------------------------------------------------ unpacked trees

class KernelTrees : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ("ktree-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void file(const std::string& rel, const std::string& data = "x") {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << data;
  }
  fs::path root_;
};

TEST_F(KernelTrees, SystemRootWithBootAndLibModules) {
  file("boot/vmlinuz-6.1.0-56-cloud-amd64");
  file("boot/System.map-6.1.0-56-cloud-amd64");
  file("boot/config-6.1.0-56-cloud-amd64");
  file("lib/modules/6.1.0-56-cloud-amd64/kernel/lib/crc7.ko");
  file("lib/modules/6.1.0-56-cloud-amd64/kernel/fs/ext4/ext4.ko");
  file("lib/modules/6.1.0-56-cloud-amd64/modules.dep");
  // A 7.2 kernel installed beside it, and an image without modules.
  const std::string m72 = std::string("usr/lib/modules/") + kRelease72 + "/";
  file(m72 + "vmlinuz");
  file(m72 + "System.map");
  file(m72 + "config");
  file(m72 + "kernel/lib/crc7.ko.xz");
  file("boot/vmlinuz-6.12.117+deb13-cloud-amd64");
  std::string error;
  const auto trees = find_kernel_trees(root_.string(), error);
  ASSERT_EQ(trees.size(), 3u) << error;
  EXPECT_EQ(trees[0].release, kRelease72);
  EXPECT_EQ(trees[0].image, (root_ / m72 / "vmlinuz").string());
  EXPECT_FALSE(trees[0].system_map.empty() || trees[0].config.empty());
  EXPECT_EQ(trees[0].modules.size(), 1u);
  EXPECT_EQ(trees[1].release, "6.1.0-56-cloud-amd64");
  EXPECT_EQ(trees[1].image, (root_ / "boot/vmlinuz-6.1.0-56-cloud-amd64").string());
  EXPECT_EQ(trees[1].modules.size(), 2u);
  EXPECT_FALSE(trees[1].system_map.empty() || trees[1].config.empty());
  EXPECT_EQ(trees[2].release, "6.12.117+deb13-cloud-amd64");
  EXPECT_TRUE(trees[2].modules.empty());
}

TEST_F(KernelTrees, MergedUsrListsAModulesDirectoryOnce) {
  file("usr/lib/modules/6.12.117+deb13-cloud-amd64/kernel/lib/crc7.ko.xz");
  file("boot/vmlinuz-6.12.117+deb13-cloud-amd64");
  fs::create_directory_symlink("usr/lib", root_ / "lib");
  std::string error;
  const auto trees = find_kernel_trees(root_.string(), error);
  ASSERT_EQ(trees.size(), 1u) << error;
  EXPECT_EQ(trees[0].modules.size(), 1u);
  EXPECT_FALSE(trees[0].image.empty());
}

TEST_F(KernelTrees, OneModulesDirectoryFindsItsImage) {
  const std::string m72 = std::string("usr/lib/modules/") + kRelease72;
  file(m72 + "/vmlinuz");
  file(m72 + "/kernel/lib/crc7.ko.xz");
  file("lib/modules/6.1.0-56-cloud-amd64/kernel/lib/crc7.ko");
  file("boot/vmlinuz-6.1.0-56-cloud-amd64");
  std::string error;
  auto trees = find_kernel_trees((root_ / m72).string(), error);
  ASSERT_EQ(trees.size(), 1u) << error;
  EXPECT_EQ(trees[0].image, (root_ / m72 / "vmlinuz").string());
  // Before 7.2 the image is in the root's /boot.
  trees = find_kernel_trees((root_ / "lib/modules/6.1.0-56-cloud-amd64").string(), error);
  ASSERT_EQ(trees.size(), 1u) << error;
  EXPECT_EQ(trees[0].image, (root_ / "boot/vmlinuz-6.1.0-56-cloud-amd64").string());
  EXPECT_EQ(trees[0].modules.size(), 1u);
}

TEST_F(KernelTrees, NoKernelIsEmptyAndAFileIsAnError) {
  file("etc/hostname");
  std::string error;
  EXPECT_TRUE(find_kernel_trees(root_.string(), error).empty());
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_TRUE(find_kernel_trees((root_ / "etc/hostname").string(), error).empty());
  EXPECT_NE(error.find("not a directory"), std::string::npos) << error;
}

}  // namespace
}  // namespace elfmeta::input
