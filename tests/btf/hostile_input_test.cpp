// Hostile input gets findings in bounded time and memory: huge claimed
// counts, deep chains, megabytes of garbage, random bytes (RapidCheck).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <atomic>
#include <cstring>
#include <map>
#include <random>

#include "btf/btf_rules.h"
#include "btf/parse.h"
#include "btf/resolve.h"
#include "btf/verifier.h"
#include "core/second_core.h"
#include "fuzz/fuzz_support.h"
#include "synth/btf_builder.h"
#include "synth/btf_generator.h"
#include "input/artifact.h"
#include "tests/btf/differential_corpus.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;
using Blob = std::vector<uint8_t>;

DiagnosticList check(const Blob& blob, Consumer consumer = kBpfBtfLoad) {
  DiagnosticList list;
  btf::CheckOptions options;
  options.consumer = consumer;
  btf::check_btf(blob, nullptr, options, "hostile", ".BTF", list);
  return list;
}

void set32(Blob& b, size_t off, uint32_t v) { std::memcpy(b.data() + off, &v, 4); }

TEST(HostileInput, ClaimedBillionsAreHeaderFindings) {
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  for (uint32_t field : {12u, 20u, 8u, 16u}) {  // type_len, str_len, type_off, str_off
    Blob blob = b.build();
    set32(blob, field, 0xfffffff0u);
    const auto list = check(blob);
    EXPECT_TRUE(list.has_errors()) << "field at " << field;
  }
}

TEST(HostileInput, VlenOfAStructLargerThanTheSection) {
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  const uint32_t s = b.add_struct("s", 4, {{"a", 1, 0}});
  b.record(s)[1] = BtfBuilder::info(4, 0xffff);  // claims 65535 members
  EXPECT_TRUE(check(b.build()).has_rule("BTF-TYPE-004"));
}

// A chain of 100,000 typedefs. In increasing id order the kernel's resolver
// stops at depth 32; in decreasing order each link is already resolved, so
// the chain is valid. Neither recurses in elfmeta.
TEST(HostileInput, HundredThousandTypedefs) {
  for (bool increasing : {true, false}) {
    BtfBuilder b;
    b.add_int("int", 4, 32, 1);
    const uint32_t n = 100000;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t id = b.next_id();
      const uint32_t target = increasing ? (i + 1 == n ? 1 : id + 1) : id - 1;
      b.add_typedef("t" + std::to_string(i), target);
    }
    const auto list = check(b.build());
    if (increasing) {
      EXPECT_TRUE(list.has_rule("BTF-TYPE-010"));
      // One finding per failed resolution, not one per link.
      EXPECT_LT(list.items().size(), n / 16);
    } else {
      EXPECT_FALSE(list.has_errors());
    }
    // Kernel BTF: the type-tag pass follows each chain at most 32 steps, so
    // the increasing chain fails there too, once.
    const auto kernel = check(b.build(), kModuleLoad);
    EXPECT_EQ(kernel.count(Severity::Error), increasing ? 1u : 0u);
  }
}

TEST(HostileInput, SixteenMegabytesOfGarbage) {
  std::mt19937 rng(1);
  Blob blob(16u << 20);
  for (auto& byte : blob) byte = static_cast<uint8_t>(rng());
  // Behind a valid header claiming it all as types.
  set32(blob, 0, 0x0001eb9fu);
  set32(blob, 4, 24);
  set32(blob, 8, 0);
  set32(blob, 12, static_cast<uint32_t>(blob.size() - 24 - 1));
  set32(blob, 16, static_cast<uint32_t>(blob.size() - 24 - 1));
  set32(blob, 20, 1);
  blob.back() = 0;
  const auto list = check(blob);
  EXPECT_TRUE(list.has_errors());
  // Listed findings are capped per rule; the verdict is not.
  EXPECT_LT(list.items().size(), 3000u);
}

TEST(HostileInput, MutationsNeverCrashAndAreDeterministic) {
  synth::Rng rng(99);
  for (int i = 0; i < 300; ++i) {
    const BtfBuilder b = synth::random_type_graph(rng, true);
    const auto m = static_cast<synth::Mutation>(rng() % synth::kMutationCount);
    const Blob blob = synth::mutate(b, rng, m);
    EXPECT_EQ(check(blob).items().size(), check(blob).items().size());
    check(blob, kModuleLoad);
  }
}

RC_GTEST_PROP(HostileInputProperty, ArbitraryBytesGetFindingsNotCrashes, (const std::vector<uint8_t>& bytes)) {
  Blob blob = bytes;
  // Half of the inputs get a plausible header so that the type walk runs.
  if (blob.size() >= 24 && *rc::gen::arbitrary<bool>()) {
    set32(blob, 0, 0x0001eb9fu);
    set32(blob, 4, 24);
    set32(blob, 8, 0);
    const uint32_t body = static_cast<uint32_t>(blob.size() - 24);
    const uint32_t types = *rc::gen::inRange<uint32_t>(0, body + 1);
    set32(blob, 12, types);
    set32(blob, 16, types);
    set32(blob, 20, body - types);
  }
  check(blob);
  check(blob, kModuleLoad);
}

// A blob and its byte-swapped copy get the same findings: the verifier
// checks big-endian BTF as the byte order of its own target.
RC_GTEST_PROP(HostileInputProperty, ByteOrderDoesNotChangeFindings, ()) {
  synth::Rng rng(*rc::gen::arbitrary<uint64_t>());
  const BtfBuilder b = synth::random_type_graph(rng, *rc::gen::arbitrary<bool>());
  const Blob blob = *rc::gen::arbitrary<bool>()
                        ? b.build()
                        : synth::mutate(b, rng, static_cast<synth::Mutation>(rng() % synth::kMutationCount));
  const Blob swapped = btf::swap_byte_order(blob, true);
  RC_ASSERT(btf::swap_byte_order(swapped, false) == blob);
  const auto a = check(blob), s = check(swapped);
  RC_ASSERT(a.items().size() == s.items().size());
  for (size_t i = 0; i < a.items().size(); ++i) RC_ASSERT(a.items()[i].rule == s.items()[i].rule);
}

}  // namespace
}  // namespace elfmeta::testing

namespace elfmeta::testing {
namespace {

std::vector<std::string> rules_of(const std::vector<uint8_t>& blob, bool concurrent) {
  btf::CheckOptions options;
  options.concurrent = concurrent;
  DiagnosticList list;
  btf::check_btf(blob, nullptr, options, "big", ".BTF", list);
  std::vector<std::string> out;
  for (const auto& d : list.items()) out.push_back((d.rule ? std::string(d.rule->id) : "note") + " " + d.message);
  return out;
}

// Large blobs are checked on two cores; the findings must not depend on it.
TEST(ConcurrentChecks, SameFindingsAsSequentialOnMutatedKernelBtf) {
  auto vmlinux = input::open_input("/sys/kernel/btf/vmlinux");
  if (!vmlinux.artifact) GTEST_SKIP() << "no /sys/kernel/btf/vmlinux on this machine";
  NullSink ignored;
  auto checked = btf::check_btf(vmlinux.artifact->raw, nullptr, {}, "vmlinux", "", ignored);
  ASSERT_TRUE(checked.btf);
  const synth::BtfBuilder whole = synth::builder_from(*checked.btf);
  synth::Rng rng(5);
  size_t with_errors = 0;
  for (int i = 0; i < 12; ++i) {
    const auto m = static_cast<synth::Mutation>(i % synth::kMutationCount);
    const auto blob = i == 0 ? whole.build() : synth::mutate(whole, rng, m);
    const auto sequential = rules_of(blob, false);
    EXPECT_EQ(rules_of(blob, true), sequential) << synth::mutation_name(m);
    with_errors += !sequential.empty();
  }
  EXPECT_GE(with_errors, 3u);
}

// Every blob of the differential corpus (random graphs, graphs with special
// fields, samples of the running kernel's BTF, and their mutations) checked
// on two cores, however small: the same findings and resolve state as on one.
TEST(ConcurrentChecks, SameFindingsAndStateOnTheDifferentialCorpus) {
  const btf::CheckedBtf& kernel = testing::running_kernel_btf();
  const auto samples = testing::differential_corpus(
      {.seed = 4343, .graphs = 1000, .special_field_graphs = 400, .vmlinux_samples = 300, .vmlinux = kernel.btf.get()});
  ASSERT_GT(samples.size(), 3000u);
  btf::CheckOptions options;
  options.assume_host_order = true;
  for (const auto& sample : samples) ASSERT_EQ(fuzz::compare_concurrency(sample.blob, options), "") << sample.source;
}

// Enough types for the checks to run on two threads (the special-field pass
// beside the reference pass), and a bpf_spin_lock to make a struct one the
// special-field pass reads: its id, with `i32` set to an INT's.
uint32_t large_blob_with_a_lock(synth::BtfBuilder& b, uint32_t& i32) {
  i32 = b.add_int("int", 4, 32, 1);
  for (int i = 0; i < 5000; ++i) b.add_ptr(i32);
  return b.add_struct("bpf_spin_lock", 4, {{"val", i32, 0}});
}

// The findings of two threads are those of one, and there are some.
std::vector<std::string> same_findings_either_way(const synth::BtfBuilder& b) {
  const auto blob = b.build();
  const auto sequential = rules_of(blob, false);
  EXPECT_EQ(rules_of(blob, true), sequential);
  EXPECT_FALSE(sequential.empty());
  return sequential;
}

// Members, kptr targets and graph-root values of ids past the last type but
// within the id range pass the record checks; the reference pass finds them
// missing while the special-field pass runs beside it, which must not follow
// them into records that do not exist.
TEST(ConcurrentChecks, SpecialFieldsBesideMissingMemberTypes) {
  synth::BtfBuilder b;
  uint32_t i32;
  const uint32_t lock = large_blob_with_a_lock(b, i32);
  const uint32_t head = b.add_struct("bpf_list_head", 16, {{"a", i32, 0}});
  const uint32_t missing = 200000;  // below BTF_MAX_TYPE
  const uint32_t kptr = b.add_ptr(b.add_type_tag("kptr", missing));
  const uint32_t tag_of_missing = b.add_ptr(b.add_type_tag("kptr", b.add_type_tag("x", missing + 1)));
  b.add_struct("holder", 64,
               {{"lock", lock, 0}, {"gone", missing + 2, 64}, {"p", kptr, 128}, {"q", tag_of_missing, 192},
                {"arr", b.add_array(missing + 3, i32, 2), 256}, {"td", b.add_typedef("t", missing + 4), 320},
                {"head", head, 384}});
  same_findings_either_way(b);
}

// A struct that contains itself is a loop the reference pass rejects; the
// special-field pass beside it meets it first, and must end where the first
// chain of nested members reaches 32 levels (as the kernel's scan does),
// not visit all 3^32 of them.
TEST(ConcurrentChecks, SpecialFieldsBesideAStructThatContainsItself) {
  synth::BtfBuilder b;
  uint32_t i32;
  const uint32_t lock = large_blob_with_a_lock(b, i32);
  const uint32_t self = b.next_id();
  b.add_struct("loop", 64, {{"a", self, 0}, {"b", self, 128}, {"c", self, 256}});
  b.add_struct("holder", 72, {{"lock", lock, 0}, {"l", self, 64}});
  same_findings_either_way(b);
}

// The special-field pass runs beside the reference pass, before that has
// found references that lead nowhere. Pointers (and volatile pointers) to
// ids past the last type, and to type tags that point there, are found by
// the record checks (BTF-REF-003), which the special-field pass waits for:
// it never follows them. Same findings with one thread or two.
TEST(ConcurrentChecks, KptrsToMissingTypesBesideTheReferencePass) {
  synth::BtfBuilder b;
  uint32_t i32;
  const uint32_t lock = large_blob_with_a_lock(b, i32);
  const uint32_t missing = 1u << 20;
  const uint32_t tag = b.add_type_tag("kptr", missing);
  const uint32_t kptr = b.add_ptr(tag);
  const uint32_t vkptr = b.add_volatile(b.add_ptr(b.add_type_tag("kptr_untrusted", missing + 1)));
  const uint32_t dangling = b.add_ptr(missing + 2);
  const uint32_t vdangling = b.add_volatile(missing + 3);
  b.add_struct("holder", 48, {{"lock", lock, 0}, {"p", kptr, 64}, {"q", vkptr, 128}, {"r", dangling, 192}, {"s", vdangling, 256}});
  const auto sequential = same_findings_either_way(b);
  EXPECT_NE(std::find_if(sequential.begin(), sequential.end(), [](const std::string& r) { return r.starts_with("BTF-REF-003"); }),
            sequential.end()) << ::testing::PrintToString(sequential);
  EXPECT_EQ(sequential.size(), 4u) << ::testing::PrintToString(sequential);
}

// The FUNC loop of the reference pass is shared between the two threads
// by chunks of 4096 types; FUNCs with findings, in every chunk, are left
// to the pass, which reports them in id order: as one thread would. Some
// prototypes the pass judged (unnamed parameters), some it did not (a
// parameter that is a VAR), and FUNCs of something else than a prototype.
TEST(ConcurrentChecks, FuncsWithFindingsInEveryChunkOfTheSharedFuncLoop) {
  synth::BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  const uint32_t var = b.add_var("v", i32);
  const uint32_t ptr = b.add_ptr(i32);
  for (int i = 0; i < 20000; ++i) {
    if (i % 997 == 0)
      b.add_func("unnamed", b.add_func_proto(i32, {{"a", i32}, {"", ptr}}));  // 21
    else if (i % 1499 == 0)
      b.add_func("var_param", b.add_func_proto(i32, {{"a", var}}));  // 13
    else if (i % 2003 == 0)
      b.add_func("not_a_proto", ptr);  // 9
    else
      b.add_func("f", b.add_func_proto(i32, {{"a", i32}}));
  }
  // Which thread takes which chunk varies from run to run.
  for (int run = 0; run < 20 && !::testing::Test::HasFailure(); ++run) {
    std::map<std::string, size_t> count;
    for (const auto& f : same_findings_either_way(b)) ++count[f.substr(0, f.find(' '))];
    EXPECT_EQ(count, (std::map<std::string, size_t>{{"BTF-FUNC-004", 9}, {"BTF-FUNC-005", 21}, {"BTF-PROTO-005", 13}}));
  }
}

// The task for the first thread at the FUNC loop (the type-tag pass, in a
// check) runs once, whether the pass or the helper gets there first, also
// where the pass does not share its FUNCs (no shortcuts).
TEST(ConcurrentChecks, TheFirstComerTaskOfTheSharedFuncLoopRunsOnce) {
  synth::BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  for (int i = 0; i < 10000; ++i) b.add_func("f", b.add_func_proto(i32, {{"a", i32}}));
  const auto blob = b.build();
  for (const bool shortcuts : {true, false})
    for (int run = 0; run < 20 && !::testing::Test::HasFailure(); ++run) {
      NullSink sink;
      const btf::CheckContext context;
      btf::Findings findings(context, sink);
      auto parsed = btf::parse(blob, {}, findings);
      ASSERT_TRUE(parsed && parsed->types_complete());
      findings.set_btf(&*parsed);
      btf::SharedFuncLoop loop;
      std::atomic<int> runs{0};
      loop.first_comer = [&] { ++runs; };
      btf::ResolveState state;
      run_beside([&] { loop.help(); },
                 [&] { btf::resolve_types(*parsed, nullptr, state, findings, shortcuts, &loop); });
      EXPECT_EQ(runs.load(), 1) << "shortcuts " << shortcuts;
      EXPECT_EQ(state.state(parsed->type_count() - 1), btf::Visit::Resolved);
    }
}

// A type section of no bytes (the header finding does not stop the parse),
// walked on two threads all the same: no cuts to make (the sampling
// divided by its length).
TEST(ConcurrentChecks, EmptyTypeSectionOnTwoThreads) {
  synth::BtfBuilder b;
  const auto blob = b.build();
  btf::CheckOptions options;
  EXPECT_EQ(fuzz::compare_concurrency(blob, options), "");
  options.concurrent_always = true;
  DiagnosticList list;
  btf::check_btf(blob, nullptr, options, "empty", "", list);
  ASSERT_EQ(list.items().size(), 1u);  // the kernel's "No type found"
  EXPECT_EQ(list.items()[0].rule->id, "BTF-HDR-015");
}

// The special-field pass runs beside the others whatever the header said;
// as on one core, its findings count only when nothing before it failed,
// a header error (version 2) included.
TEST(ConcurrentChecks, NoSpecialFieldFindingsAfterAHeaderError) {
  synth::BtfBuilder b;
  uint32_t i32;
  const uint32_t lock = large_blob_with_a_lock(b, i32);
  b.add_struct("two_locks", 8, {{"a", lock, 0}, {"b", lock, 32}});
  auto rule_ids = [](const std::vector<std::string>& findings) {
    std::vector<std::string> ids;
    for (const auto& f : findings) ids.push_back(f.substr(0, f.find(' ')));
    return ids;
  };
  EXPECT_EQ(rule_ids(same_findings_either_way(b)), std::vector<std::string>{"BTF-FIELD-005"});
  synth::BtfBlobParts parts = b.parts();
  parts.version = 2;
  const auto blob = parts.assemble();
  const auto sequential = rules_of(blob, false);
  EXPECT_EQ(rules_of(blob, true), sequential);
  EXPECT_EQ(rule_ids(sequential), std::vector<std::string>{"BTF-HDR-005"});
}

}  // namespace
}  // namespace elfmeta::testing
