// Rendering diagnostics: compiler-style text and JSON lines.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"

namespace elfmeta {

// "vmlinux:.BTF+0x1a2c [type 1234 STRUCT 'task_struct']: error: ... [BTF-AGG-010]"
void write_text(std::ostream& out, const Diagnostic& d);
// One JSON object per line: rule, severity, artifact, section, offset, index,
// kind, name, message, notes.
void write_json(std::ostream& out, const Diagnostic& d);

std::string json_escape(std::string_view s);

struct RunSummary {
  size_t inputs = 0;
  size_t unreadable = 0;
  size_t errors = 0;
  size_t warnings = 0;
  std::map<std::string, size_t> per_rule;  // rule id -> findings
  std::string kernel;                      // profile used, e.g. "6.18"
  std::string consumer;
  void add(const std::vector<Diagnostic>& diagnostics);
};

void write_text_summary(std::ostream& out, const RunSummary& s);
void write_json_summary(std::ostream& out, const RunSummary& s);

}  // namespace elfmeta
