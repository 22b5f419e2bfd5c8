// JUnit XML (the Ant/Jenkins de-facto schema) for CI test viewers.
//
// One testcase per rule that fired in an input, not one per finding: a
// kernel image can have thousands of findings of one rule, and a viewer that
// lists thousands of failed "tests" buries the three rules that broke. A
// testcase named by the rule id is also the same test from one build to the
// next, so a viewer's history of it means something; a finding's type id or
// offset shifts between builds. The testcase's failure text lists the
// findings themselves, as the text format prints them.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "core/report.h"
#include "core/text.h"
#include "core/utf8.h"

namespace elfmeta {

// UTF-8 as is; what XML 1.0 cannot carry, not even as a character
// reference (control characters, U+FFFE, U+FFFF), and bytes that are not
// UTF-8 (names in BTF are bytes) as the four characters \xNN, as
// valid_utf8() writes them for JSON.
std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  auto raw_byte = [&](unsigned char c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    out += buf;
  };
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const size_t n = utf8_sequence_length(s, i);
      const bool non_character = n == 3 && c == 0xef && static_cast<unsigned char>(s[i + 1]) == 0xbf &&
                                 static_cast<unsigned char>(s[i + 2]) >= 0xbe;
      if (n && !non_character) {
        out.append(s.substr(i, n));
        i += n;
      } else {
        raw_byte(c);
        ++i;
      }
      continue;
    }
    ++i;
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      // Character references, so that attribute values keep them too.
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      case '\t': out += "&#9;"; break;
      default:
        if (c < 0x20 || c == 0x7f)
          raw_byte(c);
        else
          out += static_cast<char>(c);
    }
  }
  return out;
}

namespace {

// The findings of one rule in one input.
struct RuleOutcome {
  const Rule* rule = nullptr;
  size_t errors = 0, warnings = 0, notes = 0;
  std::string text;  // the findings as the text format prints them
};

std::vector<RuleOutcome> outcomes_by_rule(const ReportedInput& input) {
  std::vector<RuleOutcome> outcomes;
  for (const auto& d : input.diagnostics) {
    if (!d.rule) continue;
    auto it = std::find_if(outcomes.begin(), outcomes.end(), [&](const RuleOutcome& o) { return o.rule == d.rule; });
    if (it == outcomes.end()) {
      it = outcomes.insert(outcomes.end(), RuleOutcome{});
      it->rule = d.rule;
    }
    ++(d.severity == Severity::Error ? it->errors : d.severity == Severity::Warning ? it->warnings : it->notes);
    std::ostringstream text;
    write_text(text, d);
    it->text += text.str();
  }
  return outcomes;
}

bool fails(const RuleOutcome& o, bool werror) { return o.errors || (werror && o.warnings); }

std::string count_text(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// "2 errors, 1 warning: member ends past the struct size"
std::string failure_message(const RuleOutcome& o) {
  std::string counts;
  if (o.errors) counts = count_text(o.errors, "error");
  if (o.warnings) counts += (counts.empty() ? "" : ", ") + count_text(o.warnings, "warning");
  return counts + ": " + std::string(o.rule->summary);
}

std::string classname_of(const Rule& r) {
  std::string family(r.id.substr(0, r.id.find('-')));
  for (char& c : family) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return family;
}

void write_rule_testcase(std::ostream& out, const RuleOutcome& o, bool werror) {
  out << "    <testcase classname=\"" << xml_escape(classname_of(*o.rule)) << "\" name=\"" << xml_escape(o.rule->id)
      << "\">\n";
  if (fails(o, werror))
    out << "      <failure type=\"" << (o.errors ? "error" : "warning") << "\" message=\""
        << xml_escape(failure_message(o)) << "\">" << xml_escape(o.text) << "</failure>\n";
  else
    out << "      <system-out>" << xml_escape(o.text) << "</system-out>\n";
  out << "    </testcase>\n";
}

// What is said about an input without a rule ("no symbols: ORC symbol
// checks skipped"), for the testsuite's output.
std::string notes_text(const ReportedInput& input) {
  std::ostringstream text;
  for (const auto& d : input.diagnostics)
    if (!d.rule) write_text(text, d);
  return text.str();
}

void write_property(std::ostream& out, std::string_view name, std::string_view value) {
  if (!value.empty())
    out << "      <property name=\"" << xml_escape(name) << "\" value=\"" << xml_escape(value) << "\"/>\n";
}

struct SuiteCounts {
  size_t tests = 0, failures = 0, errors = 0;
};

SuiteCounts write_unreadable_suite(std::ostream& out, const ReportedInput& input, const std::string& name) {
  out << "  <testsuite name=\"" << xml_escape(name) << "\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
      << "    <testcase classname=\"elfmeta\" name=\"read\">\n"
      << "      <error type=\"unreadable\" message=\"" << xml_escape(input.error) << "\"/>\n"
      << "    </testcase>\n  </testsuite>\n";
  return {1, 0, 1};
}

SuiteCounts write_suite(std::ostream& out, const ReportedInput& input, const std::string& name, const RunSummary& s,
                        bool werror) {
  if (!input.error.empty()) return write_unreadable_suite(out, input, name);
  const auto outcomes = outcomes_by_rule(input);
  SuiteCounts counts;
  counts.tests = outcomes.empty() ? 1 : outcomes.size();
  for (const auto& o : outcomes) counts.failures += fails(o, werror);
  out << "  <testsuite name=\"" << xml_escape(name) << "\" tests=\"" << counts.tests << "\" failures=\""
      << counts.failures << "\" errors=\"0\" skipped=\"0\">\n    <properties>\n";
  write_property(out, "path", input.path);
  write_property(out, "kernel", input.kernel);
  if (s.btf) write_property(out, "consumer", s.consumer);  // BTF's consumer: only where BTF applied
  out << "    </properties>\n";
  // A clean input still shows up as checked.
  if (outcomes.empty()) out << "    <testcase classname=\"elfmeta\" name=\"no findings\"/>\n";
  for (const auto& o : outcomes) write_rule_testcase(out, o, werror);
  if (const std::string notes = notes_text(input); !notes.empty())
    out << "    <system-out>" << xml_escape(notes) << "</system-out>\n";
  out << "  </testsuite>\n";
  return counts;
}

// A testsuite is named by its artifact, or by its path where two inputs
// share a name (vmlinux of two builds); an unreadable input by its error,
// which names the path.
std::vector<std::string> suite_names(std::span<const ReportedInput> inputs) {
  std::map<std::string, size_t> uses;
  for (const auto& input : inputs) ++uses[input.name];
  std::vector<std::string> names;
  for (const auto& input : inputs) {
    if (!input.error.empty())
      names.push_back(input.path.empty() ? input.error : input.path);
    else
      names.push_back(uses[input.name] > 1 ? input.path : input.name);
  }
  return names;
}

}  // namespace

void write_junit(std::ostream& out, std::span<const ReportedInput> inputs, const RunSummary& s, bool werror) {
  // Suites first, so that the totals of the root element are known.
  std::ostringstream suites;
  SuiteCounts total;
  const auto names = suite_names(inputs);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const SuiteCounts c = write_suite(suites, inputs[i], names[i], s, werror);
    total.tests += c.tests;
    total.failures += c.failures;
    total.errors += c.errors;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"elfmeta\" tests=\"" << total.tests
      << "\" failures=\"" << total.failures << "\" errors=\"" << total.errors << "\">\n"
      << suites.str() << "</testsuites>\n";
}

}  // namespace elfmeta
