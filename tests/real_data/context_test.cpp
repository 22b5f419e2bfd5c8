// XC-CTX on real kernels: the running kernel's /proc/kallsyms given for
// Debian's 6.12 image, and Debian 6.12's modules checked on 6.1's or sid
// 7.2's vmlinux BTF, are one finding each instead of tens of thousands (the
// symbol checks, or the modules' split BTF, counted as not run); the pairs
// that belong (6.12's modules on 6.12's image, the image with the symbols
// of its own build, the running kernel's BTF with /proc/kallsyms) give none.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "input/artifact.h"
#include "input/kernel_release.h"
#include "input/symbols.h"
#include "tests/support/cli_run.h"
#include "tests/support/debian_kernels.h"
#include "tests/support/scratch_dir.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The JSON lines of a check: each finding's rule counted, and the summary.
struct JsonRun {
  int status = -1;
  std::map<std::string, size_t> rules;  // every finding, by rule ("" for notes without one)
  json summary;
  std::string text;  // the findings' messages, for failure output
};

JsonRun check_json(const std::string& args) {
  const CliRun r = run_cli("check -j 2 --format json " + args);
  JsonRun out;
  out.status = r.status;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    if (j.value("type", "") == "summary") {
      out.summary = j;
      continue;
    }
    const std::string rule = j.contains("rule") && j["rule"].is_string() ? j["rule"].get<std::string>() : "";
    ++out.rules[rule];
    if (out.text.size() < 4000 && j.contains("message") && j["message"].is_string())
      out.text += rule + ": " + j["message"].get<std::string>() + "\n";
  }
  EXPECT_FALSE(out.summary.is_null()) << r.out.substr(0, 2000) << r.err;
  return out;
}

size_t with_prefix(const JsonRun& r, std::string_view prefix) {
  size_t n = 0;
  for (const auto& [rule, count] : r.rules)
    if (rule.starts_with(prefix)) n += count;
  return n;
}

// /proc/kallsyms with addresses (as root).
bool running_kallsyms_usable(std::string& why) {
  std::string error;
  if (!input::symbols_from_kallsyms_file("/proc/kallsyms", error)) {
    why = "/proc/kallsyms: " + error;
    return false;
  }
  return true;
}

class KallsymsContext : public DebianTreeTest {};

// Before XC-CTX-001, 7 errors and 47,309 warnings (XC-SYM-001 10,036,
// ORC-SYM-001 31,183, ...) for the symbols of 6.18 against 6.12's image.
TEST_P(KallsymsContext, RunningKernelsKallsymsForAnotherImageAreOneFinding) {
  std::string why;
  if (!running_kallsyms_usable(why)) GTEST_SKIP() << why;
  const std::string running = input::running_kernel_release().value_or("");
  if (tree_.vmlinuz.string().find(running) != std::string::npos && !running.empty())
    GTEST_SKIP() << "the running kernel is this image's release";
  const JsonRun r = check_json("--kallsyms /proc/kallsyms " + tree_.vmlinuz.string());
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.rules.count("XC-CTX-001") ? r.rules.at("XC-CTX-001") : 0u, 1u) << r.text;
  EXPECT_EQ(with_prefix(r, "XC-SYM-"), 0u) << r.text;
  EXPECT_EQ(with_prefix(r, "ORC-SYM-"), 0u) << r.text;
  EXPECT_EQ(with_prefix(r, "ORC-SEC-"), 0u) << r.text;
  EXPECT_EQ(r.summary.at("errors").get<size_t>(), 1u) << r.text;
  EXPECT_LT(r.summary.at("warnings").get<size_t>(), 10u) << r.text;
  // The message names both kernels.
  EXPECT_NE(r.text.find("kallsyms /proc/kallsyms (" + running + ") are not of this image ("), std::string::npos)
      << r.text;
  // SARIF and JUnit carry the same one finding.
  const CliRun sarif = run_cli("check -j 2 --format sarif --kallsyms /proc/kallsyms " + tree_.vmlinuz.string());
  size_t results = 0;
  for (size_t at = 0; (at = sarif.out.find("\"ruleId\": \"XC-CTX-001\"", at)) != std::string::npos; ++at) ++results;
  EXPECT_EQ(results, 1u) << sarif.out.substr(0, 3000);
  EXPECT_EQ(sarif.out.find("\"ruleId\": \"XC-SYM-"), std::string::npos);
  const CliRun junit = run_cli("check -j 2 --format junit --kallsyms /proc/kallsyms " + tree_.vmlinuz.string());
  EXPECT_NE(junit.out.find("XC-CTX-001"), std::string::npos) << junit.out.substr(0, 3000);
  EXPECT_EQ(junit.out.find("XC-SYM-001"), std::string::npos);
  // coverage does not count with them either, and says why.
  const CliRun coverage = run_cli("coverage -j 2 --kallsyms /proc/kallsyms " + tree_.vmlinuz.string());
  EXPECT_EQ(coverage.status, 1);
  EXPECT_NE(coverage.err.find("[XC-CTX-001]"), std::string::npos) << coverage.err;
}

// The image's own symbols written as a System.map and moved by a KASLR
// offset: they belong, and the symbol checks run as with the image's own.
TEST_P(KallsymsContext, SymbolsOfItsOwnBuildMovedByKaslrBelong) {
  auto opened = input::open_input(tree_.vmlinuz.string());
  ASSERT_TRUE(opened.artifact) << opened.error;
  std::string why;
  const auto own = input::symbols_from_image_kallsyms(*opened.artifact, why);
  ASSERT_TRUE(own) << why;
  const fs::path map = scratch_dir("xc-ctx") / "System.map";
  {
    std::ofstream out(map);
    for (const input::Symbol& s : own->symbols()) {
      const uint64_t address = s.address >= 0xffffffff80000000 ? s.address + 0x2a000000 : s.address;
      char line[64];
      std::snprintf(line, sizeof line, "%016llx %c ", static_cast<unsigned long long>(address), s.type);
      out << line << std::string_view(s.name) << "\n";
    }
  }
  const JsonRun mine = check_json("--only xc --kallsyms " + map.string() + " " + tree_.vmlinuz.string());
  const JsonRun auto_symbols = check_json("--only xc " + tree_.vmlinuz.string());
  EXPECT_EQ(mine.rules.count("XC-CTX-001"), 0u) << mine.text;
  EXPECT_GT(with_prefix(mine, "XC-SYM-"), 0u) << mine.text;  // they ran: 6.x has names of several addresses
  EXPECT_EQ(mine.rules.count("XC-SYM-001"), auto_symbols.rules.count("XC-SYM-001"));
  EXPECT_EQ(mine.rules.count("XC-SYM-002") ? mine.rules.at("XC-SYM-002") : 0,
            auto_symbols.rules.count("XC-SYM-002") ? auto_symbols.rules.at("XC-SYM-002") : 0);
  // Everything is checked at the image's addresses: the same findings as
  // with the image's own symbols, and a note that says how far KASLR moved
  // them. Before, ORC compared the moved boundary symbols with the sections
  // (6 ORC-SEC-009 errors) and placed no function start in the code.
  const auto ruled = [](std::map<std::string, size_t> rules) {
    rules.erase("");  // notes without a rule: the KASLR note is one more
    return rules;
  };
  EXPECT_EQ(ruled(mine.rules), ruled(auto_symbols.rules)) << mine.text;
  EXPECT_NE(mine.text.find("moved by KASLR (0x2a000000): checked at the image's addresses"), std::string::npos)
      << mine.text;
  const JsonRun orc = check_json("--only orc --kallsyms " + map.string() + " " + tree_.vmlinuz.string());
  const JsonRun orc_auto = check_json("--only orc " + tree_.vmlinuz.string());
  EXPECT_EQ(ruled(orc.rules), ruled(orc_auto.rules)) << orc.text;
  EXPECT_EQ(orc.rules.count("ORC-SEC-009"), 0u) << orc.text;
}

INSTANTIATE_TEST_SUITE_P(Debian, KallsymsContext, ::testing::Values("debian-6.12"), debian_tree_name);

TEST(KallsymsContextRunning, RunningKernelsBtfWithProcKallsymsBelongs) {
  std::string why;
  if (!running_kallsyms_usable(why)) GTEST_SKIP() << why;
  if (!fs::exists("/sys/kernel/btf/vmlinux")) GTEST_SKIP() << "no /sys/kernel/btf/vmlinux";
  const JsonRun r = check_json("--only xc --kallsyms /proc/kallsyms /sys/kernel/btf/vmlinux");
  EXPECT_EQ(r.rules.count("XC-CTX-001"), 0u) << r.text;
  EXPECT_EQ(r.summary.at("errors").get<size_t>(), 0u) << r.text;
}

// ------------------------------------------------------------ base BTF

class BaseContext : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    for (const char* label : {"debian-6.1", "debian-6.12", "sid-7.2"}) {
      bool gone = false;
      const auto tree = debian_kernel_tree(label, why, &gone);
      if (!tree) GTEST_SKIP() << why;
      trees_.emplace(label, *tree);
    }
    for (const auto& e : fs::recursive_directory_iterator(trees_.at("debian-6.12").modules))
      if (e.path().filename() == "vsock.ko.xz") module_ = e.path();
    if (module_.empty()) GTEST_SKIP() << "no vsock.ko.xz in debian-6.12";
  }
  std::map<std::string, DebianKernelTree> trees_;
  fs::path module_;
};

// Before XC-CTX-002: 229 errors on 6.1's base (BTF-STR-006 74, ...), 151
// on 7.2's (BTF-FUNC-004 55, ...), 136 on the running 6.18's.
TEST_F(BaseContext, ModuleOnAnotherKernelsBaseIsOneFinding) {
  for (const char* other : {"debian-6.1", "sid-7.2"}) {
    SCOPED_TRACE(other);
    const JsonRun r = check_json("--base-btf " + trees_.at(other).vmlinuz.string() + " " + module_.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.rules.count("XC-CTX-002") ? r.rules.at("XC-CTX-002") : 0u, 1u) << r.text;
    EXPECT_EQ(with_prefix(r, "BTF-"), 0u) << r.text;
    EXPECT_EQ(with_prefix(r, "XC-"), 1u) << r.text;
    EXPECT_EQ(r.summary.at("errors").get<size_t>(), 1u) << r.text;
    EXPECT_EQ(r.summary.at("btf_not_checked").get<size_t>(), 1u);
    EXPECT_NE(r.text.find("module of 6.12.117+deb12-cloud-amd64, base of "), std::string::npos) << r.text;
  }
  // A run that does not check BTF does not judge its base.
  const JsonRun orc = check_json("--only orc --base-btf " + trees_.at("debian-6.1").vmlinuz.string() + " " +
                                 module_.string());
  EXPECT_EQ(orc.rules.count("XC-CTX-002"), 0u) << orc.text;
  EXPECT_EQ(orc.summary.at("errors").get<size_t>(), 0u) << orc.text;
}

// Given beside another kernel's image, with no image of its release, a
// module is read on that image: the same one finding.
TEST_F(BaseContext, ModuleBesideAnotherKernelsImageIsOneFinding) {
  const JsonRun r = check_json("--only btf " + trees_.at("debian-6.1").vmlinuz.string() + " " + module_.string());
  EXPECT_EQ(r.rules.count("XC-CTX-002") ? r.rules.at("XC-CTX-002") : 0u, 1u) << r.text;
  EXPECT_EQ(with_prefix(r, "BTF-"), 0u) << r.text;
  EXPECT_EQ(r.summary.at("btf_not_checked").get<size_t>(), 1u);
}

TEST_F(BaseContext, ModuleOnItsOwnBaseIsChecked) {
  const JsonRun r = check_json("--base-btf " + trees_.at("debian-6.12").vmlinuz.string() + " " + module_.string());
  EXPECT_EQ(r.status, 0) << r.text;
  EXPECT_EQ(r.rules.count("XC-CTX-002"), 0u) << r.text;
  EXPECT_EQ(r.summary.at("btf_not_checked").get<size_t>(), 0u);
}

// A whole tree's modules on another base: one finding for all of them, on
// the first; the image's own findings as they are.
TEST_F(BaseContext, TreeOnAnotherKernelsBaseIsOneFinding) {
  const JsonRun r = check_json("--only btf --base-btf " + trees_.at("debian-6.1").vmlinuz.string() + " " +
                               trees_.at("debian-6.12").root.string());
  EXPECT_EQ(r.rules.count("XC-CTX-002") ? r.rules.at("XC-CTX-002") : 0u, 1u) << r.text;
  EXPECT_EQ(with_prefix(r, "BTF-"), 0u) << r.text;
  EXPECT_GT(r.summary.at("btf_not_checked").get<size_t>(), 1000u);
  EXPECT_NE(r.text.find("more was not built on the base"), std::string::npos) << r.text;
  // On its own image (the tree's), none.
  const JsonRun own = check_json("--only btf " + trees_.at("debian-6.12").root.string());
  EXPECT_EQ(own.rules.count("XC-CTX-002"), 0u) << own.text;
  EXPECT_EQ(own.summary.at("btf_not_checked").get<size_t>(), 0u);
  EXPECT_EQ(own.summary.at("errors").get<size_t>(), 0u) << own.text;
}

}  // namespace
}  // namespace elfmeta::testing
