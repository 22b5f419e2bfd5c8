// The HTML report: its data block counts what the run found, text from the
// binaries cannot break out of the markup or the data block, the page asks
// for nothing over the network, and long lists are cut with a note.
#include "stats/html_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "btf/btf_rules.h"
#include "btf/xc/xc_rules.h"

namespace elfmeta::stats {
namespace {

using nlohmann::json;

Diagnostic finding(const Rule& rule, Severity severity, std::string artifact, std::string name,
                   std::string message = "a finding") {
  Diagnostic d;
  d.rule = &rule;
  d.severity = severity;
  d.location = {std::move(artifact), ".BTF", 0x40, "type", 7, "STRUCT", std::move(name)};
  d.message = std::move(message);
  return d;
}

constexpr const char* kHostileName = "<script>alert(1)</script>";

// vmlinux: two AGG-010 errors and a SYM-007 warning; a module with a hostile
// name: one AGG-010 error whose record name and message try to end the
// script element; a clean module.
struct Fixture {
  std::vector<Diagnostic> image{finding(btf::rules::AGG_010, Severity::Error, "vmlinux", "task_struct"),
                                finding(btf::rules::AGG_010, Severity::Error, "vmlinux", "mm_struct"),
                                finding(btf::xc::rules::SYM_007, Severity::Warning, "vmlinux", "cpu_number")};
  std::vector<Diagnostic> hostile{finding(btf::rules::AGG_010, Severity::Error, kHostileName,
                                          "</script><script>alert(2)</script><!--",
                                          "member </script> 'x\"' ends & <b>past</b>")};
  std::vector<Diagnostic> clean;

  HtmlReport report() const {
    HtmlReport r;
    r.inputs = {"linux-image-<x>.deb", "<!--<script>.deb"};
    r.kernel = "6.12 (--kernel)";
    r.consumer = "bpf-load";
    r.artifacts = {{"vmlinux", "kernel image", image}, {kHostileName, "module", hostile}, {"clean.ko", "module", clean}};
    r.stats.artifacts = {{"kernel image", 1}, {"module", 2}};
    r.stats.btf["kernel image"].kinds = {{"STRUCT", 10}, {"INT", 3}};
    r.stats.findings["BTF-AGG-010"] = {3, 0, 0};
    r.stats.findings["XC-SYM-007"] = {0, 1, 0};
    return r;
  }
};

std::string page_of(const HtmlReport& r) {
  std::ostringstream out;
  write_html_report(out, r);
  return out.str();
}

size_t occurrences(const std::string& text, const std::string& s) {
  size_t n = 0;
  for (size_t at = text.find(s); at != std::string::npos; at = text.find(s, at + 1)) ++n;
  return n;
}

// The text of the data block, as the page's script reads it.
std::string data_block(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const size_t start = page.find(open);
  if (start == std::string::npos) return "";
  const size_t end = page.find("</script>", start);
  return page.substr(start + open.size(), end - start - open.size());
}

json data_of(const std::string& page) { return json::parse(data_block(page)); }

const json* rule_entry(const json& data, const std::string& id) {
  for (const auto& r : data["rules"])
    if (r["id"] == id) return &r;
  return nullptr;
}

TEST(HtmlEscape, EscapesMarkupAndBothQuotes) {
  EXPECT_EQ(html_escape("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(html_escape(kHostileName), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(html_escape("plain .ko"), "plain .ko");
  EXPECT_EQ(html_escape(""), "");
}

TEST(HtmlReport, DataBlockCountsFindingsPerRuleAndArtifact) {
  const Fixture f;
  const json data = data_of(page_of(f.report()));
  EXPECT_EQ(data["summary"]["findings"], json({{"error", 3}, {"warning", 1}, {"note", 0}}));
  EXPECT_EQ(data["summary"]["artifacts"]["module"], 2);
  EXPECT_EQ(data["summary"]["kernel"], "6.12 (--kernel)");
  ASSERT_EQ(data["rules"].size(), 2u);
  EXPECT_EQ(data["rules"][0]["id"], "BTF-AGG-010");  // most findings first
  const json* agg = rule_entry(data, "BTF-AGG-010");
  ASSERT_TRUE(agg);
  EXPECT_EQ((*agg)["error"], 3);
  EXPECT_EQ((*agg)["artifacts"], 2);
  const json* sym = rule_entry(data, "XC-SYM-007");
  ASSERT_TRUE(sym);
  EXPECT_EQ((*sym)["warning"], 1);
  // Artifacts with findings, most first; the clean module is not charted.
  ASSERT_EQ(data["artifacts"].size(), 2u);
  EXPECT_EQ(data["artifacts"][0]["name"], "vmlinux");
  EXPECT_EQ(data["artifacts"][0]["error"], 2);
  EXPECT_EQ(data["artifacts"][1]["name"], kHostileName);  // the original text, decoded by JSON.parse
  EXPECT_TRUE(data["baseline"].is_null());
}

TEST(HtmlReport, FirstLineIsTheVerdictWithVersionInputsAndDate) {
  const Fixture f;
  HtmlReport r = f.report();
  r.tool_version = "0.1.0";
  r.date = "2026-11-27 01:20 UTC";
  const std::string verdict =
      "elfmeta 0.1.0: 3 errors, 1 warning, 0 notes in linux-image-&lt;x&gt;.deb, &lt;!--&lt;script&gt;.deb (2026-11-27 01:20 UTC)";
  const std::string page = page_of(r);
  EXPECT_NE(page.find("<title>" + verdict + "</title>"), std::string::npos) << page.substr(0, 3000);
  EXPECT_NE(page.find("<body>\n<h1>" + verdict + "</h1>"), std::string::npos) << page.substr(0, 3000);
}

TEST(HtmlReport, TablesNameRulesWithSummariesAndDocLinks) {
  const Fixture f;
  const std::string page = page_of(f.report());
  // Without a base URL the rules' text is in the page.
  EXPECT_NE(page.find("<a href=\"#rule-BTF-AGG-010\"><code>BTF-AGG-010</code></a>"), std::string::npos);
  EXPECT_NE(page.find("<details id=\"rule-BTF-AGG-010\">"), std::string::npos);
  HtmlReport linked = f.report();
  linked.rule_docs = "https://example.org/elfmeta/docs/rules/";
  const std::string linked_page = page_of(linked);
  EXPECT_NE(linked_page.find("<a href=\"https://example.org/elfmeta/docs/rules/BTF-AGG-010.md\"><code>BTF-AGG-010</code></a>"),
            std::string::npos);
  EXPECT_EQ(linked_page.find("<details id=\"rule-"), std::string::npos);
  EXPECT_NE(page.find(std::string(btf::rules::AGG_010.summary)), std::string::npos);
  EXPECT_NE(page.find("<td>kernel image</td><td class=\"n\">1</td>"), std::string::npos) << page;
  EXPECT_NE(page.find("1 artifact without findings"), std::string::npos);
  for (const char* chart : {"chart-rules", "chart-artifacts"})
    EXPECT_NE(page.find(std::string("<svg class=\"chart\" id=\"") + chart), std::string::npos) << chart;
  EXPECT_EQ(page.find("chart-baseline"), std::string::npos);
}

TEST(HtmlReport, HostileNamesAndMessagesStayText) {
  const Fixture f;
  const std::string page = page_of(f.report());
  // Exactly the page's own two script elements: the data and the chart code.
  // (Inside the data block "<script" is inert once "</" and "<!--" are escaped.)
  const std::string block = data_block(page);
  std::string markup = page;
  markup.erase(markup.find(block), block.size());
  EXPECT_EQ(occurrences(markup, "<script"), 2u) << markup;
  EXPECT_EQ(occurrences(page, "</script>"), 2u) << page;
  EXPECT_EQ(page.find("alert(1)</script>"), std::string::npos);
  EXPECT_EQ(page.find("<b>past</b>"), std::string::npos);
  EXPECT_NE(page.find("<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>"), std::string::npos);
  EXPECT_NE(page.find("member &lt;/script&gt; &#39;x&quot;&#39; ends &amp; &lt;b&gt;past&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(page.find("linux-image-&lt;x&gt;.deb"), std::string::npos);
  // In the data block "</" and "<!" are escaped, and decode to the original.
  EXPECT_EQ(block.find("</"), std::string::npos) << block;
  EXPECT_EQ(block.find("<!"), std::string::npos) << block;
  EXPECT_NE(block.find("<script>alert(1)<\\/script>"), std::string::npos) << block;
  EXPECT_NE(block.find("<\\u0021--"), std::string::npos) << block;
  EXPECT_EQ(json::parse(block)["summary"]["inputs"][1], "<!--<script>.deb");
}

TEST(HtmlReport, InvalidUtf8InANameDoesNotStopThePage) {
  Fixture f;
  HtmlReport r = f.report();
  r.artifacts[1].name = "bad\xff\xfe.ko";
  const std::string page = page_of(r);
  EXPECT_NO_THROW(data_of(page));
  EXPECT_NE(page.find("</html>"), std::string::npos);
}

TEST(HtmlReport, NeedsNothingFromTheNetwork) {
  Fixture f;
  HtmlReport r = f.report();
  r.baseline = r.stats;
  r.baseline_label = "base.json";
  const std::string page = page_of(r);
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("@import"), std::string::npos);
  EXPECT_EQ(page.find("url("), std::string::npos);
  // The policy forbids any request the page might still make.
  EXPECT_NE(page.find("content=\"default-src 'none';"), std::string::npos);
}

TEST(HtmlReport, BaselineChartsOldAgainstNewAndListsTheDeltas) {
  Fixture f;
  HtmlReport r = f.report();
  Stats old = r.stats;
  old.btf["kernel image"].kinds = {{"STRUCT", 12}, {"FWD", 1}};
  old.orc["kernel image"].types = {{"call", 5}};
  old.findings.erase("BTF-AGG-010");
  r.baseline = old;
  r.baseline_label = "<base>.json";
  const std::string page = page_of(r);
  const json data = data_of(page);
  ASSERT_TRUE(data["baseline"].is_object());
  EXPECT_EQ(data["baseline"]["label"], "<base>.json");
  std::map<std::string, json> charts;
  for (const auto& c : data["baseline"]["charts"]) charts[c["id"]] = c["rows"];
  ASSERT_EQ(charts.size(), 3u);
  EXPECT_EQ(charts["baseline-btf"][0], json({{"label", "STRUCT"}, {"old", 12}, {"new", 10}}));
  EXPECT_NE(std::find(charts["baseline-btf"].begin(), charts["baseline-btf"].end(),
                      json({{"label", "FWD"}, {"old", 1}, {"new", 0}})),
            charts["baseline-btf"].end());
  EXPECT_EQ(charts["baseline-orc"][0], json({{"label", "call"}, {"old", 5}, {"new", 0}}));
  EXPECT_EQ(charts["baseline-rules"][0], json({{"label", "BTF-AGG-010"}, {"old", 0}, {"new", 3}}));
  for (const char* chart : {"chart-baseline-btf", "chart-baseline-orc", "chart-baseline-rules"})
    EXPECT_NE(page.find(std::string("id=\"") + chart), std::string::npos) << chart;
  EXPECT_NE(page.find("<code>btf.kernel image.kinds.STRUCT</code></td><td class=\"n\">12</td><td class=\"n\">10</td>"
                      "<td class=\"n\">-2</td>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<code>findings.BTF-AGG-010</code></td><td class=\"n\">0</td><td class=\"n\">3</td>"
                      "<td class=\"n\">+3</td>"),
            std::string::npos);
  EXPECT_NE(page.find("&lt;base&gt;.json"), std::string::npos);
}

TEST(HtmlReport, LongListsAreCutPerRuleWithANote) {
  Fixture f;
  HtmlReport r = f.report();
  r.listed_per_rule = 1;
  const std::string page = page_of(r);
  // One AGG-010 finding listed of three; the tables still count all three.
  EXPECT_EQ(occurrences(page, "<td><code>BTF-AGG-010</code></td>"), 1u) << page;
  EXPECT_NE(page.find("Not listed (the tables and charts count them): 2 of <code>BTF-AGG-010</code>"),
            std::string::npos)
      << page;
  EXPECT_EQ(rule_entry(data_of(page), "BTF-AGG-010")->at("error"), 3);
}

}  // namespace
}  // namespace elfmeta::stats

namespace elfmeta::stats {
namespace {

// Coverage (elfmeta coverage's figures in the stats): a section with a chart
// of covered against total per artifact kind and family, and a table.
TEST(HtmlReport, CoverageSectionChartsCoveredOfTotal) {
  Fixture f;
  HtmlReport r = f.report();
  EXPECT_EQ(page_of(r).find("id=\"coverage\""), std::string::npos);  // no figures, no section
  r.stats.add_coverage("kernel image", {{"functions.total", 200}, {"functions.covered", 150},
                                        {"variables.total", 0}, {"unwind.total", 200}, {"unwind.covered", 190},
                                        {"unwind.text_bytes", 4000}, {"unwind.covered_bytes", 3990}});
  const std::string page = page_of(r);
  const json data = data_of(page);
  ASSERT_TRUE(data["coverage"].is_array());
  ASSERT_EQ(data["coverage"].size(), 3u);  // no row for a family with no total
  EXPECT_EQ(data["coverage"][0],
            json({{"label", "kernel image: functions with an ABI prototype"}, {"covered", 150}, {"total", 200}}));
  EXPECT_EQ(data["coverage"][2]["label"], "kernel image: text bytes unwound");
  EXPECT_NE(page.find("id=\"chart-coverage\""), std::string::npos);
  EXPECT_NE(page.find("<td class=\"n\">150</td><td class=\"n\">200</td><td class=\"n\">75.0</td>"), std::string::npos);
}

}  // namespace
}  // namespace elfmeta::stats
