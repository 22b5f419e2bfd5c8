// The table that closes a run over many artifacts (a kernel package: one
// image and a thousand modules): findings per artifact kind and per rule, by
// severity, with how many artifacts each touches.
#pragma once

#include <map>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "core/diagnostic.h"

namespace elfmeta {

struct Tally {
  size_t artifacts = 0;  // per kind: checked; per rule: with at least one finding of it
  size_t with_findings = 0;
  size_t by_severity[3] = {0, 0, 0};  // indexed by Severity
};

struct SummaryTable {
  std::map<std::string, Tally> per_kind;  // "kernel image", "module", ...
  std::map<std::string, Tally> per_rule;  // rule ID
  // One checked artifact of `kind` and its diagnostics (counts past the
  // listing limit included).
  void add(const std::string& kind, std::span<const Diagnostic> diagnostics);
};

void write_summary_table(std::ostream& out, const SummaryTable& table);

}  // namespace elfmeta
