// The text report: verdict first, errors in full, warnings per rule (count
// and the first three), notes counted unless --verbose, --quiet for the
// summary alone, and a summary whose counts are what was found.
#include "core/text_report.h"

#include <gtest/gtest.h>

#include <sstream>

#include "btf/btf_rules.h"
#include "btf/xc/xc_rules.h"

namespace elfmeta {
namespace {

Diagnostic finding(const Rule& rule, Severity severity, uint64_t id, std::string artifact = "vmlinux") {
  Diagnostic d;
  d.rule = &rule;
  d.severity = severity;
  d.location = {std::move(artifact), ".BTF", 0x10 * id, "type", id, "FUNC", "f" + std::to_string(id)};
  d.message = "finding " + std::to_string(id);
  return d;
}

Diagnostic remark(std::string message) {
  Diagnostic d;
  d.location.artifact = "vmlinux";
  d.message = std::move(message);
  return d;
}

// 10 XC-SYM-004 warnings, 4 XC-SYM-001 warnings, 5 XC-DEDUP-005 notes, then
// one error last in input order, and a remark.
std::vector<Diagnostic> mixed() {
  std::vector<Diagnostic> ds;
  for (uint64_t i = 1; i <= 10; ++i) ds.push_back(finding(btf::xc::rules::SYM_004, Severity::Warning, i));
  for (uint64_t i = 11; i <= 14; ++i) ds.push_back(finding(btf::xc::rules::SYM_001, Severity::Warning, i));
  for (uint64_t i = 21; i <= 25; ++i) ds.push_back(finding(btf::xc::rules::DEDUP_005, Severity::Note, i));
  ds.push_back(remark("no symbols (--kallsyms none): ORC symbol checks skipped"));
  ds.push_back(finding(btf::rules::TYPE_007, Severity::Error, 99));
  return ds;
}

std::string report(std::span<const Diagnostic> ds, TextReportOptions options = {}, RunSummary s = {}) {
  ReportedInput in;
  in.name = "vmlinux";
  in.diagnostics = ds;
  s.inputs = 1;
  s.kernel = "6.12 (--kernel)";
  s.consumer = "bpf-load";
  s.add({ds.begin(), ds.end()});
  std::ostringstream out;
  write_text_report(out, {&in, 1}, s, options);
  return out.str();
}

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }
size_t at(const std::string& s, const std::string& what) { return s.find(what); }

TEST(TextReport, VerdictFirstThenErrorsThenWarningsPerRule) {
  const auto ds = mixed();
  const std::string out = report(ds);
  EXPECT_EQ(out.rfind("elfmeta: 1 input, 1 error, 14 warnings, 5 notes (BTF: kernel 6.12 (--kernel), consumer bpf-load)\n", 0),
            0u)
      << out;
  EXPECT_NE(at(out, "\n1 error, by rule:\nBTF-TYPE-007: 1 error: "), std::string::npos) << out;
  const size_t error = at(out, "error: finding 99 [BTF-TYPE-007]");
  const size_t sym004 = at(out, "XC-SYM-004: 10 warnings: ");
  const size_t sym001 = at(out, "XC-SYM-001: 4 warnings: ");
  ASSERT_NE(error, std::string::npos) << out;
  ASSERT_NE(sym004, std::string::npos) << out;
  ASSERT_NE(sym001, std::string::npos) << out;
  EXPECT_LT(error, sym004);   // errors first, though last in input order
  EXPECT_LT(sym004, sym001);  // the rule with more findings first
  // The first three of each rule, then how many more.
  for (const char* shown : {"finding 1 [", "finding 2 [", "finding 3 [", "finding 11 [", "finding 13 ["})
    EXPECT_NE(at(out, shown), std::string::npos) << shown << " in\n" << out;
  for (const char* hidden : {"finding 4 [", "finding 10 [", "finding 14 [", "finding 21 [", "ORC symbol checks skipped"})
    EXPECT_EQ(at(out, hidden), std::string::npos) << hidden << " in\n" << out;
  EXPECT_NE(at(out, "... 7 more (--verbose lists them"), std::string::npos) << out;
  EXPECT_NE(at(out, "5 notes (XC-DEDUP-005: 5); 1 remark about the run; --verbose lists them"), std::string::npos) << out;
}

TEST(TextReport, VerboseListsEveryWarningAndTheNotes) {
  const auto ds = mixed();
  const std::string out = report(ds, {.verbose = true});
  for (const char* shown : {"finding 4 [", "finding 10 [", "finding 14 [", "finding 21 [", "finding 25 [",
                            "ORC symbol checks skipped"})
    EXPECT_NE(at(out, shown), std::string::npos) << shown << " in\n" << out;
  EXPECT_LT(at(out, "finding 14 ["), at(out, "finding 21 ["));  // warnings before notes
  EXPECT_GT(lines(out), lines(report(ds)));
}

TEST(TextReport, QuietPrintsTheSummaryAlone) {
  const auto ds = mixed();
  const std::string out = report(ds, {.quiet = true});
  EXPECT_EQ(lines(out), 1u) << out;
  EXPECT_EQ(out.rfind("elfmeta: 1 input, 1 error, 14 warnings, 5 notes", 0), 0u) << out;
}

TEST(TextReport, CountsIncludeFindingsPastTheListingLimit) {
  std::vector<Diagnostic> ds{finding(btf::xc::rules::SYM_004, Severity::Warning, 1)};
  Diagnostic unlisted = remark("250 more XC-SYM-004 findings not listed");
  unlisted.unlisted_rule = &btf::xc::rules::SYM_004;
  unlisted.unlisted[size_t(Severity::Warning)] = 200;
  unlisted.unlisted[size_t(Severity::Note)] = 50;
  ds.push_back(unlisted);
  const std::string out = report(ds);
  EXPECT_EQ(out.rfind("elfmeta: 1 input, 0 errors, 201 warnings, 50 notes", 0), 0u) << out;
  EXPECT_NE(at(out, "XC-SYM-004: 201 warnings: "), std::string::npos) << out;
  EXPECT_NE(at(out, "50 notes (XC-SYM-004: 50)"), std::string::npos) << out;
  // The closing note is in the counts, not a remark of its own.
  EXPECT_EQ(at(out, "remark"), std::string::npos) << out;
}

TEST(TextReport, PackagesAreCountedInArtifacts) {
  RunSummary s;
  s.packages = 1;
  const std::string out = report({}, {}, s);
  // report() sets one input; a package's members are artifacts.
  EXPECT_EQ(out.rfind("elfmeta: 1 package, 1 artifact, 0 errors, 0 warnings, 0 notes", 0), 0u) << out;
  s.inputs = 1139;
  EXPECT_EQ(summary_counts(s).rfind("1 package, 1,139 artifacts", 0), 0u) << summary_counts(s);
}

TEST(TextReport, ProfilesOnlyForTheFormatsThatApplied) {
  RunSummary s;
  s.kernel = "6.12 (banner 6.12.117+deb12-cloud-amd64)";
  s.consumer = "bpf-load";
  s.btf = false;
  s.sframe = true;
  EXPECT_EQ(summary_profiles(s), "SFrame: consumer any");
  s.sframe = false;
  s.orc = true;
  EXPECT_EQ(summary_profiles(s), "ORC: kernel 6.12 (banner 6.12.117+deb12-cloud-amd64)");
  s.btf = true;
  EXPECT_EQ(summary_profiles(s),
            "BTF: kernel 6.12 (banner 6.12.117+deb12-cloud-amd64), consumer bpf-load; ORC: kernel 6.12 (banner "
            "6.12.117+deb12-cloud-amd64)");
  std::ostringstream out;
  s.btf = s.orc = false;
  write_text_summary(out, s);
  EXPECT_EQ(out.str().find("consumer"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("kernel"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace elfmeta
