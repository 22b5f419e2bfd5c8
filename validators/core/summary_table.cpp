#include "core/summary_table.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "core/rule.h"

namespace elfmeta {

void SummaryTable::add(const std::string& kind, std::span<const Diagnostic> diagnostics) {
  Tally& k = per_kind[kind];
  ++k.artifacts;
  std::set<std::string> rules_seen;
  bool any = false;
  auto count = [&](const Rule& rule, size_t severity, size_t n) {
    if (!n) return;
    Tally& r = per_rule[std::string(rule.id)];
    r.by_severity[severity] += n;
    k.by_severity[severity] += n;
    any = true;
    if (rules_seen.insert(std::string(rule.id)).second) ++r.artifacts;
  };
  for (const auto& d : diagnostics) {
    if (d.unlisted_rule)
      for (size_t s = 0; s < 3; ++s) count(*d.unlisted_rule, s, d.unlisted[s]);
    if (d.rule) count(*d.rule, static_cast<size_t>(d.severity), 1);
  }
  if (any) ++k.with_findings;
}

namespace {

void write_row(std::ostream& out, const std::string& label, size_t width, const Tally& t, bool per_kind) {
  char line[256];
  std::snprintf(line, sizeof line, "  %-*s %9zu %9zu %9zu %9zu", static_cast<int>(width), label.c_str(),
                t.artifacts, t.by_severity[size_t(Severity::Error)],
                t.by_severity[size_t(Severity::Warning)], t.by_severity[size_t(Severity::Note)]);
  out << line;
  if (per_kind) out << "  (" << t.with_findings << " with findings)";
  out << "\n";
}

}  // namespace

void write_summary_table(std::ostream& out, const SummaryTable& table) {
  size_t width = 12;
  for (const auto& [k, t] : table.per_kind) width = std::max(width, k.size());
  for (const auto& [r, t] : table.per_rule) width = std::max(width, r.size());
  char head[256];
  std::snprintf(head, sizeof head, "  %-*s %9s %9s %9s %9s\n", static_cast<int>(width), "artifact kind", "checked",
                "errors", "warnings", "notes");
  out << head;
  for (const auto& [kind, t] : table.per_kind) write_row(out, kind, width, t, true);
  if (table.per_rule.empty()) return;
  std::snprintf(head, sizeof head, "  %-*s %9s %9s %9s %9s\n", static_cast<int>(width), "rule", "artifacts", "errors",
                "warnings", "notes");
  out << head;
  for (const auto& [rule, t] : table.per_rule) write_row(out, rule, width, t, false);
}

}  // namespace elfmeta
