// The text report of a run, verdict first: the summary line (what was
// checked, the three counts, the profile of each format that applied);
// then the errors per rule, each rule's count and its findings in full; then
// the warnings per rule, each rule's count and its first three findings; then the notes, counted, and
// listed with --verbose. --quiet stops after the summary.
#pragma once

#include <ostream>
#include <span>

#include "core/report.h"

namespace elfmeta {

struct TextReportOptions {
  bool verbose = false;  // every listed warning, and the notes
  bool quiet = false;    // the summary alone
};

// How many findings of a rule the report shows without --verbose.
inline constexpr size_t kFirstFindingsShown = 3;

void write_text_report(std::ostream& out, std::span<const ReportedInput> inputs, const RunSummary& s,
                       const TextReportOptions& options);

}  // namespace elfmeta
