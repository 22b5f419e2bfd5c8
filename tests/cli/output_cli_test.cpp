// Output of the CLI (issue 30): help and version on stdout with exit 0,
// machine formats that carry every finding, a text report that caps its
// listing and leads with the verdict, and the profiles of the formats that
// applied only.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "synth/btf_builder.h"
#include "tests/support/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

std::string write_blob(const std::string& name, const std::vector<uint8_t>& bytes) {
  const fs::path p = scratch_dir() / name;
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return p.string();
}

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
size_t occurrences(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}
size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

// 150 pointers to a type that does not exist: 150 BTF-TYPE-007 errors.
std::string many_findings() {
  synth::BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  for (int i = 0; i < 150; ++i) b.add_ptr(9999);
  return write_blob("many-type-007.btf", b.build());
}

constexpr const char* kCommands[] = {"check", "stats", "diff", "report", "kernels", "rules", "explain", "dump", "oracle"};

TEST(OutputCli, VersionAndHelpAnswerOnStdoutWithExitZero) {
  const CliRun version = run_cli("--version");
  EXPECT_EQ(version.status, 0) << version.err;
  EXPECT_EQ(version.out.rfind("elfmeta ", 0), 0u) << version.out;
  EXPECT_EQ(lines(version.out), 1u);
  EXPECT_TRUE(version.err.empty());
  for (const char* args : {"help", "--help", "-h"}) {
    const CliRun help = run_cli(args);
    EXPECT_EQ(help.status, 0) << args << help.err;
    EXPECT_TRUE(help.err.empty()) << args;
    for (const char* command : kCommands) EXPECT_TRUE(has(help.out, std::string("  ") + command)) << command;
  }
}

TEST(OutputCli, EveryCommandAnswersHelp) {
  for (const char* command : kCommands) {
    for (const std::string& args : {std::string(command) + " --help", std::string(command) + " -h",
                                     "help " + std::string(command), std::string(command) + " x --help"}) {
      const CliRun help = run_cli(args);
      EXPECT_EQ(help.status, 0) << args << "\n" << help.err;
      EXPECT_TRUE(help.err.empty()) << args << "\n" << help.err;
      EXPECT_EQ(help.out.rfind(std::string("usage: elfmeta ") + command, 0), 0u) << args << "\n" << help.out;
      EXPECT_TRUE(has(help.out, std::string("  ") + command)) << args << "\n" << help.out;
    }
  }
  EXPECT_TRUE(has(run_cli("check --help").out, "--verbose"));
}

TEST(OutputCli, WrongUsageIsOneLineOnStderrExitTwo) {
  for (const char* args : {"", "frobnicate", "help frobnicate", "check --bogus x", "check"}) {
    const CliRun r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(lines(r.err), 1u) << args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << args << "\n" << r.out;
  }
}

TEST(OutputCli, JsonSarifAndJunitCarryEveryFinding) {
  const std::string blob = many_findings();
  const CliRun json = run_cli("check --only btf --format json " + blob);
  EXPECT_EQ(json.status, 1) << json.err;
  std::istringstream in(json.out);
  size_t listed = 0;
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    if (j["type"] == "diagnostic") {
      EXPECT_FALSE(line.find("not listed") != std::string::npos) << line;  // no "N more not listed" record
      listed += j["rule"] == "BTF-TYPE-007";
    } else {
      EXPECT_EQ(j["errors"], 150) << line;
    }
  }
  EXPECT_EQ(listed, 150u);

  const CliRun sarif = run_cli("check --only btf --format sarif " + blob);
  const auto doc = nlohmann::json::parse(sarif.out);
  EXPECT_EQ(doc["runs"][0]["results"].size(), 150u);
  EXPECT_TRUE(doc["runs"][0]["invocations"][0]["toolExecutionNotifications"].empty());

  const CliRun junit = run_cli("check --only btf --format junit " + blob);
  EXPECT_TRUE(has(junit.out, "message=\"150 errors: ")) << junit.out.substr(0, 2000);
  EXPECT_EQ(occurrences(junit.out, "]: error: target 9999 does not exist"), 150u) << junit.out.substr(0, 3000);
}

// Text keeps its listing limit (a hostile input stays readable) and says
// how many more there are; the counts are complete.
TEST(OutputCli, TextListsErrorsInFullUpToItsLimitAndCountsTheRest) {
  const CliRun text = run_cli("check --only btf " + many_findings());
  EXPECT_EQ(text.status, 1);
  EXPECT_EQ(text.out.rfind("elfmeta: 1 input, 150 errors, 0 warnings, 0 notes (BTF: kernel ", 0), 0u) << text.out;
  EXPECT_EQ(occurrences(text.out, "]: error: target 9999 does not exist"), 100u) << text.out;
  EXPECT_TRUE(has(text.out, "  ... 50 more (--format json lists every one)")) << text.out;
  EXPECT_TRUE(has(text.out, "BTF-TYPE-007: 150 errors: ")) << text.out;
  const CliRun quiet = run_cli("check --only btf --quiet " + many_findings());
  EXPECT_EQ(quiet.status, 1);
  EXPECT_EQ(lines(quiet.out), 1u) << quiet.out;
}

// A run over SFrame alone names no BTF consumer and no kernel profile.
TEST(OutputCli, SummaryNamesOnlyTheFormatsThatApplied) {
  std::vector<uint8_t> header(28, 0);
  header[0] = 0xe2;
  header[1] = 0xde;
  header[2] = 9;  // no such version: a finding
  header[4] = 3;  // AMD64
  const CliRun sframe = run_cli("check " + write_blob("only.sframe", header));
  const std::string summary = sframe.out.substr(0, sframe.out.find('\n'));
  EXPECT_TRUE(has(summary, "SFrame: consumer")) << summary;
  EXPECT_FALSE(has(summary, "bpf-load")) << summary;
  EXPECT_FALSE(has(summary, "kernel")) << summary;
  const CliRun btf = run_cli(std::string("check ") + ELFMETA_SOURCE_DIR + "/samples/sample.btf");
  EXPECT_TRUE(has(btf.out.substr(0, btf.out.find('\n')), "BTF: kernel ")) << btf.out;
  EXPECT_FALSE(has(btf.out, "SFrame")) << btf.out;
}

}  // namespace
}  // namespace elfmeta::testing
