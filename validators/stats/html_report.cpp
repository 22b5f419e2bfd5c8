#include "stats/html_report.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "core/report.h"
#include "core/rule.h"
#include "core/rule_docs.h"
#include "core/summary_table.h"

namespace elfmeta::stats {
namespace {

using nlohmann::json;

constexpr std::array<Severity, 3> kSeverities = {Severity::Error, Severity::Warning, Severity::Note};
constexpr size_t kArtifactsCharted = 30;

// The page's static parts. The chart code finds the namespace of <svg> on the
// element itself, so the page holds no URL at all.
constexpr const char* kStyle = R"css(
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; margin-bottom: .2em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
code, .loc { font-family: ui-monospace, monospace; font-size: .92em; overflow-wrap: anywhere; }
.error { color: #b71c1c; } .warning { color: #a05a00; } .note { color: #1565c0; }
.muted { color: #666; }
details { margin: .3em 0; } summary { cursor: pointer; }
svg.chart { max-width: 100%; height: auto; display: block; margin: .5em 0 1em; }
svg text { font: 12px system-ui, sans-serif; fill: #222; }
#render-error { color: #b71c1c; font-weight: bold; }
)css";

constexpr const char* kScript = R"js(
"use strict";
(function () {
  const COLORS = { error: "#c62828", warning: "#ef8f00", note: "#1e88e5", old: "#9e9e9e", new: "#3949ab" };
  COLORS.covered = "#2e7d32";
  COLORS.uncovered = "#cfd8dc";
  const SEVERITIES = [{ key: "error", name: "errors" }, { key: "warning", name: "warnings" }, { key: "note", name: "notes" }];
  const MAX_ROWS = 40;

  // A child of `parent` in its namespace; text always as textContent, never parsed.
  function node(parent, name, attrs, text) {
    const e = document.createElementNS(parent.namespaceURI, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }
  const fmt = n => n.toLocaleString("en-US");
  const shorten = (s, n) => (s.length > n ? s.slice(0, n - 1) + "\u2026" : s);
  const sum = values => values.reduce((a, b) => a + b, 0);

  function legend(svg, series, x0) {
    series.forEach((s, i) => {
      const x = x0 + i * 120;
      node(svg, "rect", { x: x, y: 6, width: 12, height: 12, fill: COLORS[s.key], class: "legend" });
      node(svg, "text", { x: x + 17, y: 16 }, s.name);
    });
  }

  // Horizontal bars, a row per item (rows: [{label, values}], one value per
  // series), the series stacked ("stack") or side by side ("group"). Each bar
  // is a <rect data-chart=...> with its series, label and value.
  function barChart(svg, chart, series, allRows, mode) {
    const rows = allRows.slice(0, MAX_ROWS);
    const labelW = 280, plotW = 450, valueW = 140, legendH = 26, pad = 5, barH = 14;
    const groupH = mode === "group" ? barH * series.length : barH;
    const rowH = groupH + 2 * pad;
    const totals = rows.map(r => (mode === "group" ? Math.max(...r.values) : sum(r.values)));
    const max = Math.max(1, ...totals);
    const footH = allRows.length > rows.length ? 20 : 0;
    const width = labelW + plotW + valueW, height = legendH + Math.max(1, rows.length) * rowH + footH;
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    legend(svg, series, labelW);
    if (!rows.length) node(svg, "text", { x: labelW, y: legendH + 14, class: "muted" }, "nothing to draw");
    rows.forEach((r, i) => {
      const y = legendH + i * rowH + pad;
      const label = node(svg, "text", { x: labelW - 8, y: y + groupH / 2 + 4, "text-anchor": "end" }, shorten(r.label, 40));
      node(label, "title", {}, r.label);
      let x = labelW;
      r.values.forEach((v, j) => {
        if (!v) return;
        const w = Math.max(1, (v / max) * plotW);
        const bar = node(svg, "rect", {
          x: mode === "group" ? labelW : x, y: mode === "group" ? y + j * barH : y,
          width: w, height: mode === "group" ? barH - 1 : barH, fill: COLORS[series[j].key],
          "data-chart": chart, "data-series": series[j].key, "data-label": r.label, "data-value": v,
        });
        node(bar, "title", {}, r.label + " \u2014 " + series[j].name + ": " + fmt(v));
        if (mode === "stack") x += w;
      });
      const value = mode === "group" ? r.values.map(fmt).join(" \u2192 ") : fmt(totals[i]);
      node(svg, "text", { x: labelW + plotW + 8, y: y + groupH / 2 + 4 }, value);
    });
    if (footH) node(svg, "text", { x: labelW, y: height - 6, class: "muted" },
                    (allRows.length - rows.length) + " more not drawn (the tables list them)");
  }

  function bySeverity(item) { return SEVERITIES.map(s => item[s.key]); }

  function draw() {
    const data = JSON.parse(document.getElementById("report-data").textContent);
    const chart = id => document.getElementById("chart-" + id);
    barChart(chart("rules"), "rules", SEVERITIES, data.rules.map(r => ({ label: r.id, values: bySeverity(r) })), "stack");
    barChart(chart("artifacts"), "artifacts", SEVERITIES,
             data.artifacts.map(a => ({ label: a.name, values: bySeverity(a) })), "stack");
    if (data.coverage)
      barChart(chart("coverage"), "coverage", [{ key: "covered", name: "covered" }, { key: "uncovered", name: "not covered" }],
               data.coverage.map(r => ({ label: r.label, values: [r.covered, r.total - r.covered] })), "stack");
    if (!data.baseline) return;
    const sides = [{ key: "old", name: "baseline" }, { key: "new", name: "this run" }];
    for (const c of data.baseline.charts)
      barChart(chart(c.id), c.id, sides, c.rows.map(r => ({ label: r.label, values: [r.old, r.new] })), "group");
  }

  // The browser test reads the outcome from the DOM: "ok", or the error.
  try {
    draw();
    document.body.dataset.rendered = "ok";
  } catch (e) {
    document.body.dataset.rendered = "error";
    const p = document.getElementById("render-error");
    p.textContent = "The charts could not be drawn: " + e;
    p.hidden = false;
  }
})();
)js";

std::string count_text(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Findings of one artifact by severity, those past the check's listing limit included.
struct ArtifactTally {
  const ReportedArtifact* artifact = nullptr;
  std::array<uint64_t, 3> by_severity{};  // indexed by Severity
  uint64_t total() const { return by_severity[0] + by_severity[1] + by_severity[2]; }
};

ArtifactTally tally(const ReportedArtifact& a) {
  ArtifactTally t{&a, {}};
  for (const auto& d : a.diagnostics) {
    if (d.unlisted_rule)
      for (size_t s = 0; s < 3; ++s) t.by_severity[s] += d.unlisted[s];
    if (d.rule) ++t.by_severity[size_t(d.severity)];
  }
  return t;
}

// The artifacts with findings, most first (ties by name: a stable page).
std::vector<ArtifactTally> artifacts_with_findings(const HtmlReport& r) {
  std::vector<ArtifactTally> out;
  for (const auto& a : r.artifacts)
    if (auto t = tally(a); t.total()) out.push_back(t);
  std::stable_sort(out.begin(), out.end(), [](const ArtifactTally& a, const ArtifactTally& b) {
    return a.total() != b.total() ? a.total() > b.total() : a.artifact->name < b.artifact->name;
  });
  return out;
}

json severity_counts(const size_t (&by_severity)[3]) {
  return {{"error", by_severity[size_t(Severity::Error)]},
          {"warning", by_severity[size_t(Severity::Warning)]},
          {"note", by_severity[size_t(Severity::Note)]}};
}

// The findings of every artifact kind together.
Tally all_findings(const SummaryTable& table) {
  Tally all;
  for (const auto& [kind, t] : table.per_kind)
    for (size_t s = 0; s < 3; ++s) all.by_severity[s] += t.by_severity[s];
  return all;
}

size_t total(const Tally& t) { return t.by_severity[0] + t.by_severity[1] + t.by_severity[2]; }

// Rule IDs, most findings first.
std::vector<std::string> rules_by_count(const SummaryTable& table) {
  std::vector<std::string> ids;
  for (const auto& [id, t] : table.per_rule) ids.push_back(id);
  std::stable_sort(ids.begin(), ids.end(), [&](const std::string& a, const std::string& b) {
    return total(table.per_rule.at(a)) > total(table.per_rule.at(b));
  });
  return ids;
}

// One baseline chart: a row per name either side has, biggest first.
json old_new_rows(const std::map<std::string, uint64_t>& old_counts, const std::map<std::string, uint64_t>& new_counts) {
  std::set<std::string> names;
  for (const auto& [k, v] : old_counts) names.insert(k);
  for (const auto& [k, v] : new_counts) names.insert(k);
  auto at = [](const std::map<std::string, uint64_t>& m, const std::string& k) {
    auto it = m.find(k);
    return it == m.end() ? uint64_t(0) : it->second;
  };
  std::vector<std::string> order(names.begin(), names.end());
  std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
    return std::max(at(old_counts, a), at(new_counts, a)) > std::max(at(old_counts, b), at(new_counts, b));
  });
  json rows = json::array();
  for (const auto& name : order) rows.push_back({{"label", name}, {"old", at(old_counts, name)}, {"new", at(new_counts, name)}});
  return rows;
}

// The charts add up the artifact kinds: a package's image and modules
// together, as one would compare two releases.
std::map<std::string, uint64_t> btf_kinds(const Stats& s) {
  std::map<std::string, uint64_t> out;
  for (const auto& [kind, b] : s.btf)
    for (const auto& [k, n] : b.kinds) out[k] += n;
  return out;
}

std::map<std::string, uint64_t> orc_types(const Stats& s) {
  std::map<std::string, uint64_t> out;
  for (const auto& [kind, o] : s.orc)
    for (const auto& [t, n] : o.types) out[t] += n;
  return out;
}

std::map<std::string, uint64_t> findings_per_rule(const Stats& s) {
  std::map<std::string, uint64_t> out;
  for (const auto& [rule, c] : s.findings) out[rule] = c.total();
  return out;
}

// Coverage (coverage/coverage.h) per artifact kind and family: what the
// coverage chart draws, as covered of total.
struct CoverageRow {
  std::string label;
  uint64_t covered = 0, total = 0;
};
std::vector<CoverageRow> coverage_rows(const Stats& s) {
  static constexpr std::pair<const char*, const char*> kFamilies[] = {
      {"functions", "functions with an ABI prototype"}, {"variables", "data symbols with a VAR"},
      {"unwind", "functions unwound throughout"}};
  std::vector<CoverageRow> rows;
  for (const auto& entry : s.coverage) {
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one.
    const auto& kind = entry.first;
    const auto& counts = entry.second;
    auto at = [&](const std::string& k) {
      auto it = counts.find(k);
      return it == counts.end() ? uint64_t(0) : it->second;
    };
    for (const auto& [family, title] : kFamilies)
      if (at(std::string(family) + ".total"))
        rows.push_back({kind + ": " + title, at(std::string(family) + ".covered"), at(std::string(family) + ".total")});
    if (at("unwind.text_bytes"))
      rows.push_back({kind + ": text bytes unwound", at("unwind.covered_bytes"), at("unwind.text_bytes")});
  }
  return rows;
}

struct BaselineChart {
  const char* id;
  const char* title;
  std::map<std::string, uint64_t> (*counts)(const Stats&);
};
constexpr BaselineChart kBaselineCharts[] = {
    {"baseline-btf", "BTF types per kind", btf_kinds},
    {"baseline-orc", "ORC entries per type", orc_types},
    {"baseline-rules", "Findings per rule", findings_per_rule},
};

// Everything the charts draw, and the summary for anyone reading the page's data.
json page_data(const HtmlReport& r, const SummaryTable& table, const std::vector<ArtifactTally>& artifacts) {
  json d;
  const Tally all = all_findings(table);
  d["summary"] = {{"inputs", r.inputs},     {"unreadable", r.unreadable.size()}, {"kernel", r.kernel},
                  {"consumer", r.consumer}, {"artifacts", r.stats.artifacts},    {"findings", severity_counts(all.by_severity)}};
  d["rules"] = json::array();
  for (const auto& id : rules_by_count(table)) {
    const Tally& t = table.per_rule.at(id);
    json rule = severity_counts(t.by_severity);
    rule["id"] = id;
    rule["artifacts"] = t.artifacts;
    d["rules"].push_back(std::move(rule));
  }
  d["artifacts"] = json::array();
  for (size_t i = 0; i < artifacts.size() && i < kArtifactsCharted; ++i) {
    const ArtifactTally& t = artifacts[i];
    d["artifacts"].push_back({{"name", t.artifact->name},
                              {"kind", t.artifact->kind},
                              {"error", t.by_severity[size_t(Severity::Error)]},
                              {"warning", t.by_severity[size_t(Severity::Warning)]},
                              {"note", t.by_severity[size_t(Severity::Note)]}});
  }
  d["coverage"] = nullptr;
  if (const auto rows = coverage_rows(r.stats); !rows.empty()) {
    d["coverage"] = json::array();
    for (const CoverageRow& row : rows)
      d["coverage"].push_back({{"label", row.label}, {"covered", row.covered}, {"total", row.total}});
  }
  d["baseline"] = nullptr;
  if (r.baseline) {
    json charts = json::array();
    for (const auto& c : kBaselineCharts)
      charts.push_back({{"id", c.id}, {"title", c.title}, {"rows", old_new_rows(c.counts(*r.baseline), c.counts(r.stats))}});
    d["baseline"] = {{"label", r.baseline_label}, {"charts", std::move(charts)}};
  }
  return d;
}

// JSON that cannot end or change the <script> element holding it: the HTML
// tokenizer ends script data at "</script" and treats "<!--" specially in
// it. '<' occurs only inside JSON strings, where "<\/" and "\u0021" mean
// what they replace. Invalid UTF-8 (hostile names) becomes U+FFFD instead of
// failing the dump.
std::string script_safe_json(const json& j) {
  const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] != '<' || i + 1 >= text.size()) continue;
    if (text[i + 1] == '/')
      out += '\\';
    else if (text[i + 1] == '!') {
      out += "\\u0021";
      ++i;
    }
  }
  return out;
}

// A fresh nonce per page: only the page's own script runs, even if some
// text got past escaping.
std::string script_nonce() {
  std::random_device rd;
  std::string out;
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 32; ++i) out += kHex[rd() % 16];
  return out;
}

void write_head(std::ostream& out, const std::string& nonce, const std::string& title) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      << "script-src 'nonce-" << nonce << "'\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>" << html_escape(title) << "</title>\n<style>" << kStyle << "</style>\n</head>\n";
}

void write_summary(std::ostream& out, const HtmlReport& r, const SummaryTable& table) {
  const Tally all = all_findings(table);
  const auto& by_severity = all.by_severity;
  out << "<section id=\"summary\">\n<h2>Summary</h2>\n<table>\n";
  out << "<tr><th>Inputs</th><td>";
  for (size_t i = 0; i < r.inputs.size(); ++i) out << (i ? "<br>" : "") << "<code>" << html_escape(r.inputs[i]) << "</code>";
  out << "</td></tr>\n";
  out << "<tr><th>Kernel profile</th><td>" << html_escape(r.kernel) << "</td></tr>\n";
  out << "<tr><th>Consumer</th><td>" << html_escape(r.consumer) << "</td></tr>\n";
  out << "<tr><th>Findings</th><td><span class=\"error\">"
      << count_text(by_severity[size_t(Severity::Error)], "error", "errors") << "</span>, <span class=\"warning\">"
      << count_text(by_severity[size_t(Severity::Warning)], "warning", "warnings") << "</span>, <span class=\"note\">"
      << count_text(by_severity[size_t(Severity::Note)], "note", "notes") << "</span></td></tr>\n";
  if (r.baseline) out << "<tr><th>Baseline</th><td><code>" << html_escape(r.baseline_label) << "</code></td></tr>\n";
  if (!r.unreadable.empty()) {
    out << "<tr><th>Unreadable inputs</th><td class=\"error\">";
    for (size_t i = 0; i < r.unreadable.size(); ++i) out << (i ? "<br>" : "") << html_escape(r.unreadable[i]);
    out << "</td></tr>\n";
  }
  out << "</table>\n<table>\n<tr><th>Artifact kind</th><th>Checked</th><th>With findings</th><th>Errors</th>"
      << "<th>Warnings</th><th>Notes</th></tr>\n";
  for (const auto& [kind, t] : table.per_kind)
    out << "<tr><td>" << html_escape(kind) << "</td><td class=\"n\">" << t.artifacts << "</td><td class=\"n\">"
        << t.with_findings << "</td><td class=\"n\">" << t.by_severity[size_t(Severity::Error)]
        << "</td><td class=\"n\">" << t.by_severity[size_t(Severity::Warning)] << "</td><td class=\"n\">"
        << t.by_severity[size_t(Severity::Note)] << "</td></tr>\n";
  out << "</table>\n</section>\n";
}

// "error", or "error, warning" for a rule reported as both (a consumer that
// does not enforce it turns its errors into warnings).
std::string severities_seen(const Tally& t) {
  std::string out;
  for (Severity s : kSeverities)
    if (t.by_severity[size_t(s)]) out += (out.empty() ? "" : ", ") + std::string(severity_name(s));
  return out;
}

void write_rules(std::ostream& out, const HtmlReport& r, const SummaryTable& table) {
  out << "<section id=\"rules\">\n<h2>Findings per rule</h2>\n"
      << "<svg class=\"chart\" id=\"chart-rules\" role=\"img\" aria-label=\"findings per rule\"></svg>\n";
  if (table.per_rule.empty()) {
    out << "<p>No findings.</p>\n</section>\n";
    return;
  }
  out << "<table>\n<tr><th>Rule</th><th>Severity</th><th>Findings</th><th>Artifacts</th><th>Summary</th></tr>\n";
  for (const auto& id : rules_by_count(table)) {
    const Tally& t = table.per_rule.at(id);
    const Rule* rule = find_rule(id);
    const std::string href = r.rule_docs.empty() ? "#rule-" + id : r.rule_docs + id + ".md";
    out << "<tr><td><a href=\"" << html_escape(href) << "\"><code>" << html_escape(id)
        << "</code></a></td><td>" << severities_seen(t) << "</td><td class=\"n\">" << total(t) << "</td><td class=\"n\">"
        << t.artifacts << "</td><td>" << html_escape(rule ? rule->summary : "") << "</td></tr>\n";
  }
  out << "</table>\n</section>\n";
}

void write_artifact_chart(std::ostream& out, const std::vector<ArtifactTally>& artifacts) {
  out << "<section id=\"artifacts\">\n<h2>Findings per artifact</h2>\n";
  if (artifacts.size() > kArtifactsCharted)
    out << "<p class=\"muted\">The " << kArtifactsCharted << " artifacts with the most findings, of "
        << artifacts.size() << " with findings.</p>\n";
  out << "<svg class=\"chart\" id=\"chart-artifacts\" role=\"img\" aria-label=\"findings per artifact\"></svg>\n"
      << "</section>\n";
}

// How far BTF, symbols and unwind tables stand in for DWARF (elfmeta coverage).
void write_coverage(std::ostream& out, const HtmlReport& r) {
  const auto rows = coverage_rows(r.stats);
  if (rows.empty()) return;
  out << "<section id=\"coverage\">\n<h2>Coverage</h2>\n<p>How far BTF, kallsyms and the unwind tables stand in "
         "for DWARF (<code>elfmeta coverage</code>, docs/coverage.md).</p>\n"
      << "<svg class=\"chart\" id=\"chart-coverage\" role=\"img\" aria-label=\"coverage\"></svg>\n"
      << "<table>\n<tr><th>Of</th><th>Covered</th><th>Total</th><th>%</th></tr>\n";
  for (const CoverageRow& row : rows) {
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.1f", 100.0 * double(row.covered) / double(row.total));
    out << "<tr><td>" << html_escape(row.label) << "</td><td class=\"n\">" << row.covered << "</td><td class=\"n\">"
        << row.total << "</td><td class=\"n\">" << percent << "</td></tr>\n";
  }
  out << "</table>\n</section>\n";
}

void write_baseline(std::ostream& out, const HtmlReport& r) {
  if (!r.baseline) return;
  out << "<section id=\"baseline\">\n<h2>Against the baseline</h2>\n<p>Baseline <code>" << html_escape(r.baseline_label)
      << "</code> (grey) and this run (blue); the charts add up the artifact kinds.</p>\n";
  for (const auto& c : kBaselineCharts)
    out << "<h3>" << c.title << "</h3>\n<svg class=\"chart\" id=\"chart-" << c.id << "\" role=\"img\" aria-label=\""
        << c.title << "\"></svg>\n";
  const auto moved = moved_counts(*r.baseline, r.stats);
  out << "<h3>Counts that moved</h3>\n";
  if (moved.empty()) {
    out << "<p>None: every count equals the baseline's.</p>\n</section>\n";
    return;
  }
  out << "<table id=\"deltas\">\n<tr><th>Count</th><th>Baseline</th><th>This run</th><th>Delta</th></tr>\n";
  for (const auto& m : moved)
    out << "<tr><td><code>" << html_escape(m.path) << "</code></td><td class=\"n\">" << m.old_count
        << "</td><td class=\"n\">" << m.new_count << "</td><td class=\"n\">" << (m.delta() > 0 ? "+" : "") << m.delta()
        << "</td></tr>\n";
  out << "</table>\n</section>\n";
}

// What the findings list leaves out: per rule, how many were past its limit
// (or past the check's own listing limit).
using NotListed = std::map<std::string, uint64_t>;

// Notes without a rule (context that was missing) share one limit under this name.
constexpr const char* kNotesWithoutRule = "notes without a rule";

void write_finding_row(std::ostream& out, const Diagnostic& d) {
  const std::string severity(severity_name(d.severity));
  out << "<tr class=\"" << severity << "\"><td class=\"loc\">" << html_escape(location_text(d.location)) << "</td><td>"
      << severity << "</td><td>" << (d.rule ? "<code>" + html_escape(d.rule->id) + "</code>" : "") << "</td><td>"
      << html_escape(d.message);
  for (const auto& n : d.notes) out << "<br><span class=\"muted\">note: " << html_escape(n) << "</span>";
  out << "</td></tr>\n";
}

// One artifact's findings, collapsed; those past their rule's limit are counted in `not_listed`.
void write_artifact_findings(std::ostream& out, const ArtifactTally& t, bool open, size_t limit,
                             std::map<std::string, size_t>& listed, NotListed& not_listed) {
  const ReportedArtifact& a = *t.artifact;
  out << "<details" << (open ? " open" : "") << "><summary><code>" << html_escape(a.name) << "</code> <span class=\"muted\">("
      << html_escape(a.kind) << ")</span>: ";
  out << "<span class=\"error\">" << count_text(t.by_severity[size_t(Severity::Error)], "error", "errors")
      << "</span>, <span class=\"warning\">" << count_text(t.by_severity[size_t(Severity::Warning)], "warning", "warnings")
      << "</span>, <span class=\"note\">" << count_text(t.by_severity[size_t(Severity::Note)], "note", "notes")
      << "</span></summary>\n<table>\n<tr><th>Where</th><th>Severity</th><th>Rule</th><th>Message</th></tr>\n";
  for (const auto& d : a.diagnostics) {
    if (d.unlisted_rule) not_listed[std::string(d.unlisted_rule->id)] += d.unlisted[0] + d.unlisted[1] + d.unlisted[2];
    if (!d.rule && d.unlisted_rule) continue;
    const std::string key = d.rule ? std::string(d.rule->id) : kNotesWithoutRule;
    if (listed[key] >= limit) {
      ++not_listed[key];
      continue;
    }
    ++listed[key];
    write_finding_row(out, d);
  }
  out << "</table>\n</details>\n";
}

bool has_notes_without_rule(const ReportedArtifact& a) {
  return std::any_of(a.diagnostics.begin(), a.diagnostics.end(),
                     [](const Diagnostic& d) { return !d.rule && !d.unlisted_rule; });
}

void write_findings(std::ostream& out, const HtmlReport& r, const std::vector<ArtifactTally>& with_findings) {
  out << "<section id=\"findings\">\n<h2>Findings</h2>\n";
  // Artifacts with findings first (most first), then those with only notes.
  std::vector<ArtifactTally> listed_artifacts = with_findings;
  for (const auto& a : r.artifacts)
    if (has_notes_without_rule(a) && !tally(a).total()) listed_artifacts.push_back({&a, {}});
  std::map<std::string, size_t> listed;
  NotListed not_listed;
  const bool open = listed_artifacts.size() == 1;
  for (const auto& t : listed_artifacts) write_artifact_findings(out, t, open, r.listed_per_rule, listed, not_listed);
  const size_t quiet = r.artifacts.size() - with_findings.size();
  out << "<p class=\"muted\">" << count_text(quiet, "artifact", "artifacts") << " without findings.</p>\n";
  if (!not_listed.empty()) {
    out << "<p>Not listed (the tables and charts count them): ";
    bool first = true;
    for (const auto& [key, n] : not_listed) {
      out << (first ? "" : "; ") << n << " of <code>" << html_escape(key) << "</code>";
      first = false;
    }
    out << " — at most " << r.listed_per_rule << " are listed per rule.</p>\n";
  }
  out << "</section>\n";
}

}  // namespace

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

// Without a base URL for the rules' pages, their text in the page: the
// rule links then work wherever the page is opened.
void write_rule_texts(std::ostream& out, const HtmlReport& r, const SummaryTable& table) {
  if (!r.rule_docs.empty() || table.per_rule.empty()) return;
  out << "<section id=\"rule-texts\">\n<h2>Rules</h2>\n";
  for (const auto& [id, t] : table.per_rule) {
    const Rule* rule = find_rule(id);
    out << "<details id=\"rule-" << html_escape(id) << "\"><summary><code>" << html_escape(id) << "</code> "
        << html_escape(rule ? rule->summary : "") << "</summary>\n<pre>"
        << html_escape(rule ? rule_doc_page(*rule) : std::string()) << "</pre></details>\n";
  }
  out << "</section>\n";
}

}  // namespace

std::string html_verdict(const HtmlReport& r) {
  SummaryTable table;
  for (const auto& a : r.artifacts) table.add(a.kind, a.diagnostics);
  const Tally all = all_findings(table);
  std::string inputs;
  for (const auto& in : r.inputs) inputs += (inputs.empty() ? "" : ", ") + in;
  std::string out = "elfmeta";
  if (!r.tool_version.empty()) out += " " + r.tool_version;
  out += ": " + count_text(all.by_severity[size_t(Severity::Error)], "error", "errors") + ", " +
         count_text(all.by_severity[size_t(Severity::Warning)], "warning", "warnings") + ", " +
         count_text(all.by_severity[size_t(Severity::Note)], "note", "notes");
  if (!r.unreadable.empty()) out += ", " + count_text(r.unreadable.size(), "unreadable input", "unreadable inputs");
  if (!inputs.empty()) out += " in " + inputs;
  if (!r.date.empty()) out += " (" + r.date + ")";
  return out;
}

void write_html_report(std::ostream& out, const HtmlReport& r) {
  SummaryTable table;
  for (const auto& a : r.artifacts) table.add(a.kind, a.diagnostics);
  const auto with_findings = artifacts_with_findings(r);
  const std::string nonce = script_nonce();
  const std::string verdict = html_verdict(r);
  write_head(out, nonce, verdict);
  out << "<body>\n<h1>" << html_escape(verdict) << "</h1>\n<p id=\"render-error\" hidden></p>\n";
  write_summary(out, r, table);
  write_rules(out, r, table);
  write_artifact_chart(out, with_findings);
  write_coverage(out, r);
  write_baseline(out, r);
  write_findings(out, r, with_findings);
  write_rule_texts(out, r, table);
  out << "<script type=\"application/json\" id=\"report-data\">" << script_safe_json(page_data(r, table, with_findings))
      << "</script>\n<script nonce=\"" << nonce << "\">" << kScript << "</script>\n</body>\n</html>\n";
}

}  // namespace elfmeta::stats
