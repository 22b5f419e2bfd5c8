// The CFI differential (validators/sframe/check_cfi.cpp) on objects:
// FDEs compared with the .eh_frame of the same code at (section, offset),
// so that what gas got wrong is found before linking, with the verdict of
// the link. Real producers: gas 2.40 (this machine's, assembled here) and
// gas 2.47.50 (tests/sframe/data/binutils-2.47.50, made in the sid root);
// the sources are tests/sframe/corpus/outermost-*.s.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/diagnostic.h"
#include "input/artifact.h"
#include "sframe/fre_state.h"
#include "input/symbols.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"
#include "tests/support/elf_file_edit.h"
#include "tests/support/require.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = fs::path(ELFMETA_SOURCE_DIR) / "tests" / "sframe" / "corpus";
const fs::path kData = fs::path(ELFMETA_SOURCE_DIR) / "tests" / "sframe" / "data" / "binutils-2.47.50";

int run(const std::string& cmd) {
  const int raw = std::system((cmd + " >/dev/null 2>&1").c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}


struct Checked {
  sframe::SframeCheck check;
  std::map<std::string, size_t> rules;
  std::string listing;
  std::string note;  // the differential's closing note ("" when it did not run)
  size_t points = 0, equal = 0;
};

Checked check_bytes(std::vector<uint8_t> bytes, const std::string& name = "t.o") {
  Checked r;
  auto opened = input::open_bytes(name, std::move(bytes));
  if (!opened.artifact) return r;
  DiagnosticList list;
  r.check = sframe::check_sframe(*opened.artifact, {}, list);
  for (const auto& d : list.items()) {
    if (d.rule) ++r.rules[std::string(d.rule->id)];
    r.listing += d.message + (d.rule ? " [" + std::string(d.rule->id) + "]\n" : "\n");
    if (d.message.starts_with("SFrame against DWARF CFI")) {
      r.note = d.message;
      std::sscanf(d.message.c_str(), "SFrame against DWARF CFI: %zu points, %zu equal", &r.points, &r.equal);
    }
  }
  return r;
}

Checked check_file(const fs::path& p) {
  const auto bytes = read_bytes(p);
  EXPECT_FALSE(bytes.empty()) << p;
  return check_bytes(bytes, p.filename().string());
}

// Relocation k of a little-endian ELF64 RELA section: r_info and r_addend.
void set_rela(std::vector<uint8_t>& bytes, const SectionPlace& rela, size_t k, std::optional<uint64_t> info,
              std::optional<int64_t> addend) {
  const uint64_t at = rela.offset + 24 * k;
  ASSERT_LE(at + 24, rela.offset + rela.size);
  if (info) std::memcpy(bytes.data() + at + 8, &*info, 8);
  if (addend) std::memcpy(bytes.data() + at + 16, &*addend, 8);
}

class Gas240 : public ::testing::Test {
 protected:
  void SetUp() override {
    ELFMETA_REQUIRE_INSTALLED(run("echo | as --gsframe -o /dev/null -") == 0, "as has no --gsframe (package binutils)");
    dir_ = fs::temp_directory_path() / ("elfmeta-cfi-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// gas 2.40 ignores .cfi_undefined rip and writes an ordinary frame
// (sp+8, RA at CFA-8), at a function's start (_start) and after its first
// instruction (late, where it still starts an FRE, equal to the one
// before). The object's own CFI shows it, with the link's verdict.
TEST_F(Gas240, OutermostFrameIsFoundInTheObjectAsInTheLink) {
  const auto o = dir_ / "outermost.o", exe = dir_ / "outermost";
  ASSERT_EQ(run("as --gsframe " + (kCorpus / "outermost-x86_64.s").string() + " -o " + o.string()), 0);
  ASSERT_EQ(run("ld " + o.string() + " -o " + exe.string()), 0);
  const Checked obj = check_file(o), linked = check_file(exe);
  EXPECT_EQ(obj.check.version, 1);  // gas 2.40
  const std::map<std::string, size_t> want = {{"SFRAME-CFI-004", 2}, {"SFRAME-FRE-013", 1}};
  EXPECT_EQ(obj.rules, want) << obj.listing;
  EXPECT_EQ(linked.rules, want) << linked.listing;
  EXPECT_NE(obj.listing.find("at .text+0x0: SFrame sp+8 ra@cfa-8; DWARF CFA r7+8, FP kept, RA undefined [SFRAME-CFI-004]"),
            std::string::npos)
      << obj.listing;
  EXPECT_NE(obj.listing.find("at .text+0x14: SFrame sp+8 ra@cfa-8"), std::string::npos) << obj.listing;
  EXPECT_TRUE(obj.check.cfi_checked);
  EXPECT_NE(obj.note.find("in the object"), std::string::npos) << obj.note;
  EXPECT_EQ(obj.note.find("left out"), std::string::npos) << obj.note;
  // The same points compared, and the same two different.
  EXPECT_EQ(obj.points, 7u);
  EXPECT_EQ(obj.points, linked.points);
  EXPECT_EQ(obj.equal, 5u);
  EXPECT_EQ(obj.equal, linked.equal);
}

// A PC-mask FDE (ld's .plt) is compared with the CFI at every PC. Its size
// and its CFI's range are the input's: both made to claim 2 GiB, the walk
// still ends where the .plt does, with the points of the file as linked.
TEST_F(Gas240, PcMaskFdeIsWalkedNoFurtherThanItsSection) {
  const auto c = dir_ / "m.c", exe = dir_ / "m";
  std::ofstream(c) << "#include <stdio.h>\nint main(int n, char **v) { puts(v[0]); printf(\"%d\\n\", n); return 0; }\n";
  ELFMETA_REQUIRE_INSTALLED(run("gcc -O2 -Wa,--gsframe " + c.string() + " -o " + exe.string()) == 0,
                            "gcc cannot link with --gsframe (packages gcc, binutils)");
  std::vector<uint8_t> bytes = read_bytes(exe);
  const Checked linked = check_bytes(bytes, "m");
  ASSERT_GT(linked.points, 0u) << linked.listing;
  auto opened = input::open_bytes("m", bytes);
  ASSERT_TRUE(opened.artifact);
  DiagnosticList ignored;
  sframe::SframeFindings f("m", ignored, kNoConsumer);
  const auto t = sframe::read_sframe(*opened.artifact, f);
  ASSERT_TRUE(t);
  const input::Section* plt = opened.artifact->section(".plt");
  ASSERT_TRUE(plt);
  size_t mask = t->fdes.size();
  for (size_t i = 0; i < t->fdes.size(); ++i)
    if (t->fdes[i].pc_type() == sframe::kPcMask && t->starts[i].address - plt->addr < plt->size) mask = i;
  ASSERT_LT(mask, t->fdes.size()) << "no PC-mask FDE in .plt";
  const uint32_t huge = 0x7fffffff;
  std::memcpy(bytes.data() + t->section->file_offset + t->fdes[mask].at + 4, &huge, 4);  // the FDE's size
  // The .eh_frame FDE whose pc_begin (PC-relative, 4 bytes) is .plt's: its range.
  const input::Section* eh = opened.artifact->section(".eh_frame");
  ASSERT_TRUE(eh);
  bool widened = false;
  for (uint64_t at = 0; at + 16 <= eh->size;) {
    uint32_t length, id;
    int32_t pc_begin;
    std::memcpy(&length, eh->data.data() + at, 4);
    std::memcpy(&id, eh->data.data() + at + 4, 4);
    if (length == 0 || length == 0xffffffff) break;
    std::memcpy(&pc_begin, eh->data.data() + at + 8, 4);
    if (id != 0 && eh->addr + at + 8 + int64_t(pc_begin) == plt->addr) {
      std::memcpy(bytes.data() + eh->file_offset + at + 12, &huge, 4);
      widened = true;
    }
    at += 4 + uint64_t(length);
  }
  ASSERT_TRUE(widened) << "no .eh_frame FDE for .plt";
  const Checked claimed = check_bytes(bytes, "m");
  EXPECT_TRUE(claimed.check.cfi_checked) << claimed.listing;
  EXPECT_EQ(claimed.points, linked.points) << claimed.note;
}

// gas 2.47.50 writes the outermost frame as an FRE without data words (RA
// undefined, versions 2 erratum and 3), on the three machines: the object
// and its link agree with their CFI at every point.
TEST(Gas247, OutermostFrameAgreesWithTheCfiInObjectsAndLinks) {
  for (const std::string machine : {"x86_64", "aarch64", "s390x"}) {
    const std::string base = "outermost-" + machine;
    const Checked obj = check_file(kData / (base + ".o")), linked = check_file(kData / base);
    EXPECT_EQ(obj.check.version, 3) << base;
    EXPECT_TRUE(obj.rules.empty()) << base << ".o:\n" << obj.listing;
    // ld sizes PT_GNU_SFRAME as the sum of its inputs (s390x: 3 bytes more).
    for (const auto& [rule, count] : linked.rules) EXPECT_EQ(rule, "SFRAME-ELF-002") << base << ":\n" << linked.listing;
    EXPECT_TRUE(obj.check.cfi_checked && linked.check.cfi_checked) << base;
    EXPECT_GE(obj.points, 6u) << base;
    EXPECT_EQ(obj.points, obj.equal) << obj.note;
    EXPECT_EQ(obj.points, linked.points) << obj.note << "\n" << linked.note;
    EXPECT_EQ(linked.points, linked.equal) << linked.note;
    // What gas wrote: _start outermost from its first FRE, late from its second.
    auto opened = input::open_input((kData / (base + ".o")).string());
    ASSERT_TRUE(opened.artifact);
    DiagnosticList discard;
    sframe::SframeFindings f(base, discard, kNoConsumer, ".sframe");
    const auto t = sframe::read_sframe(*opened.artifact, f);
    ASSERT_TRUE(t && t->fdes.size() == 3) << base;
    const auto outermost = [&](size_t i, size_t k) {
      const auto s = sframe::state_of(t->header, false, t->fre(i, k));
      return s && s->outermost;
    };
    EXPECT_TRUE(outermost(0, 0)) << base;
    EXPECT_FALSE(outermost(2, 0)) << base;
    EXPECT_TRUE(outermost(2, 1)) << base;
  }
}

// Code built with -fno-asynchronous-unwind-tables -fno-unwind-tables -g
// has its CFI in .debug_frame alone, and gas makes SFrame from it: the
// objects are compared through .rela.debug_frame, the links (whose
// .eh_frame is an empty terminator) through .debug_frame, and agree at
// every point on the three machines. Before .debug_frame was read, the
// objects were not compared and each link's FDEs were all "without CFI"
// (SFRAME-ELF-007). ld makes x86-64 PLT FDEs but no CFI for them: counted.
TEST(Gas247, DebugFrameOnlyCodeAgreesWithItsCfi) {
  for (const std::string machine : {"x86_64", "aarch64", "s390x"}) {
    const Checked obj = check_file(kData / ("frames-debug-frame-" + machine + ".o"));
    const Checked linked = check_file(kData / ("libframes-debug-frame-" + machine + ".so"));
    EXPECT_TRUE(obj.rules.empty()) << machine << ":\n" << obj.listing;
    for (const auto& [rule, count] : linked.rules)  // known ld defects and a layout note
      EXPECT_TRUE(rule == "SFRAME-ELF-002" || rule == "SFRAME-ELF-009" || rule == "SFRAME-FDE-012")
          << machine << ":\n" << linked.listing;
    EXPECT_TRUE(obj.check.cfi_checked && linked.check.cfi_checked) << machine;
    EXPECT_NE(obj.note.find("(section, offset) against .debug_frame relocated"), std::string::npos) << obj.note;
    EXPECT_NE(linked.note.find("CFI of .eh_frame and .debug_frame"), std::string::npos) << linked.note;
    EXPECT_GT(obj.points, 20u) << machine;
    EXPECT_EQ(obj.points, obj.equal) << obj.note;
    EXPECT_EQ(obj.points, linked.points) << obj.note << "\n" << linked.note;
    EXPECT_EQ(linked.points, linked.equal) << linked.note;
    // ld's x86-64 .plt FDE: no CFI covers it.
    EXPECT_EQ(linked.note.find("FDEs not compared: no DWARF CFI covers their code") != std::string::npos,
              machine == "x86_64")
        << linked.note;
  }
}

// Renames a file's .debug_frame (to .debug_framX, in .shstrtab): the CFI
// reader no longer finds it, as after `strip -g`.
bool hide_debug_frame(std::vector<uint8_t>& bytes) {
  const SectionPlace names = section_place(bytes, ".shstrtab");
  const auto begin = bytes.begin() + static_cast<ptrdiff_t>(names.offset), end = begin + static_cast<ptrdiff_t>(names.size);
  const std::string name = ".debug_frame";
  const auto at = std::search(begin, end, name.begin(), name.end());
  if (at == end) return false;
  at[static_cast<ptrdiff_t>(name.size()) - 1] = 'X';
  return true;
}

// libframes-debug-frame-x86_64.so with its .debug_frame section renamed (as
// good as `strip -g`, which takes it): every FDE but the .plt's mask is over
// code no CFI covers, which is missing context: counted, not compared, no
// finding (before: SFRAME-ELF-007 "no DWARF CFI inside the FDE" on each).
TEST(Gas247, FdesOverCodeWithoutCfiAreCountedNotReported) {
  auto bytes = read_bytes(kData / "libframes-debug-frame-x86_64.so");
  ASSERT_TRUE(hide_debug_frame(bytes));
  const Checked r = check_bytes(bytes, "stripped.so");
  EXPECT_EQ(r.rules.count("SFRAME-ELF-007"), 0u) << r.listing;
  EXPECT_TRUE(r.check.cfi_checked);
  EXPECT_EQ(r.points, 0u) << r.note;
  EXPECT_EQ(r.check.fdes, 12u);
  // The two PC-mask FDEs (.plt, .plt.got) are walked apart, the rest counted.
  EXPECT_NE(r.note.find("10 of 12 FDEs not compared: no DWARF CFI covers their code"), std::string::npos) << r.note;
}

// An object whose only CFI section is gone: the comparison did not run,
// and a note says so (before: nothing was said).
TEST(ObjectCfi, WithoutAnyCfiTheComparisonIsNotRunAndSaysSo) {
  auto bytes = read_bytes(kData / "frames-debug-frame-x86_64.o");
  ASSERT_TRUE(hide_debug_frame(bytes));
  const Checked r = check_bytes(bytes);
  EXPECT_FALSE(r.check.cfi_checked);
  EXPECT_TRUE(r.rules.empty()) << r.listing;
  EXPECT_NE(r.listing.find("SFRAME-CFI-* and SFRAME-ELF-007 not checked: the file has no .eh_frame or .debug_frame to "
                           "read"),
            std::string::npos)
      << r.listing;
}

// CFI that ends inside an FDE is a disagreement, not missing context:
// with_alloca's .debug_frame FDE cut to 16 bytes, SFRAME-ELF-007 names an
// address past it inside the function (libdw's last row of the cut FDE
// ends where its next advance would, not at the range's end: the walk
// looks next there).
TEST(Gas247, CfiEndingInsideAnFdeIsReported) {
  auto bytes = read_bytes(kData / "libframes-debug-frame-x86_64.so");
  auto opened = input::open_bytes("t.so", bytes);
  ASSERT_TRUE(opened.artifact);
  const auto symbols = input::read_symtab(*opened.artifact, input::SymtabFilter::Functions);
  ASSERT_TRUE(symbols);
  uint64_t function = 0, size = 0;
  for (const auto& sym : symbols->symbols)
    if (std::string(symbols->name(sym)) == "with_alloca") function = sym.address, size = sym.size;
  ASSERT_NE(function, 0u);
  // .debug_frame records: u32 length, u32 CIE pointer (all ones: a CIE),
  // then an FDE's u64 pc_begin and u64 pc_range.
  const SectionPlace frames = section_place(bytes, ".debug_frame");
  bool cut = false;
  for (uint64_t k = 0; k + 24 <= frames.size && !cut;) {
    uint32_t length, id;
    uint64_t begin;
    std::memcpy(&length, bytes.data() + frames.offset + k, 4);
    std::memcpy(&id, bytes.data() + frames.offset + k + 4, 4);
    std::memcpy(&begin, bytes.data() + frames.offset + k + 8, 8);
    if (id != 0xffffffff && begin == function) {
      const uint64_t range = 16;
      std::memcpy(bytes.data() + frames.offset + k + 16, &range, 8);
      cut = true;
    }
    k += 4 + uint64_t(length);
  }
  ASSERT_TRUE(cut);
  const Checked r = check_bytes(bytes, "cut.so");
  EXPECT_EQ(r.rules.count("SFRAME-ELF-007"), 1u) << r.listing;
  const size_t found = r.listing.find("no DWARF CFI at 0x");
  ASSERT_NE(found, std::string::npos) << r.listing;
  const uint64_t at = std::stoull(r.listing.substr(found + 16), nullptr, 16);
  EXPECT_GE(at, function + 16) << r.listing;
  EXPECT_LT(at, function + size) << r.listing;
  EXPECT_NE(r.listing.find(" inside the FDE [SFRAME-ELF-007]", found), std::string::npos) << r.listing;
}

// The same with this machine's gcc and gas 2.40 (SFrame version 1).
TEST_F(Gas240, DebugFrameOnlyCodeIsCompared) {
  const auto o = dir_ / "frames.o", so = dir_ / "libframes.so";
  const std::string flags = "-O2 -g1 -fno-asynchronous-unwind-tables -fPIC -Wa,--gsframe ";
  ELFMETA_REQUIRE_INSTALLED(run("gcc " + flags + "-c " + (kCorpus / "frames.c").string() + " -o " + o.string()) == 0 &&
                                run("gcc " + flags + "-shared " + (kCorpus / "frames.c").string() + " -o " + so.string()) == 0,
                            "gcc cannot build with --gsframe (packages gcc, binutils)");
  const Checked obj = check_file(o), linked = check_file(so);
  EXPECT_EQ(obj.check.version, 1);
  EXPECT_TRUE(obj.rules.empty()) << obj.listing;
  EXPECT_EQ(linked.rules.count("SFRAME-ELF-007"), 0u) << linked.listing;
  EXPECT_TRUE(obj.check.cfi_checked && linked.check.cfi_checked);
  EXPECT_GT(obj.points, 20u);
  EXPECT_EQ(obj.points, obj.equal) << obj.note;
  EXPECT_GE(linked.points, obj.points) << linked.note;
  EXPECT_EQ(linked.points, linked.equal) << linked.note;
}

// A clean object with two code sections (.text, .text.unlikely): no
// finding, and the note says the comparison ran, on every point.
TEST(ObjectCfi, CleanObjectIsComparedAndCounted) {
  const Checked r = check_file(kData / "frames-x86_64.o");
  EXPECT_TRUE(r.rules.empty()) << r.listing;
  EXPECT_TRUE(r.check.cfi_checked);
  EXPECT_NE(r.note.find("in the object, (section, offset) against .eh_frame relocated"), std::string::npos) << r.note;
  EXPECT_GT(r.points, 20u);
  EXPECT_EQ(r.points, r.equal) << r.note;
}

// An .eh_frame FDE whose pc_begin relocation does not resolve (no longer
// PC32; an addend beyond its section) covers nothing: the SFrame FDE of
// that function is not compared, not reported as without CFI, and the
// note counts it; functions without FDEs are not looked for.
TEST(ObjectCfi, UnresolvedEhFrameRelocationLeavesItsFdeOut) {
  const auto clean = read_bytes(kData / "outermost-x86_64.o");
  const Checked before = check_bytes(clean);
  ASSERT_EQ(before.points, 7u);
  const SectionPlace rela = section_place(clean, ".rela.eh_frame");
  ASSERT_EQ(rela.size, 3u * 24);
  // The first relocation is _start's FDE: .text+0, R_X86_64_PC32 against symbol 1 (.text).
  uint64_t info;
  std::memcpy(&info, clean.data() + rela.offset + 8, 8);
  ASSERT_EQ(info & 0xffffffff, 2u);
  for (int variant = 0; variant < 3; ++variant) {
    auto bytes = clean;
    if (variant == 0) set_rela(bytes, rela, 0, (info >> 32) << 32, std::nullopt);  // R_X86_64_NONE
    if (variant == 1) set_rela(bytes, rela, 0, std::nullopt, 0x100000);           // beyond .text
    if (variant == 2) set_rela(bytes, rela, 0, info & 0xffffffff, std::nullopt);  // symbol 0: no section
    const Checked r = check_bytes(bytes);
    EXPECT_TRUE(r.check.cfi_checked) << variant;
    EXPECT_TRUE(r.rules.empty()) << variant << ":\n" << r.listing;
    EXPECT_NE(r.note.find("1 .eh_frame FDEs left out (pc_begin relocation does not resolve)"), std::string::npos)
        << variant << ": " << r.note;
    EXPECT_NE(r.note.find("functions without an FDE not looked for"), std::string::npos) << r.note;
    EXPECT_EQ(r.points, 6u) << r.note;  // framed (4) and late (2); _start (1) left out
    EXPECT_EQ(r.points, r.equal) << r.note;
  }
}

// gas 2.40's wrong _start, with its .eh_frame FDE unresolved: the defect
// there is not compared (not a pass: the note says so), late's still is.
TEST_F(Gas240, UnresolvedFdeIsNotComparedAndTheRestIs) {
  const auto o = dir_ / "outermost.o";
  ASSERT_EQ(run("as --gsframe " + (kCorpus / "outermost-x86_64.s").string() + " -o " + o.string()), 0);
  auto bytes = read_bytes(o);
  const SectionPlace rela = section_place(bytes, ".rela.eh_frame");
  uint64_t info;
  std::memcpy(&info, bytes.data() + rela.offset + 8, 8);
  set_rela(bytes, rela, 0, (info >> 32) << 32, std::nullopt);
  const Checked r = check_bytes(bytes);
  EXPECT_EQ(r.rules, (std::map<std::string, size_t>{{"SFRAME-CFI-004", 1}, {"SFRAME-FRE-013", 1}})) << r.listing;
  EXPECT_NE(r.listing.find("at .text+0x14:"), std::string::npos) << r.listing;
  EXPECT_NE(r.note.find("1 .eh_frame FDEs left out"), std::string::npos) << r.note;
}

// An SFrame FDE whose start relocation does not resolve (symbol 0):
// SFRAME-ELF-003 reports the relocation; the differential leaves the FDE
// out and says so, and looks for no function without an FDE (that one
// has one).
TEST(ObjectCfi, UnresolvedSframeStartIsCounted) {
  auto bytes = read_bytes(kData / "outermost-x86_64.o");
  const SectionPlace rela = section_place(bytes, ".rela.sframe");
  uint64_t info;
  std::memcpy(&info, bytes.data() + rela.offset + 8, 8);
  set_rela(bytes, rela, 0, info & 0xffffffff, std::nullopt);
  const Checked r = check_bytes(bytes);
  EXPECT_EQ(r.rules, (std::map<std::string, size_t>{{"SFRAME-ELF-003", 1}})) << r.listing;
  EXPECT_NE(r.note.find("1 SFrame FDEs left out (start does not resolve)"), std::string::npos) << r.note;
  EXPECT_NE(r.note.find("functions without an FDE not looked for"), std::string::npos) << r.note;
  EXPECT_EQ(r.points, 6u) << r.note;
}

// A function with CFI and no FDE in an object: SFRAME-ELF-007 and -008
// name it at section+offset (gas 2.47.50 skips a function with
// .cfi_val_offset of the FP, with a warning of its own; here late's FDE is
// moved onto framed's start with a size of 0).
TEST(ObjectCfi, FunctionWithoutFdeIsNamedAtItsSectionOffset) {
  auto bytes = read_bytes(kData / "outermost-x86_64.o");
  // FDE 2 (late) made to start where FDE 1 (framed) does, and last 0 bytes: late has no FDE.
  auto opened = input::open_bytes("t.o", bytes);
  ASSERT_TRUE(opened.artifact);
  DiagnosticList discard;
  sframe::SframeFindings f("t.o", discard, kNoConsumer, ".sframe");
  const auto t = sframe::read_sframe(*opened.artifact, f);
  ASSERT_TRUE(t && t->fdes.size() == 3);
  const SectionPlace sframe = section_place(bytes, ".sframe");
  // Version 3 FDE index entries: start (8 bytes, relocated), size (4), FRE offset (4).
  const uint64_t size_at = sframe.offset + t->fdes[2].at + 8;
  const uint32_t zero = 0;
  std::memcpy(bytes.data() + size_at, &zero, 4);
  set_rela(bytes, section_place(bytes, ".rela.sframe"), 2, std::nullopt, 0xd);
  const Checked r = check_bytes(bytes);
  EXPECT_EQ(r.rules.count("SFRAME-ELF-007"), 1u) << r.listing;
  EXPECT_NE(r.listing.find("late at .text+0x13 has DWARF CFI but no SFrame FDE [SFRAME-ELF-007]"), std::string::npos)
      << r.listing;
  EXPECT_NE(r.listing.find("late: it is an outermost frame (RA undefined) [SFRAME-CFI-008]"), std::string::npos)
      << r.listing;
}

// A CIE this reader cannot relocate FDEs of (an augmentation letter it
// does not know): the comparison does not run and says nothing, rather
// than pass.
TEST(ObjectCfi, UnknownAugmentationLeavesTheComparisonNotRun) {
  auto bytes = read_bytes(kData / "outermost-x86_64.o");
  const SectionPlace eh = section_place(bytes, ".eh_frame");
  ASSERT_EQ(std::memcmp(bytes.data() + eh.offset + 9, "zR", 3), 0);
  bytes[eh.offset + 10] = 'Q';
  const Checked r = check_bytes(bytes);
  EXPECT_FALSE(r.check.cfi_checked);
  EXPECT_TRUE(r.note.empty()) << r.note;
  EXPECT_TRUE(r.rules.empty()) << r.listing;
  EXPECT_NE(r.listing.find("not checked: .eh_frame has a record whose relocations cannot be applied"), std::string::npos)
      << r.listing;
}

// Every byte of the named sections of a file set to 0, 0xff and flipped,
// each mutant checked: how many had an SFrame section to check.
size_t check_byte_mutants(const fs::path& file, std::initializer_list<const char*> sections) {
  const auto clean = read_bytes(file);
  size_t ran = 0;
  for (const char* name : sections) {
    const SectionPlace p = section_place(clean, name);
    EXPECT_GT(p.size, 0u) << name;
    for (uint64_t k = 0; k < p.size; ++k)
      for (const int how : {0, 1, 2}) {
        auto bytes = clean;
        uint8_t& b = bytes[p.offset + k];
        b = how == 0 ? 0 : how == 1 ? 0xff : b ^ 0x80;
        ran += check_bytes(std::move(bytes)).check.present;
      }
  }
  return ran;
}

// An object's .eh_frame and .rela.eh_frame, and another's .debug_frame and
// .rela.debug_frame (both big-endian), mutated byte by byte: the check
// ends, whatever it finds (ASan/UBSan builds watch the bounds).
TEST(ObjectCfi, MutatedEhFrameAndRelocationsAreSafe) {
  EXPECT_GT(check_byte_mutants(kData / "outermost-s390x.o", {".eh_frame", ".rela.eh_frame"}), 300u);
}

TEST(ObjectCfi, MutatedDebugFrameAndRelocationsAreSafe) {
  EXPECT_GT(check_byte_mutants(kData / "frames-debug-frame-s390x.o", {".debug_frame", ".rela.debug_frame"}), 1000u);
}

}  // namespace
}  // namespace elfmeta::testing
