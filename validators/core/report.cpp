#include "core/report.h"

#include <cstdio>

#include "core/text.h"

namespace elfmeta {

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

std::string location_text(const Location& l) {
  std::string s = l.artifact;
  if (!l.section.empty()) s += ":" + l.section;
  if (l.offset) s += (l.section.empty() ? "+" : "+") + hex(*l.offset);
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

void write_json(std::ostream& out, const Diagnostic& d) {
  const Location& l = d.location;
  out << "{\"type\":\"diagnostic\",\"rule\":" << (d.rule ? "\"" + std::string(d.rule->id) + "\"" : "null")
      << ",\"severity\":\"" << severity_name(d.severity) << "\",\"artifact\":\"" << json_escape(l.artifact)
      << "\",\"section\":\"" << json_escape(l.section) << "\",\"offset\":"
      << (l.offset ? std::to_string(*l.offset) : "null") << ",\"index\":" << (l.index ? std::to_string(*l.index) : "null");
  if (!l.record_kind.empty()) out << ",\"kind\":\"" << json_escape(l.record_kind) << "\"";
  if (l.record_name) out << ",\"name\":\"" << json_escape(*l.record_name) << "\"";
  out << ",\"message\":\"" << json_escape(d.message) << "\",\"notes\":[";
  for (size_t i = 0; i < d.notes.size(); ++i) out << (i ? "," : "") << "\"" << json_escape(d.notes[i]) << "\"";
  out << "]}\n";
}

void RunSummary::add(const std::vector<Diagnostic>& diagnostics) {
  for (const auto& d : diagnostics) {
    if (d.unlisted_rule) {
      errors += d.unlisted[size_t(Severity::Error)];
      warnings += d.unlisted[size_t(Severity::Warning)];
      per_rule[std::string(d.unlisted_rule->id)] +=
          d.unlisted[0] + d.unlisted[1] + d.unlisted[2];
    }
    if (!d.rule) continue;
    if (d.severity == Severity::Error) ++errors;
    if (d.severity == Severity::Warning) ++warnings;
    ++per_rule[std::string(d.rule->id)];
  }
}

void write_text_summary(std::ostream& out, const RunSummary& s) {
  out << "elfmeta: " << s.inputs << (s.inputs == 1 ? " input" : " inputs");
  if (s.unreadable) out << " (" << s.unreadable << " unreadable)";
  out << ", " << s.errors << (s.errors == 1 ? " error" : " errors") << ", " << s.warnings
      << (s.warnings == 1 ? " warning" : " warnings") << " (kernel " << s.kernel << ", consumer " << s.consumer << ")\n";
  if (s.btf_not_checked)
    out << "elfmeta: NOT CHECKED: the split BTF of " << s.btf_not_checked << (s.btf_not_checked == 1 ? " module" : " modules")
        << " (its base was not given; the notes say which package is needed)\n";
  for (const auto& [rule, n] : s.per_rule) out << "  " << rule << ": " << n << "\n";
}

void write_json_summary(std::ostream& out, const RunSummary& s) {
  out << "{\"type\":\"summary\",\"inputs\":" << s.inputs << ",\"unreadable\":" << s.unreadable
      << ",\"errors\":" << s.errors << ",\"warnings\":" << s.warnings << ",\"btf_not_checked\":" << s.btf_not_checked
      << ",\"kernel\":\"" << json_escape(s.kernel)
      << "\",\"consumer\":\"" << json_escape(s.consumer) << "\",\"per_rule\":{";
  bool first = true;
  for (const auto& [rule, n] : s.per_rule) {
    out << (first ? "" : ",") << "\"" << rule << "\":" << n;
    first = false;
  }
  out << "}}\n";
}

}  // namespace elfmeta
