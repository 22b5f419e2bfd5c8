// The record screen (check_records.cpp) and the resolve shortcuts
// (resolve.cpp) skip work for records they find clean: with them and without,
// a check must report the same findings and leave the same resolve state.
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
  auto vmlinux = running_vmlinux();
  CheckedBtf kernel;
  if (vmlinux) {
    NullSink ignored;
    kernel = check_btf(vmlinux->raw, nullptr, {}, "vmlinux", "", ignored);
  }
  testing::CorpusSpec spec;
  spec.seed = 4242;
  spec.graphs = 300;
  spec.special_field_graphs = 100;
  spec.vmlinux_samples = 100;
  spec.vmlinux = kernel.btf.get();
  const auto samples = testing::differential_corpus(spec);
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

// A check with the shortcuts and one without both report `rule`, and
// agree on everything else.
void expect_rule_both_ways(const std::vector<uint8_t>& blob, const char* rule, const char* what) {
  CheckOptions options;
  options.assume_host_order = true;
  const fuzz::ShortcutComparison c = fuzz::compare_shortcuts(blob, options);
  EXPECT_NE(c.findings.find(rule), std::string::npos) << what << ":\n" << c.findings;
  EXPECT_EQ(c.difference, "") << what;
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
