// `elfmeta report` end to end: the page of a run with known findings against
// the stats baseline of another, rendered in headless Chromium, where every
// chart must have drawn its bars and the script must have finished.
#include <gtest/gtest.h>

#include <regex>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "synth/btf_builder.h"
#include "synth/orc_builder.h"
#include "tests/support/ci_formats.h"
#include "tests/support/headless_chromium.h"
#include "tests/support/require.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

std::string write_file(const std::string& name, const std::vector<uint8_t>& bytes) {
  const fs::path p = scratch_dir() / name;
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return p.string();
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// elfmeta's status and stderr (stdout is not used by these commands).
std::pair<int, std::string> elfmeta(const std::string& args) {
  return run_command("{ " + std::string(ELFMETA_CLI) + " " + args + " 2>&1 >/dev/null; }");
}

// Three PTRs to types that do not exist (BTF-TYPE-007 each), a struct; with
// `broken` unset, a clean blob of other kinds.
std::vector<uint8_t> btf_blob(bool broken) {
  synth::BtfBuilder b;
  const uint32_t i = b.add_int("int", 4, 32, 1);
  b.add_struct("s", 4, {{"a", i, 0}});
  if (!broken) {
    b.add_ptr(i);
    return b.build();
  }
  for (uint32_t missing : {99, 98, 97}) b.add_ptr(missing);
  return b.build();
}

// A linked image's ORC table; `broken`: its first entry has reserved bits set (ORC-ENT-001).
std::vector<uint8_t> orc_image(uint64_t seed, bool broken) {
  std::mt19937_64 rng(seed);
  auto table = synth::random_orc(rng, orc::Layout::G3, /*image=*/true);
  if (broken) table.rows().front().entry.reserved = 0x3000;  // bits 12-13
  return table.build();
}

size_t bars(const std::string& dom, const std::string& chart) {
  return all_matches(dom, "<rect [^>]*(data-chart=\"" + chart + "\")").size();
}

// The baseline (stats of clean inputs) and the page of broken ones against it.
struct ReportFiles {
  std::string baseline, page, blob, image;
};

ReportFiles make_report() {
  ReportFiles f;
  f.baseline = (scratch_dir() / "base.json").string();
  f.page = (scratch_dir() / "report.html").string();
  f.blob = write_file("new.btf", btf_blob(true));
  f.image = write_file("new-image", orc_image(4, true));
  const std::string old_blob = write_file("old.btf", btf_blob(false)), old_image = write_file("old-image", orc_image(5, false));
  const auto [stats_status, stats_err] = elfmeta("stats -o " + f.baseline + " " + old_blob + " " + old_image);
  EXPECT_EQ(stats_status, 0) << stats_err;
  const auto [status, err] = elfmeta("report --baseline " + f.baseline + " -o " + f.page + " " + f.blob + " " + f.image);
  EXPECT_EQ(status, 0) << err;
  EXPECT_EQ(err, "");
  return f;
}

TEST(CliReport, WritesOnePageWithTheFindingsOfTheRun) {
  const ReportFiles f = make_report();
  const std::string page = slurp(f.page);
  // No base URL for the rules (ELFMETA_HOMEPAGE unset, the build's default
  // resolves nowhere): each rule's text is in the page and its ID links there.
  EXPECT_NE(page.find("<a href=\"#rule-BTF-TYPE-007\"><code>BTF-TYPE-007</code></a>"), std::string::npos) << page;
  EXPECT_NE(page.find("<details id=\"rule-BTF-TYPE-007\">"), std::string::npos) << page;
  // The first line and the title: the verdict, the version, the inputs, the date.
  const std::regex verdict("<(title|h1)>elfmeta [0-9]+\\.[0-9]+\\.[0-9]+: [1-9][0-9]* errors?, [0-9]+ warnings?, [0-9]+ notes? in ");
  EXPECT_EQ(std::distance(std::sregex_iterator(page.begin(), page.end(), verdict), std::sregex_iterator()), 2)
      << page.substr(0, 2000);
  EXPECT_NE(page.find(" UTC)</h1>"), std::string::npos) << page.substr(0, 2000);
  EXPECT_NE(page.find("new.btf, " + f.image), std::string::npos) << page.substr(0, 2000);
  EXPECT_NE(page.find("\"error\":3,\"id\":\"BTF-TYPE-007\""), std::string::npos) << page;
  EXPECT_NE(page.find("\"id\":\"ORC-ENT-001\""), std::string::npos) << page;
  EXPECT_NE(page.find("id=\"chart-baseline-orc\""), std::string::npos);
  EXPECT_EQ(page.find("http:"), std::string::npos);
  EXPECT_EQ(page.find("https:"), std::string::npos);
}

// With ELFMETA_HOMEPAGE, rule IDs link to their pages there: absolute
// links, which work wherever the page is opened.
TEST(CliReport, RuleLinksUseElfmetaHomepage) {
  const std::string blob = write_file("linked.btf", btf_blob(true));
  const std::string page_path = (scratch_dir() / "linked.html").string();
  ::setenv("ELFMETA_HOMEPAGE", "https://example.org/elfmeta/", 1);
  const auto [status, err] = elfmeta("report -o " + page_path + " " + blob);
  ::unsetenv("ELFMETA_HOMEPAGE");
  EXPECT_EQ(status, 0) << err;
  const std::string page = slurp(page_path);
  EXPECT_NE(page.find("<a href=\"https://example.org/elfmeta/docs/rules/BTF-TYPE-007.md\"><code>BTF-TYPE-007</code></a>"),
            std::string::npos)
      << page;
  EXPECT_EQ(page.find("<details id=\"rule-"), std::string::npos);
}

TEST(CliReport, UsageAndUnreadableInputsExitTwoWithOneLine) {
  const std::string blob = write_file("usage.btf", btf_blob(true));
  for (const std::string& args : {"report " + blob, "report -o " + (scratch_dir() / "x.html").string(),
                                  "report --baseline /nonexistent.json -o " + (scratch_dir() / "x.html").string() + " " + blob,
                                  "report -o " + (scratch_dir() / "x.html").string() + " /nonexistent.btf"}) {
    const auto [status, err] = elfmeta(args);
    EXPECT_EQ(status, 2) << args;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << args << ": " << err;
  }
  // The page of what could be read is still written, and names the unreadable input.
  const std::string page = (scratch_dir() / "partial.html").string();
  EXPECT_EQ(elfmeta("report -o " + page + " " + blob + " /nonexistent.btf").first, 2);
  EXPECT_NE(slurp(page).find("Unreadable inputs"), std::string::npos);
}

TEST(CliReport, ChromiumDrawsEveryChart) {
  const ReportFiles f = make_report();
  const RenderedPage rendered = render_in_chromium(f.page);
  ELFMETA_REQUIRE_INSTALLED(rendered.ran, rendered.output);
  const std::string& dom = rendered.dom;
  EXPECT_NE(dom.find("data-rendered=\"ok\""), std::string::npos) << dom;
  EXPECT_NE(dom.find("<p id=\"render-error\" hidden=\"\"></p>"), std::string::npos) << dom;
  // Per rule: BTF-TYPE-007 and ORC-ENT-001 (errors); per artifact: both inputs.
  EXPECT_GE(bars(dom, "rules"), 2u) << dom;
  EXPECT_GE(bars(dom, "artifacts"), 2u) << dom;
  // Against the baseline: old and new bars side by side.
  for (const char* chart : {"baseline-btf", "baseline-orc", "baseline-rules"}) EXPECT_GT(bars(dom, chart), 0u) << chart;
  EXPECT_NE(dom.find("data-series=\"old\""), std::string::npos);
  EXPECT_NE(dom.find("data-series=\"new\""), std::string::npos);
  EXPECT_NE(dom.find("data-label=\"BTF-TYPE-007\" data-value=\"3\""), std::string::npos) << dom;
}

}  // namespace
}  // namespace elfmeta::testing

namespace elfmeta::testing {
namespace {

// The coverage section (elfmeta coverage's figures): the ORC image's
// functions and text bytes, drawn as covered and not covered.
TEST(CliReport, ChromiumDrawsTheCoverageChart) {
  const ReportFiles f = make_report();
  const std::string page = slurp(f.page);
  EXPECT_NE(page.find("<section id=\"coverage\">"), std::string::npos);
  const RenderedPage rendered = render_in_chromium(f.page);
  ELFMETA_REQUIRE_INSTALLED(rendered.ran, rendered.output);
  EXPECT_NE(rendered.dom.find("data-rendered=\"ok\""), std::string::npos) << rendered.dom;
  EXPECT_GT(bars(rendered.dom, "coverage"), 0u) << rendered.dom;
  EXPECT_NE(rendered.dom.find("data-series=\"covered\""), std::string::npos);
}

}  // namespace
}  // namespace elfmeta::testing
