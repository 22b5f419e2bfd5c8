// Every ORC rule has a mutation that makes exactly it fire, on generated
// tables of every scope and layout (orc_layouts.h) it applies to.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "orc/orc_rules.h"
#include "synth/orc_builder.h"
#include "tests/orc/orc_rule_cases.h"

namespace elfmeta::testing {
namespace {

class OrcRuleCaseTest : public ::testing::TestWithParam<OrcRuleCase> {};

}  // namespace

void PrintTo(const OrcRuleCase& c, std::ostream* os) { *os << c.rule; }

namespace {

TEST_P(OrcRuleCaseTest, FiresExactlyItsRuleOnGeneratedTables) {
  const OrcRuleCase& c = GetParam();
  std::set<std::string> allowed{std::string(c.rule)};
  for (auto a : c.also) allowed.insert(std::string(a));
  size_t applied = 0;
  for (uint32_t scope : {kObject, kModule, kImage}) {
    if (!(c.scopes & scope)) continue;
    for (const orc::LayoutInfo& row : orc::layout_table()) {
      const orc::Layout layout = row.layout;
      if (!(c.layouts & layout_bit(layout))) continue;
      // Some tables lack what a mutation needs (no padding, one function):
      // try seeds until one has it.
      bool done = false;
      for (uint64_t seed = 1; seed < 40 && !done; ++seed) {
        std::mt19937_64 rng(seed * 7919 + scope);
        const auto table = synth::random_orc(rng, layout, scope == kImage, scope == kModule,
                                             c.needs_prefixes && row.typed_no_info);
        const auto kernel = scope == kObject ? object_kernel(layout) : std::nullopt;
        OrcMutation clean(table.build(), std::nullopt, kernel);
        ASSERT_TRUE(orc_rules_fired(clean).empty());
        OrcMutation m(table.build(), std::nullopt, kernel);
        if (!c.mutate(m)) continue;
        done = true;
        ++applied;
        std::string listing;
        const auto fired = orc_rules_fired(m, &listing);
        EXPECT_TRUE(fired.count(std::string(c.rule))) << c.rule << " did not fire (scope " << scope << ", "
                                                       << orc::layout_name(layout) << "):\n" << listing;
        for (const auto& r : fired) EXPECT_TRUE(allowed.count(r)) << c.rule << " also fired " << r << ":\n" << listing;
      }
      EXPECT_TRUE(done) << c.rule << ": no generated table to mutate (scope " << scope << ", " << orc::layout_name(layout) << ")";
    }
  }
  EXPECT_GT(applied, 0u);
}

std::string case_name(const ::testing::TestParamInfo<OrcRuleCase>& info) {
  std::string n(info.param.rule);
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

INSTANTIATE_TEST_SUITE_P(Rules, OrcRuleCaseTest, ::testing::ValuesIn(orc_rule_cases()), case_name);

TEST(OrcRuleTable, EveryRuleHasACase) {
  std::set<std::string_view> covered;
  for (const auto& c : orc_rule_cases()) covered.insert(c.rule);
  for (const Rule* r : orc::rules::table()) {
    if (std::string_view(r->id).starts_with("ORC-CFI-")) continue;  // tests/orc/cfi_test.cpp
    EXPECT_TRUE(covered.count(r->id)) << r->id << " has no mutation";
  }
}

}  // namespace
}  // namespace elfmeta::testing
