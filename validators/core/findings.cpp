#include "core/findings.h"

namespace elfmeta {

void Findings::emit(const Rule& rule, Location loc, std::string message, std::optional<Severity> as,
                    std::optional<uint32_t> enforced_by) {
  const Severity declared = as.value_or(rule.severity);
  Severity severity = declared;
  const bool unenforced = consumer_ != kNoConsumer && !(enforced_by.value_or(rule.enforced_by) & consumer_);
  if (severity == Severity::Error && unenforced) severity = Severity::Warning;
  if (severity == Severity::Error) ++errors_;
  ++findings_;
  if (++per_rule_[&rule] > kPerRuleLimit) return;
  Diagnostic d;
  d.rule = &rule;
  d.severity = severity;
  d.location = std::move(loc);
  d.message = std::move(message);
  if (!rule.kernel_log.empty()) d.notes.push_back("kernel log: \"" + std::string(rule.kernel_log) + "\"");
  if (unenforced && declared == Severity::Error)
    d.notes.push_back(std::string(consumer_name(static_cast<Consumer>(consumer_))) + " accepts this");
  sink_.report(std::move(d));
}

void Findings::note(std::string section, std::string message) {
  Diagnostic d;
  d.location = Location{artifact_, std::move(section), std::nullopt, "", std::nullopt, "", std::nullopt};
  d.message = std::move(message);
  sink_.report(std::move(d));
}

void Findings::finish(const std::string& section) {
  for (const auto& [rule, count] : per_rule_)
    if (count > kPerRuleLimit)
      note(section, std::to_string(count - kPerRuleLimit) + " more " + std::string(rule->id) + " findings not listed");
}

}  // namespace elfmeta
