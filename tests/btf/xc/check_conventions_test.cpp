// XC-CONV: each rule triggered by a blob that breaks exactly that
// convention; and the clean case.
#include <gtest/gtest.h>

#include "btf/parse.h"
#include "synth/btf_builder.h"
#include "synth/elf_writer.h"
#include "tests/btf/xc/xc_test_support.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;

// An image (ET_EXEC with .BTF and the sections named) carrying `btf`;
// `comment`: its .comment, naming the compiler.
std::vector<uint8_t> image(const BtfBuilder& b, std::vector<std::string> sections = {}, std::string comment = "") {
  synth::ElfWriter elf(ET_EXEC);
  for (const auto& name : sections)
    elf.add_section({name, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x2000, 8, 0, std::vector<uint8_t>(16)});
  if (!comment.empty())
    elf.add_section({".comment", SHT_PROGBITS, 0, 0, 1, 1, std::vector<uint8_t>(comment.begin(), comment.end() + 1)});
  elf.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
  return elf.write();
}

TEST(XcConventions, ProducerConventionsAreClean) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  b.add_int("long unsigned int", 8, 64, 0);
  b.add_array(int_id, int_id, 4);
  const uint32_t var = b.add_var("v", int_id, 1);
  b.add_datasec(".data", 4, {{var, 0, 4}});
  b.add_struct("flags", 4, {{"a", int_id, 0, 1}, {"b", int_id, 1, 3}});  // kind_flag with bitfields
  auto run = run_cross_check(image(b, {".data"}));
  EXPECT_EQ(run->rules(), "") << run->text();
  EXPECT_EQ(run->stats.int_types, 2u);
}

TEST(XcConventions, KernelImageNotSortedByName) {
  BtfBuilder sorted;
  sorted.add_ptr(2);  // anonymous first
  sorted.add_int("char", 1, 8, 2);
  sorted.add_int("int", 4, 32, 1);
  auto clean = run_cross_check(image(sorted));
  EXPECT_TRUE(clean->stats.sorted_by_name);
  EXPECT_EQ(clean->count("XC-CONV-001"), 0u);

  BtfBuilder unsorted;
  unsorted.add_int("int", 4, 32, 1);
  unsorted.add_int("char", 1, 8, 2);
  auto run = run_cross_check(image(unsorted));
  EXPECT_FALSE(run->stats.sorted_by_name);
  EXPECT_EQ(run->count("XC-CONV-001", Severity::Note), 1u);
  EXPECT_NE(run->text().find("'char' sorts before 'int' (type 1)"), std::string::npos) << run->text();
  // Other BTF is not looked up by binary search: counted, not reported.
  auto raw = run_cross_check(unsorted.build());
  EXPECT_FALSE(raw->stats.sorted_by_name);
  EXPECT_EQ(raw->count("XC-CONV-001"), 0u);
}

TEST(XcConventions, IntegerTypes) {
  BtfBuilder b;
  b.add_int("long int", 4, 32, 1);  // long of 4 bytes in 64-bit BTF
  b.add_int("u8", 1, 8, 0);         // not a C base type
  auto kernel = run_cross_check(image(b));
  EXPECT_EQ(kernel->rules(), "XC-CONV-002");
  EXPECT_EQ(kernel->count("XC-CONV-002"), 2u) << kernel->text();
  // Outside kernel BTF other languages' integers are fine; sizes still count.
  auto raw = run_cross_check(b.build());
  EXPECT_EQ(raw->count("XC-CONV-002"), 1u) << raw->text();
}

TEST(XcConventions, ArrayIndexType) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t chr = b.add_int("char", 1, 8, 2);
  b.add_array(int_id, chr, 4);
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->rules(), "XC-CONV-003");
  EXPECT_NE(run->text().find("index type 2 is INT 'char'"), std::string::npos) << run->text();
}

TEST(XcConventions, DatasecNames) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t v = b.add_var("v", int_id, 1), w = b.add_var("w", int_id, 1);
  b.add_datasec(".data", 4, {{v, 0, 4}});
  b.add_datasec(".data", 4, {{w, 0, 4}});
  b.add_datasec(".nowhere", 0, {});
  auto run = run_cross_check(image(b, {".data"}));
  EXPECT_EQ(run->rules(), "XC-CONV-004");
  EXPECT_EQ(run->count("XC-CONV-004"), 2u);
  EXPECT_NE(run->text().find("a second DATASEC '.data'"), std::string::npos) << run->text();
  EXPECT_NE(run->text().find("DATASEC '.nowhere' names no section of vmlinux"), std::string::npos) << run->text();
}

TEST(XcConventions, KindFlagWithoutBitfield) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  b.add_struct("plain", 8, {{"a", int_id, 0}, {"b", int_id, 32}}, true);
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->rules(), "XC-CONV-005");
}

// __user/__rcu/__percpu tags in BTF of a GCC-built image; clang's are
// expected, and so is GCC 15's attribute-style address_space(1).
TEST(XcConventions, GccKernelWithClangTypeTags) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t user = b.add_type_tag("user", int_id);
  b.add_ptr(user);
  b.add_ptr(b.add_type_tag("address_space(1)", int_id, /*kflag=*/true));
  const std::string gcc = "GCC: (Debian 12.2.0-14) 12.2.0", clang = "Debian clang version 14.0.6";
  auto run = run_cross_check(image(b, {}, gcc));
  EXPECT_EQ(run->rules(), "XC-CONV-007") << run->text();
  EXPECT_EQ(run->count("XC-CONV-007"), 1u);
  EXPECT_NE(run->text().find("TYPE_TAG 'user' in BTF of a GCC-built kernel image"), std::string::npos) << run->text();
  EXPECT_EQ(run_cross_check(image(b, {}, clang))->rules(), "");
  EXPECT_EQ(run_cross_check(image(b))->rules(), "");  // no .comment, no banner: the compiler is unknown
  BtfBuilder attribute_only;
  attribute_only.add_type_tag("address_space(1)", attribute_only.add_int("int", 4, 32, 1), true);
  EXPECT_EQ(run_cross_check(image(attribute_only, {}, gcc))->rules(), "");
}

// Split BTF of the other byte order than its base, or of another pointer
// size; .BTF of the other byte order than its ELF file.
TEST(XcConventions, ByteOrderAndPointerSizeAcrossBaseSplitAndFile) {
  BtfBuilder base;
  base.add_int("long int", 8, 64, 1);
  auto on_base = [&] { return BtfBuilder(base.next_id(), static_cast<uint32_t>(base.strings().size())); };
  BtfBuilder split = on_base();
  split.add_ptr(1);
  auto same = run_cross_check(split.build(), "", base.build());
  EXPECT_EQ(same->rules(), "") << same->text();

  const auto other = btf::swap_byte_order(split.build(), true);
  auto swapped = run_cross_check(other, "", base.build());
  EXPECT_EQ(swapped->rules(), "XC-CONV-009");
  EXPECT_NE(swapped->text().find("split BTF is big-endian, its base little-endian"), std::string::npos) << swapped->text();

  BtfBuilder narrow = on_base();
  narrow.add_int("long unsigned int", 4, 32, 0);
  auto sizes = run_cross_check(narrow.build(), "", base.build());
  EXPECT_EQ(sizes->count("XC-CONV-009"), 1u) << sizes->text();
  EXPECT_NE(sizes->text().find("long is 4 bytes in the split BTF, 8 in its base"), std::string::npos) << sizes->text();

  synth::ElfWriter elf(ET_EXEC);
  elf.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, btf::swap_byte_order(base.build(), true)});
  auto in_file = run_cross_check(elf.write());
  EXPECT_EQ(in_file->rules(), "XC-CONV-009");
  EXPECT_NE(in_file->text().find(".BTF is big-endian in a little-endian ELF file"), std::string::npos) << in_file->text();
}

}  // namespace
}  // namespace elfmeta::testing
