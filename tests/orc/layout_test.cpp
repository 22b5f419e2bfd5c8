// The ORC layout table (orc/orc_layouts.h), row by row: each generation's
// fingerprint is the SHA-1 scripts/orc_hash.sh gives for its orc_types.h,
// its releases map to it, and the entries of real images of that generation
// decode to what objtool meant (the byte strings are the commonest entries
// of Debian's images: 6.1.0-50/56 for G1, 6.12.117 for G3, 7.1.3 and 7.2.13
// for G4; G2 and G3+AX from their orc_types.h, no image of them being at
// hand). Then layout inference: which tables it names a layout for, and
// which it refuses to guess.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/text.h"
#include "orc/layout_inference.h"
#include "orc/orc_format.h"
#include "orc/verifier.h"
#include "synth/orc_builder.h"
#include "tests/orc/orc_rule_cases.h"

namespace elfmeta::orc {
namespace {

std::array<uint8_t, 6> bytes_of(const char* hex) {
  std::array<uint8_t, 6> out{};
  for (size_t i = 0; i < 6; ++i) {
    unsigned v = 0;
    std::sscanf(hex + 2 * i, "%2x", &v);
    out[i] = static_cast<uint8_t>(v);
  }
  return out;
}

std::string fingerprint_hex(const LayoutInfo& l) {
  std::string s;
  char b[3];
  for (uint8_t x : *l.fingerprint) {
    std::snprintf(b, sizeof b, "%02x", x);
    s += b;
  }
  return s;
}

TEST(OrcLayouts, FingerprintsAreThoseOfEachGenerationsHeader) {
  // sha1sum of the lines orc_hash.sh keeps, computed from the orc_types.h
  // of Debian 6.12.117 (G3), 7.2.6/7.2.13/7.3.4 (G4), and of 6.1's with the
  // 6.3 signal patch (G2) or 7.0's with AX appended (G3+AX) applied; the
  // G3 and G4 values are also the .orc_header bytes of Debian's images.
  EXPECT_FALSE(layout_info(Layout::G1).fingerprint);
  EXPECT_EQ(fingerprint_hex(layout_info(Layout::G2)), "db84aed4103b31dd51e017f8f79783ca985c2c51");
  EXPECT_EQ(fingerprint_hex(layout_info(Layout::G3)), "fe5d32bf581bd63b2ca9a5c65ba5a625eab3fe24");
  EXPECT_EQ(fingerprint_hex(layout_info(Layout::G4)), "137c36ad7627c4dd55932176bb0ecdbd5041fc82");
  EXPECT_EQ(fingerprint_hex(layout_info(Layout::G3_AX)), "edfa4d15552fdd2e1d56679728416379f2fe4534");
  for (const LayoutInfo& row : layout_table()) {
    EXPECT_EQ(&layout_info(row.layout), &row);
    if (row.fingerprint) {
      EXPECT_EQ(layout_for_fingerprint(*row.fingerprint), row.layout) << row.name;
    }
  }
  std::array<uint8_t, 20> other = *layout_info(Layout::G4).fingerprint;
  other[19] ^= 1;
  EXPECT_FALSE(layout_for_fingerprint(other));
  EXPECT_FALSE(layout_for_fingerprint(std::span<const uint8_t>(other.data(), 19)));
}

TEST(OrcLayouts, ReleasesMapToTheirGeneration) {
  EXPECT_FALSE(layout_for_release({4, 13}));
  EXPECT_EQ(layout_for_release({4, 14}), Layout::G1);
  EXPECT_EQ(layout_for_release({6, 1}), Layout::G1);
  EXPECT_EQ(layout_for_release({6, 2}), Layout::G1);
  EXPECT_EQ(layout_for_release({6, 3}), Layout::G2);
  EXPECT_EQ(layout_for_release({6, 4}), Layout::G3);
  EXPECT_EQ(layout_for_release({6, 12}), Layout::G3);
  EXPECT_EQ(layout_for_release({7, 0}), Layout::G3);
  EXPECT_EQ(layout_for_release({7, 1}), Layout::G4);  // the renumbering is in 7.1, not 7.2
  EXPECT_EQ(layout_for_release({7, 2}), Layout::G4);
  EXPECT_EQ(layout_for_release({7, 3}), Layout::G4);
}

struct Known {
  Layout layout;
  const char* hex;
  const char* meaning;  // describe()
};

// Entries as the real images (or the header, for G2/G3+AX) have them.
const Known kKnown[] = {
    {Layout::G1, "080000000500", "call sp:sp+8 bp:und"},
    {Layout::G1, "1000f0ff1500", "call sp:sp+16 bp:prevsp-16"},
    {Layout::G1, "000000000000", "undefined"},
    {Layout::G1, "000000000004", "end_of_stack"},
    {Layout::G1, "a00000000501", "regs sp:sp+160 bp:und"},
    {Layout::G2, "080000000500", "call sp:sp+8 bp:und"},
    {Layout::G2, "000000000008", "end_of_stack"},
    {Layout::G2, "a00000000505", "regs sp:sp+160 bp:und signal"},
    {Layout::G2, "a80000000506", "regs_partial sp:sp+168 bp:und signal"},
    {Layout::G3, "080000000502", "call sp:sp+8 bp:und"},
    {Layout::G3, "1000f0ff1502", "call sp:sp+16 bp:prevsp-16"},
    {Layout::G3, "000000000001", "end_of_stack"},
    {Layout::G3, "a0000000050b", "regs sp:sp+160 bp:und signal"},
    {Layout::G3, "280000000504", "regs_partial sp:sp+40 bp:und"},
    {Layout::G3, "000000000802", "call sp:bp(ind)+0 bp:und"},
    {Layout::G4, "080000000302", "call sp:sp+8 bp:und"},
    {Layout::G4, "1000f0ff8302", "call sp:sp+16 bp:prevsp-16"},
    {Layout::G4, "000000000001", "end_of_stack"},
    {Layout::G4, "a0000000030b", "regs sp:sp+160 bp:und signal"},
    {Layout::G4, "000000000a02", "call sp:bp(ind)+0 bp:und"},
    {Layout::G4, "080000000102", "call sp:ax+8 bp:und"},
    {Layout::G3_AX, "080000000502", "call sp:sp+8 bp:und"},
    {Layout::G3_AX, "080000000a02", "call sp:ax+8 bp:und"},
};

TEST(OrcLayouts, RealEntriesOfEachGenerationDecodeAndEncode) {
  for (const Known& k : kKnown) {
    const auto raw = bytes_of(k.hex);
    const Entry e = decode(raw.data(), k.layout);
    EXPECT_EQ(describe(e), k.meaning) << layout_name(k.layout) << " " << k.hex;
    EXPECT_TRUE(is_plausible(e, layout_info(k.layout))) << layout_name(k.layout) << " " << k.hex;
    EXPECT_EQ(encode(e, k.layout), raw) << k.hex;
  }
  // The entry state every compiled function starts with, per generation.
  EXPECT_EQ(layout_info(Layout::G1).entry_state_word(), (std::array<uint8_t, 2>{0x05, 0x00}));
  EXPECT_EQ(layout_info(Layout::G2).entry_state_word(), (std::array<uint8_t, 2>{0x05, 0x00}));
  EXPECT_EQ(layout_info(Layout::G3).entry_state_word(), (std::array<uint8_t, 2>{0x05, 0x02}));
  EXPECT_EQ(layout_info(Layout::G4).entry_state_word(), (std::array<uint8_t, 2>{0x03, 0x02}));
  // A canonical entry encodes in each generation's numbering.
  EXPECT_EQ(encode(call_frame(16, kRegSp, kRegPrevSp, -16), Layout::G4), bytes_of("1000f0ff8302"));
  EXPECT_EQ(encode(call_frame(16, kRegSp, kRegPrevSp, -16), Layout::G3), bytes_of("1000f0ff1502"));
  EXPECT_EQ(encode(call_frame(16, kRegSp, kRegPrevSp, -16), Layout::G1), bytes_of("1000f0ff1500"));
  EXPECT_EQ(encode(end_of_stack(), Layout::G2), bytes_of("000000000008"));
}

// What each generation's unwinder takes, from the same bytes.
TEST(OrcLayouts, UnwinderAcceptanceDiffersWithTheNumbering) {
  // Code 8: bp(ind) (a CFA base) before 7.1, prevsp (refused as one) from 7.1.
  const auto cfa8 = bytes_of("080000000802");
  EXPECT_TRUE(is_plausible(decode(cfa8.data(), Layout::G3), layout_info(Layout::G3)));
  EXPECT_FALSE(is_plausible(decode(cfa8.data(), Layout::G4), layout_info(Layout::G4)));
  // bp_reg 8: prevsp from 7.1 (the saved RBP); bp(ind), refused, before.
  const auto bp8 = bytes_of("1000f0ff8302");
  EXPECT_TRUE(is_plausible(decode(bp8.data(), Layout::G4), layout_info(Layout::G4)));
  EXPECT_FALSE(is_plausible(decode(bp8.data(), Layout::G3), layout_info(Layout::G3)));
  // Code 1: ax from 7.1 (a CFA base), prevsp before (refused as one).
  const auto ax = bytes_of("080000000102");
  EXPECT_TRUE(layout_info(Layout::G4).accepts_cfa_base(decode(ax.data(), Layout::G4).sp_reg));
  EXPECT_FALSE(layout_info(Layout::G3).accepts_cfa_base(decode(ax.data(), Layout::G3).sp_reg));
  // Code 10: bp(ind) from 7.1, ax in G3+AX, unassigned in G3.
  const auto ten = bytes_of("080000000a02");
  EXPECT_EQ(decode(ten.data(), Layout::G4).sp_reg, kRegBpIndirect);
  EXPECT_EQ(decode(ten.data(), Layout::G3_AX).sp_reg, kRegAx);
  EXPECT_EQ(decode(ten.data(), Layout::G3).sp_reg, kRegUnassigned);
  // Bit 11: the end bit in 6.3, reserved before, signal from 6.4.
  const auto b11 = bytes_of("000000000008");
  EXPECT_EQ(decode(b11.data(), Layout::G2).type, kTypeEndOfStack);
  EXPECT_NE(decode(b11.data(), Layout::G1).reserved, 0u);
  EXPECT_TRUE(decode(b11.data(), Layout::G3).signal);
}

std::vector<uint8_t> table_of(std::initializer_list<std::pair<const char*, size_t>> runs) {
  std::vector<uint8_t> out;
  for (const auto& [hex, n] : runs)
    for (size_t i = 0; i < n; ++i) {
      const auto b = bytes_of(hex);
      out.insert(out.end(), b.begin(), b.end());
    }
  return out;
}

LayoutGuess guess(const std::vector<uint8_t>& t) { return infer_layout(t.data(), t.size() / kEntrySize); }

TEST(OrcLayoutInference, NamesTheOneGenerationThatFits) {
  // The mix of a function-heavy table: entry states, pushes, frames, padding.
  const auto g1 = table_of({{"080000000500", 20}, {"1000f0ff1500", 30}, {"1000f0ff1400", 10}, {"000000000000", 8}, {"000000000004", 1}});
  const auto g2 = table_of({{"080000000500", 20}, {"1000f0ff1500", 30}, {"000000000008", 1}, {"a00000000505", 2}});
  const auto g3 = table_of({{"080000000502", 20}, {"1000f0ff1502", 30}, {"1000f0ff1402", 10}, {"000000000000", 8}});
  const auto g4 = table_of({{"080000000302", 20}, {"1000f0ff8302", 30}, {"1000f0ff8402", 10}, {"000000000000", 8}});
  EXPECT_EQ(guess(g1).layout, Layout::G1) << guess(g1).how;
  EXPECT_EQ(guess(g2).layout, Layout::G2) << guess(g2).how;
  EXPECT_EQ(guess(g3).layout, Layout::G3) << guess(g3).how;
  EXPECT_EQ(guess(g4).layout, Layout::G4) << guess(g4).how;
}

TEST(OrcLayoutInference, GenerationsThatDecodeAlikeAreOneAnswer) {
  // Call frames only: G1 and G2 store them alike.
  const auto calls = table_of({{"080000000500", 20}, {"1000f0ff1500", 30}, {"000000000000", 5}});
  const LayoutGuess g = guess(calls);
  EXPECT_EQ(g.layout, Layout::G1) << g.how;
  EXPECT_NE(g.how.find("decode them alike"), std::string::npos) << g.how;
  // Nothing but terminators: every generation reads them alike.
  EXPECT_TRUE(guess(table_of({{"000000000000", 4}})).layout);
  EXPECT_TRUE(guess({}).layout);
}

TEST(OrcLayoutInference, RefusesToGuessWhenNothingOrTwoFit) {
  // Reserved bits everywhere: no generation.
  const LayoutGuess none = guess(table_of({{"0800000005f2", 50}}));
  EXPECT_FALSE(none.layout);
  EXPECT_NE(none.how.find("no known layout fits"), std::string::npos) << none.how;
  // Entry states of G3 and of G4 in equal numbers, frames whose bases mean
  // something in both numberings: two fit, differently.
  const LayoutGuess two = guess(table_of({{"080000000502", 20}, {"080000000302", 20}, {"100000000402", 10}}));
  EXPECT_FALSE(two.layout) << two.how;
  EXPECT_NE(two.how.find("decode them differently"), std::string::npos) << two.how;
  // A table whose functions do not start with the entry state of any
  // generation: no guess.
  EXPECT_FALSE(guess(table_of({{"100000000502", 50}, {"180000000502", 50}})).layout);
}

TEST(OrcLayoutInference, AFewBadEntriesDoNotHideTheLayout) {
  // One implausible entry in three hundred (a hostile or broken one).
  const auto t = table_of({{"080000000302", 100}, {"1000f0ff8302", 199}, {"0800000003f2", 1}});
  EXPECT_EQ(guess(t).layout, Layout::G4) << guess(t).how;
}

// ------------------------------------------------------------ the verifier

// A generated image of `layout` whose header is changed: the entries say
// which generation, one finding says the header is unknown.
TEST(OrcLayoutChoice, UnknownFingerprintWithEntriesOfOneGeneration) {
  for (const Layout layout : {Layout::G3, Layout::G4}) {
    std::mt19937_64 rng(5);
    testing::OrcMutation m(synth::random_orc(rng, layout, true).build());
    m.contents(".orc_header")[7] ^= 0x40;
    auto opened = input::open_bytes("image", m.bytes());
    ASSERT_TRUE(opened.artifact);
    DiagnosticList list;
    const OrcCheck c = check_orc(*opened.artifact, {}, list);
    EXPECT_EQ(c.layout, layout);
    EXPECT_TRUE(c.entries_checked);
    EXPECT_EQ(list.count(Severity::Error), 1u);
    EXPECT_EQ(list.count("ORC-SEC-008"), 1u);
    EXPECT_EQ(list.count(Severity::Warning), 0u);
  }
}

// An unknown header and entries no generation fits: one finding, a note,
// and no entry findings however many entries there are.
TEST(OrcLayoutChoice, UnknownFingerprintAndUnreadableEntriesGiveOneFinding) {
  std::mt19937_64 rng(6);
  testing::OrcMutation m(synth::random_orc(rng, Layout::G4, true).build());
  m.contents(".orc_header")[0] ^= 0xff;
  for (size_t i = 0; i < m.entries(); ++i) {
    auto raw = m.entry(i).bytes;
    raw[5] |= 0xf0;
    m.set_raw_entry(i, raw);
  }
  auto opened = input::open_bytes("image", m.bytes());
  ASSERT_TRUE(opened.artifact);
  DiagnosticList list;
  const OrcCheck c = check_orc(*opened.artifact, {}, list);
  EXPECT_FALSE(c.entries_checked);
  size_t findings = 0, notes = 0;
  for (const auto& d : list.items()) (d.rule ? findings : notes) += 1;
  EXPECT_EQ(findings, 1u);
  EXPECT_EQ(list.count("ORC-SEC-008"), 1u);
  bool noted = false;
  for (const auto& d : list.items())
    noted |= !d.rule && d.message.find("ORC entries not checked") != std::string::npos;
  EXPECT_TRUE(noted);
}

// The release fallback follows the table: a 7.2 module without a header is
// read in the renumbered layout, a 7.0 one in the old.
TEST(OrcLayoutChoice, ReleaseWithoutHeaderPicksTheGenerationOfThatRelease) {
  for (const Layout layout : {Layout::G1, Layout::G2, Layout::G3, Layout::G4}) {
    std::mt19937_64 rng(7);
    auto b = synth::random_orc(rng, layout, false, /*module=*/true);
    b.with_header = false;
    auto opened = input::open_bytes("module", b.build());
    ASSERT_TRUE(opened.artifact);
    DiagnosticList list;
    const OrcCheck c = check_orc(*opened.artifact, {}, list);
    EXPECT_EQ(c.layout, layout) << c.layout_source;
    EXPECT_EQ(c.layout_source.rfind("vermagic", 0), 0u) << c.layout_source;
    EXPECT_EQ(list.items().size(), 0u);
  }
}

}  // namespace
}  // namespace elfmeta::orc
