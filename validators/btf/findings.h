// Turns rule violations found in one BTF blob into located diagnostics, with
// the severity the selected consumer gives each rule.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "btf/btf.h"
#include "btf/kernel_profile.h"
#include "core/diagnostic.h"
#include "core/findings.h"

namespace elfmeta::btf {

struct CheckContext {
  std::string artifact = "<blob>";
  std::string section = ".BTF";
  Consumer consumer = kBpfBtfLoad;
  KernelProfile kernel;
};

// Where type `id` is, for a finding: its kind and name, and when it is a
// record of `btf` (not of its base) the record's byte offset plus
// `offset_in_record`; the id alone for void, unknown ids and a null `btf`
// (findings before the blob is parsed).
Location type_location(const Btf* btf, uint32_t id, std::string artifact, std::string section,
                       uint64_t offset_in_record = 0);

class Findings {
 public:
  Findings(const CheckContext& ctx, DiagnosticSink& sink) : ctx_(ctx), sink_(sink) {}

  // Findings past this many of one rule are counted, not listed (hostile
  // input would otherwise produce one per garbage record); 0 = no limit.
  static constexpr size_t kPerRuleLimit = 100;
  // Reports how many findings each rule had past the limit.
  void finish();

  // Record labels need the parsed blob; findings before that are blob-level.
  void set_btf(const Btf* btf) {
    btf_ = btf;
    flagged_.clear();
    flagged_count_ = 0;
  }

  void at_offset(const Rule& rule, uint64_t offset, std::string message);
  // A finding about type `id`, located at byte `offset_in_record` of its record.
  void at_type(const Rule& rule, uint32_t id, std::string message, uint64_t offset_in_record = 0);
  // A feature the target kernel does not have yet (`gate`): its rule, with
  // the release that lifted it.
  void unsupported_at_type(Gate gate, uint32_t id, const std::string& what, uint64_t offset_in_record = 0);
  void unsupported_at_offset(Gate gate, uint64_t offset, const std::string& what);
  const KernelProfile& kernel() const { return ctx_.kernel; }
  // Context that was missing or a pass that was skipped: not a finding.
  void note(std::string message);

  // Whether a type already has an error finding (later passes skip it
  // instead of reporting consequences of the same defect).
  bool flagged(uint32_t id) const {
    return flagged_count_ && btf_->is_own(id) && flagged_[id - btf_->first_id()];
  }
  void flag(uint32_t id);

  // Take over the findings another Findings (for the same blob) collected
  // into `diagnostics`, with its counts and flags.
  void absorb(const Findings& other, std::vector<Diagnostic>& diagnostics);
  bool any_flagged() const { return flagged_count_ != 0; }

  Severity effective(const Rule& rule) const;
  size_t errors() const { return errors_; }
  // Findings that make BPF_BTF_LOAD of the target kernel fail, whoever the
  // consumer: later kernel passes run only on BTF without them.
  size_t kernel_errors() const { return kernel_errors_; }
  size_t findings() const { return findings_; }
  const CheckContext& context() const { return ctx_; }
  // The consumer bits whose rules are errors: bpf-object loads its
  // (fixed-up) .BTF with BPF_BTF_LOAD, so it enforces bpf-load's rules too.
  uint32_t enforcing() const {
    return ctx_.consumer == kBpfObject ? uint32_t(kBpfObject | kBpfBtfLoad) : uint32_t(ctx_.consumer);
  }

 private:
  void emit(const Rule& rule, Location loc, std::string message);
  bool kernel_refuses(const Rule& rule) const {
    return rule.severity == Severity::Error && (rule.enforced_by & (kBpfBtfLoad | kModuleLoad)) &&
           !ctx_.kernel.lacks_check(rule);
  }

  const CheckContext ctx_;  // a copy: callers often pass a temporary
  DiagnosticSink& sink_;
  const Btf* btf_ = nullptr;
  size_t errors_ = 0;
  size_t kernel_errors_ = 0;
  size_t findings_ = 0;
  std::vector<uint8_t> flagged_;  // allocated with the first flag: clean BTF has none
  size_t flagged_count_ = 0;
  std::map<const Rule*, RuleCounts> per_rule_;
};

// 'name' rendering of a name offset for messages: '(anon)' for 0.
std::string quoted_name(const Btf& btf, uint32_t name_off);

}  // namespace elfmeta::btf
