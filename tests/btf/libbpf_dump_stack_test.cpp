// BTF-LIBBPF-018 (validators/btf/libbpf_dump_stack.cpp): btf_dump's
// declaration stack past its first 16 entries. The boundary was measured on
// libbpf 1.7 under ASan (regress/known-bugs/libbpf-1.7): the rule case's 14
// pointers read freed memory, 13 do not.
#include "btf/libbpf_dump_stack.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "input/artifact.h"
#include "synth/btf_builder.h"
#include "tests/btf/libbpf_rule_findings.h"
#include "tests/support/elf_file_edit.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;
using synth::BtfBuilder;

std::vector<Diagnostic> stack_findings(std::span<const uint8_t> blob, btf::Release libbpf = {1, 7}) {
  return libbpf_rule_findings(blob, "BTF-LIBBPF-018", libbpf);
}

// `levels` anonymous structs, each behind a pointer in the one around it,
// in struct s: `struct s { struct { struct { ... int x; } *a; ... } *h; }`.
std::vector<uint8_t> nested_anonymous(int levels) {
  BtfBuilder b;
  uint32_t inner = b.add_struct("", 4, {{"x", b.add_int("int", 4, 32, 1), 0}});
  for (int i = 1; i < levels; ++i) inner = b.add_struct("", 8, {{"a", b.add_ptr(inner), 0}});
  b.add_struct("s", 8, {{"h", b.add_ptr(inner), 0}});
  return b.build();
}

// The C of regress/known-bugs/libbpf-1.7/dump-nested-anonymous-decl-stack.c,
// compiled by sid's gcc 16 and converted by pahole 1.32: eight levels, of
// which each holds its PTR and STRUCT on the stack (16), and int x is the
// 17th. One finding, at struct s.
TEST(BtfDumpStack, RealProducersNestedAnonymousStructs) {
  const fs::path file =
      fs::path(ELFMETA_SOURCE_DIR) / "regress" / "known-bugs" / "libbpf-1.7" / "dump-nested-anonymous-decl-stack";
  const std::vector<uint8_t> blob = read_bytes(file);
  ASSERT_FALSE(blob.empty()) << file;
  const auto found = stack_findings(blob);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("struct s:"), std::string::npos) << found[0].message;
  EXPECT_EQ(found[0].severity, Severity::Warning);
}

// The same shape from our builder at each depth: past the stack from eight
// levels on, not before.
TEST(BtfDumpStack, NestingDepthBoundary) {
  EXPECT_EQ(stack_findings(nested_anonymous(7)).size(), 0u);
  EXPECT_EQ(stack_findings(nested_anonymous(8)).size(), 1u);
  EXPECT_EQ(stack_findings(nested_anonymous(9)).size(), 1u);
}

// A prototype's parameters are declared on top of the whole chain that
// holds it, but the chain is not read after them: in a named struct a deep
// parameter reallocates the stack harmlessly (libbpf 1.7 under ASan: clean
// with 13 pointers, 17 entries). Inside `struct { void (*cb)(...); } *p`
// the outer declarator (*p) is read after the anonymous struct: 11 pointers
// there read freed memory, 10 do not (PTR and STRUCT, PTR, FUNC_PROTO and
// void, then the pointers and int: 16 with 10).
TEST(BtfDumpStack, PrototypeParametersCountOnlyUnderAnExposedView) {
  const auto callback = [](BtfBuilder& b, int pointers) {
    uint32_t deep = b.add_int("int", 4, 32, 1);
    for (int i = 0; i < pointers; ++i) deep = b.add_ptr(deep);
    return b.add_ptr(b.add_func_proto(0, {{"arg", deep}}));
  };
  {
    BtfBuilder b;
    b.add_struct("ops", 8, {{"callback", callback(b, 13), 0}});
    EXPECT_EQ(stack_findings(b.build()).size(), 0u);
  }
  for (const int pointers : {10, 11}) {
    BtfBuilder b;
    const uint32_t anonymous = b.add_struct("", 8, {{"cb", callback(b, pointers), 0}});
    b.add_struct("s", 8, {{"p", b.add_ptr(anonymous), 0}});
    EXPECT_EQ(stack_findings(b.build()).size(), pointers == 11 ? 1u : 0u) << pointers;
  }
}

// An anonymous struct declared as a member itself (no pointer before it)
// leaves no view to read afterwards: 21 entries inside it are clean on
// libbpf 1.7 under ASan, and are not reported.
TEST(BtfDumpStack, AnonymousMemberWithoutDeclaratorIsNotExposed) {
  BtfBuilder b;
  uint32_t deep = b.add_int("int", 4, 32, 1);
  for (int i = 0; i < 20; ++i) deep = b.add_ptr(deep);
  b.add_struct("s", 8, {{"a", b.add_struct("", 8, {{"x", deep, 0}}), 0}});
  EXPECT_EQ(stack_findings(b.build()).size(), 0u);
}

// A typedef's declaration is checked as its target's, on an empty stack.
TEST(BtfDumpStack, TypedefOfADeepDeclaration) {
  BtfBuilder b;
  uint32_t inner = b.add_struct("", 4, {{"x", b.add_int("int", 4, 32, 1), 0}});
  for (int i = 1; i < 8; ++i) inner = b.add_struct("", 8, {{"a", b.add_ptr(inner), 0}});
  b.add_typedef("deep_t", b.add_ptr(inner));
  const auto found = stack_findings(b.build());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("deep_t"), std::string::npos) << found[0].message;
}

// An anonymous struct reached again from inside itself is emitted without
// end (regress/known-bugs/libbpf-1.7/dump-anonymous-struct-recursion): a
// bug of its own, not this rule's finding, and the walk ends. A deep branch
// beside the cycle is still reported.
TEST(BtfDumpStack, InlineCycleIsNotThisRulesFinding) {
  for (const bool deep_branch : {false, true}) {
    BtfBuilder b;
    const uint32_t int_id = b.add_int("int", 4, 32, 1);
    uint32_t deep = int_id;
    for (int i = 0; i < 15; ++i) deep = b.add_ptr(deep);
    const uint32_t self = b.next_id();
    if (deep_branch)
      b.add_struct("", 16, {{"next", self + 1, 0}, {"deep", deep, 64}});
    else
      b.add_struct("", 8, {{"next", self + 1, 0}});
    b.add_ptr(self);
    b.add_struct("list", 8, {{"head", self + 1, 0}});
    EXPECT_EQ(stack_findings(b.build()).size(), deep_branch ? 1u : 0u) << deep_branch;
  }
}

// A prototype whose parameter points back at it recurses without end in
// btf_dump (regress/known-bugs/libbpf-1.7/dump-pointer-prototype-cycle),
// but no view is read again on the way: not this rule's finding.
TEST(BtfDumpStack, PrototypeCycleIsNotExposed) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.next_id();
  b.add_func_proto(int_id, {{"self", proto + 1}});
  b.add_ptr(proto);
  b.add_struct("ops", 8, {{"cb", proto + 1, 0}});
  EXPECT_EQ(stack_findings(b.build()).size(), 0u);
}

// An anonymous struct at the end of a chain longer than the first stack:
// the chain takes the stack past 16 before the view is opened (harmless),
// the struct's members then past its second allocation (24) under the view.
// fuzz_libbpf's campaign of 2026-12-02 found it (libbpf 1.7 under ASan, a
// heap-use-after-free in btf_dump_emit_type_chain: 22 entries of typedef
// 156, then a member of four); the walk stopped counting at 17 entries and
// never saw the struct. Builder: 20 modifiers, the array, the struct.
TEST(BtfDumpStack, InlineStructAtTheEndOfALongChain) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t deep = b.add_ptr(b.add_ptr(b.add_ptr(int_id)));
  uint32_t chain = b.add_array(b.add_struct("", 8, {{"p", deep, 0}}), int_id, 2);
  for (int i = 0; i < 20; ++i) chain = b.add_const(chain);
  b.add_typedef("long_chain_t", chain);
  const auto found = stack_findings(b.build());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("long_chain_t"), std::string::npos) << found[0].message;

  const auto fuzzed = read_bytes(fs::path(ELFMETA_SOURCE_DIR) / "regress" / "fuzz_libbpf" /
                                 "dump-stack-inline-struct-after-long-chain");
  ASSERT_FALSE(fuzzed.empty());
  EXPECT_FALSE(stack_findings(fuzzed).empty());
}

// Chains are followed to their ends within a budget of steps: 3,000
// typedefs, each of a later link of one chain of 3,000 qualifiers, walk
// about 4.5 million steps past the first stack. The budget runs out, and a
// note says the rule was cut short; nothing is reported from a guess.
TEST(BtfDumpStack, ChainsPastTheBudgetAreANote) {
  BtfBuilder b;
  uint32_t link = b.add_int("int", 4, 32, 1);
  std::vector<uint32_t> links;
  for (int i = 0; i < 3000; ++i) links.push_back(link = b.add_const(link));
  for (size_t i = 0; i < links.size(); ++i) b.add_typedef("t" + std::to_string(i), links[i]);
  const DiagnosticList list = libbpf_check(b.build());
  size_t notes = 0;
  for (const Diagnostic& d : list.items()) {
    EXPECT_FALSE(d.rule && d.rule->id == "BTF-LIBBPF-018") << d.message;
    notes += !d.rule && d.message.find("BTF-LIBBPF-018 cut short") != std::string::npos;
  }
  EXPECT_EQ(notes, 1u);
}

// The nesting is the input's: 30,000 levels are walked without recursion
// (and reported once, at the outermost named struct).
TEST(BtfDumpStack, DeepNestingIsWalkedIteratively) {
  EXPECT_EQ(stack_findings(nested_anonymous(30000)).size(), 1u);
}

// libbpf 1.1 has no sanity pass and accepts references past the last
// type, so the walk sees them: skipped, not followed (fuzz_btf found the
// walk indexing past its nodes: regress/fuzz_btf/
// libbpf-dump-stack-member-past-last-type).
TEST(BtfDumpStack, ReferencesPastTheLastTypeAreSkipped) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t missing = 1000;
  const uint32_t proto = b.add_func_proto(int_id, {{"arg", missing}});
  const uint32_t anonymous = b.add_struct("", 16, {{"gone", missing, 0}, {"cb", b.add_ptr(proto), 64}});
  b.add_struct("s", 8, {{"p", b.add_ptr(anonymous), 0}});
  b.add_typedef("gone_t", missing);
  EXPECT_EQ(stack_findings(b.build(), {1, 1}).size(), 0u);
}

// No kernel comes near: the running kernel's BTF, checked as libbpf 1.7
// would read it, has no finding (its btf_dump under ASan is clean too).
TEST(BtfDumpStack, RunningKernelIsClean) {
  const auto vmlinux = input::open_input("/sys/kernel/btf/vmlinux");
  if (!vmlinux.artifact) GTEST_SKIP() << "no /sys/kernel/btf/vmlinux";
  EXPECT_EQ(stack_findings(vmlinux.artifact->raw).size(), 0u);
}

}  // namespace
}  // namespace elfmeta::testing
