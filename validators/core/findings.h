// The findings of one artifact's check of one format: diagnostics counted
// per rule, with at most listing_limit() listed per rule (core/
// listing_limit.h: kPerRuleLimit for the text report, so that a hostile
// input stays readable; none for JSON, SARIF, JUnit, stats, diff, report);
// the rest are counted in a closing note. Findings
// of a rule the selected consumer does not enforce become warnings.
#pragma once

#include <map>
#include <string>

#include "core/diagnostic.h"

namespace elfmeta {

// One rule's findings in one check: how many, and how many of each
// severity were past the listing limit.
struct RuleCounts {
  size_t total = 0;
  size_t unlisted[3] = {0, 0, 0};  // by Severity
  // Counts one finding; false when it is past `limit` (then not listed).
  bool add(Severity s, size_t limit) {
    if (++total <= limit) return true;
    ++unlisted[size_t(s)];
    return false;
  }
};

// The closing note of a rule's unlisted findings, which the run summary counts.
Diagnostic unlisted_note(const Rule& rule, const RuleCounts& counts, size_t limit, Location where);

class Findings {
 public:
  Findings(std::string artifact, DiagnosticSink& sink, uint32_t consumer = kNoConsumer)
      : artifact_(std::move(artifact)), sink_(sink), consumer_(consumer) {}

  static constexpr size_t kPerRuleLimit = 100;  // the text report's listing limit

  // `enforced_by`: the consumers that refuse this particular finding, where
  // that is narrower than the rule's (a tie of FDE starts refuses only the
  // kernel's stricter order); `severity` likewise.
  void emit(const Rule& rule, Location loc, std::string message, std::optional<Severity> severity = std::nullopt,
            std::optional<uint32_t> enforced_by = std::nullopt);
  // A note that is not a finding (missing context, counts of benign cases).
  void note(std::string section, std::string message);
  // Reports the findings left unlisted; call once at the end.
  void finish(const std::string& section);
  // Takes over the findings of `other` (same artifact, reported into
  // `listed` on another thread) as if they had been reported here after
  // this one's: counts add up, and the per-rule listing limit applies to
  // both together, in that order.
  void absorb(const Findings& other, std::vector<Diagnostic>& listed);

  const std::string& artifact() const { return artifact_; }
  uint32_t consumer() const { return consumer_; }
  size_t errors() const { return errors_; }
  size_t findings() const { return findings_; }
  size_t count(const Rule& rule) const {
    auto it = per_rule_.find(&rule);
    return it == per_rule_.end() ? 0 : it->second.total;
  }

 private:
  std::string artifact_;
  DiagnosticSink& sink_;
  uint32_t consumer_;
  size_t errors_ = 0;
  size_t findings_ = 0;
  std::map<const Rule*, RuleCounts> per_rule_;
};

}  // namespace elfmeta
