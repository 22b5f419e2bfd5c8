// `elfmeta report`: one self-contained HTML page about a run — the summary,
// the findings per rule and per artifact, and bar charts (findings per rule,
// per artifact, and the counts against a baseline) that inline JavaScript
// draws into <svg> elements from one JSON data block. Nothing is fetched:
// the CSS and the chart code are in the page, and its Content-Security-Policy
// forbids every network request.
//
// Names and messages come from the binaries checked, which may be hostile:
// every one goes through html_escape in the markup and through the
// script-safe JSON encoding in the data block; the chart code only ever sets
// them as textContent.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "stats/stats.h"

namespace elfmeta::stats {

// Text for HTML element content and double- or single-quoted attribute values.
std::string html_escape(std::string_view s);

// One checked artifact as the report lists it.
struct ReportedArtifact {
  std::string name;  // as its diagnostics carry it
  std::string kind;  // "kernel image", "module", ... (the closing table's grouping)
  std::span<const Diagnostic> diagnostics;
};

struct HtmlReport {
  std::vector<std::string> inputs;      // as given on the command line
  std::vector<std::string> unreadable;  // one line per input that could not be read
  std::string kernel;                   // the profiles used, as the summary line says them
  std::string consumer;
  std::vector<ReportedArtifact> artifacts;
  Stats stats;  // of this run
  std::optional<Stats> baseline;
  std::string baseline_label;  // the baseline file, as given
  // The findings list stops after this many of one rule (a rule that fires
  // on every module would otherwise make the page unreadably long); the
  // tables and charts count them all.
  size_t listed_per_rule = 200;
  // Rule IDs link to their page under this prefix (docs/rules/ID.md), an
  // absolute URL so that the link works wherever the page is opened; empty:
  // each rule's text is embedded in the page and the IDs link to it.
  std::string rule_docs;
  // The first line and the title: the verdict, with the tool's version, the
  // inputs and the date.
  std::string tool_version;
  std::string date;  // "2026-11-27 01:20 UTC"
};

// "elfmeta 0.1.0: 0 errors, 944 warnings, 214 notes in vmlinux (2026-11-27 01:20 UTC)"
std::string html_verdict(const HtmlReport& report);

void write_html_report(std::ostream& out, const HtmlReport& report);

}  // namespace elfmeta::stats
