#include "orc/orc_findings.h"

#include "orc/orc_format.h"

namespace elfmeta::orc {

void OrcFindings::emit(const Rule& rule, Location loc, std::string message) {
  if (rule.severity == Severity::Error) ++errors_;
  ++findings_;
  if (++per_rule_[&rule] > kPerRuleLimit) return;
  Diagnostic d;
  d.rule = &rule;
  d.severity = rule.severity;
  d.location = std::move(loc);
  d.message = std::move(message);
  if (!rule.kernel_log.empty()) d.notes.push_back("kernel log: \"" + std::string(rule.kernel_log) + "\"");
  sink_.report(std::move(d));
}

void OrcFindings::at_section(const Rule& rule, const std::string& section, std::optional<uint64_t> offset,
                             std::string message) {
  emit(rule, Location{artifact_, section, offset, "", std::nullopt, "", std::nullopt}, std::move(message));
}

void OrcFindings::at_entry(const Rule& rule, size_t index, std::string message) {
  Location loc{artifact_, ".orc_unwind", uint64_t(index) * kEntrySize, "entry", index, "", std::nullopt};
  if (describe_entry) {
    auto [kind, place] = describe_entry(index);
    loc.record_kind = std::move(kind);
    if (!place.empty()) loc.record_name = std::move(place);
  }
  emit(rule, std::move(loc), std::move(message));
}

void OrcFindings::note(std::string message) {
  Diagnostic d;
  d.location = Location{artifact_, ".orc_unwind", std::nullopt, "", std::nullopt, "", std::nullopt};
  d.message = std::move(message);
  sink_.report(std::move(d));
}

void OrcFindings::finish() {
  for (const auto& [rule, count] : per_rule_)
    if (count > kPerRuleLimit)
      note(std::to_string(count - kPerRuleLimit) + " more " + std::string(rule->id) + " findings not listed");
}

}  // namespace elfmeta::orc
