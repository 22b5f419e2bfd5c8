#include "core/byte_reader.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "core/kernel_ctype.h"

namespace elfmeta {
namespace {

TEST(ByteReader, BoundsAreCheckedWithoutOverflow) {
  const std::vector<uint8_t> bytes{1, 2, 3, 4, 5, 6, 7, 8};
  ByteReader r(bytes, Endian::Little);
  EXPECT_EQ(r.u32(0), 0x04030201u);
  EXPECT_EQ(r.u32(4), 0x08070605u);
  EXPECT_FALSE(r.u32(5));
  EXPECT_FALSE(r.u8(8));
  EXPECT_FALSE(r.u64(std::numeric_limits<uint64_t>::max() - 2));
  EXPECT_FALSE(r.contains(4, std::numeric_limits<uint64_t>::max()));
  EXPECT_TRUE(r.contains(8, 0));
  EXPECT_FALSE(r.sub(6, 4));
  EXPECT_EQ(r.sub(6, 2)->u16(0), 0x0807u);
}

TEST(ByteReader, ReadsTheOtherByteOrder) {
  const std::vector<uint8_t> bytes{1, 2, 3, 4};
  ByteReader r(bytes, host_endian() == Endian::Little ? Endian::Big : Endian::Little);
  EXPECT_EQ(r.u32(0), host_endian() == Endian::Little ? 0x01020304u : 0x04030201u);
  EXPECT_EQ(r.u16(2), host_endian() == Endian::Little ? 0x0304u : 0x0403u);
}

TEST(ByteReader, StringsNeedTheirNul) {
  const std::vector<uint8_t> bytes{'a', 'b', 0, 'c'};
  ByteReader r(bytes, Endian::Little);
  EXPECT_EQ(r.cstr(0), "ab");
  EXPECT_EQ(r.cstr(2), "");
  EXPECT_FALSE(r.cstr(3));
  EXPECT_FALSE(r.cstr(4));
}

TEST(KernelCtype, Latin1Classes) {
  EXPECT_TRUE(kctype::isalpha('a'));
  EXPECT_TRUE(kctype::isalpha(0xc0));
  EXPECT_TRUE(kctype::isalpha(0xdf));
  EXPECT_FALSE(kctype::isalpha(0xd7));
  EXPECT_FALSE(kctype::isalpha(0xf7));
  EXPECT_FALSE(kctype::isalnum('_'));
  EXPECT_TRUE(kctype::isalnum('7'));
  EXPECT_TRUE(kctype::isprint(' '));
  EXPECT_TRUE(kctype::isprint(0xa0));
  EXPECT_FALSE(kctype::isprint(0x9f));
  EXPECT_FALSE(kctype::isprint(0x7f));
  EXPECT_FALSE(kctype::isprint('\t'));
}

}  // namespace
}  // namespace elfmeta
