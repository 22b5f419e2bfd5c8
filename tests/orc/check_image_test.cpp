// Linked images whose context is missing: a check that needs the code and
// finds none is one note, never an error per entry.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "orc/orc_format.h"
#include "orc/orc_table.h"
#include "synth/orc_builder.h"
#include "tests/orc/orc_rule_cases.h"

namespace elfmeta::testing {
namespace {

std::vector<uint8_t> small_image() {
  synth::OrcPlan plan;
  plan.image = true;
  for (int s = 0; s < 2; ++s) {
    auto& section = plan.sections.emplace_back();
    for (int i = 0; i < 40; ++i) section.push_back({uint16_t(8 + i % 5), true, false, uint8_t(i % 3)});
  }
  return synth::orc_from_plan(plan).build();
}

TEST(OrcImageContext, NoExecutableSectionIsOneNoteNotAnErrorPerEntry) {
  OrcMutation m(small_image());
  ASSERT_GT(m.entries(), 40u);
  std::string listing;
  ASSERT_TRUE(orc_rule_counts(m, &listing).empty()) << listing;
  for (const input::Section* code : m.table().code) m.set_flags(code->name, SHF_ALLOC);
  const auto counts = orc_rule_counts(m, &listing);
  EXPECT_EQ(counts.count("ORC-COV-001"), 0u) << listing;
  EXPECT_NE(listing.find("ORC-COV-001 and ORC-COV-007 not checked: the file has no executable section"), std::string::npos) << listing;
}

TEST(OrcImageContext, OneEntryOutsideTheCodeIsStillAnError) {
  OrcMutation m(small_image());
  m.set_address(3, 0x10);  // below every section
  std::string listing;
  EXPECT_EQ(orc_rule_counts(m, &listing)["ORC-COV-001"], 1u) << listing;
}

// An executable linked from objtool's objects with no __ksymtab or .BTF is
// still a kernel's link: its table must be sorted as sorttable sorts it.
TEST(OrcImageContext, KernelLikeExecutableIsCheckedForOrder) {
  OrcMutation m(small_image());
  m.rename("__ksymtab_strings", "__xsymtab_strings");
  std::string listing;
  ASSERT_TRUE(orc_rule_counts(m, &listing).empty()) << listing;
  const auto i = m.find([&](size_t k) {
    return k > 0 && k + 1 < m.entries() && m.address(k - 1) < m.address(k) && m.address(k) < m.address(k + 1) &&
           !orc::is_weak(m.entry(k)) && !orc::is_weak(m.entry(k + 1)) && m.entry(k).bytes != m.entry(k + 1).bytes;
  });
  ASSERT_TRUE(i);
  // Two real entries at one address: the second moved back onto the first.
  m.set_address(*i + 1, m.address(*i));
  const auto counts = orc_rule_counts(m, &listing);
  EXPECT_EQ(counts.count("ORC-SORT-003"), 1u) << listing;
}

// The kernel sorts a module's table at load time: order on disk is free,
// but two different real entries at one address leave the answer of a
// lookup to the sort.
TEST(OrcObjectOrder, TwoRealEntriesAtOneAddressOfAModule) {
  std::mt19937_64 rng(11);
  OrcMutation m(synth::random_orc(rng, orc::Layout::G4, false, true).build(), std::nullopt, Release{6, 12});
  std::string listing;
  ASSERT_TRUE(orc_rule_counts(m, &listing).empty()) << listing;
  const auto i = m.find([&](size_t k) {
    return k + 1 < m.entries() && m.table().sites[k].section == m.table().sites[k + 1].section &&
           !orc::is_weak(m.entry(k)) && !orc::is_weak(m.entry(k + 1)) && m.entry(k).bytes != m.entry(k + 1).bytes;
  });
  ASSERT_TRUE(i);
  // Slot i+1's relocation made to point where slot i's does.
  size_t ri = m.relas(), rj = m.relas();
  for (size_t k = 0; k < m.relas(); ++k) {
    uint64_t off;
    std::memcpy(&off, m.rela(k), 8);
    if (off == *i * 4) ri = k;
    if (off == (*i + 1) * 4) rj = k;
  }
  ASSERT_LT(ri, m.relas());
  ASSERT_LT(rj, m.relas());
  std::memcpy(m.rela(rj) + 8, m.rela(ri) + 8, 16);  // r_info and r_addend
  EXPECT_EQ(orc_rule_counts(m, &listing)["ORC-SORT-003"], 1u) << listing;
}

}  // namespace
}  // namespace elfmeta::testing
