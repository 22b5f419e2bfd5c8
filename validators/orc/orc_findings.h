// Findings of one artifact's ORC check: located diagnostics (section, byte
// offset, entry index, the entry's type and code address), with at most
// kPerRuleLimit listed per rule so that a hostile table stays readable.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "core/diagnostic.h"

namespace elfmeta::orc {

class OrcFindings {
 public:
  OrcFindings(std::string artifact, DiagnosticSink& sink) : artifact_(std::move(artifact)), sink_(sink) {}

  static constexpr size_t kPerRuleLimit = 100;

  // A finding about a section (or a byte of it).
  void at_section(const Rule& rule, const std::string& section, std::optional<uint64_t> offset, std::string message);
  // A finding about entry `index`: located in .orc_unwind, named by
  // `describe_entry` (its type and address) when set.
  void at_entry(const Rule& rule, size_t index, std::string message);
  void note(std::string message);
  void finish();

  // Names entry `index` for locations: kind ("call") and place ("func+0x10").
  std::function<std::pair<std::string, std::string>(size_t)> describe_entry;

  size_t errors() const { return errors_; }
  size_t findings() const { return findings_; }
  size_t count(const Rule& rule) const {
    auto it = per_rule_.find(&rule);
    return it == per_rule_.end() ? 0 : it->second;
  }

 private:
  void emit(const Rule& rule, Location loc, std::string message);
  std::string artifact_;
  DiagnosticSink& sink_;
  size_t errors_ = 0;
  size_t findings_ = 0;
  std::map<const Rule*, size_t> per_rule_;
};

}  // namespace elfmeta::orc
