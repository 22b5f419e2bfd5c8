#include "btf/findings.h"

#include "core/listing_limit.h"
#include "core/text.h"

namespace elfmeta::btf {

Severity Findings::effective(const Rule& rule) const {
  if (rule.severity == Severity::Error && !(rule.enforced_by & enforcing())) return Severity::Warning;
  if (rule.severity == Severity::Error && ctx_.kernel.lacks_check(rule)) return Severity::Warning;
  return rule.severity;
}

void Findings::emit(const Rule& rule, Location loc, std::string message) {
  Diagnostic d;
  d.rule = &rule;
  d.severity = effective(rule);
  if (rule.severity == Severity::Error && d.severity != Severity::Error) {
    if (!(rule.enforced_by & enforcing())) {
      d.notes.push_back("not enforced by " + std::string(consumer_name(ctx_.consumer)) + "; an error for " +
                        ((rule.enforced_by & kBpfBtfLoad) ? "bpf-load" : "module-load"));
    } else if (const GateInfo* g = ctx_.kernel.lacks_check(rule)) {
      const std::string when = g->until ? "from " + g->since.str() + " to " + g->until->str() + " (exclusive)"
                                        : "since " + g->since.str();
      d.notes.push_back("not enforced by Linux " + ctx_.kernel.release().str() + " (" + std::string(g->what) + ": " +
                        (g->kind == GateKind::kSkips ? "skipped " : "") + when + ")");
    }
  }
  if (!rule.log.empty()) d.notes.push_back(log_note(rule));
  d.location = std::move(loc);
  d.message = std::move(message);
  if (d.severity == Severity::Error) ++errors_;
  if (kernel_refuses(rule)) ++kernel_errors_;
  ++findings_;
  if (!per_rule_[&rule].add(d.severity, listing_limit())) return;
  sink_.report(std::move(d));
}

void Findings::at_offset(const Rule& rule, uint64_t offset, std::string message) {
  Location loc{ctx_.artifact, ctx_.section, offset, "", std::nullopt, "", std::nullopt};
  emit(rule, std::move(loc), std::move(message));
}

void Findings::at_type(const Rule& rule, uint32_t id, std::string message, uint64_t offset_in_record) {
  if (kernel_refuses(rule)) flag(id);
  emit(rule, type_location(btf_, id, ctx_.artifact, ctx_.section, offset_in_record), std::move(message));
}

Location type_location(const Btf* btf, uint32_t id, std::string artifact, std::string section,
                       uint64_t offset_in_record) {
  Location loc{std::move(artifact), std::move(section), std::nullopt, "type", id, "", std::nullopt};
  if (btf && id && btf->has_type(id)) {
    const TypeRef t = btf->type(id);
    if (btf->is_own(id)) loc.offset = btf->record_offset(id) + offset_in_record;
    loc.record_kind = std::string(kind_name(t.kind()));
    if (t.name_off() && btf->name_offset_valid(t.name_off()))
      loc.record_name = printable(btf->name_of(t.name_off()));
  }
  return loc;
}

namespace {
std::string unsupported(Gate gate, const std::string& what) {
  const GateInfo& g = gate_info(gate);
  return what + ": rejected by kernels before " + g.since.str();
}
}  // namespace

void Findings::unsupported_at_type(Gate gate, uint32_t id, const std::string& what, uint64_t offset_in_record) {
  at_type(*gate_info(gate).rules.front(), id, unsupported(gate, what), offset_in_record);
}

void Findings::unsupported_at_offset(Gate gate, uint64_t offset, const std::string& what) {
  at_offset(*gate_info(gate).rules.front(), offset, unsupported(gate, what));
}

void Findings::absorb(const Findings& other, std::vector<Diagnostic>& diagnostics) {
  for (auto& d : diagnostics) sink_.report(std::move(d));
  diagnostics.clear();
  errors_ += other.errors_;
  kernel_errors_ += other.kernel_errors_;
  findings_ += other.findings_;
  for (const auto& [rule, counts] : other.per_rule_) {
    RuleCounts& mine = per_rule_[rule];
    mine.total += counts.total;
    for (size_t s = 0; s < 3; ++s) mine.unlisted[s] += counts.unlisted[s];
  }
  if (!other.flagged_count_) return;
  for (uint32_t i = 0; i < other.flagged_.size(); ++i)
    if (other.flagged_[i]) flag(btf_->first_id() + i);
}

void Findings::flag(uint32_t id) {
  if (!btf_ || !btf_->is_own(id)) return;
  if (flagged_.empty()) flagged_.assign(btf_->own_count(), 0);
  uint8_t& f = flagged_[id - btf_->first_id()];
  flagged_count_ += !f;
  f = 1;
}

void Findings::finish() {
  const size_t limit = listing_limit();
  for (const auto& [rule, counts] : per_rule_)
    if (counts.total > limit)
      sink_.report(unlisted_note(*rule, counts, limit,
                                 Location{ctx_.artifact, ctx_.section, std::nullopt, "", std::nullopt, "", std::nullopt}));
}

void Findings::note(std::string message) {
  Diagnostic d;
  d.severity = Severity::Note;
  d.location = Location{ctx_.artifact, ctx_.section, std::nullopt, "", std::nullopt, "", std::nullopt};
  d.message = std::move(message);
  sink_.report(std::move(d));
}

std::string quoted_name(const Btf& btf, uint32_t name_off) {
  if (name_off == 0) return "(anon)";
  if (!btf.name_offset_valid(name_off)) return "<name_off " + hex(name_off) + " out of range>";
  return "'" + printable(btf.name_of(name_off)) + "'";
}

}  // namespace elfmeta::btf
