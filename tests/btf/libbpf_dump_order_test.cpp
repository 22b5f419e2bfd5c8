// BTF-LIBBPF-019 and -020 (validators/btf/libbpf_dump_order.cpp): reference
// cycles btf_dump's ordering follows without end, and type cycles it refuses.
// Each shape is also handed to sid's bpftool (libbpf 1.8), whose `btf dump
// ... format c` must crash exactly where -019 fires and refuse exactly where
// -020 does.
#include "btf/libbpf_dump_order.h"

#include <unistd.h>
#include <csignal>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "btf/verifier.h"
#include "core/diagnostic.h"
#include "input/artifact.h"
#include "synth/btf_builder.h"
#include "tests/btf/libbpf_rule_findings.h"
#include "tests/support/elf_file_edit.h"
#include "tests/support/toolchain_root.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;
using synth::BtfBuilder;

std::vector<Diagnostic> order_findings(std::span<const uint8_t> blob, btf::Release libbpf = {1, 7}) {
  return libbpf_rule_findings(blob, "BTF-LIBBPF-019", libbpf);
}

// What bpftool's `btf dump ... format c` does with a blob.
enum class Dump { kWritesC, kRecursesWithoutEnd, kRefuses };

struct Shape {
  std::string name;
  std::vector<uint8_t> blob;
  Dump dump;  // BTF-LIBBPF-019 for kRecursesWithoutEnd, BTF-LIBBPF-020 for kRefuses
};

// int (*)(self) (a prototype's parameter points back at it), added to `b`;
// returns the int's id.
uint32_t add_parameter_points_back(BtfBuilder& b) {
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.next_id();
  b.add_func_proto(int_id, {{"self", proto + 1}});
  b.add_ptr(proto);
  return int_id;
}
std::vector<uint8_t> parameter_points_back() {
  BtfBuilder b;
  add_parameter_points_back(b);
  return b.build();
}

// The blob with `n` zero bytes after its last section (BTF-HDR-012), or
// between its type and string sections (BTF-HDR-009): the kernel refuses
// both before it reads a record, libbpf reads on.
std::vector<uint8_t> with_trailing_bytes(std::vector<uint8_t> blob, size_t n = 4) {
  blob.resize(blob.size() + n, 0);
  return blob;
}
std::vector<uint8_t> with_gap_before_strings(std::vector<uint8_t> blob, uint32_t n = 4) {
  uint32_t type_len, str_off;
  std::memcpy(&type_len, blob.data() + 12, 4);
  std::memcpy(&str_off, blob.data() + 16, 4);
  blob.insert(blob.begin() + 24 + type_len, n, 0);
  str_off += n;
  std::memcpy(blob.data() + 16, &str_off, 4);
  return blob;
}

// Cycles through a prototype or a struct (the kernel accepts each), and
// near misses.
std::vector<Shape> shapes() {
  std::vector<Shape> out;
  out.push_back({"parameter-points-back", parameter_points_back(), Dump::kRecursesWithoutEnd});
  // The same where the kernel stops at the sections and libbpf does not.
  out.push_back({"parameter-points-back-then-trailing-bytes", with_trailing_bytes(parameter_points_back()),
                 Dump::kRecursesWithoutEnd});
  out.push_back({"parameter-points-back-with-a-gap", with_gap_before_strings(parameter_points_back()),
                 Dump::kRecursesWithoutEnd});
  {  // typedef int (*T)(T): through a typedef
    BtfBuilder b;
    const uint32_t int_id = b.add_int("int", 4, 32, 1);
    const uint32_t t = b.next_id();
    b.add_typedef("T", t + 1);
    b.add_ptr(t + 2);
    b.add_func_proto(int_id, {{"next", t}});
    out.push_back({"typedef", b.build(), Dump::kRecursesWithoutEnd});
  }
  {  // the return type, through const and an array of pointers
    BtfBuilder b;
    const uint32_t int_id = b.add_int("int", 4, 32, 1);
    const uint32_t proto = b.next_id();
    b.add_func_proto(proto + 1, {{"x", int_id}});
    b.add_const(proto + 2);
    b.add_ptr(proto);
    b.add_struct("s", 8, {{"f", proto + 2, 0}});
    out.push_back({"return-type-in-a-struct", b.build(), Dump::kRecursesWithoutEnd});
  }
  {  // an array of such pointers as a parameter
    BtfBuilder b;
    const uint32_t int_id = b.add_int("int", 4, 32, 1);
    const uint32_t proto = b.next_id();
    b.add_func_proto(int_id, {{"v", proto + 1}});
    b.add_array(proto + 2, int_id, 2);
    b.add_ptr(proto);
    out.push_back({"array", b.build(), Dump::kRecursesWithoutEnd});
  }
  {  // struct s { int (*cb)(struct s *); }: a named struct ends the walk
    BtfBuilder b;
    const uint32_t int_id = b.add_int("int", 4, 32, 1);
    const uint32_t s = b.next_id();
    b.add_struct("s", 8, {{"cb", s + 1, 0}});
    b.add_ptr(s + 2);
    b.add_func_proto(int_id, {{"self", s + 3}});
    b.add_ptr(s);
    out.push_back({"through-a-named-struct", b.build(), Dump::kWritesC});
  }
  {  // struct { int (*cb)(<that struct> *); } *p: an anonymous struct cannot
     // be declared ahead
    BtfBuilder b;
    const uint32_t int_id = b.add_int("int", 4, 32, 1);
    const uint32_t a = b.next_id();
    b.add_struct("", 8, {{"cb", a + 1, 0}});
    b.add_ptr(a + 2);
    b.add_func_proto(int_id, {{"self", a + 3}});
    b.add_ptr(a);
    b.add_struct("s", 8, {{"p", a + 3, 0}});
    out.push_back({"through-an-anonymous-struct", b.build(), Dump::kRefuses});
  }
  {  // struct s { struct { <that struct> *next; } list; }
    BtfBuilder b;
    const uint32_t a = b.next_id();
    b.add_struct("", 8, {{"next", a + 1, 0}});
    b.add_ptr(a);
    b.add_struct("s", 8, {{"list", a, 0}});
    out.push_back({"anonymous-struct-points-at-itself", b.build(), Dump::kRefuses});
  }
  {  // struct S { struct S (*p)[2]; }: not C, an array needs its element
    BtfBuilder b;
    const uint32_t int_id = b.add_int("int", 4, 32, 1);
    const uint32_t s = b.next_id();
    b.add_struct("S", 8, {{"p", s + 1, 0}});
    b.add_ptr(s + 2);
    b.add_array(s, int_id, 2);
    out.push_back({"pointer-to-array-of-self", b.build(), Dump::kRefuses});
  }
  {  // struct S { struct S *v[2]; }: an array of pointers is C
    BtfBuilder b;
    const uint32_t int_id = b.add_int("int", 4, 32, 1);
    const uint32_t s = b.next_id();
    b.add_struct("S", 16, {{"v", s + 1, 0}});
    b.add_array(s + 2, int_id, 2);
    b.add_ptr(s);
    out.push_back({"array-of-pointers-to-self", b.build(), Dump::kWritesC});
  }
  {  // int (*)(int (*)(int)): no cycle
    BtfBuilder b;
    const uint32_t int_id = b.add_int("int", 4, 32, 1);
    const uint32_t inner = b.add_ptr(b.add_func_proto(int_id, {{"x", int_id}}));
    b.add_typedef("outer_t", b.add_ptr(b.add_func_proto(int_id, {{"cb", inner}})));
    out.push_back({"no-cycle", b.build(), Dump::kWritesC});
  }
  // Real: rustc 1.97.1 and pahole 1.32's BTF of `struct Node { pair: *const
  // [Node; 2], value: i32 }` (legal Rust).
  out.push_back({"rust-pointer-to-array-of-self",
                 read_bytes(fs::path(ELFMETA_SOURCE_DIR) / "regress" / "known-bugs" / "libbpf-1.8" /
                            "dump-rust-pointer-to-array-of-self"),
                 Dump::kRefuses});
  return out;
}

TEST(BtfDumpOrder, EachCycleIsReportedOnceByItsRule) {
  for (const Shape& s : shapes()) {
    ASSERT_FALSE(s.blob.empty()) << s.name;
    const auto endless = order_findings(s.blob);
    const auto refused = libbpf_rule_findings(s.blob, "BTF-LIBBPF-020");
    EXPECT_EQ(endless.size(), s.dump == Dump::kRecursesWithoutEnd ? 1u : 0u) << s.name;
    EXPECT_EQ(refused.size(), s.dump == Dump::kRefuses ? 1u : 0u) << s.name;
    for (const Diagnostic& d : endless) {
      EXPECT_EQ(d.severity, Severity::Warning) << s.name;
      EXPECT_NE(d.message.find("FUNC_PROTO"), std::string::npos) << s.name << ": " << d.message;
    }
    for (const Diagnostic& d : refused) {
      EXPECT_EQ(d.severity, Severity::Warning) << s.name;
      EXPECT_NE(d.message.find("STRUCT"), std::string::npos) << s.name << ": " << d.message;
    }
  }
}

// The Rust reproducer names its struct and the cycle through the array.
TEST(BtfDumpOrder, RustPointerToArrayOfSelfNamesTheCycle) {
  const auto found = libbpf_rule_findings(
      read_bytes(fs::path(ELFMETA_SOURCE_DIR) / "regress" / "known-bugs" / "libbpf-1.8" /
                 "dump-rust-pointer-to-array-of-self"),
      "BTF-LIBBPF-020", {1, 8});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("1 STRUCT 'Node' -> 2 PTR -> 3 ARRAY -> 1 STRUCT 'Node'"), std::string::npos)
      << found[0].message;
}

// 300 members, each a pointer to an array of the struct: one set of types,
// one finding.
TEST(BtfDumpOrder, OneSetOfTypesIsOneFinding) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t s = b.next_id();
  std::vector<BtfBuilder::MemberSpec> members;
  for (uint32_t i = 0; i < 300; ++i) members.push_back({"p", s + 1 + 2 * i, 64 * i});
  b.add_struct("S", 8 * 300, members);
  for (uint32_t i = 0; i < 300; ++i) {
    b.add_ptr(s + 2 + 2 * i);
    b.add_array(s, int_id, 2);
  }
  EXPECT_EQ(libbpf_rule_findings(b.build(), "BTF-LIBBPF-020").size(), 1u);
}

// 100,000 anonymous structs, each embedding the next, the last pointing at
// the first: walked without recursion, one finding.
TEST(BtfDumpOrder, DeepStructCycleIsWalkedIteratively) {
  BtfBuilder b;
  const uint32_t first = b.next_id();
  constexpr uint32_t kDepth = 100000;
  for (uint32_t i = 0; i + 1 < kDepth; ++i) b.add_struct("", 8, {{"next", first + i + 1, 0}});
  b.add_struct("", 8, {{"back", first + kDepth, 0}});
  b.add_ptr(first);
  b.add_struct("top", 8, {{"chain", first, 0}});
  EXPECT_EQ(libbpf_rule_findings(b.build(), "BTF-LIBBPF-020").size(), 1u);
}

// A prototype with 300 parameters, each its own pointer back at it (issue
// 27's diff bomb): one cycle type, one finding.
TEST(BtfDumpOrder, ManyEdgesIntoOneCycleAreOneFinding) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.next_id();
  std::vector<BtfBuilder::ParamSpec> params;
  for (uint32_t i = 0; i < 300; ++i) params.push_back({"p", proto + 1 + i});
  b.add_func_proto(int_id, params);
  for (uint32_t i = 0; i < 300; ++i) b.add_ptr(proto);
  b.add_func("f", proto);
  EXPECT_EQ(order_findings(b.build()).size(), 1u);
}

// The message names the cycle; a long one keeps its ends.
TEST(BtfDumpOrder, LongCycleIsShortenedInTheMessage) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.next_id();
  b.add_func_proto(int_id, {{"p", proto + 1}});
  for (uint32_t i = 1; i < 40; ++i) b.add_const(proto + 1 + i);
  b.add_ptr(proto);
  const auto found = order_findings(b.build());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("(33 more)"), std::string::npos) << found[0].message;
  EXPECT_LT(found[0].message.size(), 600u) << found[0].message;
}

// The cycle is the input's: 100,000 pointers and modifiers are walked
// without recursion.
TEST(BtfDumpOrder, DeepCycleIsWalkedIteratively) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.next_id();
  b.add_func_proto(int_id, {{"p", proto + 1}});
  for (uint32_t i = 1; i < 100000; ++i) b.add_volatile(proto + 1 + i);
  b.add_ptr(proto);
  EXPECT_EQ(order_findings(b.build()).size(), 1u);
}

// The kernel's parse stops at a gap or at bytes after the last section
// (BTF-HDR-009, -012); libbpf reads on, and so does elfmeta for it: before,
// the btf_dump rules of a blob with trailing bytes were never run, and
// nothing said so (fuzz_libbpf, using them as its guard, found it in 3 s:
// regress/fuzz_libbpf/dump-rules-skipped-after-trailing-bytes). The kernel's
// verdict and findings stay as they were.
TEST(BtfDumpOrder, RulesRunPastSectionsTheKernelRefuses) {
  for (const auto& [name, blob, rule] :
       {std::tuple{"trailing", with_trailing_bytes(parameter_points_back()), "BTF-HDR-012"},
        std::tuple{"gap", with_gap_before_strings(parameter_points_back()), "BTF-HDR-009"}}) {
    const auto found = order_findings(blob);
    EXPECT_EQ(found.size(), 1u) << name;
    const auto sections = libbpf_rule_findings(blob, rule);
    ASSERT_EQ(sections.size(), 1u) << name;
    EXPECT_EQ(sections[0].severity, Severity::Warning) << name;
    EXPECT_TRUE(libbpf_rule_findings(blob, "BTF-HDR-013").empty()) << name << ": the trailing bytes said twice";
    DiagnosticList kernel;
    btf::check_btf(blob, nullptr, btf::CheckOptions{}, "case", ".BTF", kernel);
    ASSERT_EQ(kernel.items().size(), 1u) << name;
    EXPECT_EQ(kernel.items()[0].rule->id, rule) << name;
    EXPECT_EQ(kernel.items()[0].severity, Severity::Error) << name;
  }
  const auto fuzzed = read_bytes(fs::path(ELFMETA_SOURCE_DIR) / "regress" / "fuzz_libbpf" /
                                 "dump-rules-skipped-after-trailing-bytes");
  EXPECT_EQ(order_findings(fuzzed).size(), 2u);
}

// Where elfmeta cannot read every record (a kind past those it knows: libbpf
// 1.7 reads 5 kind bits of the info word, Linux 7.2 and elfmeta 7), the
// btf_dump rules are not run, and a note says so.
TEST(BtfDumpOrder, RulesNotRunAreANote) {
  BtfBuilder b;
  const uint32_t int_id = add_parameter_points_back(b);
  b.add_raw(0, (0x20u | 8u) << 24, int_id);  // a typedef to libbpf 1.7, kind 40 to Linux 7.2
  const DiagnosticList list = libbpf_check(b.build());
  size_t notes = 0;
  for (const Diagnostic& d : list.items()) {
    EXPECT_FALSE(d.rule && d.rule->id.starts_with("BTF-LIBBPF-01")) << d.message;
    notes += !d.rule && d.message.find("btf_dump's rules (BTF-LIBBPF-018, -019, -020) not run") != std::string::npos;
  }
  EXPECT_EQ(notes, 1u);
}

// The fuzzer-made reproducer of regress/fuzz_libbpf (PTR -> FUNC_PROTO ->
// PTR), which sid's bpftool crashes on, and the running kernel's BTF (no
// finding of either rule).
TEST(BtfDumpOrder, ReproducerAndRunningKernel) {
  const std::vector<uint8_t> blob =
      read_bytes(fs::path(ELFMETA_SOURCE_DIR) / "regress" / "fuzz_libbpf" / "dump-pointer-prototype-cycle");
  ASSERT_FALSE(blob.empty());
  EXPECT_EQ(order_findings(blob).size(), 1u);
  const auto vmlinux = input::open_input("/sys/kernel/btf/vmlinux");
  if (!vmlinux.artifact) GTEST_SKIP() << "no /sys/kernel/btf/vmlinux";
  EXPECT_EQ(order_findings(vmlinux.artifact->raw).size(), 0u);
  EXPECT_EQ(libbpf_rule_findings(vmlinux.artifact->raw, "BTF-LIBBPF-020").size(), 0u);
}

// The oracle: sid's bpftool dies of its stack overflow (SIGSEGV, 139 from
// the shell) on each shape BTF-LIBBPF-019 reports, stops with -ELOOP (exit
// 216) on each BTF-LIBBPF-020 reports, and writes C for the others.
TEST(BtfDumpOrder, BpftoolFailsExactlyWhereReported) {
  ELFMETA_REQUIRE_TOOLCHAIN_ROOT();
  const std::vector<Shape> all = shapes();
  const fs::path dir = fs::temp_directory_path() / ("elfmeta-dump-order-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const Shape& s : all) {
    std::ofstream out(dir / (s.name + ".btf"), std::ios::binary);
    out.write(reinterpret_cast<const char*>(s.blob.data()), static_cast<std::streamsize>(s.blob.size()));
  }
  const CommandResult r = SidData::run(
      "for f in *.btf; do timeout 20 bpftool btf dump file \"$f\" format c >/dev/null 2>&1; echo \"$f $?\"; done", dir);
  fs::remove_all(dir);
  ASSERT_EQ(r.status, 0) << r.output.substr(0, 2000);
  for (const Shape& s : all) {
    const size_t at = r.output.find(s.name + ".btf ");
    ASSERT_NE(at, std::string::npos) << s.name << ": no bpftool status in\n" << r.output;
    const int status = std::stoi(r.output.substr(at + s.name.size() + 5));
    const int expected = s.dump == Dump::kRecursesWithoutEnd ? 128 + SIGSEGV : s.dump == Dump::kRefuses ? 216 : 0;
    EXPECT_EQ(status, expected) << s.name << ": bpftool exit status " << status;
  }
}

}  // namespace
}  // namespace elfmeta::testing
