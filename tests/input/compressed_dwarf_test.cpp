// input::oversized_compressed_dwarf: what a file's compressed DWARF claims,
// weighed before libdw is given the file. objcopy's own compression (both
// styles) of a real object passes; a claim past 64 times a section's size,
// or a header cut short, is named.
#include "input/compressed_dwarf.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "tests/support/elf_file_edit.h"
#include "tests/support/require.h"
#include "tests/support/scratch_dir.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kObject = fs::path(ELFMETA_SOURCE_DIR) / "fuzz" / "corpus" / "fuzz_input" / "dwarf-layouts-gcc12.o";

// The object compressed by objcopy (`style`: zlib for SHF_COMPRESSED,
// zlib-gnu for .zdebug_* sections); empty when objcopy could not.
std::vector<uint8_t> objcopy_compressed(const std::string& style) {
  const fs::path out = scratch_dir("compressed-dwarf") / ("o-" + style + ".o");
  const std::string cmd = "objcopy --compress-debug-sections=" + style + " " + kObject.string() + " " + out.string();
  if (std::system(cmd.c_str()) != 0) return {};
  return read_bytes(out);
}

std::unique_ptr<input::Artifact> open(std::vector<uint8_t> bytes) {
  auto r = input::open_bytes("t.o", std::move(bytes));
  EXPECT_TRUE(r.artifact) << r.error;
  return std::move(r.artifact);
}

TEST(CompressedDwarf, RealCompressionOfBothStylesPasses) {
  for (const std::string style : {"zlib", "zlib-gnu"}) {
    const auto bytes = objcopy_compressed(style);
    ELFMETA_REQUIRE_INSTALLED(!bytes.empty(), "objcopy cannot compress (package binutils)");
    const auto a = open(bytes);
    ASSERT_TRUE(a);
    const bool gnu = style == "zlib-gnu";
    const input::Section* info = a->section(gnu ? ".zdebug_info" : ".debug_info");
    ASSERT_TRUE(info) << style;
    EXPECT_EQ(bool(info->flags & SHF_COMPRESSED), !gnu) << style;
    EXPECT_EQ(input::oversized_compressed_dwarf(*a), "") << style;
  }
}

// .debug_info's Elf64_Chdr made to claim 1 GiB: over 64 times its size.
TEST(CompressedDwarf, ClaimPastTheRatioIsNamed) {
  auto bytes = objcopy_compressed("zlib");
  ELFMETA_REQUIRE_INSTALLED(!bytes.empty(), "objcopy cannot compress (package binutils)");
  const uint64_t at = section_place(bytes, ".debug_info").offset + offsetof(Elf64_Chdr, ch_size);
  const uint64_t claim = uint64_t(1) << 30;
  std::memcpy(bytes.data() + at, &claim, 8);
  const auto a = open(bytes);
  ASSERT_TRUE(a);
  const std::string why = input::oversized_compressed_dwarf(*a);
  EXPECT_NE(why.find(".debug_info: "), std::string::npos) << why;
  EXPECT_NE(why.find("claiming 1.0 GiB, over 64 times its size"), std::string::npos) << why;
  // Below the floor any ratio passes: small sections of zeros compress far.
  const uint64_t small = uint64_t(16) << 20;
  std::memcpy(bytes.data() + at, &small, 8);
  EXPECT_EQ(input::oversized_compressed_dwarf(*open(bytes)), "");
}

// GNU's style: "ZLIB" and a big-endian size.
TEST(CompressedDwarf, GnuStyleClaimIsReadBigEndian) {
  auto bytes = objcopy_compressed("zlib-gnu");
  ELFMETA_REQUIRE_INSTALLED(!bytes.empty(), "objcopy cannot compress (package binutils)");
  const uint64_t at = section_place(bytes, ".zdebug_info").offset;
  ASSERT_EQ(std::memcmp(bytes.data() + at, "ZLIB", 4), 0);
  const uint8_t one_gib[8] = {0, 0, 0, 0, 0x40, 0, 0, 0};
  std::memcpy(bytes.data() + at + 4, one_gib, 8);
  const std::string why = input::oversized_compressed_dwarf(*open(bytes));
  EXPECT_NE(why.find(".zdebug_info: "), std::string::npos) << why;
  EXPECT_NE(why.find("claiming 1.0 GiB"), std::string::npos) << why;
}

}  // namespace
}  // namespace elfmeta::testing
