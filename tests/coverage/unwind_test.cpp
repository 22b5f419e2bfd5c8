// Unwind: ORC tables with a hole, a function under an undefined entry, an
// undefined last byte; in a linked image and in a module.
#include <gtest/gtest.h>

#include "coverage/coverage.h"
#include "input/artifact.h"
#include "input/symbols.h"
#include "orc/orc_format.h"
#include "synth/btf_builder.h"
#include "synth/orc_builder.h"
#include "synth/sframe_builder.h"
#include "synth/xc_image.h"

namespace elfmeta::testing {
namespace {

// .text: whole [0, 0x40) described throughout; holed [0x40, 0x80) with an
// undefined entry over [0x50, 0x60); dark [0x80, 0xa0) under an undefined
// entry; tailed [0xa0, 0xc0) whose last byte (an int3 after its return) is
// undefined.
std::vector<uint8_t> orc_input(bool image) {
  synth::OrcBuilder b(orc::Layout::G4, image, /*module=*/!image);
  const uint32_t text = b.add_code(".text", 0x100);
  b.add_entry(text, 0x00, orc::call_frame(8));
  b.add_entry(text, 0x50, orc::terminator());
  b.add_entry(text, 0x60, orc::call_frame(16));
  b.add_entry(text, 0x80, orc::terminator());
  b.add_entry(text, 0xa0, orc::call_frame(8));
  b.add_entry(text, 0xbf, orc::terminator());
  b.add_entry(text, 0xc0, orc::call_frame(8));
  b.add_function(text, 0x00, 0x40, "whole");
  b.add_function(text, 0x40, 0x40, "holed");
  b.add_function(text, 0x80, 0x20, "dark");
  b.add_function(text, 0xa0, 0x20, "tailed");
  return b.build();
}

void expect_hole_counts(bool image) {
  SCOPED_TRACE(image ? "image" : "module");
  auto opened = input::open_bytes(image ? "vmlinux" : "test.ko", orc_input(image));
  ASSERT_TRUE(opened.artifact) << opened.error;
  const auto symbols = input::symbols_from_symtab(*opened.artifact);
  ASSERT_TRUE(symbols);
  const auto c = coverage::unwind_coverage({*opened.artifact, nullptr, &*symbols});
  EXPECT_EQ(c.orc_tables, 1u);
  EXPECT_EQ(c.total, 4u);
  EXPECT_EQ(c.covered, 1u);
  EXPECT_EQ(c.partial, 2u);
  EXPECT_EQ(c.tail_only, 1u);
  EXPECT_EQ(c.without_entry, 1u);
  EXPECT_EQ(c.text_bytes, 0xc0u);
  EXPECT_EQ(c.undefined_regions, 3u);
  EXPECT_EQ(c.undefined_bytes, 0x10u + 0x20u + 1u);
  EXPECT_EQ(c.covered_bytes, c.text_bytes - c.undefined_bytes);
}

// Code before the first entry of its section is undescribed; a function
// spanning it and described code after it is partial, with one hole; one
// spanning every entry (as a hostile symbol table's may) counts each hole.
TEST(CoverageUnwind, CodeBeforeTheFirstEntryIsAHole) {
  synth::OrcBuilder b(orc::Layout::G4, true);
  const uint32_t text = b.add_code(".text", 0x100);
  b.add_entry(text, 0x10, orc::call_frame(8));
  b.add_entry(text, 0x30, orc::terminator());
  b.add_entry(text, 0x40, orc::call_frame(8));
  b.add_entry(text, 0x48, orc::call_frame(16));  // same state: no boundary
  b.add_function(text, 0x00, 0x20, "early");
  b.add_function(text, 0x00, 0x100, "everything");
  auto opened = input::open_bytes("vmlinux", b.build());
  ASSERT_TRUE(opened.artifact) << opened.error;
  const auto symbols = input::symbols_from_symtab(*opened.artifact);
  ASSERT_TRUE(symbols);
  const auto c = coverage::unwind_coverage({*opened.artifact, nullptr, &*symbols});
  EXPECT_EQ(c.total, 2u);
  EXPECT_EQ(c.partial, 2u);
  EXPECT_EQ(c.tail_only, 0u);
  EXPECT_EQ(c.text_bytes, 0x120u);
  EXPECT_EQ(c.covered_bytes, 0x10u + (0x20u + 0xc0u));
  EXPECT_EQ(c.undefined_regions, 1u + 2u);
  EXPECT_EQ(c.undefined_bytes, 0x10u + (0x10u + 0x10u));
}

TEST(CoverageUnwind, OrcHoleInAnImage) { expect_hole_counts(true); }
TEST(CoverageUnwind, OrcHoleInAModule) { expect_hole_counts(false); }

// kallsyms gives no sizes: a function runs to the next code start, and the
// undefined padding before it is not counted as the function's.
TEST(CoverageUnwind, UnsizedFunctionsEndBeforeTheirPadding) {
  auto opened = input::open_bytes("vmlinux", orc_input(true));
  ASSERT_TRUE(opened.artifact) << opened.error;
  const uint64_t text = opened.artifact->section(".text")->addr;
  std::string kallsyms;
  char line[64];
  for (auto [off, name] : {std::pair<uint64_t, const char*>{0x00, "whole"}, {0x40, "holed"}, {0x80, "dark"},
                           {0xa0, "tailed"}, {0xc0, "next"}, {0x100, "_etext"}}) {
    std::snprintf(line, sizeof line, "%016llx T %s\n", static_cast<unsigned long long>(text + off), name);
    kallsyms += line;
  }
  std::string why;
  const auto symbols = input::symbols_from_kallsyms_text(kallsyms, "kallsyms", why);
  ASSERT_TRUE(symbols) << why;
  const auto c = coverage::unwind_coverage({*opened.artifact, nullptr, &*symbols});
  EXPECT_EQ(c.total, 5u);     // next runs to _etext
  EXPECT_EQ(c.covered, 3u);   // whole, tailed (its int3 taken for padding), next
  EXPECT_EQ(c.partial, 1u);   // holed: the hole is inside
  EXPECT_EQ(c.without_entry, 1u);
}

// No ORC, no SFrame (the running kernel's /sys/kernel/btf/vmlinux): nothing
// is counted, rather than every function counted as not covered.
TEST(CoverageUnwind, NoTablesCountNothing) {
  auto opened = input::open_bytes("vmlinux", synth::xc_image(synth::BtfBuilder().build(), {}));
  ASSERT_TRUE(opened.artifact) << opened.error;
  std::string why;
  const auto symbols = input::symbols_from_kallsyms_text("ffffffff81000000 T f\nffffffff81000040 T g\n", "kallsyms", why);
  ASSERT_TRUE(symbols) << why;
  const auto c = coverage::unwind_coverage({*opened.artifact, nullptr, &*symbols});
  EXPECT_EQ(c.total, 0u);
  EXPECT_EQ(c.orc_tables + c.sframe_sections, 0u);
}

}  // namespace
}  // namespace elfmeta::testing

namespace elfmeta::testing {
namespace {

// SFrame (userspace): fn0 described from its first byte, fn1 from its
// fourth FRE offset on (its first 4 bytes undescribed), and "bare", a
// function with no FDE; in a linked file and in an object.
void expect_sframe_counts(synth::SframeFile kind) {
  synth::SframePlan plan;
  plan.version = 2;
  plan.fdes.resize(2);
  plan.fdes[0].offset = 0x00, plan.fdes[0].size = 0x20;
  plan.fdes[1].offset = 0x20, plan.fdes[1].size = 0x20;
  plan.fdes[1].fres[0].start = 4;
  auto opened = input::open_bytes("prog", synth::sframe_elf(plan, kind));
  ASSERT_TRUE(opened.artifact) << opened.error;
  const auto own = input::symbols_from_symtab(*opened.artifact);
  ASSERT_TRUE(own);
  input::SymbolIndex symbols;
  symbols.origin = "symtab";
  for (const input::Symbol& s : own->symbols()) symbols.add(s);
  const input::Symbol* fn1 = own->find("fn1");
  ASSERT_TRUE(fn1);
  symbols.add({"bare", fn1->address + 0x20, 0x10, 'T', fn1->section});  // past the last FDE
  symbols.finish();
  const auto c = coverage::unwind_coverage({*opened.artifact, nullptr, &symbols});
  EXPECT_EQ(c.sframe_sections, 1u);
  EXPECT_EQ(c.orc_tables, 0u);
  EXPECT_EQ(c.total, 3u);
  EXPECT_EQ(c.covered, 1u);
  EXPECT_EQ(c.partial, 1u);
  EXPECT_EQ(c.without_entry, 1u);
  EXPECT_EQ(c.text_bytes, 0x50u);
  EXPECT_EQ(c.undefined_bytes, 4u + 0x10u);
  EXPECT_EQ(c.undefined_regions, 2u);
}

TEST(CoverageUnwind, SframeInALinkedFile) { expect_sframe_counts(synth::SframeFile::Linked); }
TEST(CoverageUnwind, SframeInAnObject) { expect_sframe_counts(synth::SframeFile::Object); }

}  // namespace
}  // namespace elfmeta::testing
