// JUnit XML: a testsuite per input, a failing testcase per rule with an
// error, a passing one for a clean input, escaping that keeps it well formed.
#include <gtest/gtest.h>

#include <sstream>

#include "btf/btf_rules.h"
#include "btf/xc/xc_rules.h"
#include "core/report.h"
#include "tests/support/ci_formats.h"
#include "tests/support/require.h"

namespace elfmeta {
namespace {

Diagnostic finding(const Rule& rule, Severity severity, std::string name) {
  Diagnostic d;
  d.rule = &rule;
  d.severity = severity;
  d.location = {"vmlinux", ".BTF", 0x40, "type", 7, "STRUCT", std::move(name)};
  d.message = "a finding";
  return d;
}

ReportedInput input(std::string name, std::span<const Diagnostic> diagnostics) {
  ReportedInput in;
  in.path = "build/" + name;
  in.name = std::move(name);
  in.kernel = "6.12 (--kernel)";
  in.diagnostics = diagnostics;
  return in;
}

std::string junit(std::span<const ReportedInput> inputs, bool werror = false) {
  RunSummary s;
  s.consumer = "bpf-load";
  std::ostringstream out;
  write_junit(out, inputs, s, werror);
  return out.str();
}

bool has(const std::string& doc, const std::string& s) { return doc.find(s) != std::string::npos; }

void expect_well_formed(const std::string& xml) {
  const auto verdict = testing::check_xml_well_formed(xml);
  ELFMETA_REQUIRE_INSTALLED(verdict.ran, verdict.output);
  EXPECT_TRUE(verdict.passed) << verdict.output << xml;
}

TEST(Junit, ErrorFailsItsRuleAndACleanInputPasses) {
  const std::vector<Diagnostic> bad{finding(btf::rules::AGG_010, Severity::Error, "task_struct"),
                                    finding(btf::rules::AGG_010, Severity::Error, "mm_struct")};
  const std::vector<ReportedInput> inputs{input("vmlinux", bad), input("clean.ko", {})};
  const std::string doc = junit(inputs);
  EXPECT_TRUE(has(doc, "<testsuites name=\"elfmeta\" tests=\"2\" failures=\"1\" errors=\"0\">")) << doc;
  EXPECT_TRUE(has(doc, "<testsuite name=\"vmlinux\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\">")) << doc;
  EXPECT_TRUE(has(doc, "<testcase classname=\"btf\" name=\"BTF-AGG-010\">\n      <failure type=\"error\" message=\"2 "
                       "errors: ")) << doc;
  // The failure lists both findings as the text format prints them.
  EXPECT_TRUE(has(doc, "vmlinux:.BTF+0x40 [type 7 STRUCT &apos;task_struct&apos;]: error: a finding [BTF-AGG-010]"))
      << doc;
  EXPECT_TRUE(has(doc, "STRUCT &apos;mm_struct&apos;]")) << doc;
  EXPECT_TRUE(has(doc, "<testsuite name=\"clean.ko\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">")) << doc;
  EXPECT_TRUE(has(doc, "<testcase classname=\"elfmeta\" name=\"no findings\"/>")) << doc;
  EXPECT_TRUE(has(doc, "<property name=\"kernel\" value=\"6.12 (--kernel)\"/>")) << doc;
  EXPECT_FALSE(has(doc, "<skipped"));
  expect_well_formed(doc);
}

TEST(Junit, WarningsFailOnlyWithWerror) {
  const std::vector<Diagnostic> ds{finding(btf::xc::rules::SYM_007, Severity::Warning, "f")};
  const std::vector<ReportedInput> inputs{input("vmlinux", ds)};
  const std::string plain = junit(inputs), strict = junit(inputs, true);
  EXPECT_TRUE(has(plain, "failures=\"0\"")) << plain;
  EXPECT_TRUE(has(plain, "<testcase classname=\"xc\" name=\"XC-SYM-007\">\n      <system-out>")) << plain;
  EXPECT_TRUE(has(strict, "<failure type=\"warning\" message=\"1 warning: ")) << strict;
}

TEST(Junit, UnreadableInputIsAnErrorAndNotesAreOutput) {
  Diagnostic skipped;
  skipped.location.artifact = "vmlinux";
  skipped.message = "no symbols: ORC symbol checks skipped";
  const std::vector<Diagnostic> ds{skipped};
  std::vector<ReportedInput> inputs{input("vmlinux", ds), ReportedInput{}};
  inputs[1].error = "/nonexistent/input: No such file or directory";
  const std::string doc = junit(inputs);
  EXPECT_TRUE(has(doc, "errors=\"1\"")) << doc;
  EXPECT_TRUE(has(doc, "<error type=\"unreadable\" message=\"/nonexistent/input: No such file or directory\"/>"));
  EXPECT_TRUE(has(doc, "<system-out>vmlinux: note: no symbols: ORC symbol checks skipped&#10;</system-out>")) << doc;
  EXPECT_TRUE(has(doc, "<testcase classname=\"elfmeta\" name=\"no findings\"/>")) << doc;
  expect_well_formed(doc);
}

TEST(Junit, SpecialCharactersAreEscaped) {
  // A byte that is not UTF-8 (\xe9 alone) as the four characters \xe9; UTF-8 as is.
  EXPECT_EQ(xml_escape("a<b>&\"c'\n\x01\xe9"), "a&lt;b&gt;&amp;&quot;c&apos;&#10;\\x01\\xe9");
  EXPECT_EQ(xml_escape("vmlinux-\xc3\xbc\xe2\x82\xac\xe2\x9c\x93"), "vmlinux-\xc3\xbc\xe2\x82\xac\xe2\x9c\x93");
  EXPECT_EQ(xml_escape("\xef\xbf\xbf"), "\\xef\\xbf\\xbf");  // U+FFFF: not an XML character
  const std::vector<Diagnostic> ds{finding(btf::rules::AGG_010, Severity::Error, "x<y>&z\"'\x02\xff")};
  std::vector<ReportedInput> inputs{input("we&ird<name>.ko", ds)};
  const std::string doc = junit(inputs);
  EXPECT_TRUE(has(doc, "<testsuite name=\"we&amp;ird&lt;name&gt;.ko\"")) << doc;
  EXPECT_TRUE(has(doc, "&apos;x&lt;y&gt;&amp;z&quot;&apos;\\x02\\xff&apos;")) << doc;
  expect_well_formed(doc);
}

TEST(Junit, Utf8NamesAsTheirCharactersAndEveryFinding) {
  const std::string name = "vmlinux-\xc3\xbc\xe2\x82\xac\xe2\x9c\x93";  // vmlinux-ü€✓
  std::vector<Diagnostic> ds;
  for (int i = 0; i < 150; ++i) ds.push_back(finding(btf::rules::AGG_010, Severity::Error, "s" + std::to_string(i)));
  for (auto& d : ds) d.location.artifact = name;
  const std::vector<ReportedInput> inputs{input(name, ds)};
  const std::string doc = junit(inputs);
  EXPECT_TRUE(has(doc, "<testsuite name=\"" + name + "\"")) << doc;
  EXPECT_TRUE(has(doc, "<property name=\"path\" value=\"build/" + name + "\"/>")) << doc;
  EXPECT_TRUE(has(doc, "message=\"150 errors: ")) << doc;
  EXPECT_TRUE(has(doc, name + ":.BTF+0x40 [type 7 STRUCT &apos;s149&apos;]")) << doc;  // the last one too
  expect_well_formed(doc);
}

// BTF's consumer is named only where BTF applied (an SFrame-only run has none).
TEST(Junit, ConsumerPropertyOnlyWhereBtfApplied) {
  const std::vector<ReportedInput> inputs{input("a.out", {})};
  RunSummary s;
  s.consumer = "bpf-load";
  std::ostringstream with_btf, sframe_only;
  write_junit(with_btf, inputs, s, false);
  s.btf = false;
  s.sframe = true;
  write_junit(sframe_only, inputs, s, false);
  EXPECT_TRUE(has(with_btf.str(), "<property name=\"consumer\" value=\"bpf-load\"/>")) << with_btf.str();
  EXPECT_FALSE(has(sframe_only.str(), "consumer")) << sframe_only.str();
}

TEST(Junit, InputsSharingANameAreToldApartByPath) {
  const std::vector<ReportedInput> inputs{input("vmlinux", {}), input("vmlinux", {})};
  std::vector<ReportedInput> two = inputs;
  two[0].path = "old/vmlinux";
  two[1].path = "new/vmlinux";
  const std::string doc = junit(two);
  EXPECT_TRUE(has(doc, "<testsuite name=\"old/vmlinux\"")) << doc;
  EXPECT_TRUE(has(doc, "<testsuite name=\"new/vmlinux\"")) << doc;
}

}  // namespace
}  // namespace elfmeta
