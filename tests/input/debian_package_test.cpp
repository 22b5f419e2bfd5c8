#include "input/debian_package.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <utility>
#include <vector>
#include <string>

namespace elfmeta::input {
namespace {

using Files = std::vector<std::pair<std::string, std::string>>;

// An archive of `files` in a libarchive format, optionally compressed.
std::string write_archive(const Files& files, int (*format)(archive*), int (*filter)(archive*) = nullptr) {
  archive* a = archive_write_new();
  format(a);
  if (filter) filter(a);
  std::string out(1 << 20, '\0');
  size_t used = 0;
  archive_write_open_memory(a, out.data(), out.size(), &used);
  for (const auto& [name, data] : files) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
    archive_write_header(a, e);
    archive_write_data(a, data.data(), data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  out.resize(used);
  return out;
}

std::string write_deb(const Files& data_files, const std::string& data_member = "data.tar.xz") {
  const std::string data = write_archive(data_files, archive_write_set_format_pax_restricted, archive_write_add_filter_xz);
  const std::string control = write_archive({{"./control", "Package: x\n"}}, archive_write_set_format_pax_restricted,
                                            archive_write_add_filter_gzip);
  return write_archive({{"debian-binary", "2.0\n"}, {"control.tar.gz", control}, {data_member, data}},
                       archive_write_set_format_ar_svr4);
}

std::string save(const std::string& bytes) {
  static int n = 0;
  const std::string path = ::testing::TempDir() + "/pkg" + std::to_string(n++) + ".deb";
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

TEST(DebianPackage, TruncatedDataArchiveIsAnError) {
  std::string deb = write_deb({{"./boot/vmlinuz-x", std::string(200000, 'k')}});
  deb.resize(deb.size() - 100);
  std::string error;
  EXPECT_FALSE(read_debian_package(save(deb), [](std::string_view) { return true; }, error));
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace elfmeta::input
