// ORC-COV-007 (check_functions.cpp): an undefined entry between two call
// frames of one function is judged by the bytes it covers; fill is not
// judged, nor entry assembly's register frames, and code the file does not
// hold is a note, never a pass and never a finding.
#include <elf.h>
#include <gtest/gtest.h>

#include "orc/orc_format.h"
#include "orc/orc_table.h"
#include "synth/orc_builder.h"
#include "tests/orc/orc_rule_cases.h"

namespace elfmeta::testing {
namespace {

using orc::Entry;

// An image of two sections of functions with stack frames (their code is
// the builder's NOPs).
std::vector<uint8_t> image_with_frames() {
  synth::OrcPlan plan;
  plan.image = true;
  for (int s = 0; s < 2; ++s) {
    auto& section = plan.sections.emplace_back();
    for (int i = 0; i < 20; ++i) section.push_back({uint16_t(24 + i % 5), false, false, uint8_t(1 + i % 3)});
  }
  return synth::orc_from_plan(plan).build();
}

// An inner call frame between two inner call frames of its function.
size_t inner_between_calls(const OrcMutation& m) {
  const auto inner = [&](size_t k) {
    const Entry e = m.entry(k);
    return e.type == orc::kTypeCall && !orc::is_entry_state(e);
  };
  const auto i = m.find([&](size_t k) {
    return k > 0 && k + 1 < m.entries() && m.entry(k - 1).type == orc::kTypeCall && inner(k) && inner(k + 1) &&
           m.address(k - 1) < m.address(k) && m.address(k) < m.address(k + 1);
  });
  if (!i) throw std::runtime_error("no inner call frame between two others");
  return *i;
}

uint8_t& code_byte(OrcMutation& m, uint64_t address) {
  const input::Section* text = m.table().code_at(address);
  if (!text) throw std::runtime_error("no code at the entry");
  return m.contents(text->name)[address - text->addr];
}

TEST(OrcFunctionBodies, UndefinedOnCodeThatRunsIsReported) {
  OrcMutation m(image_with_frames());
  std::string listing;
  ASSERT_TRUE(orc_rule_counts(m, &listing).empty()) << listing;
  const size_t i = inner_between_calls(m);
  m.set_entry(i, orc::terminator());
  code_byte(m, m.address(i)) = 0x48;  // a REX prefix: not fill
  const auto counts = orc_rule_counts(m, &listing);
  EXPECT_EQ(counts.size(), 1u) << listing;
  EXPECT_EQ(counts.count("ORC-COV-007"), 1u) << listing;
  EXPECT_NE(listing.find("on code that is not padding (48"), std::string::npos) << listing;
}

TEST(OrcFunctionBodies, UndefinedOnFillIsNotJudged) {
  for (uint8_t fill : {0x90, 0xcc}) {
    OrcMutation m(image_with_frames());
    const size_t i = inner_between_calls(m);
    m.set_entry(i, orc::terminator());
    code_byte(m, m.address(i)) = fill;  // the rest is the builder's NOPs
    std::string listing;
    EXPECT_TRUE(orc_rule_counts(m, &listing).empty()) << int(fill) << ":\n" << listing;
  }
}

TEST(OrcFunctionBodies, UndefinedBetweenRegisterFramesIsEntryAssembly) {
  OrcMutation m(image_with_frames());
  const size_t i = inner_between_calls(m);
  for (size_t k : {i - 1, i + 1}) {
    Entry e = m.entry(k);
    e.type = orc::kTypeRegsPartial;
    m.set_entry(k, e);
  }
  m.set_entry(i, orc::terminator());
  code_byte(m, m.address(i)) = 0x48;
  std::string listing;
  EXPECT_EQ(orc_rule_counts(m, &listing).count("ORC-COV-007"), 0u) << listing;
}

// Code sections without bytes (SHT_NOBITS) are no code to place entries in:
// the image's one note names this rule as not run.
TEST(OrcFunctionBodies, CodeTheFileDoesNotHoldIsANote) {
  OrcMutation m(image_with_frames());
  const size_t i = inner_between_calls(m);
  m.set_entry(i, orc::terminator());
  code_byte(m, m.address(i)) = 0x48;
  for (const input::Section* code : m.table().code) m.set_type(code->name, SHT_NOBITS);
  std::string listing;
  EXPECT_EQ(orc_rule_counts(m, &listing).count("ORC-COV-007"), 0u) << listing;
  EXPECT_NE(listing.find("ORC-COV-001 and ORC-COV-007 not checked: the file has no executable section"),
            std::string::npos) << listing;
}

}  // namespace
}  // namespace elfmeta::testing
