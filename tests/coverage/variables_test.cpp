// Variables: percpu VARs at the right and a wrong offset, a global VAR of
// the wrong size, data symbols without VAR; kallsyms and sized symbols.
#include <gtest/gtest.h>

#include "synth/btf_builder.h"
#include "tests/coverage/coverage_test_support.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;

// .data..percpu: pcpu_a at 0x10 (right), pcpu_b at 0x20 (its symbol is at
// 0x28); .data: counter at 0x8.
std::vector<uint8_t> percpu_btf() {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t a = b.add_var("pcpu_a", int_id, 1);
  const uint32_t bb = b.add_var("pcpu_b", int_id, 1);
  const uint32_t counter = b.add_var("counter", int_id, 1);
  b.add_datasec(".data..percpu", 0x30, {{a, 0x10, 4}, {bb, 0x20, 4}});
  b.add_datasec(".data", 0x10, {{counter, 0x8, 4}});
  return b.build();
}

// kallsyms: percpu symbols are offsets from __per_cpu_start (absolute,
// zero-based, as x86-64 before 6.15); sizes unknown.
TEST(CoverageVariables, PercpuVarAtAWrongOffsetIsNotCovered) {
  auto run = with_kallsyms(percpu_btf(),
                           "0000000000000000 A __per_cpu_start\n"
                           "0000000000000010 A pcpu_a\n"
                           "0000000000000028 A pcpu_b\n"
                           "0000000000001000 A __per_cpu_end\n"
                           "ffffffff82000008 D counter\n"
                           "ffffffff82000010 d lonely\n"
                           "ffffffff82000000 D __start_something\n");
  const auto c = coverage::variable_coverage(run->in());
  EXPECT_EQ(c.vars, 3u);
  EXPECT_EQ(c.total, 4u);  // the markers are not variables
  EXPECT_EQ(c.percpu_total, 2u);
  EXPECT_EQ(c.percpu_covered, 1u);
  EXPECT_EQ(c.wrong_offset, 1u);
  EXPECT_EQ(c.with_var, 3u);
  EXPECT_EQ(c.covered, 2u);  // pcpu_a and counter (placed by the image's .data)
  EXPECT_EQ(c.size_unchecked, 2u);
  EXPECT_EQ(c.without_var, 1u);  // lonely: what global_var would add
}

// Sized symbols (a symtab): a VAR of another size than its symbol's is not
// covered; the bytes of symbols without VAR are summed.
TEST(CoverageVariables, VarOfTheWrongSizeIsNotCovered) {
  auto run = open_image(synth::xc_image(percpu_btf(), {}));
  const input::Section* percpu = run->artifact->section(".data..percpu");
  const input::Section* data = run->artifact->section(".data");
  ASSERT_TRUE(percpu && data);
  input::SymbolIndex symbols;
  symbols.origin = "symtab";
  symbols.add({"pcpu_a", synth::kXcPercpu + 0x10, 4, 'D', percpu->index});
  symbols.add({"pcpu_b", synth::kXcPercpu + 0x20, 4, 'D', percpu->index});
  symbols.add({"counter", synth::kXcData + 0x8, 8, 'D', data->index});  // the VAR says 4
  symbols.add({"lonely", synth::kXcData + 0x10, 16, 'b', data->index});
  symbols.add({"__bss_start", synth::kXcData + 0x20, 0, 'B', data->index});  // size 0: a marker
  symbols.finish();
  run->symbols = std::move(symbols);
  const auto c = coverage::variable_coverage(run->in());
  EXPECT_EQ(c.total, 4u);
  EXPECT_EQ(c.percpu_total, 2u);
  EXPECT_EQ(c.percpu_covered, 2u);
  EXPECT_EQ(c.wrong_size, 1u);
  EXPECT_EQ(c.wrong_offset, 0u);
  EXPECT_EQ(c.covered, 2u);
  EXPECT_EQ(c.size_unchecked, 0u);
  EXPECT_EQ(c.without_var, 1u);
  EXPECT_EQ(c.without_var_bytes, 16u);
}

// A raw blob has no sections: a global VAR matches by name only.
TEST(CoverageVariables, RawBlobChecksGlobalsByNameOnly) {
  auto opened = input::open_bytes("vmlinux.btf", percpu_btf());
  ASSERT_TRUE(opened.artifact) << opened.error;
  CoverageRun run;
  run.artifact = std::move(opened.artifact);
  NullSink discard;
  run.checked = btf::check_btf(run.artifact->raw, nullptr, {}, "vmlinux.btf", "", discard);
  std::string why;
  run.symbols = input::symbols_from_kallsyms_text("ffffffff82000008 D counter\n", "kallsyms", why);
  const auto c = coverage::variable_coverage(run.in());
  EXPECT_EQ(c.total, 1u);
  EXPECT_EQ(c.offset_unchecked, 1u);
  EXPECT_EQ(c.covered, 1u);
}

}  // namespace
}  // namespace elfmeta::testing
