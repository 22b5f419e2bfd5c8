// The SFrame test suites of binutils (the source of the sid root's binutils
// version, fetched at test time by tools/sid-sframe-data; nothing of it is in
// this repository), run with the sid toolchain, each with the verdict its
// .d file implies:
//   gas/testsuite/gas/cfi-sframe: every run_dump_test of cfi-sframe.exp, on
//     the machines the .exp runs it for;
//   ld/testsuite/ld-x86-64, ld-s390, ld-aarch64: their sframe-* dump tests;
//   ld/testsuite/ld-sframe: its dump tests on all three machines, PR ld/33401
//     (ld -r leaving R_*_NONE in .rela.sframe) and PR ld/32789 (ld -r of C);
//   libsframe/testsuite: the decode DATA files, and the decode, find and
//     encode programs compiled against sid's libsframe 3 and run, every
//     section their encoder writes captured.
// The verdicts: #error, the assembler fails; #failif or "has no debugging
// data", the output has no .sframe; otherwise the output has one, elfmeta
// finds no error but the producer defects the ABI table records (and finds
// that defect where the .d expects ld's wrong .plt.got row), and reads the
// FDE and FRE counts the expected dump has.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>

#include <unistd.h>

#include "input/relocations.h"
#include "tests/sframe/sid/sid_sframe.h"

namespace elfmeta::testing {
namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A binutils .d file: its directives and the expected dump after them.
struct DumpTest {
  std::string name;  // the file's stem
  fs::path dir;      // the folder holding it and its sources
  std::string as_flags, ld_flags, dump;
  bool links = false, failif = false;
  std::vector<std::pair<std::string, std::string>> sources;  // file, extra assembler flags
  std::vector<std::string> warnings, errors;                 // regular expressions
  std::vector<std::string> body;
};

DumpTest parse_d(const fs::path& d) {
  DumpTest t;
  t.name = d.stem().string();
  t.dir = d.parent_path();
  std::istringstream in(read_text(d));
  bool directives = true;
  static const std::regex directive(R"(^#([a-z_-]+):\s*(.*)$)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (directives && std::regex_match(line, m, directive)) {
      const std::string key = m[1], value = m[2];
      if (key == "as") t.as_flags = value;
      else if (key == "ld") t.links = true, t.ld_flags = value;
      else if (key == "objdump" || key == "readelf") t.dump = key + " " + value;
      else if (key == "warning") t.warnings.push_back(value);
      else if (key == "error") t.errors.push_back(value);
      else if (key == "source") {
        const size_t sp = value.find(' ');
        t.sources.emplace_back(value.substr(0, sp), sp == std::string::npos ? "" : value.substr(sp + 1));
      }
      continue;
    }
    if (line == "#failif") {  // anywhere in the file: the expected dump must not match
      t.failif = true;
      continue;
    }
    if (directives && line.empty()) continue;
    if (directives && line.starts_with("#") && !line.starts_with("#...") && !line.starts_with("#?")) continue;
    directives = false;
    t.body.push_back(line);
  }
  if (t.sources.empty()) t.sources.emplace_back(t.name + ".s", "");
  return t;
}

// Tcl's regular expressions as std::regex takes them: `\_` is an escape Tcl
// allows and ECMAScript does not.
std::regex tcl_regex(std::string re) {
  for (size_t at; (at = re.find("\\_")) != std::string::npos;) re.erase(at, 1);
  return std::regex(re);
}

// "    Num FDEs: 3" in the expected dump.
std::optional<uint64_t> expected_count(const DumpTest& t, const std::string& what) {
  static const std::regex number(R"(^\s*(Num FDEs|Num FREs): (\d+)\s*$)");
  for (const auto& line : t.body) {
    std::smatch m;
    if (std::regex_match(line, m, number) && m[1] == what) return std::stoull(m[2]);
  }
  return std::nullopt;
}

// The test's verdict: the output holds no .sframe.
bool expects_no_sframe(const DumpTest& t) {
  if (t.failif) return true;
  for (const auto& line : t.body)
    if (line.find("has no debugging data") != std::string::npos) return true;
  return false;
}

// ld's .plt.got FDE, which binutils' own tests expect with the wrong CFA.
bool expects_pltgot_defect(const DumpTest& t) { return t.name.starts_with("sframe-pltgot-"); }

struct Machine {
  std::string name;    // x86_64
  std::string prefix;  // x86_64-linux-gnu-
};
const Machine kMachines[] = {{"x86_64", "x86_64-linux-gnu-"}, {"aarch64", "aarch64-linux-gnu-"}, {"s390x", "s390x-linux-gnu-"}};

// The run_dump_test names of an .exp file.
std::vector<std::string> run_dump_tests(const fs::path& exp) {
  std::vector<std::string> out;
  static const std::regex call(R"re(run_dump_test\s+"([^"]+)")re");
  const std::string text = read_text(exp);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), call); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

struct SuiteCase {
  DumpTest test;
  const Machine* machine;
};

// The cases of one suite on one machine.
std::vector<SuiteCase> suite_cases(const fs::path& src, const std::string& suite, const Machine& m) {
  std::vector<SuiteCase> out;
  const auto add = [&](const fs::path& d) { out.push_back({parse_d(d), &m}); };
  if (suite == "gas") {
    const fs::path dir = src / "gas/testsuite/gas/cfi-sframe";
    for (const auto& name : run_dump_tests(dir / "cfi-sframe.exp")) {
      // cfi-sframe.exp runs cfi-sframe-MACHINE-* on MACHINE, the rest on all three.
      const bool own = name.starts_with("cfi-sframe-x86_64") || name.starts_with("cfi-sframe-aarch64") ||
                       name.starts_with("cfi-sframe-s390x");
      if (own && !name.starts_with("cfi-sframe-" + m.name)) continue;
      add(dir / (name + ".d"));
    }
  } else if (suite == "ld") {
    const std::string sub = m.name == "x86_64" ? "ld-x86-64" : m.name == "s390x" ? "ld-s390" : "ld-aarch64";
    const std::string exp = m.name == "x86_64" ? "x86-64.exp" : m.name == "s390x" ? "s390.exp" : "aarch64-elf.exp";
    const fs::path dir = src / "ld/testsuite" / sub;
    for (const auto& name : run_dump_tests(dir / exp))
      if (name.starts_with("sframe-")) add(dir / (name + ".d"));
    // ld-sframe/sframe.exp runs every .d of its folder on every machine.
    std::vector<fs::path> generic;
    for (const auto& e : fs::directory_iterator(src / "ld/testsuite/ld-sframe"))
      if (e.path().extension() == ".d") generic.push_back(e.path());
    std::sort(generic.begin(), generic.end());
    for (const auto& d : generic) add(d);
  }
  return out;
}

// One shell script for all cases (one entry into the root): each case in
// its own folder with its sources' folder's files, the assembler's and
// linker's exit status and messages kept.
std::string script_for(const std::vector<SuiteCase>& cases, const fs::path& work) {
  std::ostringstream s;
  s << "set -u\n";
  for (size_t k = 0; k < cases.size(); ++k) {
    const DumpTest& t = cases[k].test;
    const std::string pre = cases[k].machine->prefix;
    const fs::path dir = work / (std::to_string(k) + "-" + t.name);
    s << "mkdir -p " << shell_quote(dir.string()) << " && cd " << shell_quote(dir.string()) << " && cp -r "
      << shell_quote(t.dir.string()) << "/. . && (\n  rc=0\n";
    for (size_t i = 0; i < t.sources.size(); ++i)
      s << "  " << pre << "as " << t.as_flags << " " << t.sources[i].second << " " << shell_quote(t.sources[i].first)
        << " -o out" << i << ".o || rc=1\n";
    s << "  echo $rc > as.rc\n";
    if (t.links) {
      s << "  if [ $rc = 0 ]; then " << pre << "ld " << t.ld_flags;
      for (size_t i = 0; i < t.sources.size(); ++i) s << " out" << i << ".o";
      s << " -o out; echo $? > ld.rc; fi\n";
    }
    s << ") > log 2>&1\n";
  }
  return s.str();
}

struct Tally {
  size_t cases = 0, expected_failures = 0, without_sframe = 0, clean = 0, defects_found = 0, counts_compared = 0;
};

// Judges one case's outputs by what its .d implies.
void judge(const SuiteCase& c, const fs::path& dir, Tally& tally) {
  const DumpTest& t = c.test;
  const std::string what = t.name + " (" + c.machine->name + ")";
  ++tally.cases;
  const std::string log = read_text(dir / "log");
  const int as_rc = std::atoi(read_text(dir / "as.rc").c_str());
  for (const auto& re : t.warnings)
    EXPECT_TRUE(std::regex_search(log, tcl_regex(re))) << what << ": no message matching '" << re << "' in:\n" << log;
  if (!t.errors.empty()) {
    EXPECT_NE(as_rc, 0) << what << ": the assembler should fail";
    for (const auto& re : t.errors) EXPECT_TRUE(std::regex_search(log, tcl_regex(re))) << what << ":\n" << log;
    ++tally.expected_failures;
    return;
  }
  ASSERT_EQ(as_rc, 0) << what << ":\n" << log;
  fs::path out = dir / "out0.o";
  if (t.links) {
    ASSERT_EQ(std::atoi(read_text(dir / "ld.rc").c_str()), 0) << what << ":\n" << log;
    out = dir / "out";
  }
  const Checked r = check_file(out);
  if (expects_no_sframe(t)) {
    EXPECT_FALSE(r.check.present) << what << ": the .d expects no .sframe";
    ++tally.without_sframe;
    return;
  }
  ASSERT_TRUE(r.check.present) << what;
  size_t defects = 0;
  for (const auto& d : r.errors) {
    if (known_producer_defect(d)) {
      ++defects;
      continue;
    }
    ADD_FAILURE() << what << ": " << d.message << " [" << (d.rule ? d.rule->id : "") << "]";
  }
  if (expects_pltgot_defect(t)) {
    EXPECT_GE(defects, 1u) << what << ": the .d expects ld's .plt.got row, elfmeta should name it:\n" << r.listing;
  } else {
    EXPECT_EQ(defects, 0u) << what << ":\n" << r.listing;
  }
  tally.defects_found += defects > 0;
  tally.clean += r.errors.empty();
  // The counts of the expected dump are the ones elfmeta reads.
  auto opened = input::open_input(out.string());
  ASSERT_TRUE(opened.artifact);
  DiagnosticList discard;
  sframe::SframeFindings f("out", discard, kNoConsumer);
  const auto table = sframe::read_sframe(*opened.artifact, f);
  ASSERT_TRUE(table && table->usable) << what;
  if (const auto n = expected_count(t, "Num FDEs")) {
    EXPECT_EQ(table->header.num_fdes, *n) << what;
    ++tally.counts_compared;
  }
  if (const auto n = expected_count(t, "Num FREs")) {
    EXPECT_EQ(table->header.num_fres, *n) << what;
  }
}

class BinutilsSuite : public ::testing::TestWithParam<std::string> {};

TEST_P(BinutilsSuite, InputsGetTheVerdictTheirDFileImplies) {
  ELFMETA_REQUIRE_TOOLCHAIN_ROOT();
  ELFMETA_REQUIRE_SID_DATA(sources, "sources");
  const fs::path src = sources.paths.at("binutils");
  const std::string suite = GetParam().substr(0, GetParam().find('_'));
  const std::string machine = GetParam().substr(GetParam().find('_') + 1);
  const Machine* m = nullptr;
  for (const auto& k : kMachines)
    if (k.name == machine) m = &k;
  ASSERT_TRUE(m);
  const auto cases = suite_cases(src, suite, *m);
  ASSERT_GE(cases.size(), suite == "gas" ? 20u : 8u) << "the suite's .exp lists fewer tests than expected";
  const fs::path work = fs::temp_directory_path() / ("elfmeta-binutils-" + GetParam() + "-" + std::to_string(getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  {
    std::ofstream(work / "run.sh") << script_for(cases, work);
  }
  const CommandResult r = SidData::run("sh " + shell_quote((work / "run.sh").string()), work, {src});
  ASSERT_EQ(r.status, 0) << r.output;
  Tally tally;
  for (size_t k = 0; k < cases.size(); ++k) {
    SCOPED_TRACE(cases[k].test.name);
    judge(cases[k], work / (std::to_string(k) + "-" + cases[k].test.name), tally);
  }
  std::printf("%s on %s: %zu cases: %zu with no error (%zu compared with the .d's counts), %zu without .sframe as "
              "expected, %zu failing to assemble as expected, %zu with the known ld .plt.got defect\n",
              suite.c_str(), machine.c_str(), tally.cases, tally.clean, tally.counts_compared, tally.without_sframe,
              tally.expected_failures, tally.defects_found);
  if (!HasFailure()) fs::remove_all(work);
}

INSTANTIATE_TEST_SUITE_P(Suites, BinutilsSuite,
                         ::testing::Values("gas_x86_64", "gas_aarch64", "gas_s390x", "ld_x86_64", "ld_aarch64",
                                           "ld_s390x"));

}  // namespace
}  // namespace elfmeta::testing

namespace elfmeta::testing {
namespace {

// libsframe/testsuite: the decode DATA files (raw sections made by gas and
// by hand) are clean; the decode, find and encode programs, compiled against
// sid's libsframe 3 with stand-ins of ours for DejaGnu's dejagnu.h and the
// build tree's config.h (tests/sframe/sid/libsframe_stubs), pass; and every
// section libsframe 3's encoder writes in them (captured through
// -Wl,--wrap=sframe_encoder_write) is clean.
TEST(BinutilsLibsframeSuite, DataFilesAndEncodedSectionsAreCleanAndTheProgramsPass) {
  ELFMETA_REQUIRE_TOOLCHAIN_ROOT();
  ELFMETA_REQUIRE_SID_DATA(sources, "sources");
  const fs::path suite = fs::path(sources.paths.at("binutils")) / "libsframe" / "testsuite";
  const fs::path stubs = source_dir() / "tests" / "sframe" / "sid" / "libsframe_stubs";
  const fs::path work = fs::temp_directory_path() / ("elfmeta-libsframe-suite-" + std::to_string(getpid()));
  fs::remove_all(work);
  fs::create_directories(work / "captured");
  size_t data_files = 0, programs = 0;
  std::ostringstream script;
  script << "set -u\n";
  for (const char* part : {"libsframe.decode", "libsframe.find", "libsframe.encode"}) {
    for (const auto& e : fs::directory_iterator(suite / part)) {
      const fs::path p = e.path();
      if (p.filename().string().starts_with("DATA")) {
        const Checked r = check_file(p);
        EXPECT_TRUE(r.check.present) << p;
        EXPECT_TRUE(r.errors.empty()) << p << ":\n" << r.listing;
        ++data_files;
      }
      if (p.extension() != ".c") continue;
      const std::string prog = p.stem().string();
      const fs::path dir = work / prog;
      // Run where the program's DATA files are (it opens them by name;
      // encode-1 compares its output with libsframe.decode's DATA2).
      script << "mkdir -p " << shell_quote(dir.string()) << " && cp -r " << shell_quote((suite / part).string())
             << "/. " << shell_quote((suite / "libsframe.decode").string()) << "/. " << shell_quote(dir.string()) << " && cd " << shell_quote(dir.string()) << " && (gcc -w -I "
             << shell_quote(stubs.string()) << " -I " << shell_quote(suite.string()) << " " << shell_quote(p.string())
             << " " << shell_quote((stubs / "encoder_capture.c").string()) << " -idirafter "
             << shell_quote((suite.parent_path().parent_path() / "include").string())
             << " -Wl,--wrap=sframe_encoder_write -lsframe -o prog && ELFMETA_SFRAME_OUT="
             << shell_quote((work / "captured").string()) << " ELFMETA_SFRAME_PROGRAM=" << prog
             << " ./prog; echo $? > rc) > log 2>&1\n";
      ++programs;
    }
  }
  {
    std::ofstream(work / "run.sh") << script.str();
  }
  const CommandResult r = SidData::run("sh " + shell_quote((work / "run.sh").string()), work, {suite, stubs, suite.parent_path().parent_path() / "include"});
  ASSERT_EQ(r.status, 0) << r.output;
  for (const auto& e : fs::directory_iterator(work)) {
    if (!fs::is_directory(e.path()) || e.path().filename() == "captured") continue;
    const std::string log = read_text(e.path() / "log");
    EXPECT_EQ(read_text(e.path() / "rc"), "0\n") << e.path().filename() << ":\n" << log;
    EXPECT_EQ(log.find("FAIL:"), std::string::npos) << e.path().filename() << ":\n" << log;
    EXPECT_NE(log.find("PASS:"), std::string::npos) << e.path().filename() << ":\n" << log;
  }
  size_t captured = 0;
  for (const auto& e : fs::directory_iterator(work / "captured")) {
    const Checked c = check_file(e.path());
    EXPECT_TRUE(c.check.present) << e.path();
    EXPECT_TRUE(c.errors.empty()) << e.path() << ":\n" << c.listing;
    ++captured;
  }
  // decode: 5 DATA files; find: 5 programs encode one section each, encode-1 one.
  EXPECT_GE(data_files, 5u);
  EXPECT_GE(programs, 11u);
  EXPECT_GE(captured, 6u);
  std::printf("libsframe testsuite: %zu DATA files clean, %zu programs pass against sid's libsframe 3, %zu sections "
              "its encoder wrote clean\n",
              data_files, programs, captured);
  if (!HasFailure()) fs::remove_all(work);
}

// ld-sframe's two programs of its own: PR ld/33401 (ld -r of C++ leaves
// R_*_NONE in .rela.sframe where it drops a function; the output must be
// clean and link again with ld -r) on x86-64, where the root has g++; and PR
// ld/32789 (ld -r of C must not claim FDE_SORTED) on all three machines.
TEST(BinutilsLdSframeSuite, RelocatableLinksAreClean) {
  ELFMETA_REQUIRE_TOOLCHAIN_ROOT();
  ELFMETA_REQUIRE_SID_DATA(sources, "sources");
  const fs::path dir = fs::path(sources.paths.at("binutils")) / "ld" / "testsuite" / "ld-sframe";
  const fs::path work = fs::temp_directory_path() / ("elfmeta-ld-sframe-" + std::to_string(getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  std::string script = "set -e; cp -r " + shell_quote(dir.string()) + "/. .\n"
                       "for f in StateClient StatePlaying; do g++ -S -g -O2 -w $f.cpp -o $f.s; as --gsframe $f.s -o $f.o; done\n"
                       "ld -r StateClient.o StatePlaying.o -o pr33401.o\n"
                       "ld -r pr33401.o -o pr33401-again.o\n";
  for (const auto& m : kMachines)
    script += m.prefix + "gcc -r -nostdlib -Wa,--gsframe pr32789-1a.c pr32789-1b.c -o pr32789-" + m.name + ".o\n";
  const CommandResult r = SidData::run(script, work, {dir});
  ASSERT_EQ(r.status, 0) << r.output;
  // The relocations ld -r left: R_X86_64_NONE among them (the PR's point).
  auto opened = input::open_input((work / "pr33401.o").string());
  ASSERT_TRUE(opened.artifact);
  const auto* sframe = opened.artifact->section(".sframe");
  ASSERT_TRUE(sframe);
  size_t none = 0;
  for (const auto& set : input::relocations_for(*opened.artifact, *sframe))
    for (const auto& rel : set.relocations) none += rel.type == 0;
  EXPECT_GE(none, 1u) << "ld -r left no R_X86_64_NONE in .rela.sframe: the PR ld/33401 case is not exercised";
  for (const char* f : {"pr33401.o", "pr33401-again.o"}) {
    const Checked c = check_file(work / f);
    EXPECT_TRUE(c.errors.empty()) << f << ":\n" << c.listing;
    EXPECT_EQ(c.rules.count("SFRAME-ELF-003"), 0u) << f << ":\n" << c.listing;
  }
  for (const auto& m : kMachines) {
    const Checked c = check_file(work / ("pr32789-" + m.name + ".o"));
    EXPECT_TRUE(c.check.present) << m.name;
    EXPECT_TRUE(c.errors.empty()) << m.name << ":\n" << c.listing;
    EXPECT_EQ(c.rules.count("SFRAME-HDR-018"), 0u) << m.name << ": FDE_SORTED after ld -r\n" << c.listing;
  }
  std::printf("ld -r: pr33401.o with %zu R_X86_64_NONE in .rela.sframe, clean; pr32789 clean on 3 machines\n", none);
  if (!HasFailure()) fs::remove_all(work);
}

}  // namespace
}  // namespace elfmeta::testing
