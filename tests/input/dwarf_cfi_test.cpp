// input::DwarfCfi on objects: each .eh_frame FDE's pc_begin relocated into
// a layout of the object's code sections (one place per section), looked
// up by (section, offset); linked files keep their own addresses. Real
// objects of gas 2.47.50 (tests/sframe/data/binutils-2.47.50).
#include "input/dwarf_cfi.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "input/artifact.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(ELFMETA_SOURCE_DIR) / "tests" / "sframe" / "data" / "binutils-2.47.50";

std::unique_ptr<input::Artifact> open_file(const std::string& name) {
  auto opened = input::open_input((kData / name).string());
  EXPECT_TRUE(opened.artifact) << opened.error;
  return std::move(opened.artifact);
}

// .text and .text.unlikely each at a place of their own: an FDE's rows at
// its section's offset, the two sections apart.
TEST(DwarfCfiObject, PlacesEachCodeSectionApart) {
  const auto a = open_file("frames-x86_64.o");
  ASSERT_TRUE(a);
  const auto cfi = input::DwarfCfi::open(*a);
  ASSERT_TRUE(cfi);
  EXPECT_TRUE(cfi->relocatable());
  EXPECT_EQ(cfi->unresolved_fdes(), 0u);
  const input::Section* text = a->section(".text");
  const input::Section* unlikely = a->section(".text.unlikely");
  ASSERT_TRUE(text && unlikely);
  const auto t0 = cfi->address_of(text->index, 0), u0 = cfi->address_of(unlikely->index, 0);
  ASSERT_TRUE(t0 && u0);
  EXPECT_GE(*u0 > *t0 ? *u0 - *t0 : *t0 - *u0, text->size);
  // Rows begin where the relocations put the FDEs (.text+0x0, .text+0x10,
  // .text.unlikely+0x0, .text.unlikely+0x9).
  for (const auto& [section, offset] : {std::pair{text, 0x0}, std::pair{text, 0x10}, std::pair{unlikely, 0x0},
                                        std::pair{unlikely, 0x9}}) {
    const auto at = cfi->address_of(section->index, offset);
    ASSERT_TRUE(at);
    const auto row = cfi->row_at(*at);
    ASSERT_TRUE(row) << section->name << "+" << offset;
    EXPECT_EQ(row->start, *at) << section->name << "+" << offset;
    EXPECT_EQ(row->cfa.reg, 7);  // rsp+8 at every function's entry
    EXPECT_EQ(row->cfa.offset, 8);
    const auto back = cfi->section_offset(*at);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->first, section->index);
    EXPECT_EQ(back->second, uint64_t(offset));
  }
  // Not code, or past the section's end: no place.
  EXPECT_FALSE(cfi->address_of(a->section(".eh_frame")->index, 0));
  EXPECT_FALSE(cfi->address_of(text->index, text->size + 1));
  EXPECT_TRUE(cfi->address_of(text->index, text->size));  // an empty function's FDE may start there
  EXPECT_FALSE(cfi->section_offset(0));
}

// s390x is big-endian: the fields are written in its byte order. _start's
// RA (r14) is undefined from its first instruction; framed starts at
// r15+160.
TEST(DwarfCfiObject, BigEndianFieldsAreRelocated) {
  const auto a = open_file("outermost-s390x.o");
  ASSERT_TRUE(a);
  const auto cfi = input::DwarfCfi::open(*a);
  ASSERT_TRUE(cfi);
  const uint32_t text = a->section(".text")->index;
  const auto start = cfi->row_at(*cfi->address_of(text, 0));
  ASSERT_TRUE(start);
  EXPECT_EQ(start->ra.kind, input::SavedRule::kUndefined);
  const auto framed = cfi->row_at(*cfi->address_of(text, 0x14));
  ASSERT_TRUE(framed);
  EXPECT_EQ(framed->start, *cfi->address_of(text, 0x14));
  EXPECT_EQ(framed->cfa.reg, 15);
  EXPECT_EQ(framed->cfa.offset, 160);
  EXPECT_NE(framed->ra.kind, input::SavedRule::kUndefined);
}

// The link of the same object: its own addresses, as before.
TEST(DwarfCfiLinked, AddressesAreTheFilesOwn) {
  const auto a = open_file("outermost-aarch64");
  ASSERT_TRUE(a);
  const auto cfi = input::DwarfCfi::open(*a);
  ASSERT_TRUE(cfi);
  EXPECT_FALSE(cfi->relocatable());
  const uint64_t entry = a->section(".text")->addr;
  EXPECT_EQ(cfi->address_of(0, entry), entry);
  EXPECT_FALSE(cfi->section_offset(entry));
  const auto row = cfi->row_at(entry);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->ra.kind, input::SavedRule::kUndefined);
}

// Without a relocation of their type, no FDE resolves: each covers
// nothing, and is counted.
TEST(DwarfCfiObject, FdesWithoutTheirRelocationCoverNothing) {
  std::ifstream in(kData / "outermost-aarch64.o", std::ios::binary);
  std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
  auto first = input::open_bytes("t.o", bytes);
  ASSERT_TRUE(first.artifact);
  const input::Section* rela = first.artifact->section(".rela.eh_frame");
  ASSERT_TRUE(rela && rela->size == 3 * 24);
  for (uint64_t k = 0; k < 3; ++k) {
    uint64_t info;
    std::memcpy(&info, bytes.data() + rela->file_offset + 24 * k + 8, 8);
    EXPECT_EQ(info & 0xffffffff, 261u);  // R_AARCH64_PREL32
    info = (info >> 32) << 32 | 257;      // R_AARCH64_ABS64: not for a PC-relative field
    std::memcpy(bytes.data() + rela->file_offset + 24 * k + 8, &info, 8);
  }
  auto mutated = input::open_bytes("t.o", bytes);
  ASSERT_TRUE(mutated.artifact);
  const auto cfi = input::DwarfCfi::open(*mutated.artifact);
  ASSERT_TRUE(cfi);
  EXPECT_EQ(cfi->unresolved_fdes(), 3u);
  const input::Section* text = mutated.artifact->section(".text");
  for (uint64_t offset = 0; offset < text->size; offset += 4) EXPECT_FALSE(cfi->row_at(*cfi->address_of(text->index, offset)));
}

}  // namespace
}  // namespace elfmeta::testing
