// SARIF 2.1.0 for GitHub code scanning (docs/ci.md). elfmeta's findings are
// in binary files, which code scanning was not made for: see
// binary_region() and fingerprint_key() for how they are placed.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <set>

#include "core/report.h"
#include "core/rule_docs.h"

namespace elfmeta {
namespace {

constexpr std::string_view kSchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

// Writes indented JSON: it places the commas and the line breaks; the caller
// says what goes where. Separate names per value type, because a string
// literal would otherwise convert to bool rather than to string_view.
class JsonOut {
 public:
  explicit JsonOut(std::ostream& out) : out_(out) {}
  // An empty key opens an array element.
  void open(std::string_view key, char bracket) {
    element(key);
    out_ << bracket;
    first_.push_back(true);
  }
  void close(char bracket) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ << bracket;
  }
  void text(std::string_view key, std::string_view value) {
    element(key);
    out_ << '"' << json_escape(value) << '"';
  }
  void number(std::string_view key, uint64_t value) {
    element(key);
    out_ << value;
  }
  void boolean(std::string_view key, bool value) {
    element(key);
    out_ << (value ? "true" : "false");
  }
  void message(std::string_view key, std::string_view text_value) {
    open(key, '{');
    text("text", text_value);
    close('}');
  }
  void finish() { out_ << "\n"; }

 private:
  void element(std::string_view key) {
    if (!first_.empty()) {
      if (!first_.back()) out_ << ',';
      first_.back() = false;
      newline();
    }
    if (!key.empty()) out_ << '"' << json_escape(key) << "\": ";
  }
  void newline() { out_ << '\n' << std::string(2 * first_.size(), ' '); }

  std::ostream& out_;
  std::vector<bool> first_;
};

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
  if (!r.kernel_log.empty()) s += "Kernel log: " + std::string(r.kernel_log) + "\n";
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
void write_region(JsonOut& j, std::optional<uint64_t> byte_offset) {
  j.open("region", '{');
  j.number("startLine", 1);
  if (byte_offset) j.number("byteOffset", *byte_offset);
  j.close('}');
}

void write_logical_location(JsonOut& j, const Location& l) {
  if (!has_record(l) && l.section.empty()) return;
  j.open("logicalLocations", '[');
  j.open("", '{');
  if (has_record(l)) {
    j.text("name", record_text(l));
    j.text("fullyQualifiedName", l.section.empty() ? record_text(l) : l.section + "/" + record_text(l));
    j.text("kind", l.record_label == "type" ? "type" : "element");
  } else {
    j.text("name", l.section);
    j.text("fullyQualifiedName", l.section);
    j.text("kind", "section");
  }
  j.close('}');
  j.close(']');
}

void write_location(JsonOut& j, const ReportedInput& input, const std::filesystem::path& cwd, const Location* l) {
  j.open("", '{');
  j.open("physicalLocation", '{');
  j.open("artifactLocation", '{');
  j.text("uri", artifact_uri(input.path, cwd));
  j.close('}');
  write_region(j, l ? file_offset(input, *l) : std::nullopt);
  j.close('}');
  if (l) write_logical_location(j, *l);
  j.close('}');
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

void write_rule(JsonOut& j, const Rule& r, const SarifOptions& options) {
  j.open("", '{');
  j.text("id", r.id);
  j.text("name", rule_name(r));
  j.message("shortDescription", r.summary);
  j.message("fullDescription", r.explanation.empty() ? r.summary : r.explanation);
  j.open("help", '{');
  j.text("text", help_text(r));
  j.text("markdown", rule_doc_page(r));
  j.close('}');
  if (!options.homepage.empty()) j.text("helpUri", options.homepage + "/docs/rules/" + std::string(r.id) + ".md");
  j.open("defaultConfiguration", '{');
  j.text("level", severity_name(r.severity));
  j.close('}');
  j.open("properties", '{');
  j.open("tags", '[');
  j.text("", rule_family(r));
  j.close(']');
  j.close('}');
  j.close('}');
}

void write_driver(JsonOut& j, const std::vector<const Rule*>& rules, const SarifOptions& options) {
  j.open("tool", '{');
  j.open("driver", '{');
  j.text("name", "elfmeta");
  j.text("version", options.tool_version);
  j.text("semanticVersion", options.tool_version);
  if (!options.homepage.empty()) j.text("informationUri", options.homepage);
  j.open("rules", '[');
  for (const Rule* r : rules) write_rule(j, *r, options);
  j.close(']');
  j.close('}');
  j.close('}');
}

void write_result(JsonOut& j, const ReportedInput& input, const Diagnostic& d, size_t rule_index,
                  Fingerprints& fingerprints, const std::filesystem::path& cwd) {
  j.open("", '{');
  j.text("ruleId", d.rule->id);
  j.number("ruleIndex", rule_index);
  j.text("level", severity_name(d.severity));
  j.message("message", message_text(d));
  j.open("locations", '[');
  write_location(j, input, cwd, &d.location);
  j.close(']');
  j.open("partialFingerprints", '{');
  j.text("elfmetaFinding/v1", fingerprints.next(d));
  j.close('}');
  j.close('}');
}

void write_results(JsonOut& j, std::span<const ReportedInput> inputs, const std::map<const Rule*, size_t>& rules,
                   const std::filesystem::path& cwd) {
  j.open("results", '[');
  for (const auto& input : inputs) {
    Fingerprints fingerprints;
    for (const auto& d : input.diagnostics)
      if (d.rule) write_result(j, input, d, rules.at(d.rule), fingerprints, cwd);
  }
  j.close(']');
}

// Findings without a rule (a check skipped for want of context, the count of
// findings past the listing limit) and inputs that could not be read are
// about the run, not about the inputs: SARIF's tool execution notifications.
void write_notifications(JsonOut& j, std::span<const ReportedInput> inputs, const std::map<const Rule*, size_t>& rules,
                         const std::filesystem::path& cwd) {
  j.open("toolExecutionNotifications", '[');
  for (const auto& input : inputs) {
    if (!input.error.empty()) {
      j.open("", '{');
      j.text("level", "error");
      j.message("message", input.error);
      if (!input.path.empty()) {
        j.open("locations", '[');
        write_location(j, input, cwd, nullptr);
        j.close(']');
      }
      j.close('}');
    }
    for (const auto& d : input.diagnostics) {
      if (d.rule) continue;
      j.open("", '{');
      j.text("level", severity_name(d.severity));
      j.message("message", message_text(d));
      j.open("locations", '[');
      write_location(j, input, cwd, &d.location);
      j.close(']');
      if (d.unlisted_rule) {
        j.open("associatedRule", '{');
        j.text("id", d.unlisted_rule->id);
        j.number("index", rules.at(d.unlisted_rule));
        j.close('}');
      }
      j.close('}');
    }
  }
  j.close(']');
}

void write_invocation(JsonOut& j, std::span<const ReportedInput> inputs, const RunSummary& s,
                      const std::map<const Rule*, size_t>& rules, const std::filesystem::path& cwd) {
  j.open("invocations", '[');
  j.open("", '{');
  j.boolean("executionSuccessful", s.unreadable == 0);
  write_notifications(j, inputs, rules, cwd);
  j.close('}');
  j.close(']');
}

void write_run_properties(JsonOut& j, const RunSummary& s) {
  j.open("properties", '{');
  j.number("inputs", s.inputs);
  j.number("unreadable", s.unreadable);
  j.number("btfNotChecked", s.btf_not_checked);
  j.number("errors", s.errors);
  j.number("warnings", s.warnings);
  j.text("kernel", s.kernel);
  j.text("consumer", s.consumer);
  j.open("perRule", '{');
  for (const auto& [rule, n] : s.per_rule) j.number(rule, n);
  j.close('}');
  j.close('}');
}

}  // namespace

void write_sarif(std::ostream& out, std::span<const ReportedInput> inputs, const RunSummary& s,
                 const SarifOptions& options) {
  const std::filesystem::path cwd =
      options.working_directory.empty() ? std::filesystem::current_path() : std::filesystem::path(options.working_directory);
  const auto rules = rules_used(inputs);
  JsonOut j(out);
  j.open("", '{');
  j.text("$schema", kSchemaUri);
  j.text("version", "2.1.0");
  j.open("runs", '[');
  j.open("", '{');
  write_driver(j, by_index(rules), options);
  write_invocation(j, inputs, s, rules, cwd);
  write_results(j, inputs, rules, cwd);
  write_run_properties(j, s);
  j.close('}');
  j.close(']');
  j.close('}');
  j.finish();
}

}  // namespace elfmeta
