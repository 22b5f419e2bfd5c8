// Rendering diagnostics: compiler-style text and JSON lines, which stream
// finding by finding, and SARIF and JUnit XML, which are whole documents
// written once every input has been checked.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"

namespace elfmeta {

// "vmlinux:.BTF+0x1a2c [type 1234 STRUCT 'task_struct']: error: ... [BTF-AGG-010]"
void write_text(std::ostream& out, const Diagnostic& d);
// Where a finding is, as write_text starts its line: "vmlinux:.BTF+0x1a2c [type 1234 STRUCT 'task_struct']".
std::string location_text(const Location& l);
// One JSON object per line: rule, severity, artifact, section, offset, index,
// kind, name, message, notes.
void write_json(std::ostream& out, const Diagnostic& d);

// `s` as the inside of a JSON string (no quotes), through the JSON writer:
// UTF-8 as is, invalid UTF-8 bytes as \\xNN (valid_utf8 in core/text.h).
std::string json_escape(std::string_view s);

struct RunSummary {
  size_t inputs = 0;      // artifacts: every member of a package counts
  size_t packages = 0;    // kernel packages and unpacked trees among the command line's inputs
  size_t unreadable = 0;
  size_t errors = 0;
  size_t warnings = 0;
  size_t notes = 0;       // findings of a rule at note severity
  std::map<std::string, size_t> per_rule;  // rule id -> findings
  std::string kernel;                      // profile used, e.g. "6.18"
  std::string consumer;                    // BTF's consumer
  // The formats found in the inputs ("BTF", "ORC", "SFrame"): the summary
  // names a consumer and a kernel profile only for those that applied.
  bool btf = true, orc = false, sframe = false;
  std::string sframe_consumer;             // "" when none was chosen
  // Artifacts whose split BTF was not checked for want of its base (their
  // package's note says which package is needed) or because the base given
  // is not theirs (XC-CTX-002): not run, never clean.
  size_t btf_not_checked = 0;
  void add(const std::vector<Diagnostic>& diagnostics);
};

// "1 package, 1,139 artifacts, 0 errors, 944 warnings, 214 notes"
std::string summary_counts(const RunSummary& s);
// "BTF: kernel 6.12 (banner ...), consumer bpf-load; ORC: kernel 6.12"
std::string summary_profiles(const RunSummary& s);
void write_text_summary(std::ostream& out, const RunSummary& s);
void write_json_summary(std::ostream& out, const RunSummary& s);

// One input as the CI documents see it.
struct ReportedInput {
  std::string path;    // as given on the command line: SARIF's artifact URI
  std::string name;    // the artifact name its diagnostics carry: JUnit's testsuite
  std::string kernel;  // the profile it was judged by, e.g. "6.1 (banner 6.1.0-56-cloud-amd64)"
  std::string error;   // one line when it could not be read (then it has no diagnostics)
  std::span<const Diagnostic> diagnostics;
  // How a finding's offset, which is inside its section, becomes a byte
  // offset into the file at `path`: the section's start in an ELF file; none
  // in a raw blob read as is (the blob is the file). Neither when the bytes
  // checked are not the file's (a compressed module, a kernel image's payload).
  std::map<std::string, uint64_t, std::less<>> section_file_offsets;
  bool raw_file = false;
};

struct SarifOptions {
  std::string tool_version;
  // tool.driver.informationUri; rules' helpUri is homepage + "/docs/rules/ID.md".
  std::string homepage;
  // Inputs under this directory become relative URIs, which GitHub resolves
  // against the repository's root; others become file:// URIs.
  std::string working_directory;
};

// SARIF 2.1.0 as GitHub code scanning takes it: one run, the rules that
// fired, one result per finding, the findings without a rule and the
// unreadable inputs as tool execution notifications, the summary in
// run.properties.
void write_sarif(std::ostream& out, std::span<const ReportedInput> inputs, const RunSummary& s,
                 const SarifOptions& options);

// JUnit XML: a testsuite per input, a testcase per rule that fired in it,
// failing on an error (or a warning with werror), and one passing testcase
// for an input without findings.
void write_junit(std::ostream& out, std::span<const ReportedInput> inputs, const RunSummary& s, bool werror);

std::string xml_escape(std::string_view s);

}  // namespace elfmeta
