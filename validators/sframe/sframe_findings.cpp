#include "sframe/sframe_findings.h"

namespace elfmeta::sframe {

void SframeFindings::at_section(const Rule& rule, std::optional<uint64_t> offset, std::string message,
                                std::optional<Severity> severity, std::optional<uint32_t> enforced_by) {
  emit(rule, Location{artifact(), section_, offset, "", std::nullopt, "", std::nullopt}, std::move(message), severity,
       enforced_by);
}

void SframeFindings::at_fde(const Rule& rule, size_t fde, uint64_t offset, std::string message,
                            std::optional<Severity> severity, std::optional<uint32_t> enforced_by) {
  Location loc{artifact(), section_, offset, "fde", fde, "", std::nullopt};
  if (describe_fde) loc.record_name = describe_fde(fde);
  emit(rule, std::move(loc), std::move(message), severity, enforced_by);
}

void SframeFindings::at_fre(const Rule& rule, size_t fde, size_t fre, uint64_t offset, std::string message,
                            std::optional<Severity> severity) {
  Location loc{artifact(), section_, offset, "fde", fde, "fre " + std::to_string(fre), std::nullopt};
  if (describe_fde) loc.record_name = describe_fde(fde);
  emit(rule, std::move(loc), std::move(message), severity);
}

}  // namespace elfmeta::sframe
