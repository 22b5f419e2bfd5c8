#include "core/findings.h"

#include <algorithm>
#include <atomic>
#include <iterator>

#include "core/listing_limit.h"

namespace elfmeta {

namespace {
std::atomic<size_t> g_listing_limit{Findings::kPerRuleLimit};
}  // namespace

size_t listing_limit() { return g_listing_limit.load(std::memory_order_relaxed); }
void set_listing_limit(size_t limit) { g_listing_limit.store(limit, std::memory_order_relaxed); }

Diagnostic unlisted_note(const Rule& rule, const RuleCounts& counts, size_t limit, Location where) {
  Diagnostic d;
  d.location = std::move(where);
  d.message = std::to_string(counts.total - limit) + " more " + std::string(rule.id) + " findings not listed";
  d.unlisted_rule = &rule;
  std::copy(std::begin(counts.unlisted), std::end(counts.unlisted), d.unlisted);
  return d;
}

void Findings::emit(const Rule& rule, Location loc, std::string message, std::optional<Severity> as,
                    std::optional<uint32_t> enforced_by) {
  const Severity declared = as.value_or(rule.severity);
  Severity severity = declared;
  const bool unenforced = consumer_ != kNoConsumer && !(enforced_by.value_or(rule.enforced_by) & consumer_);
  if (severity == Severity::Error && unenforced) severity = Severity::Warning;
  if (severity == Severity::Error) ++errors_;
  ++findings_;
  if (!per_rule_[&rule].add(severity, listing_limit())) return;
  Diagnostic d;
  d.rule = &rule;
  d.severity = severity;
  d.location = std::move(loc);
  d.message = std::move(message);
  if (!rule.log.empty()) d.notes.push_back(log_note(rule));
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
  const size_t limit = listing_limit();
  for (const auto& [rule, counts] : per_rule_)
    if (counts.total > limit)
      sink_.report(unlisted_note(*rule, counts, limit,
                                 Location{artifact_, section, std::nullopt, "", std::nullopt, "", std::nullopt}));
}

void Findings::absorb(const Findings& other, std::vector<Diagnostic>& listed) {
  const size_t limit = listing_limit();
  for (auto& d : listed)
    if (!d.rule || d.unlisted_rule || per_rule_[d.rule].add(d.severity, limit)) sink_.report(std::move(d));
  listed.clear();
  // What `other` counted without listing: add() above saw only its listed ones.
  for (const auto& [rule, counts] : other.per_rule_) {
    RuleCounts& mine = per_rule_[rule];
    mine.total += counts.total - std::min(counts.total, limit);
    for (size_t s = 0; s < 3; ++s) mine.unlisted[s] += counts.unlisted[s];
  }
  errors_ += other.errors_;
  findings_ += other.findings_;
}

}  // namespace elfmeta
