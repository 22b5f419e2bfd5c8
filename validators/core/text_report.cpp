#include "core/text_report.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "core/text.h"

namespace elfmeta {
namespace {

// The findings of one rule at one severity, over every input.
struct RuleGroup {
  const Rule* rule = nullptr;
  Severity severity = Severity::Note;
  size_t count = 0;     // listed and unlisted
  size_t unlisted = 0;  // past the listing limit: counted, never seen here
  std::set<std::string> artifacts;
  std::vector<const Diagnostic*> listed;
};

struct Grouped {
  std::vector<RuleGroup> groups;          // per severity, most findings first
  std::vector<const Diagnostic*> remarks; // notes without a rule: context, skipped checks
};

Grouped group(std::span<const ReportedInput> inputs) {
  Grouped g;
  std::map<std::pair<size_t, const Rule*>, RuleGroup> by_rule;
  auto at = [&](Severity s, const Rule* rule) -> RuleGroup& {
    RuleGroup& r = by_rule[{size_t(s), rule}];
    r.rule = rule;
    r.severity = s;
    return r;
  };
  for (const auto& input : inputs)
    for (const auto& d : input.diagnostics) {
      if (d.unlisted_rule) {
        for (size_t s = 0; s < 3; ++s)
          if (d.unlisted[s]) {
            RuleGroup& r = at(Severity(s), d.unlisted_rule);
            r.count += d.unlisted[s];
            r.unlisted += d.unlisted[s];
            r.artifacts.insert(d.location.artifact);
          }
        continue;
      }
      if (!d.rule) {
        g.remarks.push_back(&d);
        continue;
      }
      RuleGroup& r = at(d.severity, d.rule);
      ++r.count;
      r.artifacts.insert(d.location.artifact);
      r.listed.push_back(&d);
    }
  for (auto& [key, r] : by_rule) g.groups.push_back(std::move(r));
  std::stable_sort(g.groups.begin(), g.groups.end(), [](const RuleGroup& a, const RuleGroup& b) {
    if (a.severity != b.severity) return a.severity > b.severity;  // errors first
    return a.count > b.count;
  });
  return g;
}

std::string plural(size_t n, const char* what) {
  return with_thousands(n) + " " + what + (n == 1 ? "" : "s");
}

// A finding as write_text prints it, indented under its rule.
void write_indented(std::ostream& out, const Diagnostic& d) {
  std::ostringstream text;
  write_text(text, d);
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) out << "  " << line << "\n";
}

// "XC-DEDUP-006: 85 warnings in 80 artifacts: <summary>", then its
// findings: the first three, or (`all`) every listed one; then how many
// more there are and what lists them.
void write_group(std::ostream& out, const RuleGroup& r, bool all) {
  out << r.rule->id << ": " << plural(r.count, severity_name(r.severity).data());
  if (r.artifacts.size() > 1) out << " in " << plural(r.artifacts.size(), "artifact");
  out << ": " << r.rule->summary << "\n";
  const size_t shown = all ? r.listed.size() : std::min(r.listed.size(), kFirstFindingsShown);
  for (size_t i = 0; i < shown; ++i) write_indented(out, *r.listed[i]);
  const size_t rest = r.count - shown;
  if (!rest) return;
  const bool verbose_shows_more = !all && r.listed.size() > shown;
  out << "  ... " << with_thousands(rest) << " more (" << (verbose_shows_more ? "--verbose lists them; " : "")
      << "--format json lists every one)\n";
}

}  // namespace

void write_text_report(std::ostream& out, std::span<const ReportedInput> inputs, const RunSummary& s,
                       const TextReportOptions& options) {
  write_text_summary(out, s);
  if (options.quiet) return;
  const Grouped g = group(inputs);

  // Errors in full (up to the text listing limit of each rule in each
  // artifact), per rule.
  if (s.errors) {
    out << "\n" << plural(s.errors, "error") << ", by rule:\n";
    for (const auto& r : g.groups)
      if (r.severity == Severity::Error) write_group(out, r, true);
  }

  const bool any_warning = std::any_of(g.groups.begin(), g.groups.end(),
                                       [](const RuleGroup& r) { return r.severity == Severity::Warning; });
  if (any_warning) {
    out << "\n" << plural(s.warnings, "warning") << ", by rule:\n";
    for (const auto& r : g.groups)
      if (r.severity == Severity::Warning) write_group(out, r, options.verbose);
  }

  const bool any_note = std::any_of(g.groups.begin(), g.groups.end(),
                                    [](const RuleGroup& r) { return r.severity == Severity::Note; });
  if (!any_note && g.remarks.empty()) return;
  if (options.verbose) {
    if (any_note) out << "\n" << plural(s.notes, "note") << ", by rule:\n";
    for (const auto& r : g.groups)
      if (r.severity == Severity::Note) write_group(out, r, true);
    if (!g.remarks.empty()) out << "\nabout the run:\n";
    for (const Diagnostic* d : g.remarks) write_text(out, *d);
    return;
  }
  // Counted only: "214 notes (XC-DEDUP-005: 213, XC-CONV-001: 1); 2 remarks about the run; --verbose lists them"
  out << "\n";
  std::string parts;
  for (const auto& r : g.groups)
    if (r.severity == Severity::Note) parts += (parts.empty() ? "" : ", ") + std::string(r.rule->id) + ": " + with_thousands(r.count);
  if (any_note) out << plural(s.notes, "note") << " (" << parts << ")";
  if (!g.remarks.empty()) out << (any_note ? "; " : "") << plural(g.remarks.size(), "remark") << " about the run";
  out << "; --verbose lists them\n";
}

}  // namespace elfmeta
