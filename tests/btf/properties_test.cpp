// Properties of the BTF verifier over generated BTF (RapidCheck; ctest runs
// each with RC_PARAMS=max_success=1000):
//  - a generated valid graph has no diagnostics under the newest profile;
//  - serialising the parsed model gives back the same bytes;
//  - each rule's mutator, applied inside a generated graph, makes exactly
//    that rule fire, and its twin nothing;
//  - the verdict equals the running kernel's BPF_BTF_LOAD (when available).
// Generated graphs shrink by removing a type and everything that refers to
// it, so a failing case shrinks to a small graph that is still valid.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <sstream>

#include "btf/dump.h"
#include "btf/findings.h"
#include "btf/parse.h"
#include "btf/verifier.h"
#include "core/report.h"
#include "oracle/kernel_btf_oracle.h"
#include "synth/btf_generator.h"
#include "tests/btf/rule_cases.h"

namespace elfmeta::synth {
// How RapidCheck prints a counterexample: the types, one per line.
void showValue(const BtfBuilder& b, std::ostream& os) {
  const auto blob = b.build();
  NullSink discard;
  btf::Findings findings(btf::CheckContext{}, discard);
  if (const auto parsed = btf::parse(blob, {}, findings))
    btf::dump(*parsed, os);
  else
    os << "<unparsable blob of " << blob.size() << " bytes>";
}
}  // namespace elfmeta::synth

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;

// Valid BTF for `kernel` over every kind that release knows. Type 1 stays
// `int` (ids are not shuffled), so rule cases can build inside the graph.
rc::Gen<BtfBuilder> valid_graph(btf::Release kernel = btf::kNewestRelease) {
  return rc::Gen<BtfBuilder>([kernel](const rc::Random& random, int) {
    rc::Random r = random;
    synth::Rng rng(r.next());
    BtfBuilder graph = synth::random_type_graph(rng, synth::GraphOptions{false, kernel});
    return rc::shrinkable::shrinkRecur(std::move(graph), [](const BtfBuilder& g) {
      // Never remove `int` (type 1): rule cases refer to it.
      const uint32_t n = static_cast<uint32_t>(g.records().size());
      return rc::seq::map(rc::seq::range<uint32_t>(n, 1),
                          [g](uint32_t id) { return synth::remove_type(g, id); });
    });
  });
}

std::string listing(const DiagnosticList& list) {
  std::ostringstream out;
  for (const auto& d : list.items()) write_text(out, d);
  return out.str();
}

RC_GTEST_PROP(BtfProperty, GeneratedValidGraphHasNoDiagnostics, ()) {
  const BtfBuilder graph = *valid_graph();
  btf::CheckOptions options;
  options.kernel = btf::KernelProfile(btf::kNewestRelease);
  DiagnosticList list;
  const auto blob = graph.build();
  btf::check_btf(blob, nullptr, options, "graph", ".BTF", list);
  if (!list.items().empty()) RC_FAIL(listing(list));
}

// Every release from 4.18 to the newest, as profiles know them.
rc::Gen<btf::Release> any_release() {
  std::vector<btf::Release> all;
  for (uint16_t minor = 18; minor <= 20; ++minor) all.push_back({4, minor});
  for (uint16_t minor = 0; minor <= 19; ++minor) all.push_back({5, minor});
  for (uint16_t minor = 0; minor <= 19; ++minor) all.push_back({6, minor});
  for (uint16_t minor = 0; minor <= btf::kNewestRelease.minor; ++minor) all.push_back({7, minor});
  return rc::gen::elementOf(all);
}

// The generator's idea of what a release accepts and the verifier's agree.
RC_GTEST_PROP(BtfProperty, GraphForAnyReleaseHasNoErrorsUnderItsProfile, ()) {
  const btf::Release release = *any_release();
  const BtfBuilder graph = *valid_graph(release);
  RC_CLASSIFY(graph.records().size() >= 20, "20 or more types");
  btf::CheckOptions options;
  options.kernel = btf::KernelProfile(release);
  DiagnosticList list;
  const auto blob = graph.build();
  btf::check_btf(blob, nullptr, options, "graph", ".BTF", list);
  if (list.has_errors()) RC_FAIL("Linux " + release.str() + ":\n" + listing(list));
}

RC_GTEST_PROP(BtfProperty, SerialiseParseIsIdentity, ()) {
  const auto blob = (*valid_graph()).build();
  NullSink discard;
  btf::Findings findings(btf::CheckContext{}, discard);
  const auto parsed = btf::parse(blob, {}, findings);
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(parsed->types_complete());
  RC_ASSERT(synth::builder_from(*parsed).build() == blob);
}

RC_GTEST_PROP(BtfProperty, EachRuleMutatorFiresExactlyItsRule, ()) {
  // Cases judged by an older kernel are built in a graph that kernel accepts.
  const BtfBuilder context = *valid_graph();
  const BtfBuilder old_context = *valid_graph(btf::kOldestRelease);
  const bool with_large = *rc::gen::inRange(0, 50) == 0;
  std::string failures;
  for (const RuleCase& c : btf_rule_cases()) {
    if (c.is_large && !with_large) continue;
    std::set<std::string> allowed{std::string(c.rule)};
    for (auto also : c.also) allowed.insert(std::string(also));
    const BtfBuilder& ctx = c.kernel < btf::kDefaultRelease ? old_context : context;
    if (c.consumer == kLibbpf) {
      // What the graph fires on its own as libbpf reads it: BTF-LIBBPF-018
      // judges the declarations of the whole blob, and a random graph may
      // nest deep enough (a TYPE_TAG'd pointer to an anonymous union whose
      // member is a function pointer). Where the graph fires the case's own
      // rule, the twin cannot be judged in it.
      RuleCase alone = c;
      alone.make_in = [](bool, const BtfBuilder& graph) { return graph.build(); };
      const Outcome graph_alone = run_case(alone, false, ctx);
      if (graph_alone.rules.count(std::string(c.rule))) continue;
      allowed.insert(graph_alone.rules.begin(), graph_alone.rules.end());
    }
    const Outcome trigger = run_case(c, false, ctx);
    if (!trigger.rules.count(std::string(c.rule))) failures += std::string(c.rule) + " did not fire:\n" + trigger.listing;
    for (const auto& r : trigger.rules)
      if (!allowed.count(r)) failures += std::string(c.rule) + " also fired " + r + ":\n" + trigger.listing;
    const Outcome twin = run_case(c, true, ctx);
    for (const auto& r : twin.rules)
      if (!allowed.count(r) || r == c.rule) failures += "twin of " + std::string(c.rule) + " fired " + r + ":\n" + twin.listing;
  }
  if (!failures.empty()) RC_FAIL(failures);
}

RC_GTEST_PROP(BtfProperty, VerdictEqualsTheRunningKernels, ()) {
  std::string why;
  if (!oracle::kernel_btf_oracle_available(&why)) RC_SUCCEED("kernel oracle unavailable: " + why);
  const BtfBuilder graph = *valid_graph(btf::kDefaultRelease);
  synth::Rng rng(*rc::gen::arbitrary<uint64_t>());
  const bool mutated = *rc::gen::arbitrary<bool>();
  const auto blob = mutated ? synth::mutate(graph, rng, static_cast<synth::Mutation>(rng() % synth::kMutationCount))
                            : graph.build();
  btf::CheckOptions options;
  options.lints = false;
  options.assume_host_order = true;
  DiagnosticList list;
  const bool ours = btf::check_btf(blob, nullptr, options, "graph", ".BTF", list).errors == 0;
  const auto theirs = oracle::kernel_btf_load(blob, !ours);
  RC_ASSERT(theirs.available);
  if (ours != theirs.accepted)
    RC_FAIL("kernel " + std::string(theirs.accepted ? "accepts" : "rejects: " + theirs.reason) +
            "; elfmeta:\n" + listing(list));
}

}  // namespace
}  // namespace elfmeta::testing
