// What counts as fill (x86_fill.h): the NOP forms, int3 and ud2 as written
// by hand from the encodings, and as the real assembler and compiler emit
// them (bookworm's gas and gcc, run here).
#include "orc/x86_fill.h"

#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include "input/artifact.h"
#include "tests/support/require.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/toolchain_root.h"

namespace elfmeta::orc {
namespace {

using Bytes = std::vector<uint8_t>;

size_t fill(const Bytes& b) { return x86_fill_length(b); }

TEST(X86Fill, TheNopFormsAreFillOfTheirLength) {
  EXPECT_EQ(fill({0x90}), 1u);
  EXPECT_EQ(fill({0x66, 0x90}), 2u);
  EXPECT_EQ(fill({0x0f, 0x1f, 0x00}), 3u);                                            // nopl (%rax)
  EXPECT_EQ(fill({0x0f, 0x1f, 0x40, 0x00}), 4u);                                      // nopl 0(%rax)
  EXPECT_EQ(fill({0x0f, 0x1f, 0x44, 0x00, 0x00}), 5u);                                // nopl 0(%rax,%rax)
  EXPECT_EQ(fill({0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00}), 6u);
  EXPECT_EQ(fill({0x0f, 0x1f, 0x80, 0, 0, 0, 0}), 7u);                                // disp32
  EXPECT_EQ(fill({0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}), 8u);                             // SIB + disp32
  EXPECT_EQ(fill({0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}), 10u);                // cs nopw
  EXPECT_EQ(fill({0x0f, 0x1f, 0xc0}), 3u);                                            // nopl %eax
  EXPECT_EQ(fill({0x0f, 0x1f, 0x05, 0, 0, 0, 0}), 7u);                                // RIP-relative
  EXPECT_EQ(fill({0x0f, 0x1f, 0x04, 0x25, 0, 0, 0, 0}), 8u);                          // SIB, no base: disp32
  EXPECT_EQ(fill({0xcc}), 1u);
  EXPECT_EQ(fill({0x0f, 0x0b}), 2u);
}

TEST(X86Fill, CodeCutShortAndOtherInstructionsAreNot) {
  EXPECT_EQ(fill({}), 0u);
  EXPECT_EQ(fill({0x0f, 0x1f, 0x44, 0x00}), 0u);            // a 5-byte NOP cut at 4
  EXPECT_EQ(fill({0x66, 0x66}), 0u);                        // prefixes alone
  EXPECT_EQ(fill({0x55}), 0u);                              // push %rbp
  EXPECT_EQ(fill({0x48, 0x89, 0xe5}), 0u);                  // mov %rsp,%rbp
  EXPECT_EQ(fill({0x66, 0x89, 0x07}), 0u);                  // mov %ax,(%rdi): 66 is not only a NOP prefix
  EXPECT_EQ(fill({0x0f, 0x1f, 0x48, 0x00}), 0u);            // 0f 1f /1: a hint, not what assemblers pad with
  EXPECT_EQ(fill({0x0f, 0x18, 0x08}), 0u);                  // prefetcht0
  EXPECT_EQ(fill({0xf3, 0x0f, 0x1e, 0xfa}), 0u);            // endbr64 runs: it is a branch target
  EXPECT_EQ(fill({0x66, 0xcc}), 0u);
  EXPECT_EQ(fill(Bytes(16, 0x66)), 0u);                     // past the 15-byte limit
  EXPECT_TRUE(x86_all_fill(Bytes{0xcc, 0xcc, 0x90, 0x0f, 0x1f, 0x00}));
  EXPECT_FALSE(x86_all_fill(Bytes{0xcc, 0x55}));
}

// The .text of an object gas assembled from `source` (empty when gas failed).
Bytes assembled_text(const std::string& source) {
  const auto dir = testing::scratch_dir("x86-fill");
  std::ofstream(dir / "fill.s") << source;
  const auto r = testing::run_command("as -o " + (dir / "fill.o").string() + " " + (dir / "fill.s").string());
  EXPECT_EQ(r.status, 0) << r.output;
  auto opened = input::open_input((dir / "fill.o").string());
  if (!opened.artifact) return {};
  const input::Section* text = opened.artifact->section(".text");
  return text ? Bytes(text->data.begin(), text->data.end()) : Bytes{};
}

TEST(X86Fill, WhatGasPadsWithIsFill) {
  ELFMETA_REQUIRE_INSTALLED(testing::run_command("as --version").status == 0, "no as (package binutils)");
  for (int n = 1; n <= 15; ++n) {
    const Bytes b = assembled_text(".text\n.nops " + std::to_string(n) + "\n");
    ASSERT_EQ(b.size(), size_t(n));
    EXPECT_TRUE(x86_all_fill(b)) << ".nops " << n;
  }
  // Alignment after a return and after a noreturn call's trap, as between
  // and inside kernel functions.
  Bytes b = assembled_text(".text\nret\nint3\n.p2align 6\nud2\n.p2align 5\n");
  ASSERT_EQ(b.size(), 64u + 32u);
  EXPECT_TRUE(x86_all_fill(std::span(b).subspan(1)));
  EXPECT_FALSE(x86_all_fill(assembled_text(".text\npush %rbp\nmov %rsp,%rbp\n.nops 3\n")));
}

}  // namespace
}  // namespace elfmeta::orc
