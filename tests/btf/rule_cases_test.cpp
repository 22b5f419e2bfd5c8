// Every BTF rule has an input that triggers exactly it and a valid twin; the
// running kernel agrees with both where it can judge them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <utility>

#include "btf/artifact_check.h"
#include "btf/btf_rules.h"
#include "btf/verifier.h"
#include "core/report.h"
#include "input/artifact.h"
#include "oracle/kernel_btf_oracle.h"
#include "tests/btf/rule_cases.h"

namespace elfmeta::testing {
namespace {

Outcome run(const RuleCase& c, bool twin) { return run_case(c, twin, rule_case_context()); }

class BtfRuleCase : public ::testing::TestWithParam<RuleCase> {};

}  // namespace

void PrintTo(const RuleCase& c, std::ostream* os) { *os << c.rule; }

namespace {

TEST_P(BtfRuleCase, TriggersExactlyItsRule) {
  const RuleCase& c = GetParam();
  const Outcome o = run(c, false);
  std::set<std::string> expected{std::string(c.rule)};
  for (auto also : c.also) expected.insert(std::string(also));
  EXPECT_TRUE(o.rules.count(std::string(c.rule))) << c.rule << " did not fire:\n" << o.listing;
  for (const auto& r : o.rules) EXPECT_TRUE(expected.count(r)) << c.rule << " case also fired " << r << ":\n" << o.listing;
  const Rule* rule = find_rule(c.rule);
  ASSERT_NE(rule, nullptr);
  const bool enforced = rule->severity == Severity::Error && (rule->enforced_by & c.consumer);
  EXPECT_EQ(o.errors > 0, enforced) << o.listing;
}

TEST_P(BtfRuleCase, TwinIsClean) {
  const RuleCase& c = GetParam();
  const Outcome o = run(c, true);
  EXPECT_EQ(o.errors, 0u) << o.listing;
  for (const auto& r : o.rules)
    EXPECT_TRUE(std::find(c.also.begin(), c.also.end(), r) != c.also.end()) << "twin of " << c.rule << " fired " << r
                                                                            << ":\n" << o.listing;
}

// The real kernel must reject every trigger of a rule BPF_BTF_LOAD enforces,
// and accept the twins and the triggers of lints.
TEST_P(BtfRuleCase, KernelAgrees) {
  const RuleCase& c = GetParam();
  std::string why;
  if (!oracle::kernel_btf_oracle_available(&why)) GTEST_SKIP() << "kernel oracle unavailable: " << why;
  if (c.base || c.elf || c.consumer != kBpfBtfLoad) GTEST_SKIP() << "BPF_BTF_LOAD cannot judge split or kernel-only cases";
  if (c.kernel != btf::kDefaultRelease)
    GTEST_SKIP() << "a case for Linux " << c.kernel.str() << " (the VM tests judge 6.1 and 6.12 cases)";
  const Rule* rule = find_rule(c.rule);
  ASSERT_NE(rule, nullptr);
  const auto trigger = oracle::kernel_btf_load(c.make(false));
  const auto twin = oracle::kernel_btf_load(c.make(true));
  const bool rejects = rule->severity == Severity::Error && (rule->enforced_by & kBpfBtfLoad);
  EXPECT_EQ(!trigger.accepted, rejects) << c.rule << ": kernel " << (trigger.accepted ? "accepted" : "rejected")
                                        << " the trigger (" << oracle::errno_name(trigger.error) << ": " << trigger.reason << ")";
  EXPECT_TRUE(twin.accepted) << c.rule << ": kernel rejected the twin (" << oracle::errno_name(twin.error) << ": "
                             << twin.reason << ")";
}

std::string case_name(const ::testing::TestParamInfo<RuleCase>& info) {
  std::string n(info.param.rule);
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

INSTANTIATE_TEST_SUITE_P(Rules, BtfRuleCase, ::testing::ValuesIn(btf_rule_cases()), case_name);

TEST(BtfRuleTable, EveryRuleHasACase) {
  std::set<std::string_view> covered;
  for (const auto& c : btf_rule_cases()) covered.insert(c.rule);
  for (const Rule* r : btf::rules::table()) EXPECT_TRUE(covered.count(r->id)) << r->id << " has no test case";
  EXPECT_EQ(covered.size(), btf_rule_cases().size()) << "two cases for one rule";
  for (auto id : covered) EXPECT_NE(find_rule(id), nullptr) << "case for unknown rule " << id;
}

// The strings of a blob's string section, when its 24- or 32-byte header
// can be read; empty otherwise.
std::set<std::string> blob_strings(const Blob& b) {
  auto u32 = [&](size_t at) {
    uint32_t v = 0;
    std::memcpy(&v, b.data() + at, 4);
    return v;
  };
  std::set<std::string> out;
  if (b.size() < 24 || b[0] != 0x9f || b[1] != 0xeb) return out;
  const uint64_t hdr = u32(4), off = hdr + uint64_t(u32(16)), len = u32(20);
  if (hdr < 24 || off + len > b.size()) return out;
  std::string s;
  for (uint64_t i = off; i < off + len; ++i)
    if (b[i]) s += static_cast<char>(b[i]);
    else if (!s.empty()) out.insert(std::exchange(s, ""));
  return out;
}

// A rule's documented trigger (docs/rules/) names what its case builds:
// every printable name of two to 32 characters in the trigger's strings and
// not in its twin's (what the case adds or renames) appears in the trigger
// text.
TEST(BtfRuleTable, TriggerNamesWhatItsCaseBuilds) {
  size_t named = 0;
  for (const RuleCase& c : btf_rule_cases()) {
    if (c.is_large || c.elf) continue;
    const Rule* rule = find_rule(c.rule);
    ASSERT_NE(rule, nullptr) << c.rule;
    ASSERT_FALSE(rule->trigger.empty()) << c.rule;
    const std::set<std::string> twin = blob_strings(c.make(true));
    for (const std::string& name : blob_strings(c.make(false))) {
      if (twin.count(name) || name.size() < 2 || name.size() > 32) continue;
      if (!std::all_of(name.begin(), name.end(), [](char ch) { return ch > ' ' && ch < 127; })) continue;
      ++named;
      EXPECT_NE(rule->trigger.find(name), std::string_view::npos)
          << c.rule << ": the case builds '" << name << "', the trigger says: " << rule->trigger;
    }
  }
  EXPECT_GT(named, 5u);
}

TEST(BtfRuleTable, IdsAreUniqueAndDocumented) {
  std::set<std::string_view> ids;
  for (const Rule* r : btf::rules::table()) {
    EXPECT_TRUE(ids.insert(r->id).second) << "duplicate " << r->id;
    EXPECT_FALSE(r->summary.empty()) << r->id;
    EXPECT_EQ(r->id.substr(0, 4), "BTF-") << r->id;
  }
}

}  // namespace
}  // namespace elfmeta::testing

namespace elfmeta::testing {
namespace {

// libbpf's distilled base (pahole's distilled_base, a module's .BTF.base)
// keeps an enum's name and size only, an ENUM64 as an 8-byte ENUM without
// enumerators: no value was cut to 32 bits, so no BTF-ENUM-008.
TEST(BtfRuleCaseLimits, EightByteEnumWithoutEnumeratorsIsNotEnum008) {
  const RuleCase distilled{"BTF-ENUM-008", [](bool, const synth::BtfBuilder& context) {
                             synth::BtfBuilder b = context;
                             b.add_enum("wide", 8, {});
                             return b.build();
                           }};
  const Outcome o = run_case(distilled, false, rule_case_context());
  EXPECT_FALSE(o.rules.count("BTF-ENUM-008")) << o.listing;
}

}  // namespace
}  // namespace elfmeta::testing
