// SARIF: the document validates against the official 2.1.0 schema, results
// carry rule, level, byte offset and a fingerprint that survives offset
// shifts, and what has no rule goes to the tool's notifications.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "btf/btf_rules.h"
#include "btf/xc/xc_rules.h"
#include "core/report.h"
#include "core/rule_docs.h"
#include "tests/support/ci_formats.h"
#include "tests/support/require.h"

namespace elfmeta {
namespace {

using testing::sarif_fingerprints;

Diagnostic finding(uint64_t offset, uint64_t type_id, std::string name = "task_struct") {
  Diagnostic d;
  d.rule = &btf::rules::AGG_010;
  d.severity = Severity::Error;
  d.location = {"vmlinux", ".BTF", offset, "type", type_id, "STRUCT", std::move(name)};
  d.message = "member 3 ends past the 8-byte size";
  d.notes = {"kernel log: \"Member exceeds struct_size\""};
  return d;
}

Diagnostic note(std::string message) {
  Diagnostic d;
  d.location.artifact = "vmlinux";
  d.message = std::move(message);
  return d;
}

ReportedInput elf_input(std::span<const Diagnostic> diagnostics) {
  ReportedInput in;
  in.path = "/work/build/vmlinux";
  in.name = "vmlinux";
  in.kernel = "6.1 (banner 6.1.0-56-cloud-amd64)";
  in.diagnostics = diagnostics;
  in.section_file_offsets = {{".BTF", 0x1000}};
  return in;
}

const SarifOptions kOptions{"0.1.0", "https://example.org/elfmeta", "/work"};

std::string sarif(std::span<const ReportedInput> inputs, const RunSummary& s = {}) {
  std::ostringstream out;
  write_sarif(out, inputs, s, kOptions);
  return out.str();
}

bool has(const std::string& doc, const std::string& s) { return doc.find(s) != std::string::npos; }

TEST(Sarif, ResultHasRuleLevelByteOffsetAndLogicalLocation) {
  const std::vector<Diagnostic> ds{finding(0x1a2c, 1234)};
  const ReportedInput in = elf_input(ds);
  const std::string doc = sarif({&in, 1});
  for (const char* field :
       {"\"ruleId\": \"BTF-AGG-010\"", "\"ruleIndex\": 0", "\"level\": \"error\"",
        "\"uri\": \"build/vmlinux\"",  // relative to the working directory
        "\"startLine\": 1", "\"byteOffset\": 10796",  // 0x1000 + 0x1a2c
        "\"name\": \"type 1234 STRUCT 'task_struct'\"",
        "\"fullyQualifiedName\": \".BTF/type 1234 STRUCT 'task_struct'\"", "\"kind\": \"type\"",
        "\"text\": \"vmlinux:.BTF+0x1a2c [type 1234 STRUCT 'task_struct']: member 3 ends past the 8-byte size\\nnote: kernel "
        "log: \\\"Member exceeds struct_size\\\"\""})
    EXPECT_TRUE(has(doc, field)) << field << " in\n" << doc;
  EXPECT_EQ(sarif_fingerprints(doc).size(), 1u);
}

TEST(Sarif, DriverDescribesTheRulesThatFiredFromTheRuleTable) {
  const std::vector<Diagnostic> ds{finding(0x10, 5)};
  const ReportedInput in = elf_input(ds);
  const std::string doc = sarif({&in, 1});
  const Rule& r = btf::rules::AGG_010;
  const std::vector<std::string> fields{
      "\"name\": \"elfmeta\"", "\"version\": \"0.1.0\"", "\"informationUri\": \"https://example.org/elfmeta\"",
      "\"id\": \"BTF-AGG-010\"", "\"helpUri\": \"https://example.org/elfmeta/docs/rules/BTF-AGG-010.md\"",
      "\"shortDescription\": {", "\"text\": \"" + json_escape(r.summary) + "\"",
      "\"markdown\": \"" + json_escape(rule_doc_page(r)) + "\"", "\"level\": \"error\"",
      "\"$schema\": \"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json\"",
      "\"version\": \"2.1.0\""};
  for (const std::string& field : fields)
    EXPECT_TRUE(has(doc, field)) << field << " in\n" << doc;
  // Only the rules that fired: one rule, one id.
  EXPECT_EQ(testing::all_matches(doc, "\"id\": \"([A-Z0-9-]+)\"").size(), 1u);
}

TEST(Sarif, FingerprintIgnoresOffsetsAndTypeIdsOfNamedRecords) {
  // The same defect in two builds: the struct moved and was renumbered.
  const std::vector<Diagnostic> before{finding(0x1a2c, 1234)}, after{finding(0x2b00, 1301)};
  const ReportedInput a = elf_input(before), b = elf_input(after);
  EXPECT_EQ(sarif_fingerprints(sarif({&a, 1})), sarif_fingerprints(sarif({&b, 1})));
}

TEST(Sarif, FingerprintsDifferBetweenFindings) {
  // Another struct; another rule on the same struct; the same rule twice on one struct.
  Diagnostic other_rule = finding(0x40, 7);
  other_rule.rule = &btf::rules::AGG_002;
  const std::vector<Diagnostic> ds{finding(0x10, 5), finding(0x20, 6, "mm_struct"), other_rule, finding(0x10, 5)};
  const ReportedInput in = elf_input(ds);
  auto prints = sarif_fingerprints(sarif({&in, 1}));
  ASSERT_EQ(prints.size(), 4u);
  std::sort(prints.begin(), prints.end());
  EXPECT_EQ(std::unique(prints.begin(), prints.end()), prints.end());
}

TEST(Sarif, AnonymousRecordsAreFingerprintedByTheirIndex) {
  Diagnostic anon = finding(0x10, 5);
  anon.location.record_name.reset();
  Diagnostic anon2 = anon;
  anon2.location.index = 6;
  const std::vector<Diagnostic> ds{anon, anon2};
  const ReportedInput in = elf_input(ds);
  const auto prints = sarif_fingerprints(sarif({&in, 1}));
  ASSERT_EQ(prints.size(), 2u);
  EXPECT_NE(prints[0], prints[1]);
}

TEST(Sarif, NoByteOffsetWhenTheCheckedBytesAreNotTheFile) {
  const std::vector<Diagnostic> ds{finding(0x1a2c, 1234)};
  ReportedInput in = elf_input(ds);
  in.section_file_offsets.clear();  // a decompressed image
  EXPECT_FALSE(has(sarif({&in, 1}), "byteOffset"));
  in.raw_file = true;  // a raw blob: offsets are file offsets
  EXPECT_TRUE(has(sarif({&in, 1}), "\"byteOffset\": 6700"));
}

TEST(Sarif, UrisAreRelativeUnderTheWorkingDirectoryAndEncoded) {
  const std::vector<Diagnostic> ds{finding(0x10, 5)};
  ReportedInput in = elf_input(ds);
  in.path = "/srv/kernels/linux image.deb:boot/vmlinuz";
  EXPECT_TRUE(has(sarif({&in, 1}), "\"uri\": \"file:///srv/kernels/linux%20image.deb%3Aboot/vmlinuz\""));
  in.path = "pkg.deb:boot/vmlinuz";  // relative, and no scheme "pkg.deb:"
  EXPECT_TRUE(has(sarif({&in, 1}), "\"uri\": \"pkg.deb%3Aboot/vmlinuz\""));
}

TEST(Sarif, FindingsWithoutARuleAndUnreadableInputsAreNotifications) {
  Diagnostic unlisted = note("50 more XC-SYM-007 findings not listed");
  unlisted.unlisted_rule = &btf::xc::rules::SYM_007;
  unlisted.unlisted[size_t(Severity::Warning)] = 50;
  Diagnostic listed = finding(0x10, 5);
  listed.rule = &btf::xc::rules::SYM_007;
  listed.severity = Severity::Warning;
  const std::vector<Diagnostic> ds{note("no symbols (no symtab): ORC symbol checks skipped"), listed, unlisted};
  std::vector<ReportedInput> inputs{elf_input(ds), ReportedInput{}};
  inputs[1].error = "/nonexistent/input: No such file or directory";
  RunSummary s;
  s.inputs = 2;
  s.unreadable = 1;
  s.kernel = "6.1 (banner 6.1.0-56-cloud-amd64)";
  s.consumer = "bpf-load";
  s.add(ds);
  const std::string doc = sarif(inputs, s);
  const size_t results = doc.find("\"results\": [");
  ASSERT_NE(results, std::string::npos);
  const std::string run_head = doc.substr(0, results), tail = doc.substr(results);
  EXPECT_TRUE(has(run_head, "\"executionSuccessful\": false"));
  EXPECT_TRUE(has(run_head, "\"text\": \"vmlinux: no symbols (no symtab): ORC symbol checks skipped\""));
  EXPECT_TRUE(has(run_head, "\"text\": \"/nonexistent/input: No such file or directory\""));
  EXPECT_TRUE(has(run_head, "\"associatedRule\": {\n                \"id\": \"XC-SYM-007\""));
  EXPECT_FALSE(has(tail, "not listed"));
  EXPECT_FALSE(has(tail, "ORC symbol checks skipped"));
  EXPECT_EQ(testing::all_matches(tail, "\"ruleId\": \"([A-Z0-9-]+)\""), std::vector<std::string>{"XC-SYM-007"});
  EXPECT_TRUE(has(tail, "\"level\": \"warning\""));
  // The run summary.
  for (const char* field : {"\"inputs\": 2", "\"unreadable\": 1", "\"warnings\": 51", "\"consumer\": \"bpf-load\"",
                            "\"XC-SYM-007\": 51"})
    EXPECT_TRUE(has(tail, field)) << field << " in\n" << tail;

  const auto verdict = testing::validate_against_sarif_schema(doc);
  ELFMETA_REQUIRE_INSTALLED(verdict.ran, verdict.output);
  EXPECT_TRUE(verdict.passed) << verdict.output << doc;
}

TEST(Sarif, ValidatesAgainstTheSchemaWithHostileNames) {
  std::string name = "quote\" backslash\\ tab\t byte\x01 high\xff";
  const std::vector<Diagnostic> ds{finding(0x10, 5, name), note("note with \"quotes\"")};
  const ReportedInput in = elf_input(ds);
  const std::string doc = sarif({&in, 1});
  EXPECT_TRUE(has(doc, "quote\\\" backslash\\\\ tab\\t byte\\u0001 high\\\\xff")) << doc;
  const auto verdict = testing::validate_against_sarif_schema(doc);
  ELFMETA_REQUIRE_INSTALLED(verdict.ran, verdict.output);
  EXPECT_TRUE(verdict.passed) << verdict.output << doc;
}

// The artifact's UTF-8 name comes back from the parsed document as the
// same characters (in the message), and its path as the URI of its UTF-8
// bytes; every finding is a result, however many one rule has.
TEST(Sarif, Utf8PathsAndEveryFinding) {
  const std::string name = "vmlinux-\xc3\xbc\xe2\x82\xac\xe2\x9c\x93";  // vmlinux-ü€✓
  std::vector<Diagnostic> ds;
  for (uint64_t i = 0; i < 150; ++i) {
    ds.push_back(finding(0x10 * i, i + 1, "s" + std::to_string(i)));
    ds.back().location.artifact = name;
  }
  ReportedInput in = elf_input(ds);
  in.path = "/work/build/" + name;
  in.name = name;
  const std::string doc = sarif({&in, 1});
  const auto j = nlohmann::json::parse(doc);
  const auto& results = j["runs"][0]["results"];
  ASSERT_EQ(results.size(), 150u);
  const std::string text = results[0]["message"]["text"];
  EXPECT_EQ(text.rfind(name + ":.BTF+0x0", 0), 0u) << text;
  EXPECT_EQ(results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "build/vmlinux-%C3%BC%E2%82%AC%E2%9C%93");
  EXPECT_TRUE(j["runs"][0]["invocations"][0]["toolExecutionNotifications"].empty());
}

TEST(Sarif, SchemaCheckRejectsAnInvalidLog) {
  // The schema check is not vacuous: a level SARIF does not know fails it.
  const std::vector<Diagnostic> ds{finding(0x10, 5)};
  const ReportedInput in = elf_input(ds);
  std::string doc = sarif({&in, 1});
  const std::string valid = "\"level\": \"error\"";
  const size_t level = doc.find(valid, doc.find("\"results\""));
  ASSERT_NE(level, std::string::npos);
  doc.replace(level, valid.size(), "\"level\": \"fatal\"");
  const auto verdict = testing::validate_against_sarif_schema(doc);
  ELFMETA_REQUIRE_INSTALLED(verdict.ran, verdict.output);
  EXPECT_FALSE(verdict.passed) << doc;
  EXPECT_NE(verdict.output.find("'fatal' is not one of"), std::string::npos) << verdict.output;
}

TEST(Sarif, EmptyRunValidates) {
  const std::string doc = sarif({});
  EXPECT_TRUE(has(doc, "\"results\": []"));
  const auto verdict = testing::validate_against_sarif_schema(doc);
  ELFMETA_REQUIRE_INSTALLED(verdict.ran, verdict.output);
  EXPECT_TRUE(verdict.passed) << verdict.output << doc;
}

}  // namespace
}  // namespace elfmeta
