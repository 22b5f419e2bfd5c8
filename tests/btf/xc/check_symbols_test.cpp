// XC-SYM: each rule triggered by a blob that breaks exactly it, against
// kallsyms text or an ELF symtab; and the clean case.
#include <gtest/gtest.h>

#include <cstdio>

#include "synth/btf_builder.h"
#include "synth/elf_writer.h"
#include "tests/btf/xc/xc_test_support.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;

// int, a prototype int(int x), and FUNCs of the given names.
struct Functions {
  BtfBuilder b;
  uint32_t int_id, proto;
  explicit Functions(std::initializer_list<std::string_view> names) {
    int_id = b.add_int("int", 4, 32, 1);
    proto = b.add_func_proto(int_id, {{"x", int_id}});
    for (auto n : names) b.add_func(n, proto);
  }
};

TEST(XcSymbols, FunctionsWithTheirSymbolsAreClean) {
  Functions f{"alpha", "beta"};
  auto run = run_cross_check(f.b.build(), "ffffffff81000000 T alpha\nffffffff81000040 t beta\n");
  EXPECT_TRUE(run->stats.symbols_checked);
  EXPECT_EQ(run->stats.func_names, 2u);
  EXPECT_EQ(run->rules(), "") << run->text();
}

TEST(XcSymbols, MissingFunctionsAreClassified) {
  Functions f{"cloned", "driver_exit", "gone"};
  auto run = run_cross_check(f.b.build(), "ffffffff81000000 t cloned.part.0\nffffffff81000040 T other\n");
  EXPECT_EQ(run->rules(), "XC-SYM-001");
  EXPECT_EQ(run->stats.funcs_without_symbol, 3u);
  EXPECT_EQ(run->stats.only_clones, 1u);
  EXPECT_EQ(run->stats.abi_clones, 0u);
  EXPECT_EQ(run->stats.exit_style, 1u);
  EXPECT_EQ(run->stats.absent_names, std::vector<std::string>{"gone"});
  EXPECT_NE(run->text().find("only the compiler clone 'cloned.part.0'"), std::string::npos) << run->text();
  // Located at the FUNC record: type 3 is the first FUNC.
  EXPECT_NE(run->text().find("[type 3 FUNC 'cloned']"), std::string::npos) << run->text();
}

// XC-SYM-004: a FUNC whose only code is an .isra or .constprop clone has no
// symbol to attach to and a prototype the clone's ABI may not follow; one
// finding, under XC-SYM-004 rather than XC-SYM-001. A .part piece beside it
// changes nothing.
TEST(XcSymbols, OnlyAbiChangingClonesAreXcSym004) {
  Functions f{"scale", "pick"};
  auto run = run_cross_check(f.b.build(),
                             "ffffffff81000000 t scale.constprop.0\n"
                             "ffffffff81000040 t pick.part.0\n"
                             "ffffffff81000080 t pick.constprop.0.isra.0\n");
  EXPECT_EQ(run->rules(), "XC-SYM-004") << run->text();
  EXPECT_EQ(run->count("XC-SYM-004"), 2u);
  EXPECT_EQ(run->stats.funcs_without_symbol, 2u);
  EXPECT_EQ(run->stats.only_clones, 2u);
  EXPECT_EQ(run->stats.abi_clones, 2u);
  EXPECT_NE(run->text().find("[type 3 FUNC 'scale']"), std::string::npos) << run->text();
  EXPECT_NE(run->text().find("only the compiler clone 'scale.constprop.0'"), std::string::npos) << run->text();
  EXPECT_NE(run->text().find("only the compiler clone 'pick.constprop.0.isra.0'"), std::string::npos) << run->text();
}

// The twin: the same clones beside the functions themselves, whose ABI the
// FUNCs describe.
TEST(XcSymbols, ClonesBesideTheFunctionAreClean) {
  Functions f{"scale", "pick"};
  auto run = run_cross_check(f.b.build(),
                             "ffffffff81000000 t scale.constprop.0\n"
                             "ffffffff81000020 t scale\n"
                             "ffffffff81000040 t pick.part.0\n"
                             "ffffffff81000080 t pick.constprop.0.isra.0\n"
                             "ffffffff810000c0 T pick\n");
  EXPECT_EQ(run->rules(), "") << run->text();
  EXPECT_EQ(run->stats.funcs_without_symbol, 0u);
}

TEST(XcSymbols, ExitCodeIsPresentInASymtab) {
  // With a symtab, .exit.text functions have symbols: a miss is a miss.
  Functions f{"driver_exit"};
  synth::ElfWriter elf(ET_EXEC);
  const uint32_t text = elf.add_section({".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, 16, 0, std::vector<uint8_t>(64)});
  elf.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, f.b.build()});
  elf.add_symbol("other", 0x1000, 16, STT_FUNC, STB_GLOBAL, text);
  auto run = run_cross_check(elf.write());
  EXPECT_EQ(run->rules(), "XC-SYM-001");
  EXPECT_EQ(run->stats.absent, 1u);
}

TEST(XcSymbols, NameWithSeveralAddressesIsAmbiguous) {
  Functions f{"load_elf_binary"};
  auto run = run_cross_check(f.b.build(), "ffffffff81000000 t load_elf_binary\nffffffff81000400 t load_elf_binary\n");
  EXPECT_EQ(run->rules(), "XC-SYM-002");
  EXPECT_EQ(run->stats.ambiguous_names, 1u);
  EXPECT_NE(run->text().find("2 text symbols (0xffffffff81000000, 0xffffffff81000400)"), std::string::npos)
      << run->text();
}

TEST(XcSymbols, SeveralPrototypesUnderOneName) {
  Functions f{"parse_header"};
  const uint32_t two = f.b.add_func_proto(f.int_id, {{"a", f.int_id}, {"b", f.int_id}});
  f.b.add_func("parse_header", two);
  f.b.add_func("parse_header", f.proto);  // a third record, same prototype as the first
  auto run = run_cross_check(f.b.build(), "ffffffff81000000 t parse_header\n");
  EXPECT_EQ(run->rules(), "XC-DEDUP-001 XC-SYM-003");  // the third is a copy of the first
  EXPECT_EQ(run->count("XC-SYM-003"), 1u);
  EXPECT_EQ(run->stats.multi_proto_names, 1u);
  EXPECT_NE(run->text().find("3 FUNC records named 'parse_header' with 2 prototypes"), std::string::npos)
      << run->text();
}

// A percpu area [0, 0x100) of zero-based absolute symbols, as x86-64 up to
// 6.14 has: __per_cpu_start, first_var at 0, a at 0x10, b at 0x20.
constexpr const char* kPercpu =
    "0000000000000000 A __per_cpu_start\n"
    "0000000000000000 A first_var\n"
    "0000000000000010 A a\n"
    "0000000000000020 A b\n"
    "0000000000000100 A __per_cpu_end\n"
    "ffffffff81000000 T _stext\n";

std::vector<uint8_t> percpu_btf(uint32_t a_offset, uint32_t a_size, uint32_t datasec_size, bool with_b = true,
                                bool with_first = true) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t arr = b.add_array(int_id, int_id, a_size / 4);
  std::vector<BtfBuilder::SecInfoSpec> vars;
  if (with_first) vars.push_back({b.add_var("first_var", int_id, 1), 0, 4});
  vars.push_back({b.add_var("a", arr, 1), a_offset, a_size});
  if (with_b) vars.push_back({b.add_var("b", int_id, 0), 0x20, 4});
  b.add_datasec(".data..percpu", datasec_size, vars);
  return b.build();
}

TEST(XcSymbols, PercpuVarsAtTheirSymbolsAreClean) {
  auto run = run_cross_check(percpu_btf(0x10, 8, 0x24), kPercpu);
  EXPECT_EQ(run->rules(), "") << run->text();
  EXPECT_TRUE(run->stats.percpu_checked);
  EXPECT_EQ(run->stats.percpu_matched, 3u);
  EXPECT_EQ(run->stats.percpu_section_slack, 0x100 - 0x24);
}

// XC-SYM-009: a symbol that tells its binding (a symtab, or kallsyms of
// 6.15+ where percpu symbols are 'D'/'d') against the VAR's linkage; the
// absolute 'A' symbols of older x86-64 kallsyms are not compared.
TEST(XcSymbols, PercpuVarLinkageAgainstTheSymbolBinding) {
  // first_var and a are global VARs (linkage 1), b static (0).
  const std::string binding_told =
      "ffffffff82000000 D __per_cpu_start\n"
      "ffffffff82000000 D first_var\n"
      "ffffffff82000010 d a\n"
      "ffffffff82000020 d b\n"
      "ffffffff82000100 D __per_cpu_end\n"
      "ffffffff81000000 T _stext\n";
  auto run = run_cross_check(percpu_btf(0x10, 8, 0x24), binding_told);
  EXPECT_EQ(run->rules(), "XC-SYM-009") << run->text();
  EXPECT_EQ(run->stats.var_linkage_checked, 3u);
  EXPECT_EQ(run->stats.var_linkage_mismatched, 1u);
  EXPECT_NE(run->text().find("VAR 'a' has linkage 1 (global), its symbol is local ('d' in"), std::string::npos)
      << run->text();
  auto absolute = run_cross_check(percpu_btf(0x10, 8, 0x24), kPercpu);
  EXPECT_EQ(absolute->stats.var_linkage_checked, 0u);
}

TEST(XcSymbols, PercpuVarAtTheWrongOffset) {
  auto run = run_cross_check(percpu_btf(0x14, 8, 0x24), kPercpu);
  EXPECT_EQ(run->rules(), "XC-SYM-005");
  EXPECT_EQ(run->stats.percpu_mismatched, 1u);
  EXPECT_NE(run->text().find("VAR 'a' at offset 0x14: its symbol is at offset 0x10"), std::string::npos)
      << run->text();
  // A rule no kernel enforces: an error downgraded to a warning.
  EXPECT_EQ(run->count("XC-SYM-005", Severity::Error), 1u);
}

TEST(XcSymbols, PercpuVarRunningIntoTheNextSymbol) {
  auto run = run_cross_check(percpu_btf(0x10, 0x18, 0x24), kPercpu);
  EXPECT_EQ(run->rules(), "XC-SYM-005");
  EXPECT_EQ(run->stats.percpu_overlapping, 1u);
  EXPECT_NE(run->text().find("runs 8 bytes into 'b'"), std::string::npos) << run->text();
}

TEST(XcSymbols, DatasecLargerThanThePercpuArea) {
  auto run = run_cross_check(percpu_btf(0x10, 8, 0x200), kPercpu);
  EXPECT_EQ(run->rules(), "XC-SYM-006");
  EXPECT_EQ(run->stats.percpu_section_slack, 0x100 - 0x200);
}

// Hostile symbols: __per_cpu_end near the top of the address space makes a
// span over 2^63, which once wrapped to a negative slack (and XC-SYM-006).
TEST(XcSymbols, PercpuAreaSpanningAlmostTheWholeAddressSpace) {
  std::string symbols = kPercpu;
  symbols.replace(symbols.find("0000000000000100 A __per_cpu_end"), 32, "fffffffffffffff0 A __per_cpu_end");
  auto run = run_cross_check(percpu_btf(0x10, 8, 0x24), symbols);
  EXPECT_EQ(run->count("XC-SYM-006"), 0u) << run->text();
  EXPECT_EQ(run->stats.percpu_section_slack, INT64_MAX);
}

TEST(XcSymbols, PercpuSymbolsWithoutAVar) {
  // b has no VAR (a warning); first_var at offset 0 and an alias of a are
  // the expected exceptions (notes).
  auto run = run_cross_check(percpu_btf(0x10, 8, 0x24, false, false),
                             std::string(kPercpu) + "0000000000000010 A a_alias\n");
  EXPECT_EQ(run->rules(), "XC-SYM-007");
  EXPECT_EQ(run->count("XC-SYM-007", Severity::Warning), 1u);
  EXPECT_EQ(run->count("XC-SYM-007", Severity::Note), 2u);
  EXPECT_EQ(run->stats.percpu_symbols_without_var, (std::vector<std::string>{"first_var", "a_alias", "b"}));
}

// A vmlinux symtab of x86-64 up to 6.14: .data..percpu at address 0, and an
// absolute symbol whose value falls inside it (`pgtno`, 2, in Debian's 6.12
// -dbg vmlinux). Only the symbols of the section are percpu variables: the
// absolute one is neither a symbol the VAR runs into (XC-SYM-005) nor one
// without a VAR (XC-SYM-007).
TEST(XcSymbols, AbsoluteSymbolInAZeroBasedPercpuAreaIsNoPercpuVariable) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t arr = b.add_array(int_id, int_id, 12);
  b.add_datasec(".data..percpu", 0x40, {{b.add_var("fixed_percpu_data", arr, 1), 0, 48}});
  synth::ElfWriter elf(ET_EXEC);
  const uint32_t percpu =
      elf.add_section({".data..percpu", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, 64, 0, std::vector<uint8_t>(0x40)});
  elf.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
  elf.add_symbol("__per_cpu_start", 0, 0, STT_NOTYPE, STB_GLOBAL, percpu);
  elf.add_symbol("fixed_percpu_data", 0, 48, STT_OBJECT, STB_GLOBAL, percpu);
  elf.add_symbol("__per_cpu_end", 0x40, 0, STT_NOTYPE, STB_GLOBAL, percpu);
  elf.add_symbol("pgtno", 2, 0, STT_NOTYPE, STB_GLOBAL, SHN_ABS);
  auto run = run_cross_check(elf.write());
  EXPECT_TRUE(run->stats.percpu_checked);
  EXPECT_EQ(run->stats.percpu_matched, 1u);
  EXPECT_EQ(run->count("XC-SYM-005"), 0u) << run->text();
  EXPECT_EQ(run->count("XC-SYM-007"), 0u) << run->text();
  EXPECT_EQ(run->text().find("pgtno"), std::string::npos) << run->text();
}

TEST(XcSymbols, KallsymsWithoutDataSymbolsSkipsPercpu) {
  auto run = run_cross_check(percpu_btf(0x10, 8, 0x24),
                             "0000000000000000 A __per_cpu_start\n0000000000000100 A __per_cpu_end\n");
  EXPECT_EQ(run->rules(), "");
  EXPECT_FALSE(run->stats.percpu_checked);
  EXPECT_NE(run->text().find("has no percpu variables"), std::string::npos) << run->text();
}

// A linked image with .data at 0x2000 and a global_var DATASEC for it.
std::vector<uint8_t> global_var_image(uint32_t var_offset, uint16_t elf_type = ET_EXEC) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t g = b.add_var("counter", int_id, 1);
  b.add_datasec(".data", 8, {{g, var_offset, 4}});
  synth::ElfWriter elf(elf_type);
  const uint64_t base = elf_type == ET_REL ? 0 : 0x2000;
  const uint32_t data = elf.add_section({".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, base, 8, 0, std::vector<uint8_t>(8)});
  elf.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
  elf.add_symbol("counter", base + 4, 4, STT_OBJECT, STB_GLOBAL, data);
  return elf.write();
}

TEST(XcSymbols, GlobalVarsAtTheirSymbols) {
  for (uint16_t type : {ET_EXEC, ET_REL}) {
    auto run = run_cross_check(global_var_image(4, type));
    EXPECT_EQ(run->rules(), "") << run->text();
    EXPECT_EQ(run->stats.global_vars, 1u);
  }
}

TEST(XcSymbols, GlobalVarAtTheWrongOffset) {
  for (uint16_t type : {ET_EXEC, ET_REL}) {
    auto run = run_cross_check(global_var_image(0, type));
    EXPECT_EQ(run->rules(), "XC-SYM-008") << run->text();
    EXPECT_NE(run->text().find("VAR 'counter' at offset 0x0 of '.data': its symbol is at offset 0x4"),
              std::string::npos)
        << run->text();
  }
}

TEST(XcSymbols, KfuncWithoutASymbol) {
  Functions f{"bpf_obj_new_impl"};
  f.b.add_decl_tag("bpf_kfunc", 3);
  auto with = run_cross_check(f.b.build(), "ffffffff81000000 T bpf_obj_new_impl\n");
  EXPECT_EQ(with->rules(), "");
  auto without = run_cross_check(f.b.build(), "ffffffff81000000 T other\n");
  EXPECT_EQ(without->rules(), "XC-SYM-001 XC-SYM-010");
}

TEST(XcSymbols, AddressTagsNameASymbolOfTheFunction) {
  const std::string symbols = "ffffffff81000000 t init_once\nffffffff81000400 t init_once\n";
  for (const auto& [tag, fires] : std::vector<std::pair<std::string, bool>>{
           {"addr=0xffffffff81000400", false}, {"addr=0xffffffff81000200", true}, {"addr=junk", true}}) {
    Functions f{"init_once"};
    f.b.add_decl_tag(tag, 3);
    auto run = run_cross_check(f.b.build(), symbols);
    EXPECT_EQ(run->count("XC-SYM-012"), fires ? 1u : 0u) << tag << "\n" << run->text();
    EXPECT_EQ(run->count("XC-SYM-002"), 1u);  // the name stays ambiguous without the tag
  }
}

// Global VARs against symbols of their name in other sections, in theirs
// at other addresses, and without a section (kallsyms) inside or outside
// the section's range: the lookup by name, section and address that
// replaced a walk of every symbol of the name per VAR (walk audit T9).
TEST(XcSymbols, GlobalVarCandidatesAreTheSymbolsInItsSection) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t x = b.add_var("x", int_id, 1), y = b.add_var("y", int_id, 1), z = b.add_var("z", int_id, 1);
  b.add_datasec(".data", 0x40, {{x, 0x10, 4}, {y, 0x20, 4}, {z, 0x30, 4}});
  synth::ElfWriter elf(ET_EXEC);
  const uint32_t data =
      elf.add_section({".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x2000, 8, 0, std::vector<uint8_t>(0x40)});
  const uint32_t bss = elf.add_section({".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0x3000, 8, 0, {}, 0x40});
  elf.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
  // x: in .bss at the wanted offset (another section), and in .data 8 bytes
  // off: the finding names the one in .data.
  elf.add_symbol("x", 0x3010, 4, STT_OBJECT, STB_GLOBAL, bss);
  elf.add_symbol("x", 0x2018, 4, STT_OBJECT, STB_LOCAL, data);
  // y: absolute, inside .data's range at the wanted address: found.
  elf.add_symbol("y", 0x2020, 4, STT_OBJECT, STB_GLOBAL, SHN_ABS);
  // z: absolute, outside .data's range.
  elf.add_symbol("z", 0x2030 + 0x1000, 4, STT_OBJECT, STB_GLOBAL, SHN_ABS);
  auto run = run_cross_check(elf.write());
  EXPECT_EQ(run->stats.global_vars, 3u);
  EXPECT_EQ(run->stats.global_vars_mismatched, 2u) << run->text();
  EXPECT_NE(run->text().find("VAR 'x' at offset 0x10 of '.data': its symbol is at offset 0x18"), std::string::npos)
      << run->text();
  EXPECT_NE(run->text().find("VAR 'z' at offset 0x30 of '.data': no symbol of that name in .data"), std::string::npos)
      << run->text();
}

// Walk audit M4 and O3: a second .data..percpu DATASEC is not checked
// again (each pass walks every symbol) but named in one note; the names
// kept in the statistics are capped; names in messages are escaped.
TEST(XcSymbols, RepeatedPercpuDatasecsAreOneNoteAndNamesAreBounded) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  for (int i = 0; i < 3; ++i) b.add_datasec(".data..percpu", 0x100, {});
  b.add_func("esc\x1b[2Jape", b.add_func_proto(int_id, {}));  // first: listed
  for (int i = 0; i < 150; ++i) b.add_func("gone_" + std::to_string(i), b.add_func_proto(int_id, {}));
  std::string symbols = "0000000000000000 A __per_cpu_start\n0000000000000100 A __per_cpu_end\n";
  for (int i = 0; i < 30; ++i) {
    char line[64];
    std::snprintf(line, sizeof line, "%016x A p%d\n", 8 * i, i);
    symbols += line;
  }
  auto run = run_cross_check(b.build(), symbols);
  EXPECT_EQ(run->count("XC-SYM-007"), 30u) << run->text();  // from the first DATASEC only
  size_t notes = 0;
  for (const auto& d : run->list.items())
    if (d.message.find("2 more DATASECs named '.data..percpu'") != std::string::npos) ++notes;
  EXPECT_EQ(notes, 1u) << run->text();
  EXPECT_EQ(run->stats.percpu_symbols_without_var.size(), 30u);
  EXPECT_EQ(run->stats.absent, 151u);
  EXPECT_EQ(run->stats.absent_names.size(), Findings::kPerRuleLimit);
  EXPECT_EQ(run->text().find('\x1b'), std::string::npos);
  EXPECT_NE(run->text().find("no text symbol 'esc\\x1b[2Jape'"), std::string::npos) << run->text();
}

TEST(XcSymbols, WithoutSymbolsTheFamilyIsSkippedWithANote) {
  Functions f{"alpha"};
  auto run = run_cross_check(f.b.build());  // a raw blob has no symtab
  EXPECT_EQ(run->rules(), "");
  EXPECT_FALSE(run->stats.symbols_checked);
  EXPECT_NE(run->text().find("no symbols: XC-SYM checks skipped"), std::string::npos);
}

}  // namespace
}  // namespace elfmeta::testing
