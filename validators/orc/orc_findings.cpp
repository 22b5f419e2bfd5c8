#include "orc/orc_findings.h"

#include "orc/orc_format.h"

namespace elfmeta::orc {

void OrcFindings::at_section(const Rule& rule, const std::string& section, std::optional<uint64_t> offset,
                             std::string message) {
  emit(rule, Location{artifact(), section, offset, "", std::nullopt, "", std::nullopt}, std::move(message));
}

void OrcFindings::at_entry(const Rule& rule, size_t index, std::string message) {
  Location loc{artifact(), ".orc_unwind", uint64_t(index) * kEntrySize, "entry", index, "", std::nullopt};
  if (describe_entry) {
    auto [kind, place] = describe_entry(index);
    loc.record_kind = std::move(kind);
    if (!place.empty()) loc.record_name = std::move(place);
  }
  emit(rule, std::move(loc), std::move(message));
}

}  // namespace elfmeta::orc
