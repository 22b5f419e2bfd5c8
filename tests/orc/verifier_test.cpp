// A kernel image's table is checked on two threads (each pass in two
// halves, each half's findings taken over in order): the findings, their
// order and the listing limit per rule are those of a sequential check.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "core/report.h"
#include "input/symbols.h"
#include "orc/orc_checks.h"
#include "orc/orc_table.h"
#include "orc/verifier.h"
#include "synth/orc_builder.h"
#include "tests/orc/orc_rule_cases.h"

namespace elfmeta::testing {
namespace {

// A generated image above the threshold of concurrent checking.
std::vector<uint8_t> large_image() {
  synth::OrcPlan plan;
  plan.image = true;
  plan.prefixes = true;
  std::mt19937_64 rng(7);
  for (int s = 0; s < 2; ++s) {
    auto& section = plan.sections.emplace_back();
    for (int i = 0; i < 9000; ++i)
      section.push_back({uint16_t(rng() % 200), bool(rng() % 2), bool(rng() % 3 == 0), uint8_t(rng() % 8)});
  }
  return synth::orc_from_plan(plan).build();
}

struct Checked {
  std::string listing;
  size_t errors = 0;
  std::map<std::string, size_t> listed;
};

Checked check(const std::vector<uint8_t>& elf, bool concurrent) {
  auto opened = input::open_bytes("generated", elf);
  EXPECT_NE(opened.artifact, nullptr) << opened.error;
  Checked out;
  if (!opened.artifact) return out;
  DiagnosticList list;
  orc::OrcOptions options;
  options.concurrent = concurrent;
  out.errors = orc::check_orc(*opened.artifact, options, list).errors;
  std::ostringstream text;
  for (const auto& d : list.items()) {
    write_text(text, d);
    if (d.rule) ++out.listed[std::string(d.rule->id)];
  }
  out.listing = text.str();
  return out;
}

TEST(OrcConcurrentCheck, FindingsEqualTheSequentialCheck) {
  OrcMutation m(large_image());
  const size_t n = m.entries();
  ASSERT_GE(n, orc::kConcurrentEntries);
  {
    const Checked clean = check(m.bytes(), true);
    EXPECT_EQ(clean.listing, "");
  }
  // ORC-ENT-006 in both halves, more than the listing limit of 100: the
  // first 100 in entry order are listed either way.
  std::vector<size_t> calls;
  for (size_t i = 0; i < n; ++i)
    if (m.entry(i).type == orc::kTypeCall && m.entry(i).sp_reg == orc::kRegSp && m.entry(i).sp_offset == 16) calls.push_back(i);
  ASSERT_GT(calls.size(), 300u);
  size_t broken = 0;
  for (size_t k = 0; k < calls.size(); k += calls.size() / 150, ++broken) {
    orc::Entry e = m.entry(calls[k]);
    e.sp_offset = 20;
    m.set_entry(calls[k], e);
  }
  // An entry with reserved bits (ORC-ENT-001) at each end, and one right at the split.
  for (size_t i : {size_t(0), n / 2, n / 2 - 1, n - 1}) {
    std::array<uint8_t, 6> raw = m.entry(i).bytes;
    raw[5] |= 0x80;
    m.set_raw_entry(i, raw);
  }
  const Checked one = check(m.bytes(), false), two = check(m.bytes(), true);
  EXPECT_EQ(two.listing, one.listing);
  EXPECT_EQ(two.errors, one.errors);
  EXPECT_EQ(one.listed.at("ORC-ENT-006"), 100u);
  EXPECT_EQ(one.listed.at("ORC-ENT-001"), 4u);
  EXPECT_NE(one.listing.find(std::to_string(broken - 100) + " more ORC-ENT-006 findings not listed"), std::string::npos)
      << one.listing;
}

// Function starts that are not a call frame (ORC-SYM-001) in both halves of
// the starts: the sequential order, whichever thread found them.
TEST(OrcConcurrentCheck, SymbolFindingsInBothHalvesKeepTheirOrder) {
  OrcMutation m(large_image());
  const auto symbols = input::symbols_from_symtab(m.original());
  ASSERT_TRUE(symbols);
  // The entries covering function entries (from their __pfx_ padding,
  // which has the same state), in address order.
  std::vector<size_t> at_start;
  size_t i = 0;
  for (const auto& c : symbols->code_starts()) {
    if (c.role != input::CodeRole::Function) continue;
    while (i + 1 < m.entries() && m.address(i + 1) <= c.address) ++i;
    if (orc::is_entry_state(m.entry(i)) && (at_start.empty() || at_start.back() != i)) at_start.push_back(i);
  }
  ASSERT_GT(at_start.size(), 1000u);
  const size_t half = at_start.size() / 2;
  for (size_t k : {size_t(3), half - 1, half, half + 1, at_start.size() - 3}) {
    orc::Entry e = m.entry(at_start[k]);
    e.sp_offset = 16;  // a valid call frame, but not a function's first
    m.set_entry(at_start[k], e);
  }
  const Checked one = check(m.bytes(), false), two = check(m.bytes(), true);
  EXPECT_EQ(two.listing, one.listing);
  EXPECT_EQ(one.listed.at("ORC-SYM-001"), 5u) << one.listing;
}

// A prefix at the end of a stretch of starts has its function in the next
// stretch (check_symbols finds the entries kSymbolStretch starts at a time):
// moving the entry state from such prefixes to their functions (as
// ORC-SYM-003's rule case does) is found at each, with one thread or two.
TEST(OrcConcurrentCheck, PrefixesAtTheEndOfAStretch) {
  OrcMutation m(large_image());
  const auto symbols = input::symbols_from_symtab(m.original());
  ASSERT_TRUE(symbols);
  const auto& starts = symbols->code_starts();
  ASSERT_GT(starts.size(), 4 * orc::kSymbolStretch);
  size_t moved = 0;
  for (size_t k = orc::kSymbolStretch - 1; k < starts.size(); k += orc::kSymbolStretch) {
    if (starts[k].role != input::CodeRole::Prefix || starts[k].prefixed != k + 1) continue;
    // The entry at the prefix, with the padding's weak entry below it.
    const auto i = m.find([&](size_t e) { return m.address(e) >= starts[k].address; });
    ASSERT_TRUE(i);
    if (m.address(*i) != starts[k].address || !orc::is_entry_state(m.entry(*i)) ||
        !orc::is_weak(m.entry(*i - 1)) || m.address(*i + 1) <= starts[k + 1].address)
      continue;
    m.set_address(*i, starts[k + 1].address);
    ++moved;
  }
  ASSERT_GE(moved, 3u);
  const Checked one = check(m.bytes(), false), two = check(m.bytes(), true);
  EXPECT_EQ(two.listing, one.listing);
  EXPECT_EQ(one.listed.count("ORC-SYM-003") ? one.listed.at("ORC-SYM-003") : 0, moved) << one.listing;
  EXPECT_EQ(one.listed.size(), 1u) << one.listing;  // nothing else
}

}  // namespace
}  // namespace elfmeta::testing
