// Functions: clone symbols, same-named statics with and without addr= tags,
// and the plain case, each count asserted.
#include <gtest/gtest.h>

#include "synth/btf_builder.h"
#include "tests/coverage/coverage_test_support.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;

struct Protos {
  BtfBuilder b;
  uint32_t int_id, one, two;
  Protos() {
    int_id = b.add_int("int", 4, 32, 1);
    one = b.add_func_proto(int_id, {{"x", int_id}});
    two = b.add_func_proto(int_id, {{"x", int_id}, {"y", int_id}});
  }
};

TEST(CoverageFunctions, SymbolsWithTheirFuncAreCovered) {
  Protos p;
  p.b.add_func("alpha", p.one);
  p.b.add_func("beta", p.one);
  auto run = with_kallsyms(p.b.build(),
                           "ffffffff81000000 T alpha\nffffffff81000040 t beta\nffffffff81000080 t gamma\n"
                           "ffffffff810000c0 t __pfx_alpha\n");
  const auto c = coverage::function_coverage(run->in());
  EXPECT_EQ(c.total, 3u);  // __pfx_ is padding, not a function
  EXPECT_EQ(c.with_func, 2u);
  EXPECT_EQ(c.abi_prototype, 2u);
  EXPECT_EQ(c.covered, 2u);
  EXPECT_EQ(c.funcs, 2u);
  EXPECT_EQ(c.funcs_without_symbol, 0u);
  EXPECT_EQ(c.shared_names, 0u);
}

// A FUNC whose only code is a .constprop clone: it has a FUNC (of the name
// the clone was made from) but its prototype does not describe the clone's
// ABI (XC-SYM-004's case); a .part piece is no better. A FUNC with no code
// at all is counted apart.
TEST(CoverageFunctions, OnlyACloneSymbolIsNotCovered) {
  Protos p;
  p.b.add_func("scale", p.one);
  p.b.add_func("pick", p.one);
  p.b.add_func("gone", p.one);
  auto run = with_kallsyms(p.b.build(),
                           "ffffffff81000000 t scale.constprop.0\nffffffff81000040 t pick.part.0\n");
  const auto c = coverage::function_coverage(run->in());
  EXPECT_EQ(c.total, 2u);
  EXPECT_EQ(c.with_func, 2u);
  EXPECT_EQ(c.clone_symbols, 2u);
  EXPECT_EQ(c.abi_prototype, 0u);
  EXPECT_EQ(c.covered, 0u);
  EXPECT_EQ(c.clone_only_funcs, 2u);
  EXPECT_EQ(c.funcs_without_symbol, 1u);
  EXPECT_EQ(coverage::source_name("pick.constprop.0.isra.0"), "pick");
}

// pahole's true_signature: a FUNC under the clone's own name, with the
// clone's real parameters, describes it.
TEST(CoverageFunctions, AFuncOfTheClonesOwnNameCoversIt) {
  Protos p;
  p.b.add_func("scale.constprop.0", p.two);
  auto run = with_kallsyms(p.b.build(), "ffffffff81000000 t scale.constprop.0\n");
  const auto c = coverage::function_coverage(run->in());
  EXPECT_EQ(c.with_func, 1u);
  EXPECT_EQ(c.clone_symbols, 0u);
  EXPECT_EQ(c.abi_prototype, 1u);
  EXPECT_EQ(c.covered, 1u);
  EXPECT_EQ(c.funcs_without_symbol, 0u);
  EXPECT_EQ(c.clone_only_funcs, 0u);
}

constexpr const char* kTwoStatics = "ffffffff81000000 t dup\nffffffff81000040 t dup\n";

// Two statics of one name with different prototypes (two FUNCs): without
// address tags neither instance can be given its prototype.
TEST(CoverageFunctions, SameNamedStaticsWithoutTagsAreNotToldApart) {
  Protos p;
  p.b.add_func("dup", p.one);
  p.b.add_func("dup", p.two);
  auto run = with_kallsyms(p.b.build(), kTwoStatics);
  const auto c = coverage::function_coverage(run->in());
  EXPECT_EQ(c.shared_names, 1u);
  EXPECT_EQ(c.shared_instances, 2u);
  EXPECT_EQ(c.abi_prototype, 2u);
  EXPECT_EQ(c.told_apart, 0u);
  EXPECT_EQ(c.covered, 0u);
}

// The same with an addr= tag on each FUNC: both told apart by the tag. A tag
// naming no instance tells nothing.
TEST(CoverageFunctions, AddressTagsTellSameNamedStaticsApart) {
  Protos p;
  const uint32_t a = p.b.add_func("dup", p.one);
  const uint32_t b = p.b.add_func("dup", p.two);
  p.b.add_decl_tag("addr=0xffffffff81000000", a);
  p.b.add_decl_tag("addr=0xffffffff81000040", b);
  auto run = with_kallsyms(p.b.build(), kTwoStatics);
  auto c = coverage::function_coverage(run->in());
  EXPECT_EQ(c.addr_tags, 2u);
  EXPECT_EQ(c.by_addr_tag, 2u);
  EXPECT_EQ(c.told_apart, 2u);
  EXPECT_EQ(c.covered, 2u);

  Protos q;
  const uint32_t only = q.b.add_func("dup", q.one);
  q.b.add_func("dup", q.two);
  q.b.add_decl_tag("addr=0xffffffff81000000", only);
  q.b.add_decl_tag("addr=0xffffffff8100ffff", only);  // no such instance
  run = with_kallsyms(q.b.build(), kTwoStatics);
  c = coverage::function_coverage(run->in());
  EXPECT_EQ(c.by_addr_tag, 1u);
  EXPECT_EQ(c.covered, 1u);
}

// One FUNC for both: one prototype serves both instances.
TEST(CoverageFunctions, AUniquePrototypeServesEveryInstance) {
  Protos p;
  p.b.add_func("dup", p.one);
  auto run = with_kallsyms(p.b.build(), kTwoStatics);
  const auto c = coverage::function_coverage(run->in());
  EXPECT_EQ(c.by_unique_prototype, 2u);
  EXPECT_EQ(c.by_addr_tag, 0u);
  EXPECT_EQ(c.covered, 2u);
}

// A text letter in a writable section is data (sid's 7.2 .data is writable
// and executable: kallsyms calls its variables 't'), not a function.
TEST(CoverageFunctions, TextLettersInAWritableSectionAreNotFunctions) {
  Protos p;
  p.b.add_func("alpha", p.one);
  auto run = with_kallsyms(p.b.build(), "ffffffff81000000 T alpha\nffffffff82000010 t in_data\n");
  const auto c = coverage::function_coverage(run->in());
  EXPECT_EQ(c.total, 1u);
  EXPECT_EQ(coverage::variable_coverage(run->in()).total, 1u);
}

TEST(CoverageFunctions, NoSymbolsCountNothing) {
  Protos p;
  p.b.add_func("alpha", p.one);
  auto run = open_image(synth::xc_image(p.b.build(), {}));
  const auto c = coverage::function_coverage(run->in());
  EXPECT_EQ(c.total, 0u);
  EXPECT_EQ(c.covered, 0u);
}

}  // namespace
}  // namespace elfmeta::testing
