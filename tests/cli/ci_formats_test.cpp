// `elfmeta check --format sarif|junit` end to end: what CI uploads validates
// against the SARIF 2.1.0 schema and parses as XML, and says which rule
// fired where, with the same fingerprints run after run.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "synth/btf_builder.h"
#include "tests/support/ci_formats.h"
#include "tests/support/cli_run.h"
#include "tests/support/compressors.h"
#include "tests/support/elf_builder.h"
#include "tests/support/require.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

// Runs elfmeta in `cwd`, so that SARIF's relative URIs are predictable.
CliRun elfmeta(const std::string& args, const fs::path& cwd = scratch_dir()) { return run_cli(args, cwd); }

std::string write_file(const std::string& name, const std::vector<uint8_t>& bytes) {
  const fs::path p = scratch_dir() / name;
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return p.string();
}

std::string sample() { return std::string(ELFMETA_SOURCE_DIR) + "/samples/sample.btf"; }

// Type 2 points at a type that does not exist (BTF-TYPE-007), and so do
// types 3 and 4 when `more` is set.
std::vector<uint8_t> broken_btf(bool more = false) {
  synth::BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  b.add_ptr(99);
  if (more) {
    b.add_ptr(98);
    b.add_ptr(97);
  }
  return b.build();
}

// Where a file's bad PTR record is, by the JSON format's offset.
uint64_t json_offset(const std::string& args) {
  const auto offsets = all_matches(elfmeta("check --format json " + args).out, "\"offset\":([0-9]+)");
  return offsets.empty() ? 0 : std::stoull(offsets[0]);
}

// The finding points at the field that is wrong: `at` is the type field of
// a PTR record (struct btf_type: name_off, info with the kind in bits 24-28,
// type) that names type 99.
bool is_the_bad_ptr(const std::vector<uint8_t>& file, uint64_t at) {
  if (at < 4 || at + 4 > file.size()) return false;
  uint32_t info, type;
  std::memcpy(&info, file.data() + at - 4, 4);
  std::memcpy(&type, file.data() + at, 4);
  return ((info >> 24) & 0x1f) == 2 && type == 99;
}

bool has(const std::string& doc, const std::string& s) { return doc.find(s) != std::string::npos; }

void expect_valid_sarif(const std::string& doc) {
  const auto verdict = validate_against_sarif_schema(doc);
  ELFMETA_REQUIRE_INSTALLED(verdict.ran, verdict.output);
  EXPECT_TRUE(verdict.passed) << verdict.output << doc;
}

TEST(CliCiFormats, SarifOfABrokenBlobNamesRuleLevelOffsetAndFingerprint) {
  const auto blob = broken_btf();
  write_file("broken.btf", blob);
  const CliRun r = elfmeta("check --format sarif broken.btf");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err, "");
  const auto offsets = all_matches(r.out, "\"byteOffset\": ([0-9]+)");
  ASSERT_EQ(offsets.size(), 1u) << r.out;
  EXPECT_TRUE(is_the_bad_ptr(blob, std::stoull(offsets[0]))) << "byteOffset " << offsets[0];
  EXPECT_EQ(std::stoull(offsets[0]), json_offset("broken.btf"));
  const std::vector<std::string> fields{"\"ruleId\": \"BTF-TYPE-007\"", "\"level\": \"error\"",
                                        "\"uri\": \"broken.btf\"", "\"name\": \"type 2 PTR\"",
                                        "\"executionSuccessful\": true", "\"errors\": 1"};
  for (const std::string& field : fields) EXPECT_TRUE(has(r.out, field)) << field << " in\n" << r.out;
  const auto prints = sarif_fingerprints(r.out);
  ASSERT_EQ(prints.size(), 1u);
  EXPECT_EQ(prints[0].size(), 16u);
  expect_valid_sarif(r.out);
}

TEST(CliCiFormats, SarifFingerprintsAreStableAcrossRunsAndDistinctAcrossFindings) {
  const std::string blob = write_file("three.btf", broken_btf(true));
  const CliRun first = elfmeta("check --format sarif " + blob), second = elfmeta("check --format sarif " + blob);
  auto prints = sarif_fingerprints(first.out);
  ASSERT_EQ(prints.size(), 3u) << first.out;
  EXPECT_EQ(prints, sarif_fingerprints(second.out));
  std::sort(prints.begin(), prints.end());
  EXPECT_EQ(std::unique(prints.begin(), prints.end()), prints.end());
}

TEST(CliCiFormats, SarifByteOffsetOfAnElfIsTheSectionsStartPlusTheOffset) {
  const auto btf = broken_btf();
  const auto elf = make_elf({{".BTF", btf}}, ET_REL);
  write_file("broken.o", elf);
  const auto at = std::search(elf.begin(), elf.end(), btf.begin(), btf.end());
  ASSERT_NE(at, elf.end());
  const uint64_t section_start = static_cast<uint64_t>(at - elf.begin());
  const CliRun r = elfmeta("check --only btf --format sarif broken.o");
  const auto offsets = all_matches(r.out, "\"byteOffset\": ([0-9]+)");
  ASSERT_EQ(offsets.size(), 1u) << r.out;
  EXPECT_EQ(std::stoull(offsets[0]), section_start + json_offset("--only btf broken.o"));
  EXPECT_TRUE(is_the_bad_ptr(elf, std::stoull(offsets[0])));
  EXPECT_TRUE(has(r.out, "\"fullyQualifiedName\": \".BTF/type 2 PTR\"")) << r.out;
  expect_valid_sarif(r.out);
}

TEST(CliCiFormats, SarifOfACompressedInputHasNoByteOffset) {
  write_file("broken.o.gz", compressors::gzip(make_elf({{".BTF", broken_btf()}}, ET_REL)));
  const CliRun r = elfmeta("check --only btf --format sarif broken.o.gz");
  EXPECT_TRUE(has(r.out, "\"ruleId\": \"BTF-TYPE-007\"")) << r.out;
  EXPECT_FALSE(has(r.out, "byteOffset")) << r.out;
  expect_valid_sarif(r.out);
}

TEST(CliCiFormats, SarifOfUnreadableCleanAndNotedInputsValidates) {
  // A clean blob, an unreadable path, and an ELF file without BTF (a note).
  write_file("plain.o", make_elf({{".data", {1, 2, 3, 4}}}, ET_REL));
  const CliRun r = elfmeta("check --format sarif " + sample() + " /nonexistent/input plain.o");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out, "\"executionSuccessful\": false")) << r.out;
  EXPECT_TRUE(has(r.out, "\"results\": []")) << r.out;
  EXPECT_TRUE(has(r.out, "no .BTF section: BTF checks skipped")) << r.out;
  expect_valid_sarif(r.out);
}

TEST(CliCiFormats, JunitFailsTheBrokenInputAndPassesTheCleanOne) {
  write_file("broken.btf", broken_btf());
  const CliRun r = elfmeta("check --format junit broken.btf " + sample());
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.out, "<testsuite name=\"broken.btf\" tests=\"1\" failures=\"1\"")) << r.out;
  EXPECT_TRUE(has(r.out, "<testcase classname=\"btf\" name=\"BTF-TYPE-007\">\n      <failure type=\"error\""))
      << r.out;
  EXPECT_TRUE(has(r.out, "<testsuite name=\"sample.btf\" tests=\"1\" failures=\"0\"")) << r.out;
  EXPECT_TRUE(has(r.out, "<testcase classname=\"elfmeta\" name=\"no findings\"/>")) << r.out;
  const auto verdict = check_xml_well_formed(r.out);
  ELFMETA_REQUIRE_INSTALLED(verdict.ran, verdict.output);
  EXPECT_TRUE(verdict.passed) << verdict.output << r.out;
}

TEST(CliCiFormats, JunitEscapesAnInputsName) {
  write_file("a&b<c>.btf", broken_btf());
  const CliRun r = elfmeta("check --format junit 'a&b<c>.btf'");
  EXPECT_TRUE(has(r.out, "<testsuite name=\"a&amp;b&lt;c&gt;.btf\"")) << r.out;
  const auto verdict = check_xml_well_formed(r.out);
  ELFMETA_REQUIRE_INSTALLED(verdict.ran, verdict.output);
  EXPECT_TRUE(verdict.passed) << verdict.output << r.out;
}

TEST(CliCiFormats, FormatTakesFourValues) {
  const CliRun r = elfmeta("check --format xml " + sample());
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "--format takes text, json, sarif or junit")) << r.err;
  const CliRun help = elfmeta("--help");
  EXPECT_TRUE(has(help.out, "[--format text|json|sarif|junit]")) << help.out;
}

}  // namespace
}  // namespace elfmeta::testing
