// ORC written by the real producer: Debian's objtool (linux-kbuild-6.12,
// fetched by tools/fetch-test-data) over C files compiled here with gcc and
// clang, per object, in link mode, with call padding, and linked into a
// shared object whose .eh_frame the ORC is compared with. All of it must be
// clean; the rule mutations and the CFI mutations then fire exactly.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/report.h"
#include "input/artifact.h"
#include "orc/orc_rules.h"
#include "orc/verifier.h"
#include "tests/orc/orc_rule_cases.h"
#include "tests/support/require.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = fs::path(ELFMETA_SOURCE_DIR) / "tests" / "orc" / "corpus";
constexpr const char* kKernelFlags =
    "-O2 -fno-jump-tables -fno-PIE -mcmodel=kernel -fno-stack-protector -fcf-protection=none -mno-red-zone";

int run(const std::string& cmd) {
  const int raw = std::system((cmd + " >/dev/null 2>&1").c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

std::vector<uint8_t> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

struct Checked {
  orc::OrcCheck result;
  DiagnosticList list;
  std::string listing() const {
    std::ostringstream out;
    for (const auto& d : list.items()) write_text(out, d);
    return out.str();
  }
};

Checked check(const fs::path& p) {
  Checked c;
  auto opened = input::open_input(p.string());
  EXPECT_TRUE(opened.artifact) << opened.error;
  if (opened.artifact) c.result = orc::check_orc(*opened.artifact, {}, c.list);
  return c;
}

class ObjtoolCorpus : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* data = std::getenv("ELFMETA_TEST_DATA");
    if (!data) GTEST_SKIP() << "ELFMETA_TEST_DATA is not set (ctest sets it after tools/fetch-test-data)";
    for (const auto& e : fs::recursive_directory_iterator(fs::path(data) / "kbuild-6.12"))
      if (e.path().filename() == "objtool.real-x86") objtool_ = e.path();
    ASSERT_FALSE(objtool_.empty()) << "no objtool.real-x86 under " << data << "/kbuild-6.12: run tools/fetch-test-data";
    dir_ = fs::temp_directory_path() / ("elfmeta-objtool-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // Compiles every corpus file with `cc flags`, runs objtool `args` on each;
  // objtool exits 0 even when it writes nothing, so the sections are checked.
  std::vector<fs::path> build(const std::string& cc, const std::string& flags, const std::string& objtool_args,
                              const std::string& tag) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(kCorpus)) {
      if (e.path().extension() != ".c") continue;
      const fs::path o = dir_ / (e.path().stem().string() + "-" + tag + ".o");
      EXPECT_EQ(run(cc + " " + flags + " -c " + e.path().string() + " -o " + o.string()), 0) << cc << " " << e.path();
      run(objtool_.string() + " " + objtool_args + " " + o.string());
      out.push_back(o);
    }
    return out;
  }
  fs::path objtool_, dir_;
};

// objtool 6.12 (G3): its objects carry no header and no release, so the
// entries tell the layout.
void expect_clean(const fs::path& p, orc::Layout layout = orc::Layout::G3) {
  const Checked c = check(p);
  ASSERT_TRUE(c.result.present) << p << ": objtool wrote no ORC";
  EXPECT_GT(c.result.entries, 3u) << p;
  EXPECT_EQ(c.result.layout, layout) << p << ": " << c.result.layout_source;
  EXPECT_EQ(c.list.count(Severity::Error) + c.list.count(Severity::Warning), 0u) << p << ":\n" << c.listing();
}

TEST_F(ObjtoolCorpus, ObjectsOfEveryCompilerAndModeAreClean) {
  // Both compilers are tools/install-deps' (gcc, clang-14): one missing is
  // a failed install under CI=true, not a compiler to leave out.
  for (const char* cc : {"gcc", "clang-14"})
    ELFMETA_REQUIRE_INSTALLED(run(std::string("command -v ") + cc) == 0,
                              cc << " is not installed (tools/install-deps installs it)");
  for (const char* cc : {"gcc", "clang-14"}) {
    for (const auto& o : build(cc, kKernelFlags, "--orc", std::string(cc) + "-plain")) expect_clean(o);
    for (const auto& o : build(cc, std::string(kKernelFlags) + " -fno-omit-frame-pointer", "--orc", std::string(cc) + "-fp"))
      expect_clean(o);
  }
  // Call padding as CONFIG_CALL_PADDING builds it: prefixes with the entry state.
  for (const auto& o : build("gcc", std::string(kKernelFlags) + " -fpatchable-function-entry=16,16 -falign-functions=16",
                             "--orc --prefix=16", "pfx")) {
    expect_clean(o);
    EXPECT_TRUE(check(o).result.symbols_checked);
  }
}

TEST_F(ObjtoolCorpus, LinkModeOverALinkedObjectIsClean) {
  const auto objects = build("gcc", kKernelFlags, "", "link");
  std::string cmd = "ld -r -o " + (dir_ / "linked.o").string();
  for (const auto& o : objects) cmd += " " + o.string();
  ASSERT_EQ(run(cmd), 0);
  run(objtool_.string() + " --orc --link " + (dir_ / "linked.o").string());
  expect_clean(dir_ / "linked.o");
}

// A shared object keeps the ORC sections (now self-relative) and has the
// compiler's .eh_frame: they agree, up to the benign classes.
TEST_F(ObjtoolCorpus, OrcAgreesWithTheDwarfCfiOfTheSameCode) {
  const auto objects = build("gcc", "-O2 -fPIC -fno-jump-tables -fno-stack-protector -fcf-protection=none", "--orc", "pic");
  std::string cmd = "gcc -shared -o " + (dir_ / "corpus.so").string();
  for (const auto& o : objects) cmd += " " + o.string();
  ASSERT_EQ(run(cmd), 0);
  const Checked c = check(dir_ / "corpus.so");
  ASSERT_TRUE(c.result.present);
  EXPECT_TRUE(c.result.cfi_checked);
  EXPECT_EQ(c.list.count(Severity::Error) + c.list.count(Severity::Warning), 0u) << c.listing();
  bool noted = false;
  for (const auto& d : c.list.items()) noted |= d.message.find("ORC against DWARF CFI") != std::string::npos;
  EXPECT_TRUE(noted) << c.listing();

  // Mutations of entries inside FDEs, one per CFI rule.
  const auto bytes = read_file(dir_ / "corpus.so");
  auto inner = [](const OrcMutation& m, auto pred) {
    return m.find([&](size_t k) {
      const orc::Entry& e = m.entry(k);
      return e.type == orc::kTypeCall && !orc::is_entry_state(e) && e.sp_reg == orc::kRegSp && pred(e) && k > 0 &&
             m.address(k - 1) < m.address(k);
    });
  };
  struct CfiCase {
    const char* rule;
    std::function<bool(OrcMutation&)> mutate;
  };
  const CfiCase cases[] = {
      {"ORC-CFI-001", [&](OrcMutation& m) {
         const auto i = inner(m, [](const orc::Entry& e) { return e.sp_offset >= 16 && e.bp_reg == orc::kRegUndefined; });
         if (!i) return false;
         orc::Entry e = m.entry(*i);
         e.sp_offset = static_cast<int16_t>(e.sp_offset + 8);
         m.set_entry(*i, e);
         return true;
       }},
      {"ORC-CFI-002", [&](OrcMutation& m) {
         const auto i = inner(m, [](const orc::Entry& e) { return e.sp_offset >= 16 && e.bp_reg == orc::kRegUndefined; });
         if (!i) return false;
         orc::Entry e = m.entry(*i);
         e.bp_reg = orc::kRegPrevSp;
         e.bp_offset = -8;
         m.set_entry(*i, e);
         return true;
       }},
      {"ORC-CFI-006", [&](OrcMutation& m) {
         const auto i = inner(m, [](const orc::Entry& e) { return e.bp_reg == orc::kRegUndefined; });
         if (!i) return false;
         orc::Entry e = m.entry(*i);
         e.type = orc::kTypeRegs;
         e.signal = true;
         m.set_entry(*i, e);
         return true;
       }},
  };
  for (const auto& cc : cases) {
    OrcMutation m(bytes);
    ASSERT_TRUE(cc.mutate(m)) << cc.rule;
    std::string listing;
    const auto fired = orc_rules_fired(m, &listing);
    EXPECT_EQ(fired, std::set<std::string>{cc.rule}) << listing;
  }
}

// The mutations of the rule table on objtool's own output.
TEST_F(ObjtoolCorpus, RuleMutationsOnObjtoolOutput) {
  const auto objects = build("gcc", kKernelFlags, "--orc", "mut");
  size_t applied = 0;
  for (const OrcRuleCase& c : orc_rule_cases()) {
    if (!(c.scopes & kObject) || !(c.layouts & kG3) || c.needs_prefixes) continue;
    for (const auto& o : objects) {
      OrcMutation m(read_file(o));
      if (!c.mutate(m)) continue;
      std::string listing;
      const auto fired = orc_rules_fired(m, &listing);
      EXPECT_TRUE(fired.count(std::string(c.rule))) << c.rule << " on " << o << ":\n" << listing;
      for (const auto& r : fired)
        EXPECT_TRUE(r == c.rule || std::find(c.also.begin(), c.also.end(), r) != c.also.end())
            << c.rule << " on " << o << " also fired " << r << ":\n" << listing;
      ++applied;
      break;
    }
  }
  EXPECT_GT(applied, 15u);
}

}  // namespace
}  // namespace elfmeta::testing
