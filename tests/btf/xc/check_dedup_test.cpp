// XC-DEDUP: each rule triggered by a blob that carries exactly that
// leftover of deduplication; and the clean case.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "btf/parse.h"

#include "synth/btf_builder.h"
#include "tests/btf/xc/xc_test_support.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;

// struct list { int value; struct list *next; } and a pointer to it.
uint32_t add_list(BtfBuilder& b, uint32_t int_id) {
  const uint32_t s = b.next_id();
  const uint32_t ptr = s + 1;
  b.add_struct("list", 16, {{"value", int_id, 0}, {"next", ptr, 64}});
  b.add_ptr(s);
  return s;
}

TEST(XcDedup, DeduplicatedBlobIsClean) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t list = add_list(b, int_id);
  b.add_ptr(list + 1);  // struct list ** is a different type
  b.add_fwd("opaque");
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->rules(), "") << run->text();
  EXPECT_EQ(run->stats.strings, 5u);  // int, list, value, next, opaque
}

TEST(XcDedup, ByteIdenticalRecords) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  b.add_ptr(int_id);
  b.add_ptr(int_id);
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->rules(), "XC-DEDUP-001");
  EXPECT_NE(run->text().find("[type 3 PTR]: warning: PTR 3 (anon) is byte-identical to type 2"), std::string::npos)
      << run->text();
}

// Two static variables of one name and type in two units (pahole's
// global_var encodes both): byte-identical VARs, but two variables, which
// btf__dedup never merges.
TEST(XcDedup, ByteIdenticalVarsAreTwoVariables) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t first = b.add_var("debug", int_id);
  const uint32_t second = b.add_var("debug", int_id);
  b.add_datasec(".bss", 8, {{first, 0, 4}, {second, 4, 4}});
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->rules(), "") << run->text();
}

TEST(XcDedup, StructurallyIdenticalStructsAndWhatPointsAtThem) {
  // Two copies of a self-referential struct: not byte-identical (each
  // points at its own copy), equal after following the references.
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t first = add_list(b, int_id);
  const uint32_t second = add_list(b, int_id);
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->rules(), "XC-DEDUP-002 XC-DEDUP-004") << run->text();
  EXPECT_EQ(run->stats.struct_duplicates, 1u);
  EXPECT_EQ(run->stats.equivalent_records, 1u);  // the second struct list *
  EXPECT_NE(run->text().find("STRUCT " + std::to_string(second) + " 'list' is structurally identical to type " +
                             std::to_string(first)),
            std::string::npos)
      << run->text();
}

TEST(XcDedup, StructsThatDifferDeepDownAreNotDuplicates) {
  // Same name and layout, but the member types differ three references away.
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t long_id = b.add_int("long int", 8, 64, 1);
  for (uint32_t leaf : {int_id, long_id}) {
    const uint32_t p = b.add_ptr(b.add_const(b.add_ptr(leaf)));
    b.add_struct("holder", 8, {{"p", p, 0}});
  }
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->rules(), "") << run->text();
}

TEST(XcDedup, ForwardDeclarationBesideItsDefinition) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  add_list(b, int_id);
  b.add_fwd("list");
  b.add_fwd("list", true);  // a union forward: no union list, not a leftover
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->rules(), "XC-DEDUP-003");
  EXPECT_EQ(run->stats.fwd_with_definition, 1u);
}

TEST(XcDedup, DuplicateAndUnreferencedStrings) {
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  b.str("orphan");
  const uint32_t copy = b.raw_str(std::string("int") + '\0');
  b.add_int("", 4, 32, 1);
  b.record(b.next_id() - 1)[0] = copy;  // an INT named by the second "int"
  auto run = run_cross_check(b.build());
  // The two INTs differ only in which copy of "int" names them: equal by
  // content, which a byte comparison would miss.
  EXPECT_EQ(run->rules(), "XC-DEDUP-004 XC-DEDUP-005") << run->text();
  EXPECT_EQ(run->stats.duplicate_strings, 1u);
  EXPECT_EQ(run->stats.unreferenced_strings, 1u);
  EXPECT_EQ(run->count("XC-DEDUP-005", Severity::Note), 1u);
  EXPECT_NE(run->text().find("string 'orphan' at string offset 5 is not referenced"), std::string::npos)
      << run->text();
}

// From 4,096 records of its own a blob's name and string families run on a
// second thread beside the record families (check_dedup.cpp): the findings
// and their order must be a sequential run's, record families first.
TEST(XcDedup, LargeBlobReportsEveryFamilyInTheSequentialOrder) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  b.add_ptr(int_id);
  const uint32_t twin = b.add_ptr(int_id);  // XC-DEDUP-001
  add_list(b, int_id);
  const uint32_t second_list = add_list(b, int_id);  // XC-DEDUP-002, -004
  const uint32_t fwd = b.add_fwd("list");            // XC-DEDUP-003
  b.str("orphan");                                   // XC-DEDUP-005 (a note)
  for (int i = 0; b.next_id() < 4300; ++i) b.add_int("i" + std::to_string(i), 4, 32, 1);
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->rules(), "XC-DEDUP-001 XC-DEDUP-002 XC-DEDUP-003 XC-DEDUP-004") << run->text();
  EXPECT_EQ(run->count("XC-DEDUP-005", Severity::Note), 1u);
  EXPECT_EQ(run->stats.identical_records, 1u);
  EXPECT_EQ(run->stats.struct_duplicates, 1u);
  EXPECT_EQ(run->stats.fwd_with_definition, 1u);
  EXPECT_EQ(run->stats.unreferenced_strings, 1u);
  const std::string text = run->text();
  const size_t identical = text.find("PTR " + std::to_string(twin) + " (anon) is byte-identical");
  const size_t structural = text.find("STRUCT " + std::to_string(second_list) + " 'list' is structurally identical");
  const size_t forward = text.find("[type " + std::to_string(fwd) + " FWD 'list']");
  const size_t orphan = text.find("string 'orphan'");
  ASSERT_NE(orphan, std::string::npos) << text;
  EXPECT_LT(identical, structural) << text;
  EXPECT_LT(structural, forward) << text;
  EXPECT_LT(forward, orphan) << text;
}

TEST(XcDedup, ReferenceIntoTheTailOfAStringCountsAsUse) {
  BtfBuilder b;
  const uint32_t whole = b.str("unsigned int");
  b.add_int("", 4, 32, 0);
  b.record(1)[0] = whole + 9;  // "int", the tail of "unsigned int"
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->stats.unreferenced_strings, 0u) << run->text();
}

TEST(XcDedup, SplitTypeIdenticalToABaseType) {
  BtfBuilder base;
  const uint32_t int_id = base.add_int("int", 4, 32, 1);
  base.add_ptr(int_id);
  const auto base_blob = base.build();
  BtfBuilder split(base.next_id(), static_cast<uint32_t>(base.strings().size()));
  split.add_ptr(int_id);               // repeats base type 2
  split.add_ptr(split.next_id() - 1);  // int ** is new
  auto run = run_cross_check(split.build(), "", base_blob);
  EXPECT_EQ(run->rules(), "XC-DEDUP-006") << run->text();
  EXPECT_EQ(run->stats.split_identical, 1u);
  EXPECT_NE(run->text().find("PTR 3 (anon) is byte-identical to base type 2"), std::string::npos) << run->text();
}

// Names are read up to a bound (walk audit T3.5): names longer than it
// that share their first bytes are still different names, so neither the
// structs nor the FWD beside them are reported as duplicates.
TEST(XcDedup, LongNamesThatShareTheirBoundedPrefixAreDistinct) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const std::string prefix(2000, 's');
  b.add_struct(prefix + "1", 4, {{"x", int_id, 0}});
  b.add_struct(prefix + "2", 4, {{"x", int_id, 0}});
  b.add_fwd(prefix + "3");
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->count("XC-DEDUP-002"), 0u) << run->text();
  EXPECT_EQ(run->count("XC-DEDUP-003"), 0u) << run->text();
  // The same long name twice is still found, by its string offset.
  BtfBuilder same;
  const uint32_t i2 = same.add_int("int", 4, 32, 1);
  same.add_struct(prefix, 4, {{"x", i2, 0}});
  same.add_fwd(prefix);
  EXPECT_EQ(run_cross_check(same.build())->count("XC-DEDUP-003"), 1u);
}

// Walk audit T3.5: 20,000 INT records (the kernel does not check INT
// names) named by the suffixes of one 1 MB string. The cross-checks hashed,
// scanned and compared each name whole, about 8 s of `elfmeta check --only
// xc` at ac91e86 (10.1 s in all); read up to the bound, the cross-checks
// take milliseconds. Run in a child under RLIMIT_CPU of 2 s, without the
// kernel's rules (whose own per-record reads are not this test's).
TEST(XcDedup, NamesAreReadWithABound) {
  constexpr uint32_t kRecords = 20000;
  BtfBuilder b;
  const uint32_t name = b.str(std::string(1 << 20, 'a'));
  for (uint32_t i = 0; i < kRecords; ++i) b.add_raw(name + i, BtfBuilder::info(1), 4, {32});
  const std::vector<uint8_t> blob = b.build();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const rlimit cpu{2, 2};
    ::setrlimit(RLIMIT_CPU, &cpu);
    NullSink quiet;
    btf::Findings bf(btf::CheckContext{}, quiet);
    const auto parsed = btf::parse(blob, {}, bf);
    if (!parsed) ::_exit(3);
    auto opened = input::open_bytes("names.btf", blob);
    if (!opened.artifact) ::_exit(4);
    DiagnosticList list;
    Findings findings("names.btf", list);
    const auto stats = btf::xc::cross_check({*opened.artifact, *parsed, nullptr}, findings);
    ::_exit(stats.identical_records == 0 && list.count("XC-DEDUP-004") == 0 ? 0 : 5);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status)) << "signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
}

TEST(XcDedup, ReferenceChainsLongerThanTheRoundLimitAreSkippedWithANote) {
  // Two chains of 200 PTRs ending in different INTs: telling them apart
  // takes 200 rounds of refinement.
  BtfBuilder b;
  for (const char* leaf : {"int", "unsigned int"}) {
    uint32_t t = b.add_int(leaf, 4, 32, 0);
    for (int i = 0; i < 200; ++i) t = b.add_ptr(t);
  }
  auto run = run_cross_check(b.build());
  EXPECT_EQ(run->count("XC-DEDUP-004"), 0u);
  EXPECT_NE(run->text().find("did not settle"), std::string::npos) << run->text();
}

}  // namespace
}  // namespace elfmeta::testing
