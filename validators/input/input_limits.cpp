#include "input/input_limits.h"

#include <algorithm>
#include <cstdio>

namespace elfmeta::input {

uint64_t DecompressionBudget::reserve(uint64_t want) {
  uint64_t used = used_.load();
  while (true) {
    if (used >= limits_.max_total_bytes) return 0;
    const uint64_t take = std::min(want, limits_.max_total_bytes - used);
    if (used_.compare_exchange_weak(used, used + take)) return take;
  }
}

uint64_t expansion_allowance(uint64_t compressed, uint64_t ratio, uint64_t floor) {
  const uint64_t by_ratio = ratio != 0 && compressed > UINT64_MAX / ratio ? UINT64_MAX : compressed * ratio;
  return std::max(floor, by_ratio);
}

Diagnostic refusal(const Rule& rule, const std::string& artifact, std::string message) {
  Diagnostic d;
  d.rule = &rule;
  d.severity = rule.severity;
  d.location.artifact = artifact;
  d.message = std::move(message);
  return d;
}

std::string size_text(uint64_t bytes) {
  char buf[48];
  if (bytes < (uint64_t(1) << 20))
    std::snprintf(buf, sizeof buf, "%.1f KiB", double(bytes) / 1024);
  else if (bytes < (uint64_t(1) << 30))
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / (1 << 20));
  else
    std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / (1 << 30));
  return buf;
}

}  // namespace elfmeta::input
