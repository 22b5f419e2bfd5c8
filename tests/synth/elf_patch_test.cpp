#include "synth/elf_patch.h"

#include <gtest/gtest.h>

#include "input/artifact.h"
#include "tests/support/elf_builder.h"

namespace elfmeta::synth {
namespace {

using elfmeta::testing::make_elf;

std::vector<uint8_t> section_bytes(const input::Artifact& a, const std::string& name) {
  const auto* s = a.section(name);
  return s ? std::vector<uint8_t>(s->data.begin(), s->data.end()) : std::vector<uint8_t>{0xde, 0xad};
}

TEST(ReplaceSection, NewContentsAreWhereTheHeaderPoints) {
  const std::vector<uint8_t> btf(40, 0x11), modinfo = {'n', 'a', 'm', 'e', '=', 'x', 0};
  const auto elf = make_elf({{".BTF", btf}, {".modinfo", modinfo}}, ET_REL);
  const std::vector<uint8_t> replacement(1003, 0x22);
  auto patched = replace_section(elf, ".BTF", replacement);
  ASSERT_TRUE(patched);
  EXPECT_TRUE(std::equal(elf.begin(), elf.end(), patched->begin()) == false);  // the header changed
  auto opened = input::open_bytes("m.ko", *patched);
  ASSERT_TRUE(opened.artifact) << opened.error;
  EXPECT_EQ(section_bytes(*opened.artifact, ".BTF"), replacement);
  EXPECT_EQ(section_bytes(*opened.artifact, ".modinfo"), modinfo);
  EXPECT_EQ(opened.artifact->section(".BTF")->file_offset % 8, 0u);
}

TEST(ReplaceSection, SmallerContents) {
  const auto elf = make_elf({{".BTF", std::vector<uint8_t>(64, 1)}}, ET_REL);
  auto patched = replace_section(elf, ".BTF", std::vector<uint8_t>{9});
  ASSERT_TRUE(patched);
  auto opened = input::open_bytes("m.ko", *patched);
  ASSERT_TRUE(opened.artifact) << opened.error;
  EXPECT_EQ(section_bytes(*opened.artifact, ".BTF"), std::vector<uint8_t>{9});
}

TEST(ReplaceSection, MissingSectionOrNotElf) {
  const auto elf = make_elf({{".text", {0x90}}}, ET_REL);
  EXPECT_FALSE(replace_section(elf, ".BTF", std::vector<uint8_t>{1}));
  const std::vector<uint8_t> junk = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
  EXPECT_FALSE(replace_section(junk, ".BTF", std::vector<uint8_t>{1}));
}

}  // namespace
}  // namespace elfmeta::synth
