#include "core/report.h"

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "core/utf8.h"

namespace elfmeta {

using Json = nlohmann::ordered_json;

std::string json_escape(std::string_view s) {
  const std::string quoted = Json(valid_utf8(s)).dump();
  return quoted.substr(1, quoted.size() - 2);
}

std::string location_text(const Location& l) {
  std::string s = l.artifact;
  if (!l.section.empty()) s += ":" + l.section;
  if (l.offset) s += "+" + hex(*l.offset);
  if (!l.record_label.empty() && l.index) {
    s += " [" + l.record_label + " " + std::to_string(*l.index);
    if (!l.record_kind.empty()) s += " " + l.record_kind;
    if (l.record_name) s += " '" + *l.record_name + "'";
    s += "]";
  }
  return s;
}

void write_text(std::ostream& out, const Diagnostic& d) {
  out << location_text(d.location) << ": " << severity_name(d.severity) << ": " << d.message;
  if (d.rule) out << " [" << d.rule->id << "]";
  out << "\n";
  for (const auto& n : d.notes) out << "    note: " << n << "\n";
}

namespace {

Json optional_number(const std::optional<uint64_t>& v) { return v ? Json(*v) : Json(nullptr); }

}  // namespace

void write_json(std::ostream& out, const Diagnostic& d) {
  const Location& l = d.location;
  Json j;
  j["type"] = "diagnostic";
  j["rule"] = d.rule ? Json(std::string(d.rule->id)) : Json(nullptr);
  j["severity"] = severity_name(d.severity);
  j["artifact"] = valid_utf8(l.artifact);
  j["section"] = valid_utf8(l.section);
  j["offset"] = optional_number(l.offset);
  j["index"] = optional_number(l.index);
  if (!l.record_kind.empty()) j["kind"] = valid_utf8(l.record_kind);
  if (l.record_name) j["name"] = valid_utf8(*l.record_name);
  j["message"] = valid_utf8(d.message);
  j["notes"] = Json::array();
  for (const auto& n : d.notes) j["notes"].push_back(valid_utf8(n));
  out << j.dump() << "\n";
}

void RunSummary::add(const std::vector<Diagnostic>& diagnostics) {
  auto count = [&](Severity s, size_t n) {
    (s == Severity::Error ? errors : s == Severity::Warning ? warnings : notes) += n;
  };
  for (const auto& d : diagnostics) {
    if (d.unlisted_rule) {
      for (size_t s = 0; s < 3; ++s) count(Severity(s), d.unlisted[s]);
      per_rule[std::string(d.unlisted_rule->id)] += d.unlisted[0] + d.unlisted[1] + d.unlisted[2];
    }
    if (!d.rule) continue;
    count(d.severity, 1);
    ++per_rule[std::string(d.rule->id)];
  }
}

namespace {

std::string counted(size_t n, const char* one, const char* many) {
  return with_thousands(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string summary_counts(const RunSummary& s) {
  std::string out;
  if (s.packages) out = counted(s.packages, "package", "packages") + ", ";
  out += counted(s.inputs, s.packages ? "artifact" : "input", s.packages ? "artifacts" : "inputs");
  if (s.unreadable) out += " (" + with_thousands(s.unreadable) + " unreadable)";
  out += ", " + counted(s.errors, "error", "errors") + ", " + counted(s.warnings, "warning", "warnings") + ", " +
         counted(s.notes, "note", "notes");
  return out;
}

std::string summary_profiles(const RunSummary& s) {
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : "; ") + part; };
  if (s.btf) add("BTF: kernel " + s.kernel + ", consumer " + s.consumer);
  if (s.orc) add("ORC: kernel " + s.kernel);
  if (s.sframe) add("SFrame: consumer " + (s.sframe_consumer.empty() ? std::string("any") : s.sframe_consumer));
  return out;
}

void write_text_summary(std::ostream& out, const RunSummary& s) {
  out << "elfmeta: " << summary_counts(s);
  if (const std::string profiles = summary_profiles(s); !profiles.empty()) out << " (" << profiles << ")";
  out << "\n";
  if (s.btf_not_checked)
    out << "elfmeta: NOT CHECKED: the split BTF of " << s.btf_not_checked << (s.btf_not_checked == 1 ? " module" : " modules")
        << " (its base was not given, or is not the one it was built on: XC-CTX-002; the notes say which package "
           "is needed)\n";
}

void write_json_summary(std::ostream& out, const RunSummary& s) {
  Json j;
  j["type"] = "summary";
  j["inputs"] = s.inputs;
  j["packages"] = s.packages;
  j["unreadable"] = s.unreadable;
  j["errors"] = s.errors;
  j["warnings"] = s.warnings;
  j["notes"] = s.notes;
  j["btf_not_checked"] = s.btf_not_checked;
  j["kernel"] = valid_utf8(s.kernel);
  j["consumer"] = valid_utf8(s.consumer);
  j["formats"] = Json::array();
  if (s.btf) j["formats"].push_back("BTF");
  if (s.orc) j["formats"].push_back("ORC");
  if (s.sframe) j["formats"].push_back("SFrame");
  j["per_rule"] = Json::object();
  for (const auto& [rule, n] : s.per_rule) j["per_rule"][rule] = n;
  out << j.dump() << "\n";
}

}  // namespace elfmeta
