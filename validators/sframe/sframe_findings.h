// Findings of one artifact's SFrame check, located by byte offset in the
// section and by record: FDE index (with the function it covers) or FRE
// (FDE index, FRE index within it).
#pragma once

#include <functional>
#include <string>

#include "core/findings.h"

namespace elfmeta::sframe {

class SframeFindings : public Findings {
 public:
  SframeFindings(std::string artifact, DiagnosticSink& sink, uint32_t consumer, std::string section = ".sframe")
      : Findings(std::move(artifact), sink, consumer), section_(std::move(section)) {}

  void at_section(const Rule& rule, std::optional<uint64_t> offset, std::string message,
                  std::optional<Severity> severity = std::nullopt, std::optional<uint32_t> enforced_by = std::nullopt);
  void at_fde(const Rule& rule, size_t fde, uint64_t offset, std::string message,
              std::optional<Severity> severity = std::nullopt, std::optional<uint32_t> enforced_by = std::nullopt);
  void at_fre(const Rule& rule, size_t fde, size_t fre, uint64_t offset, std::string message,
              std::optional<Severity> severity = std::nullopt);
  void note(std::string message) { Findings::note(section_, std::move(message)); }
  void finish() { Findings::finish(section_); }

  // Names the function FDE `i` covers ("main", "pc 0x1130").
  std::function<std::string(size_t)> describe_fde;

 private:
  std::string section_;
};

}  // namespace elfmeta::sframe
