// The record screen (check_records.cpp) and the fast resolver (resolve.cpp)
// skip work for records they find clean: a check with them and one without
// (every record's checks, and the reference resolver of
// resolve_reference.cpp) must report the same findings, in any order, and
// leave the same resolve state.
#include <gtest/gtest.h>

#include "btf/verifier.h"
#include "fuzz/fuzz_support.h"
#include "input/artifact.h"
#include "synth/btf_builder.h"
#include "tests/btf/differential_corpus.h"

namespace elfmeta::btf {
namespace {

std::unique_ptr<input::Artifact> running_vmlinux() { return input::open_input("/sys/kernel/btf/vmlinux").artifact; }

TEST(CheckShortcuts, SameFindingsAndStateOnTheDifferentialCorpus) {
  const CheckedBtf& kernel = testing::running_kernel_btf();
  const auto samples = testing::differential_corpus(
      {.seed = 4242, .graphs = 300, .special_field_graphs = 100, .vmlinux_samples = 100, .vmlinux = kernel.btf.get()});
  ASSERT_GT(samples.size(), 2000u);
  size_t compared = 0, with_findings = 0;
  for (const Release release : {kDefaultRelease, kNewestRelease, Release{5, 15}}) {
    CheckOptions options;
    options.kernel = KernelProfile(release);
    options.assume_host_order = true;
    for (const auto& sample : samples) {
      const fuzz::ShortcutComparison c = fuzz::compare_shortcuts(sample.blob, options);
      ASSERT_EQ(c.difference, "") << sample.source << " under " << release.str();
      ++compared;
      with_findings += !c.findings.empty();
    }
  }
  // Mutations must have produced findings for the comparison to mean much.
  EXPECT_GT(with_findings, compared / 4);
}

// A check of `blob` with the shortcuts and one without, which must agree.
fuzz::ShortcutComparison both_ways(const std::vector<uint8_t>& blob) {
  CheckOptions options;
  options.assume_host_order = true;
  fuzz::ShortcutComparison c = fuzz::compare_shortcuts(blob, options);
  EXPECT_EQ(c.difference, "");
  return c;
}

// A check with the shortcuts and one without both report `rule`, and
// agree on everything else.
void expect_rule_both_ways(const std::vector<uint8_t>& blob, const char* rule, const char* what) {
  SCOPED_TRACE(what);
  const fuzz::ShortcutComparison c = both_ways(blob);
  EXPECT_NE(c.findings.find(rule), std::string::npos) << what << ":\n" << c.findings;
}

// The record screen takes a name at offset 0 for none, also where the
// string section does not start with a NUL (found by fuzz_btf).
TEST(CheckShortcuts, NameOffsetZeroIsNoNameInABrokenStringSection) {
  synth::BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  b.add_raw(0, synth::BtfBuilder::info(kTypedef), i32);
  synth::BtfBlobParts parts = b.parts();
  parts.strings[0] = 'x';  // offset 0 now starts "xint"
  expect_rule_both_ways(parts.assemble(), "BTF-REF-004", "unnamed typedef");
}

// The reference pass keeps the shape of a member's type from the first
// struct that had it, and checks later members by a plain byte fit. Where
// the kernel's checks are not a byte fit, a later struct must still get
// them: the rule fires with the shortcuts and without.
TEST(CheckShortcuts, KeptMemberShapesStillGetTheKernelsChecks) {
  auto expect_rule = [](const synth::BtfBuilder& b, const char* rule, const char* what) {
    expect_rule_both_ways(b.build(), rule, what);
  };
  {
    // A kind_flag struct counts a non-bitfield ENUM member as 4 bytes.
    synth::BtfBuilder b;
    b.add_int("int", 4, 32, 1);
    const uint32_t e8 = b.add_enum("e", 1, {{"A", 1}});
    b.add_struct("first", 1, {{"a", e8, 0}});
    b.add_struct("s", 2, {{"a", e8, 0}}, /*kflag=*/true);
    expect_rule(b, "BTF-AGG-010", "1-byte enum in a 2-byte kind_flag struct");
  }
  {
    // A bitfield size on a pointer, where the offset word read as bits
    // would land inside a 3 MiB struct.
    synth::BtfBuilder b;
    b.add_int("int", 4, 32, 1);
    const uint32_t ptr = b.add_ptr(1);
    b.add_struct("first", 8, {{"p", ptr, 0}});
    b.add_struct("big", 3u << 20, {{"p", ptr, 0, 1}});
    expect_rule(b, "BTF-AGG-015", "pointer with a bitfield size");
  }
}

// Member shapes are also known before any struct had them: those of
// pointers, INTs and ENUMs from the start, those of aggregates and arrays
// once they are resolved. A shape must still be the one the kernel would
// see at that point of its pass.
TEST(CheckShortcuts, RememberedShapesFollowTheResolveOrder) {
  {
    // A typedef of an array, resolved from a pointer before the array is:
    // the kernel sees the array's size so far (0), later its real size.
    synth::BtfBuilder b;
    const uint32_t i32 = b.add_int("int", 4, 32, 1);
    b.add_ptr(3);
    const uint32_t t = b.add_typedef("t", 5);
    b.add_struct("early", 4, {{"a", t, 0}});
    b.add_array(i32, i32, 2);
    b.add_struct("late", 4, {{"a", t, 0}});
    const fuzz::ShortcutComparison c = both_ways(b.build());
    EXPECT_NE(c.findings.find("BTF-AGG-010"), std::string::npos) << c.findings;
    EXPECT_NE(c.findings.find("[type 6 STRUCT 'late']"), std::string::npos) << c.findings;
    EXPECT_EQ(c.findings.find("'early'"), std::string::npos) << "the early struct passes:\n" << c.findings;
  }
  {
    // A resolved array's shape is its size: a later, smaller struct fails.
    synth::BtfBuilder b;
    const uint32_t i32 = b.add_int("int", 4, 32, 1);
    const uint32_t array = b.add_array(i32, i32, 4);
    b.add_struct("fits", 16, {{"a", array, 0}});
    b.add_struct("small", 8, {{"a", array, 0}});
    expect_rule_both_ways(b.build(), "BTF-AGG-010", "16-byte array in an 8-byte struct");
  }
  {
    // A pointer that fails after a struct had it as a member: the structs
    // after it fail with it, silently.
    synth::BtfBuilder b;
    b.add_int("int", 4, 32, 1);
    b.add_struct("early", 8, {{"p", 3, 0}});
    b.add_ptr(4);
    b.add_typedef("t", 3);
    b.add_struct("late", 8, {{"p", 3, 0}});
    expect_rule_both_ways(b.build(), "BTF-TYPE-009", "pointer in a reference cycle");
  }
  {
    // A pointer the record checks flagged is no member shape.
    synth::BtfBuilder b;
    const uint32_t i32 = b.add_int("int", 4, 32, 1);
    const uint32_t named_ptr = b.add_raw(b.str("p"), synth::BtfBuilder::info(kPtr), i32);
    b.add_struct("s", 8, {{"p", named_ptr, 0}});
    expect_rule_both_ways(b.build(), "BTF-REF-006", "named pointer");
  }
}

// A pointer or qualifier whose target is resolved already (a pointer, an
// array, a qualifier) takes the short way, but not to a qualifier that a
// struct resolved to a pointer not resolved yet: the kernel goes on from
// that pointer, and finds the cycle through it.
TEST(CheckShortcuts, PointerToAResolvedQualifierGoesOnFromItsPointer) {
  synth::BtfBuilder b;
  b.add_int("int", 4, 32, 1);           // 1
  b.add_struct("s", 8, {{"c", 3, 0}});  // 2: resolves 3 in struct mode, which stops at the pointer 5
  b.add_const(5);                       // 3
  b.add_ptr(3);                         // 4: -> 3, then on from 5 -> 4: a cycle
  b.add_ptr(4);                         // 5
  expect_rule_both_ways(b.build(), "BTF-TYPE-009", "pointer cycle through a qualifier resolved in struct mode");
}

// A typedef or pointer of a pointer not visited yet resolves that pointer
// first, the short way too, but only one: a longer chain takes the stack,
// which finds it too deep; a cycle back to the typedef is found as well.
TEST(CheckShortcuts, PointersNotVisitedYetAreResolvedOneDeep) {
  {
    synth::BtfBuilder b;
    b.add_int("int", 4, 32, 1);  // 1
    b.add_typedef("t", 3);       // 2
    for (uint32_t id = 3; id < 3 + 40; ++id) b.add_ptr(id + 1 < 3 + 40 ? id + 1 : 1);
    expect_rule_both_ways(b.build(), "BTF-TYPE-010", "typedef of a chain of 40 pointers");
  }
  {
    synth::BtfBuilder b;
    b.add_int("int", 4, 32, 1);  // 1
    b.add_typedef("t", 3);       // 2
    b.add_ptr(2);                // 3
    expect_rule_both_ways(b.build(), "BTF-TYPE-009", "typedef of a pointer to the typedef");
  }
}

// A struct's array member not visited yet is resolved first, the short way
// where it can be: then the struct may still take the stack for a later
// member; an array of the struct itself is left to the stack, which finds
// the cycle.
TEST(CheckShortcuts, ArrayMembersNotVisitedYetAreResolvedFirst) {
  {
    synth::BtfBuilder b;
    const uint32_t i32 = b.add_int("int", 4, 32, 1);                // 1
    b.add_struct("s", 8, {{"name", 3, 0}, {"n", i32, 32}});         // 2
    b.add_array(i32, i32, 1);                                       // 3
    const fuzz::ShortcutComparison c = both_ways(b.build());
    EXPECT_EQ(c.findings, "");
  }
  {
    synth::BtfBuilder b;
    const uint32_t i32 = b.add_int("int", 4, 32, 1);                // 1
    b.add_struct("s", 8, {{"name", 4, 0}, {"big", 3, 32}});         // 2: the array fits, "big" does not
    b.add_struct("big", 8, {{"a", i32, 0}, {"b", i32, 32}});        // 3
    b.add_array(i32, i32, 1);                                       // 4
    expect_rule_both_ways(b.build(), "BTF-AGG-010", "array member resolved first, then a member too big");
  }
  {
    synth::BtfBuilder b;
    const uint32_t i32 = b.add_int("int", 4, 32, 1);  // 1
    b.add_struct("s", 8, {{"self", 3, 0}});           // 2
    b.add_array(2, i32, 1);                           // 3
    expect_rule_both_ways(b.build(), "BTF-TYPE-009", "array of the struct that has it");
  }
  {
    // An array the record checks flagged is failed from the start, not
    // visited: the struct fails with it, silently.
    synth::BtfBuilder b;
    const uint32_t i32 = b.add_int("int", 4, 32, 1);                                    // 1
    b.add_struct("s", 8, {{"name", 3, 0}});                                             // 2
    b.add_raw(b.str("a"), synth::BtfBuilder::info(kArray), 0, {i32, i32, 1});           // 3
    expect_rule_both_ways(b.build(), "BTF-ARRAY-002", "named array member");
  }
}

// Targets resolved already without a size (a typedef of a FWD or of a
// prototype) are left to the stack, which accepts them for a pointer.
TEST(CheckShortcuts, ResolvedTargetsWithoutASizeTakeTheLongWay) {
  synth::BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  const uint32_t to_fwd = b.add_typedef("opaque_t", b.add_fwd("opaque"));
  const uint32_t to_proto = b.add_typedef("fn_t", b.add_func_proto(i32, {{"a", i32}}));
  const uint32_t const_ptr = b.add_const(b.add_ptr(i32));
  b.add_ptr(to_fwd);
  b.add_ptr(to_proto);
  b.add_typedef("const_ptr_t", const_ptr);
  b.add_const(b.add_array(i32, i32, 2));
  const uint32_t const_of_fwd = b.add_const(to_fwd);
  b.add_var("v", const_of_fwd);                    // no size for a VAR
  b.add_func_proto(i32, {{"a", const_of_fwd}});  // nor for a parameter
  const fuzz::ShortcutComparison c = both_ways(b.build());
  ASSERT_TRUE(c.resolved);
  EXPECT_NE(c.findings.find("BTF-VAR-005"), std::string::npos) << c.findings;
  EXPECT_NE(c.findings.find("BTF-PROTO-005"), std::string::npos) << c.findings;
}

// A prototype whose operand types earlier prototypes had is checked in one
// go; it must still learn that a parameter has no name.
TEST(CheckShortcuts, KnownOperandsStillNeedNamedParameters) {
  synth::BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  b.add_func_proto(i32, {{"a", i32}});
  const uint32_t unnamed = b.add_func_proto(i32, {{"", i32}});
  b.add_func("f", unnamed);
  expect_rule_both_ways(b.build(), "BTF-FUNC-005", "FUNC whose prototype has an unnamed parameter");
}

// A pointer, typedef or qualifier counts as a known operand from when it is
// resolved, if it then has a size: a typedef of a forward declaration has
// none, a pointer to one has.
TEST(CheckShortcuts, OperandsResolvedWithoutASizeAreNotKnown) {
  synth::BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  const uint32_t fwd = b.add_fwd("opaque");
  const uint32_t t = b.add_typedef("opaque_t", fwd);
  const uint32_t ptr = b.add_ptr(fwd);
  b.add_func_proto(i32, {{"a", ptr}, {"b", t}});
  expect_rule_both_ways(b.build(), "BTF-PROTO-005", "typedef of a FWD as a parameter");
}

// A whole kernel's BTF, on one thread and on two.
TEST(CheckShortcuts, SameFindingsAndStateOnTheRunningKernelsBtf) {
  auto vmlinux = running_vmlinux();
  if (!vmlinux) GTEST_SKIP() << "no /sys/kernel/btf/vmlinux";
  for (const bool concurrent : {false, true}) {
    CheckOptions options;
    options.concurrent = concurrent;
    const fuzz::ShortcutComparison c = fuzz::compare_shortcuts(vmlinux->raw, options);
    ASSERT_TRUE(c.resolved);
    EXPECT_EQ(c.difference, "");
  }
}

}  // namespace
}  // namespace elfmeta::btf
