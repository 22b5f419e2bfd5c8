// Findings of one artifact's ORC check, located by section and byte offset
// or by entry (index, type and code address).
#pragma once

#include <functional>
#include <string>

#include "core/findings.h"

namespace elfmeta::orc {

class OrcFindings : public Findings {
 public:
  OrcFindings(std::string artifact, DiagnosticSink& sink) : Findings(std::move(artifact), sink) {}

  // A finding about a section (or a byte of it).
  void at_section(const Rule& rule, const std::string& section, std::optional<uint64_t> offset, std::string message);
  // A finding about entry `index`: located in .orc_unwind, named by
  // `describe_entry` (its type and address) when set.
  void at_entry(const Rule& rule, size_t index, std::string message);
  void note(std::string message) { Findings::note(".orc_unwind", std::move(message)); }
  void finish() { Findings::finish(".orc_unwind"); }

  // Names entry `index` for locations: kind ("call") and place ("func+0x10").
  std::function<std::pair<std::string, std::string>(size_t)> describe_entry;
};

}  // namespace elfmeta::orc
