#include "input/debian_package.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <utility>
#include <vector>
#include <string>

#include "input/kernel_package.h"
#include "tests/support/compressors.h"
#include "tests/support/deb_builder.h"

namespace elfmeta::input {
namespace {

using testing::write_deb;

// ctest runs each test in a process of its own, two at a time: the path
// names the test, so that two of them never write the same file.
std::string save(const std::string& bytes) {
  static int n = 0;
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path = ::testing::TempDir() + "/pkg-" + test->test_suite_name() + "." + test->name() + "-" +
                           std::to_string(n++) + ".deb";
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(DebianPackage, ReadsTheWantedFilesOfTheDataArchive) {
  const std::string deb = write_deb({{"./boot/vmlinuz-6.1.0-9-cloud-amd64", "KERNEL"},
                                     {"./boot/config-6.1.0-9-cloud-amd64", "CONFIG"},
                                     {"./lib/modules/6.1.0-9-cloud-amd64/kernel/lib/crc7.ko", "MODULE"}});
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(deb.data()), deb.size());
  EXPECT_TRUE(is_debian_package(bytes));
  std::string error;
  auto files = read_debian_package(
      save(deb), [](std::string_view p) { return p.starts_with("boot/vmlinuz-") || p.ends_with(".ko"); }, error);
  ASSERT_TRUE(files) << error;
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].path, "boot/vmlinuz-6.1.0-9-cloud-amd64");
  EXPECT_EQ(std::string((*files)[0].bytes.begin(), (*files)[0].bytes.end()), "KERNEL");
  EXPECT_EQ((*files)[1].path, "lib/modules/6.1.0-9-cloud-amd64/kernel/lib/crc7.ko");
  EXPECT_EQ(std::string((*files)[1].bytes.begin(), (*files)[1].bytes.end()), "MODULE");
}

TEST(KernelPackage, SortsImageModulesMapAndConfig) {
  const std::string deb = write_deb({{"./boot/vmlinuz-6.12.0-1-cloud-amd64", "KERNEL"},
                                     {"./boot/config-6.12.0-1-cloud-amd64", "# c\nCONFIG_DEBUG_INFO_BTF=y\nCONFIG_X=\"a b\"\n"},
                                     {"./boot/System.map-6.12.0-1-cloud-amd64", "MAP"},
                                     {"./lib/modules/6.12.0-1-cloud-amd64/kernel/a.ko.xz", "A"},
                                     {"./lib/modules/6.12.0-1-cloud-amd64/kernel/b.ko", "B"},
                                     {"./lib/modules/6.12.0-1-cloud-amd64/modules.dep", "DEP"},
                                     {"./usr/share/doc/x/changelog.gz", "DOC"}});
  std::string error;
  const std::string path = save(deb);
  EXPECT_TRUE(is_debian_package_file(path));
  auto package = read_kernel_package(path, error);
  ASSERT_TRUE(package) << error;
  ASSERT_EQ(package->images.size(), 1u);
  ASSERT_EQ(package->modules.size(), 2u);
  EXPECT_EQ(package->modules[0].path, "lib/modules/6.12.0-1-cloud-amd64/kernel/a.ko.xz");
  ASSERT_TRUE(package->system_map && package->config);
  EXPECT_EQ(config_value(package->config->bytes, "DEBUG_INFO_BTF"), "y");
  EXPECT_EQ(config_value(package->config->bytes, "X"), "\"a b\"");
  EXPECT_FALSE(config_value(package->config->bytes, "UNWINDER_ORC"));
  EXPECT_FALSE(is_debian_package_file(path + ".absent"));
}

TEST(DebianPackage, WithoutADataMemberIsAnError) {
  std::string error;
  auto files = read_debian_package(save(write_deb({{"./a", "b"}}, "payload.tar.xz")), [](std::string_view) { return true; },
                                   error);
  EXPECT_FALSE(files);
  EXPECT_NE(error.find("no data.tar member"), std::string::npos) << error;
}

TEST(DebianPackage, NotAnArchiveIsAnError) {
  std::string error;
  const std::string not_deb = "\x7f" "ELF and then some bytes that are no ar archive";
  EXPECT_FALSE(is_debian_package(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(not_deb.data()), not_deb.size())));
  EXPECT_FALSE(read_debian_package(save(not_deb), [](std::string_view) { return true; }, error));
  EXPECT_FALSE(error.empty());
}

// A data member of several xz blocks, as Debian's kernel packages have
// (decoded on several threads): the same files; and a corrupt block is an
// error, not a crash or a short file.
std::string deb_with_xz_blocks(const testing::DebFiles& files, bool corrupt) {
  const std::string tar = testing::write_archive(files, archive_write_set_format_pax_restricted);
  testing::compressors::Bytes packed =
      testing::compressors::xz_blocks(testing::compressors::Bytes(tar.begin(), tar.end()), 64 * 1024);
  EXPECT_GE(testing::compressors::xz_block_count(packed), 4u);
  if (corrupt) packed[packed.size() / 2] ^= 0x55;
  const std::string control = testing::write_archive({{"./control", "Package: x\n"}}, archive_write_set_format_pax_restricted,
                                                     archive_write_add_filter_gzip);
  return testing::write_archive(
      {{"debian-binary", "2.0\n"}, {"control.tar.gz", control}, {"data.tar.xz", std::string(packed.begin(), packed.end())}},
      archive_write_set_format_ar_svr4);
}

testing::DebFiles files_over_blocks() {
  testing::DebFiles files;
  for (int i = 0; i < 6; ++i) {
    std::string data(70000 + 1000 * i, '\0');
    for (size_t k = 0; k < data.size(); ++k) data[k] = static_cast<char>((k * 2654435761u >> 13) + i);
    files.push_back({"./lib/modules/6.12.0-1-cloud-amd64/kernel/m" + std::to_string(i) + ".ko", data});
  }
  return files;
}

TEST(DebianPackage, ReadsADataMemberOfSeveralXzBlocks) {
  const testing::DebFiles files = files_over_blocks();
  std::string error;
  auto read = read_debian_package(save(deb_with_xz_blocks(files, false)), [](std::string_view) { return true; }, error);
  ASSERT_TRUE(read) << error;
  ASSERT_EQ(read->size(), files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ((*read)[i].path, files[i].first.substr(2));
    EXPECT_EQ(std::string((*read)[i].bytes.begin(), (*read)[i].bytes.end()), files[i].second) << files[i].first;
  }
}

TEST(DebianPackage, CorruptXzBlockIsAnError) {
  std::string error;
  EXPECT_FALSE(read_debian_package(save(deb_with_xz_blocks(files_over_blocks(), true)), [](std::string_view) { return true; },
                                   error));
  EXPECT_NE(error.find("xz"), std::string::npos) << error;
}

TEST(DebianPackage, TruncatedDataArchiveIsAnError) {
  std::string deb = write_deb({{"./boot/vmlinuz-x", std::string(200000, 'k')}});
  deb.resize(deb.size() - 100);
  std::string error;
  EXPECT_FALSE(read_debian_package(save(deb), [](std::string_view) { return true; }, error));
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace elfmeta::input
