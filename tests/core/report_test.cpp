#include "core/report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "btf/btf_rules.h"
#include "btf/verifier.h"
#include "synth/btf_builder.h"
#include "btf/xc/xc_rules.h"
#include "core/findings.h"
#include "core/listing_limit.h"
#include "core/rule_docs.h"

namespace elfmeta {
namespace {

Diagnostic sample() {
  Diagnostic d;
  d.rule = &btf::rules::AGG_010;
  d.severity = Severity::Error;
  d.location = {"vmlinux", ".BTF", 0x1a2c, "type", 1234, "STRUCT", std::string("task_struct")};
  d.message = "member 3 ends past the 8-byte size";
  d.notes = {"kernel log: \"Member exceeds struct_size\""};
  return d;
}

TEST(Report, TextReadsLikeACompiler) {
  std::ostringstream out;
  write_text(out, sample());
  EXPECT_EQ(out.str(),
            "vmlinux:.BTF+0x1a2c [type 1234 STRUCT 'task_struct']: error: member 3 ends past the 8-byte size "
            "[BTF-AGG-010]\n    note: kernel log: \"Member exceeds struct_size\"\n");
}

TEST(Report, JsonHasTheContractFields) {
  std::ostringstream out;
  Diagnostic d = sample();
  d.message = "quote \" backslash \\ byte \x01";
  write_json(out, d);
  const std::string line = out.str();
  for (const char* field : {"\"rule\":\"BTF-AGG-010\"", "\"severity\":\"error\"", "\"artifact\":\"vmlinux\"",
                            "\"section\":\".BTF\"", "\"offset\":6700", "\"index\":1234", "\"kind\":\"STRUCT\"",
                            "\"name\":\"task_struct\"", "quote \\\" backslash \\\\ byte \\u0001"})
    EXPECT_NE(line.find(field), std::string::npos) << field << " in " << line;
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
}

// A path of UTF-8 comes back from the JSON as the same characters; a name
// that is not UTF-8 comes back as its bytes written \xNN, and the line
// still parses.
TEST(Report, JsonKeepsUtf8AndEscapesInvalidBytes) {
  const std::string path = "vmlinux-\xc3\xbc\xe2\x82\xac\xe2\x9c\x93";  // vmlinux-ü€✓
  Diagnostic d = sample();
  d.location.artifact = path;
  d.location.record_name = std::string("bad\xff\xc3name\xed\xa0\x80");  // stray, cut off, surrogate
  std::ostringstream out;
  write_json(out, d);
  EXPECT_NE(out.str().find(path), std::string::npos) << out.str();  // the characters themselves, not \u escapes
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["artifact"], path);
  EXPECT_EQ(j["name"], "bad\\xff\\xc3name\\xed\\xa0\\x80");
  EXPECT_EQ(json_escape(path), path);
  EXPECT_EQ(json_escape("a\x01\x80"), "a\\u0001\\\\x80");
}

TEST(Report, JsonSummaryParsesAndCountsNotes) {
  RunSummary s;
  s.inputs = 3;
  s.packages = 1;
  s.kernel = "6.12 (banner 6.12.117+deb12-cloud-amd64)";
  s.consumer = "bpf-load";
  Diagnostic note = sample();
  note.severity = Severity::Note;
  s.add({sample(), note});
  std::ostringstream out;
  write_json_summary(out, s);
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["errors"], 1);
  EXPECT_EQ(j["notes"], 1);
  EXPECT_EQ(j["packages"], 1);
  EXPECT_EQ(j["per_rule"]["BTF-AGG-010"], 2);
}

// Without a listing limit (JSON, SARIF, JUnit) every finding is listed and
// there is no closing note.
TEST(Report, NoListingLimitListsEveryFinding) {
  set_listing_limit(no_listing_limit);
  DiagnosticList list;
  Findings findings("vmlinux", list);
  for (size_t i = 0; i < Findings::kPerRuleLimit + 50; ++i)
    findings.emit(btf::xc::rules::SYM_007, Location{"vmlinux", ".BTF", i, "", std::nullopt, "", std::nullopt}, "finding");
  findings.finish(".BTF");
  synth::BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  for (int i = 0; i < 150; ++i) b.add_ptr(9999);  // BTF-TYPE-007 each
  DiagnosticList verifier;
  btf::check_btf(b.build(), nullptr, {}, "blob", "", verifier);
  set_listing_limit(Findings::kPerRuleLimit);
  EXPECT_EQ(list.items().size(), Findings::kPerRuleLimit + 50);
  EXPECT_EQ(list.count("XC-SYM-007"), Findings::kPerRuleLimit + 50);
  EXPECT_EQ(verifier.count("BTF-TYPE-007"), 150u);
  for (const auto& d : verifier.items()) EXPECT_FALSE(d.unlisted_rule) << d.message;
}

TEST(Report, SummaryCountsPerRule) {
  RunSummary s;
  s.inputs = 2;
  s.kernel = "6.18";
  s.consumer = "bpf-load";
  s.add({sample(), sample()});
  std::ostringstream out;
  write_json_summary(out, s);
  EXPECT_NE(out.str().find("\"errors\":2"), std::string::npos);
  EXPECT_NE(out.str().find("\"BTF-AGG-010\":2"), std::string::npos);
}

TEST(Report, SummaryCountsFindingsPastTheListingLimit) {
  DiagnosticList list;
  Findings findings("vmlinux", list);
  const Rule& rule = btf::xc::rules::SYM_007;  // a warning rule some of whose findings are notes
  for (size_t i = 0; i < Findings::kPerRuleLimit + 50; ++i)
    findings.emit(rule, Location{"vmlinux", ".BTF", i, "", std::nullopt, "", std::nullopt}, "finding",
                  i % 2 ? std::optional(Severity::Note) : std::nullopt);
  findings.finish(".BTF");
  ASSERT_EQ(list.items().size(), Findings::kPerRuleLimit + 1);
  EXPECT_EQ(list.items().back().message, "50 more XC-SYM-007 findings not listed");
  RunSummary summary;
  summary.add(list.items());
  EXPECT_EQ(summary.warnings, 75u);  // the even ones
  EXPECT_EQ(summary.per_rule["XC-SYM-007"], 150u);
  EXPECT_EQ(findings.count(rule), 150u);
}

TEST(Report, SummaryCountsUnlistedKernelVerifierFindings) {
  synth::BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  for (int i = 0; i < 150; ++i) b.add_ptr(9999);  // BTF-TYPE-007 each
  const auto blob = b.build();
  DiagnosticList list;
  btf::check_btf(blob, nullptr, {}, "blob", "", list);
  RunSummary summary;
  summary.add(list.items());
  EXPECT_EQ(summary.per_rule["BTF-TYPE-007"], 150u);
  EXPECT_EQ(summary.errors, list.count(Severity::Error) + 50);
}

TEST(RuleDocs, EveryRuleHasAPageAndAnIndexEntry) {
  const std::string index = rule_doc_index();
  for (const Rule* r : all_rules()) {
    EXPECT_NE(index.find("[" + std::string(r->id) + "](" + std::string(r->id) + ".md)"), std::string::npos) << r->id;
    const std::string page = rule_doc_page(*r);
    EXPECT_EQ(page.rfind("# " + std::string(r->id), 0), 0u);
    EXPECT_NE(page.find(std::string(r->summary)), std::string::npos);
  }
}

}  // namespace
}  // namespace elfmeta
