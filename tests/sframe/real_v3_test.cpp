// SFrame version 3 written by real producers (sid's gcc 16 and gas/ld
// 2.47.50 for x86-64, AArch64 and s390x): the small files of
// tests/sframe/data/binutils-2.47.50 (README.md there says how they were
// made). They need no sid root: the larger corpus and the binutils suites
// are in tests/sframe/sid/.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "core/diagnostic.h"
#include "input/artifact.h"
#include "input/relocations.h"
#include "sframe/fre_state.h"
#include "sframe/sframe_abi.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(ELFMETA_SOURCE_DIR) / "tests" / "sframe" / "data" / "binutils-2.47.50";

struct Checked {
  sframe::SframeCheck check;
  std::map<std::string, size_t> rules;
  std::vector<Diagnostic> items;
  std::string listing;
};

Checked check(const std::string& name) {
  Checked r;
  auto opened = input::open_input((kData / name).string());
  EXPECT_TRUE(opened.artifact) << opened.error;
  if (!opened.artifact) return r;
  DiagnosticList list;
  r.check = sframe::check_sframe(*opened.artifact, {}, list);
  for (const auto& d : list.items()) {
    if (d.rule) ++r.rules[std::string(d.rule->id)];
    r.items.push_back(d);
    r.listing += d.message + (d.rule ? " [" + std::string(d.rule->id) + "]\n" : "\n");
  }
  return r;
}

struct Table {
  std::unique_ptr<input::Artifact> artifact;
  std::optional<sframe::SframeTable> t;
};

Table table(const std::string& name) {
  Table out;
  auto opened = input::open_input((kData / name).string());
  EXPECT_TRUE(opened.artifact) << opened.error;
  out.artifact = std::move(opened.artifact);
  DiagnosticList discard;
  sframe::SframeFindings f(name, discard, kNoConsumer);
  out.t = sframe::read_sframe(*out.artifact, f);
  EXPECT_TRUE(out.t && out.t->usable) << name;
  return out;
}

// "N points, M equal" of the differential's note.
std::pair<size_t, size_t> cfi_points(const Checked& r) {
  for (const auto& d : r.items)
    if (d.message.starts_with("SFrame against DWARF CFI")) {
      size_t points = 0, equal = 0;
      std::sscanf(d.message.c_str(), "SFrame against DWARF CFI: %zu points, %zu equal", &points, &equal);
      return {points, equal};
    }
  return {0, 0};
}

TEST(RealVersion3, ObjectsAreCleanWithTheirMachinesRelocations) {
  const std::map<std::string, uint32_t> want = {{"x86_64", 24}, {"aarch64", 260}, {"s390x", 23}};  // *_PC64, PREL64
  for (const auto& [machine, type] : want) {
    const std::string name = "frames-" + machine + ".o";
    const Checked r = check(name);
    EXPECT_EQ(r.check.version, 3) << name;
    EXPECT_GE(r.check.fdes, 6u) << name;
    EXPECT_TRUE(r.rules.empty()) << name << ":\n" << r.listing;
    const Table tab = table(name);
    ASSERT_TRUE(tab.t);
    const auto sets = input::relocations_for(*tab.artifact, *tab.t->section);
    ASSERT_EQ(sets.size(), 1u) << name;
    ASSERT_EQ(sets[0].relocations.size(), tab.t->fdes.size()) << name;
    for (const auto& rel : sets[0].relocations) EXPECT_EQ(rel.type, type) << name;
    EXPECT_EQ(sframe::abis_of_machine(tab.artifact->machine).front().relocations.pc64, type) << name;
  }
}

// Linked: no error but the known .plt.got defect of ld on x86-64, and the
// DWARF CFI agreeing at every point compared (every FRE of every function).
TEST(RealVersion3, SharedObjectsAgreeWithTheirDwarfCfi) {
  for (const char* name : {"libframes-x86_64.so", "libframes-O0-x86_64.so", "libframes-aarch64.so", "libframes-s390x.so"}) {
    const Checked r = check(name);
    EXPECT_EQ(r.check.version, 3) << name;
    EXPECT_TRUE(r.check.cfi_checked) << name;
    const bool x86 = std::string(name).find("x86_64") != std::string::npos;
    size_t errors = 0, defects = 0;
    for (const auto& d : r.items) {
      if (d.severity != Severity::Error) continue;
      ++errors;
      defects += d.message.find("known producer defect") != std::string::npos;
    }
    EXPECT_EQ(errors, defects) << name << ":\n" << r.listing;
    // ld's .plt.got FDE (CFA sp+16, the CFI rsp+8) on x86-64, named as the defect it is.
    EXPECT_EQ(defects, x86 ? 1u : 0u) << name << ":\n" << r.listing;
    EXPECT_EQ(r.rules.count("SFRAME-CFI-006"), x86 ? 1u : 0u) << name << ":\n" << r.listing;
    const auto [points, equal] = cfi_points(r);
    EXPECT_GT(points, 20u) << name;
    EXPECT_EQ(points - equal, defects) << name << ":\n" << r.listing;
  }
}

// s390x: the CFA word is (offset - 160) / 8, so every function starts at
// r15+160 with a stored 0; FP in a floating-point register takes a FLEX FDE
// (control word 0x89: register 17, f2, read unsigned from one byte); and ld
// left the PLT without FDEs (its first input, crti.o, has no .sframe).
TEST(RealVersion3, S390xWordsDecode) {
  const Table tab = table("libframes-s390x.so");
  ASSERT_TRUE(tab.t);
  const auto& t = *tab.t;
  size_t flex = 0, in_register = 0;
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    const bool is_flex = (t.fdes[i].info2 & 0x1f) == sframe::kFlex;
    flex += is_flex;
    sframe::FreCursor c(t, i);
    ASSERT_FALSE(c.done());
    EXPECT_EQ(c->words[0], is_flex ? (15 << 3 | 1) : 0) << "FDE " << i;  // r15, stored offset 0 ...
    const auto s = sframe::state_of(t.header, is_flex, *c);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->cfa_reg, 15u) << "FDE " << i;
    EXPECT_EQ(s->cfa_offset, 160) << "FDE " << i;  // ... which is r15+160
    for (; !c.done(); c.next()) {
      const auto row = sframe::state_of(t.header, is_flex, *c);
      ASSERT_TRUE(row);
      in_register += row->fp.kind == sframe::Location::kInRegister && row->fp.reg >= 16;
    }
  }
  EXPECT_GE(flex, 1u);
  EXPECT_GE(in_register, 1u) << "no FP kept in a floating-point register";
  const Checked r = check("libframes-s390x.so");
  bool gap = false;
  for (const auto& d : r.items)
    gap |= d.rule && d.rule->id == "SFRAME-ELF-007" && d.message.starts_with(".plt at") &&
           d.message.find("known producer defect") != std::string::npos;
  EXPECT_TRUE(gap) << r.listing;
}

// x86-64 -O0: the DRAP realignment takes FLEX FDEs (CFA in r10, then loaded
// from memory through rbp), which the differential compares with the CFI's
// expression.
TEST(RealVersion3, X86DrapIsFlex) {
  const Table tab = table("libframes-O0-x86_64.so");
  ASSERT_TRUE(tab.t);
  size_t flex = 0, r10 = 0, deref = 0;
  for (size_t i = 0; i < tab.t->fdes.size(); ++i) {
    if ((tab.t->fdes[i].info2 & 0x1f) != sframe::kFlex) continue;
    ++flex;
    for (sframe::FreCursor c(*tab.t, i); !c.done(); c.next()) {
      const auto s = sframe::state_of(tab.t->header, true, *c);
      ASSERT_TRUE(s);
      r10 += s->cfa_reg == 10 && !s->cfa_deref;
      deref += s->cfa_deref;
    }
  }
  EXPECT_GE(flex, 1u);
  EXPECT_GE(r10, 1u);
  EXPECT_GE(deref, 1u);
}

// ld -r left R_X86_64_NONE (r_info 0) in .rela.sframe where it dropped the
// second copy of a COMDAT group's FDE: skipped as ld skips it, no finding.
TEST(RealVersion3, RelocatableLinkWithRNoneIsClean) {
  const Table tab = table("comdat-r.o");
  ASSERT_TRUE(tab.t);
  size_t none = 0;
  for (const auto& set : input::relocations_for(*tab.artifact, *tab.t->section))
    for (const auto& rel : set.relocations) none += rel.type == 0 && rel.symbol == 0;
  EXPECT_GE(none, 1u);
  const Checked r = check("comdat-r.o");
  EXPECT_TRUE(r.rules.empty()) << r.listing;
  for (size_t i = 0; i < tab.t->fdes.size(); ++i) EXPECT_TRUE(tab.t->starts[i].resolved) << "FDE " << i;
}

}  // namespace
}  // namespace elfmeta::testing
