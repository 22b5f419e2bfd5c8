// SFrame from the real producer: gas 2.40 (-Wa,--gsframe) and ld 2.40 over
// a C/C++ corpus at several optimisation and frame settings, as objects,
// PIE executables and shared objects. Zero errors; the warnings are the
// known ld 2.40 defect (PT_GNU_SFRAME sized as the sum of its inputs), and
// the gas defects of gas_defects.s, each asserted where it is expected.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <tuple>
#include <map>
#include <set>
#include <sstream>

#include "core/diagnostic.h"
#include "input/artifact.h"
#include "input/symbols.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"
#include "tests/support/require.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

int run(const std::string& cmd) {
  const int raw = std::system((cmd + " >/dev/null 2>&1").c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

const fs::path kCorpus = fs::path(ELFMETA_SOURCE_DIR) / "tests" / "sframe" / "corpus";

struct Result {
  sframe::SframeCheck check;
  std::map<std::string, size_t> rules;
  std::string listing;
};

// The CFI differential's verdict: its rules' counts, less what only a link
// has (ld's PLT sections without FDEs, crt1.o's _start).
std::map<std::string, size_t> cfi_verdict(const std::string& listing) {
  std::map<std::string, size_t> out;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    const bool cfi = line.ends_with("[SFRAME-ELF-007]") || line.find("[SFRAME-CFI-") != std::string::npos;
    if (!cfi || line.starts_with(".plt") || line.starts_with("_start")) continue;
    ++out[line.substr(line.rfind('[') + 1, line.size() - line.rfind('[') - 2)];
  }
  return out;
}

Result check_file(const fs::path& p, uint32_t consumer = kNoConsumer) {
  Result r;
  auto opened = input::open_input(p.string());
  EXPECT_TRUE(opened.artifact) << opened.error;
  if (!opened.artifact) return r;
  DiagnosticList list;
  r.check = sframe::check_sframe(*opened.artifact, sframe::SframeOptions{consumer}, list);
  for (const auto& d : list.items()) {
    if (d.rule) ++r.rules[std::string(d.rule->id)];
    r.listing += d.message + (d.rule ? " [" + std::string(d.rule->id) + "]\n" : "\n");
  }
  return r;
}

class GasSframe : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ELFMETA_REQUIRE_INSTALLED(run("echo | as --gsframe -o /dev/null -") == 0, "as has no --gsframe (package binutils)");
    dir_ = fs::temp_directory_path() / ("elfmeta-gas-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  static inline int counter_ = 0;
};

TEST_P(GasSframe, ObjectsExecutablesAndSharedObjectsHaveNoErrors) {
  const std::string flags = GetParam() + " -Wa,--gsframe";
  const std::string c = (kCorpus / "frames.c").string(), m = (kCorpus / "main.c").string(),
                    cc = (kCorpus / "exceptions.cc").string();
  ASSERT_EQ(run("gcc " + flags + " -c " + c + " -o " + (dir_ / "frames.o").string()), 0);
  ASSERT_EQ(run("g++ " + flags + " -c " + cc + " -o " + (dir_ / "exceptions.o").string()), 0);
  ASSERT_EQ(run("gcc " + flags + " " + c + " " + m + " -o " + (dir_ / "exe").string()), 0);
  ASSERT_EQ(run("gcc " + flags + " -shared -fPIC " + c + " -o " + (dir_ / "lib.so").string()), 0);
  ASSERT_EQ(run("g++ " + flags + " -shared -fPIC " + cc + " -o " + (dir_ / "libexceptions.so").string()), 0);
  for (const char* name : {"frames.o", "exceptions.o", "exe", "lib.so", "libexceptions.so"}) {
    const Result r = check_file(dir_ / name);
    const bool linked = !std::string(name).ends_with(".o");
    ASSERT_TRUE(r.check.present) << name;
    EXPECT_EQ(r.check.version, 1) << name;
    EXPECT_GE(r.check.fdes, linked ? 5u : 2u) << name;
    EXPECT_EQ(r.check.errors, 0u) << name << ":\n" << r.listing;
    // Code with CFI but no FDE: crt1.o's _start (not assembled with
    // --gsframe), ld 2.40's .plt.got, and, where GCC realigns through DRAP
    // (-O0), drap: gas 2.40 leaves out what it cannot represent (seen in
    // the object as in the link). The notes say what every ld output is
    // (pltN without a block size in v1, the PLT's FREs last).
    for (const auto& [rule, count] : r.rules)
      EXPECT_TRUE(rule == "SFRAME-ELF-007" || rule == "SFRAME-CFI-008" ||
                  (linked && (rule == "SFRAME-ELF-002" || rule == "SFRAME-FDE-006" || rule == "SFRAME-FDE-012")))
          << name << ": unexpected " << rule << ":\n" << r.listing;
    std::istringstream lines(r.listing);
    for (std::string line; std::getline(lines, line);) {
      if (line.ends_with("[SFRAME-ELF-007]")) {
        EXPECT_TRUE(line.starts_with("_start at") || line.starts_with("drap at") || line.starts_with(".plt.got at"))
            << name << ": " << line;
      }
    }
    if (std::string(name) != "libexceptions.so" && std::string(name) != "exceptions.o" && GetParam() == "-O0") {
      EXPECT_NE(r.listing.find("drap at"), std::string::npos) << name << ":\n" << r.listing;
      // DRAP: the CFA moves to r10 first, then to a DWARF expression.
      EXPECT_NE(r.listing.find("drap: its CFA is based on r10"), std::string::npos) << name << ":\n" << r.listing;
    }
    if (std::string(name) == "exe") {
      EXPECT_NE(r.listing.find("_start: it is an outermost frame"), std::string::npos) << r.listing;
    }
    EXPECT_TRUE(r.check.cfi_checked) << name;  // objects too, at (section, offset)
    // ld 2.40: the segment is larger than the merged section, in every link.
    if (linked) {
      EXPECT_EQ(r.rules.count("SFRAME-ELF-002"), 1u) << name << ":\n" << r.listing;
    }
    // What libsframe 2.40 reads: version 1, so no finding changes.
    EXPECT_EQ(check_file(dir_ / name, kLibsframe).check.errors, 0u) << name;
  }
  // An object and the shared object of the same source get the same CFI
  // verdict.
  for (const auto& [object, shared] : {std::pair{"frames.o", "lib.so"}, std::pair{"exceptions.o", "libexceptions.so"}}) {
    const Result o = check_file(dir_ / object), so = check_file(dir_ / shared);
    EXPECT_EQ(cfi_verdict(o.listing), cfi_verdict(so.listing)) << object << ":\n" << o.listing << shared << ":\n" << so.listing;
  }
}

INSTANTIATE_TEST_SUITE_P(Flags, GasSframe,
                         ::testing::Values("-O0", "-O2", "-O2 -fomit-frame-pointer", "-O2 -fno-omit-frame-pointer",
                                           "-O2 -freorder-blocks-and-partition"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// gas 2.40 turns a CFA in r10 into "sp+0" (FRE-009 warns of it) and gives an
// empty function a size-0 FDE at the next function's start (FDE-009 warns;
// linked, the tie is an error for the kernel only, FDE-008).
class GasDefects : public GasSframe {};

TEST_F(GasDefects, AreFoundAsTheSpecDescribes) {
  const auto o = dir_ / "defects.o", so = dir_ / "defects.so";
  ASSERT_EQ(run("as --gsframe " + (kCorpus / "gas_defects.s").string() + " -o " + o.string()), 0);
  ASSERT_EQ(run("gcc -shared " + o.string() + " -o " + so.string()), 0);
  // The object: its own DWARF CFI, at (section, offset), shows what gas
  // got wrong as the link's does (a defect found before linking).
  const Result obj = check_file(o);
  EXPECT_TRUE(obj.check.cfi_checked);
  EXPECT_EQ(obj.check.errors, 3u) << obj.listing;
  EXPECT_EQ(obj.rules, (std::map<std::string, size_t>{{"SFRAME-FRE-009", 1},
                                                      {"SFRAME-FDE-009", 1},
                                                      {"SFRAME-CFI-001", 1},
                                                      {"SFRAME-CFI-003", 1},
                                                      {"SFRAME-CFI-004", 1},
                                                      {"SFRAME-ELF-007", 4},
                                                      {"SFRAME-CFI-008", 4}}))
      << obj.listing;
  // `outermost`: .cfi_undefined rip, which gas 2.40 drops (an ordinary frame).
  EXPECT_NE(obj.listing.find("at .text+0xb: SFrame sp+8 ra@cfa-8; DWARF CFA r7+8, FP kept, RA undefined [SFRAME-CFI-004]"),
            std::string::npos)
      << obj.listing;
  // Linked: the DWARF CFI shows what gas got wrong, one finding each. Every
  // rule (the default) also counts the kernel's refusal of the tie; what
  // libsframe reads has no error (the CFI rules are no reader's).
  const Result linked = check_file(so);
  EXPECT_EQ(linked.check.errors, 4u) << linked.listing;
  EXPECT_EQ(linked.rules, (std::map<std::string, size_t>{{"SFRAME-FDE-006", 1},
                                                         {"SFRAME-FDE-012", 1},
                                                         {"SFRAME-FDE-008", 1},
                                                         {"SFRAME-FDE-009", 1},
                                                         {"SFRAME-FRE-009", 1},
                                                         {"SFRAME-CFI-001", 1},
                                                         {"SFRAME-CFI-003", 1},
                                                         {"SFRAME-CFI-004", 1},
                                                         {"SFRAME-ELF-007", 5},
                                                         {"SFRAME-CFI-008", 4},
                                                         {"SFRAME-ELF-002", 1}}))
      << linked.listing;
  for (const char* skipped : {"remember_first at", "args_size at", "val_offset at", ".plt.got at"})
    EXPECT_NE(linked.listing.find(skipped), std::string::npos) << skipped << ":\n" << linked.listing;
  EXPECT_EQ(cfi_verdict(obj.listing), cfi_verdict(linked.listing)) << obj.listing << linked.listing;
  // .cfi_signal_frame: an FDE, and nothing version 1 could say about it.
  EXPECT_EQ(linked.listing.find("signal_tramp"), std::string::npos) << linked.listing;
  EXPECT_NE(linked.listing.find("ra_in_rcx at"), std::string::npos) << linked.listing;
  EXPECT_NE(linked.listing.find("ra_in_rcx: its return address is not where SFrame can say"), std::string::npos)
      << linked.listing;
  EXPECT_EQ(check_file(so, kLibsframe).check.errors, 0u);
  const Result kernel = check_file(so, kSframeKernel);
  EXPECT_GE(kernel.check.errors, 2u) << kernel.listing;  // version 1, and the tie
}

// Version 2 from binutils 2.44 (tests/sframe/data/binutils-2.44/README.md).
TEST(Binutils244, Version2OutputHasTheKnownLdDefects) {
  const fs::path data = fs::path(ELFMETA_SOURCE_DIR) / "tests" / "sframe" / "data" / "binutils-2.44";
  const Result obj = check_file(data / "t.o");
  EXPECT_EQ(obj.check.version, 2);
  EXPECT_TRUE(obj.rules.empty()) << obj.listing;
  const Result exe = check_file(data / "exe");
  EXPECT_EQ(exe.check.version, 2);
  EXPECT_TRUE(exe.check.cfi_checked);
  // The .plt.got row is the defect the ABI table records: ELF-009 names it,
  // CFI-006 shows it against the .eh_frame.
  EXPECT_EQ(exe.rules, (std::map<std::string, size_t>{{"SFRAME-CFI-006", 1},
                                                      {"SFRAME-CFI-008", 1},
                                                      {"SFRAME-ELF-002", 1},
                                                      {"SFRAME-ELF-007", 1},
                                                      {"SFRAME-ELF-009", 1},
                                                      {"SFRAME-FDE-005", 1},
                                                      {"SFRAME-FDE-012", 1}}))
      << exe.listing;
  EXPECT_NE(exe.listing.find("at 0x1040: SFrame sp+16 ra@cfa-8; DWARF CFA r7+8 (a known producer defect"),
            std::string::npos)
      << exe.listing;
}

// ld 2.40 --gc-sections drops .sframe (PR ld/32769): checked with its
// objects, the output gets SFRAME-ELF-008.
class GasGcSections : public GasSframe {};

TEST_F(GasGcSections, LosesTheSectionAndTheCliSaysSo) {
  const auto a = dir_ / "a.o", b = dir_ / "b.o", out = dir_ / "gc";
  ASSERT_EQ(run("gcc -O2 -ffunction-sections -c -Wa,--gsframe " + (kCorpus / "frames.c").string() + " -o " + a.string()), 0);
  ASSERT_EQ(run("gcc -O2 -c -Wa,--gsframe " + (kCorpus / "main.c").string() + " -o " + b.string()), 0);
  ASSERT_EQ(run("gcc -Wl,--gc-sections " + a.string() + " " + b.string() + " -o " + out.string()), 0);
  auto oa = input::open_input(a.string()), ob = input::open_input(b.string()), oo = input::open_input(out.string());
  ASSERT_TRUE(oa.artifact && ob.artifact && oo.artifact);
  EXPECT_EQ(oo.artifact->section(".sframe"), nullptr);
  DiagnosticList list;
  EXPECT_TRUE(sframe::check_lost_in_link(*oo.artifact, {oa.artifact.get(), ob.artifact.get(), oo.artifact.get()}, list));
  ASSERT_EQ(list.items().size(), 1u);
  EXPECT_EQ(list.items()[0].rule->id, "SFRAME-ELF-008");
  DiagnosticList alone;  // without its objects there is nothing to say
  EXPECT_FALSE(sframe::check_lost_in_link(*oo.artifact, {oo.artifact.get()}, alone));
  const std::string cli = std::string(ELFMETA_CLI) + " check --only sframe " + a.string() + " " + b.string() + " " +
                          out.string() + " > " + (dir_ / "out.txt").string();
  EXPECT_EQ(std::system(cli.c_str()), 0);  // a warning
  std::ifstream text(dir_ / "out.txt");
  const std::string printed((std::istreambuf_iterator<char>(text)), {});
  EXPECT_NE(printed.find("[SFRAME-ELF-008]"), std::string::npos) << printed;
}

// ld 2.40 -r re-encodes the merged section but keeps the inputs' relocation
// offsets (spec §3.5): the second object's FDE starts are not relocated and
// a relocation lands inside the merged FDE array; FDE_SORTED is set.
class GasLdRelocatable : public GasSframe {};

TEST_F(GasLdRelocatable, KeepsStaleRelocations) {
  const auto a = dir_ / "a.o", b = dir_ / "b.o", r = dir_ / "r.o";
  ASSERT_EQ(run("gcc -O2 -c -Wa,--gsframe " + (kCorpus / "frames.c").string() + " -o " + a.string()), 0);
  ASSERT_EQ(run("gcc -O2 -c -Wa,--gsframe " + (kCorpus / "main.c").string() + " -o " + b.string()), 0);
  ASSERT_EQ(run("ld -r " + a.string() + " " + b.string() + " -o " + r.string()), 0);
  const Result merged = check_file(r);
  EXPECT_GE(merged.rules.count("SFRAME-ELF-004"), 1u) << merged.listing;
  EXPECT_EQ(merged.rules.count("SFRAME-ELF-003"), 0u) << merged.listing;
  EXPECT_EQ(merged.rules.count("SFRAME-HDR-018"), 1u) << merged.listing;
  for (const auto& [rule, count] : merged.rules)
    EXPECT_TRUE(rule == "SFRAME-ELF-004" || rule == "SFRAME-HDR-018") << rule << ":\n" << merged.listing;
  // Each input on its own is clean.
  EXPECT_TRUE(check_file(a).rules.empty());
  EXPECT_TRUE(check_file(b).rules.empty());
}

// A real executable with one FRE word changed: the differential finds
// exactly the rule of what changed.
class GasMutation : public GasSframe {};

TEST_F(GasMutation, ChangedFreWordsDisagreeWithTheCfi) {
  const auto exe = dir_ / "exe";
  ASSERT_EQ(run("gcc -O2 -fno-omit-frame-pointer -Wa,--gsframe " + (kCorpus / "frames.c").string() + " " +
                (kCorpus / "main.c").string() + " -o " + exe.string()), 0);
  auto opened = input::open_input(exe.string());
  ASSERT_TRUE(opened.artifact);
  DiagnosticList discard;
  sframe::SframeFindings f("exe", discard, kNoConsumer);
  const auto t = sframe::read_sframe(*opened.artifact, f);
  ASSERT_TRUE(t && t->usable);
  // An FRE with CFA and FP words, 1 byte each (gas's choice for small frames).
  std::optional<sframe::Fre> target;
  for (size_t i = 0; i < t->fdes.size(); ++i)
    for (sframe::FreCursor c(*t, i); !c.done(); c.next())
      if (c->count() == 2 && c->size_code() == 0 && c->words[1] == -16) target = *c;
  ASSERT_TRUE(target) << "no FRE saving the frame pointer";
  const uint64_t word0 = t->section->file_offset + target->at + 1 + 1;  // ADDR1 start, info byte
  std::vector<uint8_t> file(opened.artifact->content.begin(), opened.artifact->content.end());
  for (const auto& [word, delta, rule] : {std::tuple{0, 8, "SFRAME-CFI-001"}, std::tuple{1, -8, "SFRAME-CFI-002"}}) {
    std::vector<uint8_t> mutated = file;
    mutated[word0 + word] = static_cast<uint8_t>(mutated[word0 + word] + delta);
    const auto path = dir_ / (std::string("mutated-") + rule);
    {
      std::ofstream out(path, std::ios::binary);
      out.write(reinterpret_cast<const char*>(mutated.data()), static_cast<std::streamsize>(mutated.size()));
    }
    const Result r = check_file(path);
    std::set<std::string> fired;
    for (const auto& [id, count] : r.rules)
      if (id.starts_with("SFRAME-CFI") && id != "SFRAME-CFI-008") fired.insert(id);
    EXPECT_EQ(r.check.errors, 1u) << r.listing;
    EXPECT_EQ(fired, std::set<std::string>{rule}) << r.listing;
  }
}

// An FDE moved over drap, whose CFA (at -O0) is a DWARF expression through
// the DRAP register: SFrame cannot say it (SFRAME-CFI-005).
TEST_F(GasMutation, AnFdeOverADrapFunctionIsUnrepresentable) {
  const auto exe = dir_ / "exe";
  ASSERT_EQ(run("gcc -O0 -Wa,--gsframe " + (kCorpus / "frames.c").string() + " " + (kCorpus / "main.c").string() +
                " -o " + exe.string()), 0);
  auto opened = input::open_input(exe.string());
  ASSERT_TRUE(opened.artifact);
  const auto symbols = input::symbols_from_symtab(*opened.artifact);
  ASSERT_TRUE(symbols);
  const input::Symbol* drap = symbols->find("drap");
  ASSERT_TRUE(drap);
  DiagnosticList discard;
  sframe::SframeFindings f("exe", discard, kNoConsumer);
  const auto t = sframe::read_sframe(*opened.artifact, f);
  ASSERT_TRUE(t && t->usable && t->fdes.size() > 4);
  // The last FDE (main's, or the last function's): start and size now drap's.
  const auto& fde = t->fdes.back();
  std::vector<uint8_t> file(opened.artifact->content.begin(), opened.artifact->content.end());
  const int32_t start = static_cast<int32_t>(drap->address - t->section->addr);
  const uint32_t size = static_cast<uint32_t>(drap->size);
  std::memcpy(file.data() + t->section->file_offset + fde.at, &start, 4);
  std::memcpy(file.data() + t->section->file_offset + fde.at + 4, &size, 4);
  const auto path = dir_ / "moved";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
  }
  const Result r = check_file(path);
  EXPECT_EQ(r.rules.count("SFRAME-CFI-005"), 1u) << r.listing;
}

}  // namespace
}  // namespace elfmeta::testing
