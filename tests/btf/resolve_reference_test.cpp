// The reference resolver (resolve_reference.cpp: the kernel's
// btf_check_all_types() order and state machine) and the fast one
// (resolve.cpp) must leave the same resolve state and report the same
// findings, in any order, on every blob: here the whole differential corpus
// (random and special-field graphs, vmlinux samples, their mutations, every
// rule case's trigger and twin, the release shapes) and split BTF.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "btf/check_records.h"
#include "btf/parse.h"
#include "btf/resolve.h"
#include "btf/resolve_reference.h"
#include "core/report.h"
#include "synth/btf_builder.h"
#include "tests/btf/differential_corpus.h"
#include "tests/btf/rule_cases.h"

namespace elfmeta::btf {
namespace {

enum class Which { Reference, Fast };

struct Resolved {
  bool ran = false;  // the blob parsed to its end
  ResolveState state;
  std::vector<std::string> lines;                          // the resolve pass's findings, in order
  std::map<const Rule*, std::vector<std::string>> sorted;  // per rule, sorted
};

// Parses `blob`, runs every record check, then one resolver; `base` (with
// its resolve state) for split BTF.
Resolved resolve_with(Which which, const std::vector<uint8_t>& blob, const Btf* base = nullptr,
                      const ResolveState* base_state = nullptr) {
  Resolved out;
  DiagnosticList records_list, list;
  const CheckContext ctx;
  Findings records(ctx, records_list);
  auto btf = parse(blob, ParseOptions{base}, records);
  if (!btf || !btf->types_complete()) return out;
  records.set_btf(&*btf);
  check_records(*btf, records, /*screen=*/false);
  // A Findings for the resolve pass alone, with the record checks' flags.
  Findings f(ctx, list);
  f.set_btf(&*btf);
  for (uint32_t id = btf->first_id(); id < btf->type_count(); ++id)
    if (records.flagged(id)) f.flag(id);
  if (which == Which::Reference)
    resolve_types_reference(*btf, base_state, out.state, f);
  else
    resolve_types(*btf, base_state, out.state, f, /*shortcuts=*/true);
  f.finish();
  for (const auto& d : list.items()) {
    std::ostringstream s;
    write_text(s, d);
    out.lines.push_back(s.str());
    out.sorted[d.unlisted_rule ? d.unlisted_rule : d.rule].push_back(s.str());
  }
  for (auto& [rule, lines] : out.sorted) std::sort(lines.begin(), lines.end());
  out.ran = true;
  out.state.btf = nullptr;  // points into this function's parse
  return out;
}

// The first difference between the two, "" when none. Past the per-rule
// listing limit only the number of a rule's findings must agree (which are
// listed follows the order they were found in).
std::string difference(const Resolved& reference, const Resolved& fast) {
  if (reference.ran != fast.ran) return "ran one way only";
  const ResolveState &a = reference.state, &b = fast.state;
  if (a.visit.size() != b.visit.size()) return "state sizes differ";
  for (size_t i = 0; i < a.visit.size(); ++i)
    if (a.visit[i] != b.visit[i] || a.ids[i] != b.ids[i] || a.sizes[i] != b.sizes[i])
      return "resolve state differs at own type " + std::to_string(i);
  auto listing = [](const Resolved& r) {
    std::string s;
    for (const auto& l : r.lines) s += l;
    return s;
  };
  const std::string findings =
      "findings differ:\n--- reference\n" + listing(reference) + "--- fast\n" + listing(fast);
  if (a.visit.empty() && reference.sorted.empty() && fast.sorted.empty()) return "";
  if (reference.sorted.size() != fast.sorted.size()) return findings;
  for (const auto& [rule, lines] : reference.sorted) {
    const auto other = fast.sorted.find(rule);
    if (other == fast.sorted.end()) return findings;
    if (rule && lines.size() > Findings::kPerRuleLimit ? other->second.size() != lines.size()
                                                        : other->second != lines)
      return findings;
  }
  return "";
}

TEST(ResolveReference, SameAsTheFastResolverOnTheWholeDifferentialCorpus) {
  const CheckedBtf& kernel = testing::running_kernel_btf();
  const auto samples = testing::differential_corpus({.vmlinux = kernel.btf.get()});
  ASSERT_GT(samples.size(), 5000u);
  size_t compared = 0, with_findings = 0, with_loops = 0;
  for (const auto& sample : samples) {
    const Resolved reference = resolve_with(Which::Reference, sample.blob);
    const Resolved fast = resolve_with(Which::Fast, sample.blob);
    ASSERT_EQ(difference(reference, fast), "") << sample.source;
    compared += reference.ran;
    with_findings += !reference.lines.empty();
    for (const auto& l : reference.lines) with_loops += l.find("BTF-TYPE-009") != std::string::npos;
  }
  // The comparison means something only if the resolve pass found things.
  EXPECT_GT(compared, samples.size() / 2);
  EXPECT_GT(with_findings, compared / 20);
  EXPECT_GT(with_loops, 0u);
}

// Split BTF: the rule cases built on a base, resolved on the base's state.
TEST(ResolveReference, SameAsTheFastResolverOnSplitBtf) {
  size_t compared = 0;
  for (const auto& c : testing::btf_rule_cases()) {
    if (!c.base || c.elf) continue;
    const auto base_blob = c.base();
    DiagnosticList list;
    const CheckContext ctx;
    Findings f(ctx, list);
    auto base = parse(base_blob, {}, f);
    if (!base || !base->types_complete()) continue;
    f.set_btf(&*base);
    check_records(*base, f, false);
    ResolveState base_state;
    resolve_types_reference(*base, nullptr, base_state, f);
    for (const bool twin : {false, true}) {
      const auto blob = c.make(twin);
      const Resolved reference = resolve_with(Which::Reference, blob, &*base, &base_state);
      const Resolved fast = resolve_with(Which::Fast, blob, &*base, &base_state);
      ASSERT_EQ(difference(reference, fast), "") << c.rule << (twin ? " twin" : "");
      compared += reference.ran;
    }
  }
  EXPECT_GE(compared, 2u);
}

// Split BTF that refers into its base: to resolved base types, to a base
// type whose own resolution failed (a loop: its referrers fail silently),
// to a base prototype, and past the last id.
TEST(ResolveReference, SameAsTheFastResolverOnSplitBtfIntoAFailedBase) {
  synth::BtfBuilder base_builder;
  const uint32_t i32 = base_builder.add_int("int", 4, 32, 1);
  const uint32_t loop_a = base_builder.add_typedef("a", i32 + 2);
  base_builder.add_typedef("b", loop_a);
  const uint32_t proto = base_builder.add_func_proto(i32, {{"x", i32}});
  const uint32_t s = base_builder.add_struct("s", 8, {{"x", i32, 0}, {"y", i32, 32}});
  const auto base_blob = base_builder.build();
  DiagnosticList list;
  const CheckContext ctx;
  Findings f(ctx, list);
  auto base = parse(base_blob, {}, f);
  ASSERT_TRUE(base && base->types_complete());
  f.set_btf(&*base);
  check_records(*base, f, false);
  ResolveState base_state;
  resolve_types_reference(*base, nullptr, base_state, f);
  ASSERT_EQ(base_state.state(loop_a), Visit::Poisoned);

  synth::BtfBuilder b(base->type_count(), static_cast<uint32_t>(base->header().str_len));
  const uint32_t p = b.add_ptr(s);
  b.add_typedef("t", loop_a);                    // reaches the failed loop: silent
  b.add_struct("u", 16, {{"p", p, 0}, {"q", loop_a, 64}});
  b.add_func("f", proto);
  b.add_array(s, i32, 2);
  b.add_const(base->type_count() + 100);         // BTF-TYPE-007
  b.add_struct("v", 4, {{"x", s, 0}});           // BTF-AGG-010
  const auto blob = b.build();
  const Resolved reference = resolve_with(Which::Reference, blob, &*base, &base_state);
  ASSERT_TRUE(reference.ran);
  ASSERT_EQ(difference(reference, resolve_with(Which::Fast, blob, &*base, &base_state)), "");
  std::string all;
  for (const auto& l : reference.lines) all += l;
  EXPECT_NE(all.find("BTF-TYPE-007"), std::string::npos) << all;
  EXPECT_NE(all.find("BTF-AGG-010"), std::string::npos) << all;
  EXPECT_EQ(reference.state.visit[1], Visit::Poisoned);  // typedef t
}

// The reference goes in the kernel's order: a FUNC is resolved at its turn,
// before the types after it (the fast resolver takes FUNCs last), so its
// finding comes first; and a loop is reported at the first type of it.
TEST(ResolveReference, ResolvesInTheKernelsOrder) {
  synth::BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.add_func_proto(i32, {{"", i32}});   // an unnamed parameter
  b.add_func("f", proto);                                       // BTF-FUNC-005
  // a -> b -> a (ids are given in order: a's target is the next one).
  const uint32_t loop_a = b.add_typedef("a", b.add_int("unused", 4, 32) + 2);
  const uint32_t loop_b = b.add_typedef("b", loop_a);
  ASSERT_EQ(loop_b, loop_a + 1);
  const Resolved reference = resolve_with(Which::Reference, b.build());
  const Resolved fast = resolve_with(Which::Fast, b.build());
  ASSERT_EQ(difference(reference, fast), "");
  ASSERT_EQ(reference.lines.size(), 2u);
  EXPECT_NE(reference.lines[0].find("BTF-FUNC-005"), std::string::npos) << reference.lines[0];
  EXPECT_NE(reference.lines[1].find("BTF-TYPE-009"), std::string::npos) << reference.lines[1];
  EXPECT_NE(reference.lines[1].find("reference cycle: " + std::to_string(loop_a) + " TYPEDEF 'a'"), std::string::npos)
      << reference.lines[1];
  EXPECT_EQ(reference.state.visit[loop_a - 1], Visit::Poisoned);
  EXPECT_EQ(reference.state.visit[loop_b - 1], Visit::Poisoned);
}

// A chain deeper than the kernel's 32 frames fails at its root (BTF-TYPE-010),
// and a struct reaching it later fails silently.
TEST(ResolveReference, DepthLimitFailsTheRootAndPoisonsThePath) {
  synth::BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  // 41 CONSTs, each referring to the next; the last to int.
  std::vector<uint32_t> chain;
  for (int i = 0; i < 40; ++i) chain.push_back(b.add_const(i32 + 2 + i));
  chain.push_back(b.add_const(i32));
  ASSERT_EQ(chain.front(), i32 + 1);
  b.add_struct("s", 4, {{"x", chain[5], 0}});
  const auto blob = b.build();
  const Resolved reference = resolve_with(Which::Reference, blob);
  ASSERT_EQ(difference(reference, resolve_with(Which::Fast, blob)), "");
  size_t too_deep = 0;
  for (const auto& l : reference.lines) too_deep += l.find("BTF-TYPE-010") != std::string::npos;
  EXPECT_GE(too_deep, 1u);
  EXPECT_EQ(reference.state.visit[chain[5] - 1], Visit::Poisoned);
}

}  // namespace
}  // namespace elfmeta::btf
