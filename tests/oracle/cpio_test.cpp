#include "oracle/cpio.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace elfmeta::oracle {
namespace {

struct Entry {
  std::string path;
  unsigned mode;
  std::string data;
};

std::vector<Entry> read_back(const std::vector<uint8_t>& bytes) {
  std::vector<Entry> out;
  archive* a = archive_read_new();
  archive_read_support_format_cpio(a);
  EXPECT_EQ(archive_read_open_memory(a, bytes.data(), bytes.size()), ARCHIVE_OK);
  archive_entry* e;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    Entry x{archive_entry_pathname(e), archive_entry_mode(e), {}};
    char buf[4096];
    for (la_ssize_t n; (n = archive_read_data(a, buf, sizeof buf)) > 0;) x.data.append(buf, static_cast<size_t>(n));
    out.push_back(x);
  }
  EXPECT_EQ(archive_format(a), ARCHIVE_FORMAT_CPIO_SVR4_NOCRC);  // newc: what the kernel unpacks
  archive_read_free(a);
  return out;
}

TEST(Cpio, InitramfsRoundTrips) {
  CpioWriter w;
  w.directory("blobs");
  const std::vector<uint8_t> init = {0x7f, 'E', 'L', 'F', 1, 2, 3};
  w.file("init", init, 0755);
  const std::vector<uint8_t> blob(1001, 0xab);  // not a multiple of 4: padding
  w.file("blobs/0.btf", blob);
  w.file("blobs/1.btf", {});
  const auto entries = read_back(w.finish());
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].path, "blobs");
  EXPECT_EQ(entries[0].mode, 040755u);
  EXPECT_EQ(entries[1].path, "init");
  EXPECT_EQ(entries[1].mode, 0100755u);
  EXPECT_EQ(entries[1].data, std::string(init.begin(), init.end()));
  EXPECT_EQ(entries[2].path, "blobs/0.btf");
  EXPECT_EQ(entries[2].mode, 0100644u);
  EXPECT_EQ(entries[2].data, std::string(blob.begin(), blob.end()));
  EXPECT_EQ(entries[3].data, "");
}

}  // namespace
}  // namespace elfmeta::oracle
