// input::DwarfCfi on objects: each .eh_frame FDE's pc_begin relocated into
// a layout of the object's code sections (one place per section), looked
// up by (section, offset); linked files keep their own addresses; CFI in
// .debug_frame alone is read too, in objects and links. Real objects of
// gas 2.47.50 (tests/sframe/data/binutils-2.47.50).
#include "input/dwarf_cfi.h"

#include <elf.h>
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "input/artifact.h"
#include "input/symbols.h"
#include "tests/support/compressors.h"
#include "tests/support/elf_file_edit.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(ELFMETA_SOURCE_DIR) / "tests" / "sframe" / "data" / "binutils-2.47.50";

std::vector<uint8_t> bytes_of(const std::string& name) { return read_bytes(kData / name); }

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
  std::vector<uint8_t> bytes = bytes_of("outermost-aarch64.o");
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

// Every function of frames.c (tests/sframe/corpus), in a file whose CFI for
// them is in .debug_frame alone, has a row from its first byte, with the
// machine's CFA at a call (x86-64 rsp+8, AArch64 sp+0, s390x r15+160).
// Returns how many of them were found.
size_t expect_rows_at_functions(const input::Artifact& a, const input::DwarfCfi& cfi, const std::string& machine) {
  const std::map<std::string, std::pair<int, int64_t>> at_call{{"x86_64", {7, 8}}, {"aarch64", {31, 0}}, {"s390x", {15, 160}}};
  const std::set<std::string> frames_c{"leaf", "with_alloca", "with_vla", "realigned", "branchy"};
  const auto symbols = input::read_symtab(a, input::SymtabFilter::Functions);
  EXPECT_TRUE(symbols) << a.name;
  size_t functions = 0;
  for (const auto& sym : symbols ? symbols->symbols : std::vector<input::SymtabSymbol>{}) {
    if (sym.size == 0 || !frames_c.contains(std::string(symbols->name(sym)))) continue;
    const auto at = cfi.address_of(sym.section, sym.address);
    EXPECT_TRUE(at) << a.name << " " << std::string(symbols->name(sym));
    if (!at) continue;
    const auto row = cfi.row_at(*at);
    EXPECT_TRUE(row) << a.name << " " << std::string(symbols->name(sym));
    if (!row) continue;
    ++functions;
    EXPECT_EQ(row->start, *at) << a.name << " " << std::string(symbols->name(sym));
    EXPECT_EQ(std::pair(row->cfa.reg, row->cfa.offset), at_call.at(machine)) << a.name << " " << std::string(symbols->name(sym));
  }
  return functions;
}

// gcc -fno-asynchronous-unwind-tables -fno-unwind-tables -g: the CFI is in
// .debug_frame, whose FDEs name their CIE by a section offset and their
// code by an absolute address, both relocated in an object (R_X86_64_32 and
// R_X86_64_64 on x86-64, the ABS32/ABS64 of AArch64, R_390_32/64): each
// function's row is where its symbol is, on all three machines.
TEST(DwarfCfiObject, DebugFrameIsRelocated) {
  for (const std::string machine : {"x86_64", "aarch64", "s390x"}) {
    const auto a = open_file("frames-debug-frame-" + machine + ".o");
    ASSERT_TRUE(a);
    ASSERT_FALSE(a->section(".eh_frame")) << machine;
    const auto cfi = input::DwarfCfi::open(*a);
    ASSERT_TRUE(cfi) << machine;
    EXPECT_EQ(cfi->sections(), ".debug_frame");
    EXPECT_TRUE(cfi->has_debug_frame());
    EXPECT_EQ(cfi->unresolved_fdes(), 0u) << machine;
    EXPECT_EQ(expect_rows_at_functions(*a, *cfi, machine), 5u) << machine;
  }
}

// The CIE pointer is the relocation's (RELA: the field holds 0): garbage in
// the field changes nothing; a relocation naming no CIE leaves the file
// unread, not half read.
TEST(DwarfCfiObject, DebugFrameCiePointerIsTheRelocations) {
  const std::vector<uint8_t> clean = bytes_of("frames-debug-frame-x86_64.o");
  auto first = input::open_bytes("t.o", clean);
  ASSERT_TRUE(first.artifact);
  const input::Section* frames = first.artifact->section(".debug_frame");
  const input::Section* rela = first.artifact->section(".rela.debug_frame");
  ASSERT_TRUE(frames && rela);
  // The first FDE follows a 0x18-byte CIE: its CIE pointer at 0x1c, relocated
  // by the first entry (R_X86_64_32, 10, against .debug_frame + 0).
  uint64_t r_offset, info;
  std::memcpy(&r_offset, clean.data() + rela->file_offset, 8);
  std::memcpy(&info, clean.data() + rela->file_offset + 8, 8);
  ASSERT_EQ(r_offset, 0x1cu);
  ASSERT_EQ(info & 0xffffffff, 10u);

  auto garbage = clean;
  const uint32_t junk = 0x12345;
  std::memcpy(garbage.data() + frames->file_offset + 0x1c, &junk, 4);
  auto opened = input::open_bytes("t.o", garbage);
  ASSERT_TRUE(opened.artifact);
  const auto cfi = input::DwarfCfi::open(*opened.artifact);
  ASSERT_TRUE(cfi);
  EXPECT_EQ(expect_rows_at_functions(*opened.artifact, *cfi, "x86_64"), 5u);

  auto elsewhere = clean;
  const int64_t addend = 4;  // inside the CIE, not at one
  std::memcpy(elsewhere.data() + rela->file_offset + 16, &addend, 8);
  auto moved = input::open_bytes("t.o", elsewhere);
  ASSERT_TRUE(moved.artifact);
  EXPECT_FALSE(input::DwarfCfi::open(*moved.artifact));
}

// A link of the same code: .eh_frame holds the crt files' terminator only,
// the functions' CFI is in .debug_frame; both are read.
TEST(DwarfCfiLinked, DebugFrameBesideAnEmptyEhFrame) {
  for (const std::string machine : {"x86_64", "aarch64", "s390x"}) {
    const auto a = open_file("libframes-debug-frame-" + machine + ".so");
    ASSERT_TRUE(a);
    const auto cfi = input::DwarfCfi::open(*a);
    ASSERT_TRUE(cfi) << machine;
    EXPECT_EQ(cfi->sections(), ".eh_frame and .debug_frame") << machine;
    EXPECT_FALSE(cfi->relocatable());
    EXPECT_EQ(expect_rows_at_functions(*a, *cfi, machine), 5u) << machine;
  }
}

// libdw expands every compressed debug section when it opens a file's
// DWARF, as large as its stream gives: a .debug_info that expands to
// 32 MiB was 32 MiB more heap for the CFI reader (and then no CFI: libdw
// gave up on the file), and at zlib's ratio of 1000 a few megabytes make
// gigabytes. Only .debug_frame is wanted: the other debug sections are
// hidden from libdw, and the CFI reads as it did.
TEST(DwarfCfiLinked, OtherDebugSectionsAreNotExpanded) {
  std::vector<uint8_t> bytes = bytes_of("libframes-debug-frame-x86_64.so");
  // The bomb: .debug_info compressed, holding 32 MiB of zeros.
  constexpr uint64_t kExpanded = uint64_t(32) << 20;
  ASSERT_TRUE(compress_section(bytes, section_place(bytes, ".debug_info"), kExpanded, compressors::zlib_of_zeros(kExpanded)));

  auto opened = input::open_bytes("t.so", bytes);
  ASSERT_TRUE(opened.artifact);
  const auto heap = [] {
    const struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
  };
  const size_t before = heap();
  std::string why;
  const auto cfi = input::DwarfCfi::open(*opened.artifact, &why);
  ASSERT_TRUE(cfi) << why;
  EXPECT_LT(heap() - std::min(heap(), before), size_t(8) << 20);  // the copy of the file is 50 KiB
  EXPECT_EQ(expect_rows_at_functions(*opened.artifact, *cfi, "x86_64"), 5u);
}

// A compressed .debug_frame is not expanded either: the CFI is not read,
// and says why.
TEST(DwarfCfiLinked, CompressedDebugFrameIsNotRead) {
  // An object's too: the section is refused before its relocations are
  // applied to it.
  for (const char* file : {"libframes-debug-frame-x86_64.so", "frames-debug-frame-x86_64.o"}) {
    SCOPED_TRACE(file);
    std::vector<uint8_t> bytes = bytes_of(file);
    const uint64_t header = section_place(bytes, ".debug_frame").header;
    ASSERT_NE(header, 0u);
    const uint64_t at = header + offsetof(Elf64_Shdr, sh_flags);
    uint64_t flags;
    std::memcpy(&flags, bytes.data() + at, 8);
    flags |= SHF_COMPRESSED;
    std::memcpy(bytes.data() + at, &flags, 8);
    auto opened = input::open_bytes(file, bytes);
    ASSERT_TRUE(opened.artifact);
    std::string why;
    EXPECT_FALSE(input::DwarfCfi::open(*opened.artifact, &why));
    EXPECT_EQ(why, ".debug_frame is compressed (not expanded here)");
  }
}

}  // namespace
}  // namespace elfmeta::testing
