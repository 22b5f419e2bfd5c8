// SARIF 2.1.0 for GitHub code scanning (docs/ci.md). elfmeta's findings are
// in binary files, which code scanning was not made for: see
// binary_region() and fingerprint_key() for how they are placed.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "core/report.h"
#include "core/rule_docs.h"
#include "core/text.h"
#include "core/utf8.h"

namespace elfmeta {
namespace {

constexpr std::string_view kSchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

using Json = nlohmann::ordered_json;

// Every string of the document goes through here: UTF-8 as is, bytes that
// are not UTF-8 as \\xNN (core/text.h), so that the writer never meets
// invalid UTF-8.
Json text(std::string_view s) { return Json(valid_utf8(s)); }
Json message(std::string_view s) { return Json{{"text", text(s)}}; }

// "member ends past the struct size" -> "MemberEndsPastTheStructSize": SARIF
// wants a readable identifier besides the opaque rule id.
std::string rule_name(const Rule& r) {
  std::string name;
  bool word_start = true;
  for (const unsigned char c : r.summary) {
    if (!std::isalnum(c)) {
      word_start = true;
      continue;
    }
    name += word_start ? static_cast<char>(std::toupper(c)) : static_cast<char>(c);
    word_start = false;
  }
  return name;
}

std::string help_text(const Rule& r) {
  std::string s = std::string(r.summary) + ".\n";
  if (!r.explanation.empty()) s += "\n" + std::string(r.explanation) + "\n";
  s += "\nSeverity: " + std::string(severity_name(r.severity)) + "\nRefused by: " + enforcement_text(r) + "\n";
  if (!r.since.empty()) s += "Since: " + std::string(r.since) + "\n";
  if (!r.log.empty()) s += log_note(r) + "\n";
  return s;
}

// Every byte but the unreserved ones and '/' is percent-encoded: a ':' in the
// first segment ("linux-image.deb:vmlinuz") would otherwise read as a scheme.
std::string percent_encode(std::string_view path) {
  std::string out;
  for (const unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

// Relative to the working directory when the input is under it (GitHub maps
// relative URIs onto the repository), else an absolute file:// URI.
std::string artifact_uri(const std::string& path, const std::filesystem::path& cwd) {
  namespace fs = std::filesystem;
  const fs::path absolute = (fs::path(path).is_absolute() ? fs::path(path) : cwd / path).lexically_normal();
  const fs::path relative = absolute.lexically_relative(cwd);
  if (!relative.empty() && *relative.begin() != "..") return percent_encode(relative.generic_string());
  return "file://" + percent_encode(absolute.generic_string());
}

// "type 1234 STRUCT 'task_struct'", as the text format names a record.
std::string record_text(const Location& l) {
  std::string s = l.record_label + " " + std::to_string(*l.index);
  if (!l.record_kind.empty()) s += " " + l.record_kind;
  if (l.record_name) s += " '" + *l.record_name + "'";
  return s;
}

bool has_record(const Location& l) { return !l.record_label.empty() && l.index; }

// GitHub shows the message and a line of the file, so the position inside
// the binary goes in the message, as the text format writes it.
std::string message_text(const Diagnostic& d) {
  std::string s = location_text(d.location) + ": " + d.message;
  for (const auto& n : d.notes) s += "\nnote: " + n;
  return s;
}

// What a finding is about, stably: the record's name when it has one (type
// ids and entry indices move between two builds of one kernel), else its
// index, else the section.
std::string stable_subject(const Location& l) {
  if (!has_record(l)) return l.section;
  std::string s = l.section + "/" + l.record_label;
  if (!l.record_kind.empty()) s += " " + l.record_kind;
  s += l.record_name ? " '" + *l.record_name + "'" : " " + std::to_string(*l.index);
  return s;
}

// FNV-1a, 64 bits: the same on every platform and in every run.
std::string fnv1a_hex(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// The fingerprint GitHub tracks an alert by, across runs: rule, artifact and
// stable subject, never the byte offset (which moves whenever anything before
// it grows). Two findings with the same key are told apart by their order.
std::string fingerprint_key(const Diagnostic& d) {
  return std::string(d.rule->id) + "\n" + d.location.artifact + "\n" + stable_subject(d.location);
}

// Tells the findings of one input with equal keys apart, in report order.
class Fingerprints {
 public:
  std::string next(const Diagnostic& d) {
    const std::string key = fingerprint_key(d);
    const size_t n = seen_[key]++;
    return fnv1a_hex(n ? key + "\n#" + std::to_string(n) : key);
  }

 private:
  std::map<std::string, size_t> seen_;
};

std::optional<uint64_t> file_offset(const ReportedInput& input, const Location& l) {
  if (!l.offset) return std::nullopt;
  if (input.raw_file) return *l.offset;
  const auto it = input.section_file_offsets.find(l.section);
  if (it == input.section_file_offsets.end()) return std::nullopt;
  return it->second + *l.offset;
}

// GitHub rejects or hides a result whose region has no startLine, and ignores
// byte regions; SARIF (3.30.1) asks binary artifacts for a byte region alone.
// A result carries both, so that it uploads and still says which byte: line 1
// (the file as a whole) for GitHub, byteOffset for readers of binary regions.
// The record's length is not known, so byteLength is left out (an insertion
// point at byteOffset).
Json region(std::optional<uint64_t> byte_offset) {
  Json j{{"startLine", 1}};
  if (byte_offset) j["byteOffset"] = *byte_offset;
  return j;
}

Json logical_location(const Location& l) {
  Json j;
  if (has_record(l)) {
    j["name"] = text(record_text(l));
    j["fullyQualifiedName"] = text(l.section.empty() ? record_text(l) : l.section + "/" + record_text(l));
    j["kind"] = l.record_label == "type" ? "type" : "element";
  } else {
    j["name"] = text(l.section);
    j["fullyQualifiedName"] = text(l.section);
    j["kind"] = "section";
  }
  return Json::array({j});
}

Json location(const ReportedInput& input, const std::filesystem::path& cwd, const Location* l) {
  Json j;
  j["physicalLocation"]["artifactLocation"]["uri"] = text(artifact_uri(input.path, cwd));
  j["physicalLocation"]["region"] = region(l ? file_offset(input, *l) : std::nullopt);
  if (l && (has_record(*l) || !l->section.empty())) j["logicalLocations"] = logical_location(*l);
  return j;
}

// The rules that fired (or were counted past the listing limit), in table
// order, with their index in tool.driver.rules.
std::map<const Rule*, size_t> rules_used(std::span<const ReportedInput> inputs) {
  std::set<const Rule*> used;
  for (const auto& input : inputs)
    for (const auto& d : input.diagnostics) {
      if (d.rule) used.insert(d.rule);
      if (d.unlisted_rule) used.insert(d.unlisted_rule);
    }
  std::map<const Rule*, size_t> index;
  for (const Rule* r : all_rules())
    if (used.count(r)) index.emplace(r, index.size());
  // Rules outside the tables (tests' own) still need an entry.
  for (const Rule* r : used)
    if (!index.count(r)) index.emplace(r, index.size());
  return index;
}

std::vector<const Rule*> by_index(const std::map<const Rule*, size_t>& index) {
  std::vector<const Rule*> rules(index.size());
  for (const auto& [rule, i] : index) rules[i] = rule;
  return rules;
}

std::string rule_family(const Rule& r) {
  std::string family(r.id.substr(0, r.id.find('-')));
  for (char& c : family) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return family;
}

Json rule_entry(const Rule& r, const SarifOptions& options) {
  Json j;
  j["id"] = text(r.id);
  j["name"] = text(rule_name(r));
  j["shortDescription"] = message(r.summary);
  j["fullDescription"] = message(r.explanation.empty() ? r.summary : r.explanation);
  j["help"] = {{"text", text(help_text(r))}, {"markdown", text(rule_doc_page(r))}};
  if (!options.homepage.empty()) j["helpUri"] = text(options.homepage + "/docs/rules/" + std::string(r.id) + ".md");
  j["defaultConfiguration"] = {{"level", severity_name(r.severity)}};
  j["properties"] = {{"tags", Json::array({text(rule_family(r))})}};
  return j;
}

Json tool(const std::vector<const Rule*>& rules, const SarifOptions& options) {
  Json driver;
  driver["name"] = "elfmeta";
  driver["version"] = text(options.tool_version);
  driver["semanticVersion"] = text(options.tool_version);
  if (!options.homepage.empty()) driver["informationUri"] = text(options.homepage);
  driver["rules"] = Json::array();
  for (const Rule* r : rules) driver["rules"].push_back(rule_entry(*r, options));
  return Json{{"driver", driver}};
}

Json result(const ReportedInput& input, const Diagnostic& d, size_t rule_index, Fingerprints& fingerprints,
            const std::filesystem::path& cwd) {
  Json j;
  j["ruleId"] = text(d.rule->id);
  j["ruleIndex"] = rule_index;
  j["level"] = severity_name(d.severity);
  j["message"] = message(message_text(d));
  j["locations"] = Json::array({location(input, cwd, &d.location)});
  j["partialFingerprints"] = {{"elfmetaFinding/v1", fingerprints.next(d)}};
  return j;
}

Json results(std::span<const ReportedInput> inputs, const std::map<const Rule*, size_t>& rules,
             const std::filesystem::path& cwd) {
  Json j = Json::array();
  for (const auto& input : inputs) {
    Fingerprints fingerprints;
    for (const auto& d : input.diagnostics)
      if (d.rule) j.push_back(result(input, d, rules.at(d.rule), fingerprints, cwd));
  }
  return j;
}

// Findings without a rule (a check skipped for want of context, the count of
// findings past a listing limit) and inputs that could not be read are
// about the run, not about the inputs: SARIF's tool execution notifications.
Json notifications(std::span<const ReportedInput> inputs, const std::map<const Rule*, size_t>& rules,
                   const std::filesystem::path& cwd) {
  Json list = Json::array();
  for (const auto& input : inputs) {
    if (!input.error.empty()) {
      Json j;
      j["level"] = "error";
      j["message"] = message(input.error);
      if (!input.path.empty()) j["locations"] = Json::array({location(input, cwd, nullptr)});
      list.push_back(std::move(j));
    }
    for (const auto& d : input.diagnostics) {
      if (d.rule) continue;
      Json j;
      j["level"] = severity_name(d.severity);
      j["message"] = message(message_text(d));
      j["locations"] = Json::array({location(input, cwd, &d.location)});
      if (d.unlisted_rule) j["associatedRule"] = {{"id", text(d.unlisted_rule->id)}, {"index", rules.at(d.unlisted_rule)}};
      list.push_back(std::move(j));
    }
  }
  return list;
}

Json run_properties(const RunSummary& s) {
  Json j;
  j["inputs"] = s.inputs;
  j["packages"] = s.packages;
  j["unreadable"] = s.unreadable;
  j["btfNotChecked"] = s.btf_not_checked;
  j["errors"] = s.errors;
  j["warnings"] = s.warnings;
  j["notes"] = s.notes;
  j["kernel"] = text(s.kernel);
  j["consumer"] = text(s.consumer);
  j["perRule"] = Json::object();
  for (const auto& [rule, n] : s.per_rule) j["perRule"][rule] = n;
  return j;
}

}  // namespace

void write_sarif(std::ostream& out, std::span<const ReportedInput> inputs, const RunSummary& s,
                 const SarifOptions& options) {
  const std::filesystem::path cwd =
      options.working_directory.empty() ? std::filesystem::current_path() : std::filesystem::path(options.working_directory);
  const auto rules = rules_used(inputs);
  Json run;
  run["tool"] = tool(by_index(rules), options);
  run["invocations"] = Json::array(
      {Json{{"executionSuccessful", s.unreadable == 0}, {"toolExecutionNotifications", notifications(inputs, rules, cwd)}}});
  run["results"] = results(inputs, rules, cwd);
  run["properties"] = run_properties(s);
  Json doc;
  doc["$schema"] = kSchemaUri;
  doc["version"] = "2.1.0";
  doc["runs"] = Json::array({std::move(run)});
  out << doc.dump(2) << "\n";
}

}  // namespace elfmeta
