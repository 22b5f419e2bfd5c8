// A finding: which rule, where in the binary, what exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/rule.h"

namespace elfmeta {

// Where a finding is: the artifact, the section, the byte offset inside that
// section, and the record (type id, ORC index, FDE index) with its kind/name.
struct Location {
  std::string artifact;
  std::string section;
  std::optional<uint64_t> offset;
  std::string record_label;          // "type", "entry", "fde"; empty: no record
  std::optional<uint64_t> index;     // record index (type id for BTF)
  std::string record_kind;           // "STRUCT"
  std::optional<std::string> record_name;  // "task_struct"; nullopt = anonymous
};

struct Diagnostic {
  const Rule* rule = nullptr;  // nullptr: a note that is not a finding (missing context)
  Severity severity = Severity::Note;
  Location location;
  std::string message;
  std::vector<std::string> notes;
  // The closing note of a rule's findings past the per-rule listing limit:
  // the rule, and how many of each severity were counted but not listed
  // (the run summary adds them).
  const Rule* unlisted_rule = nullptr;
  size_t unlisted[3] = {0, 0, 0};  // by Severity
};

class DiagnosticSink {
 public:
  virtual ~DiagnosticSink() = default;
  virtual void report(Diagnostic d) = 0;
};

// Drops every diagnostic: for callers that want only a verdict or a model.
class NullSink final : public DiagnosticSink {
 public:
  void report(Diagnostic) override {}
};

class DiagnosticList final : public DiagnosticSink {
 public:
  void report(Diagnostic d) override;
  const std::vector<Diagnostic>& items() const { return items_; }
  std::vector<Diagnostic>& items() { return items_; }
  size_t count(Severity s) const;
  bool has_errors() const { return count(Severity::Error) > 0; }
  bool has_rule(std::string_view id) const;
  // The listed findings of rule `id` (of severity `s` when given).
  size_t count(std::string_view id, std::optional<Severity> s = std::nullopt) const;

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace elfmeta
