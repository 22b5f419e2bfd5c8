#include "core/release.h"

#include <charconv>

namespace elfmeta {

std::optional<Release> parse_release(std::string_view text) {
  unsigned major = 0, minor = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  auto r = std::from_chars(p, end, major);
  if (r.ec != std::errc() || r.ptr == end || *r.ptr != '.') return std::nullopt;
  r = std::from_chars(r.ptr + 1, end, minor);
  if (r.ec != std::errc() || major > 99 || minor > 99) return std::nullopt;
  // Anything may follow: ".117+deb12-cloud-amd64", "-rc2", "-56-cloud-amd64".
  if (r.ptr != end && *r.ptr != '.' && *r.ptr != '-' && *r.ptr != '+' && *r.ptr != '_') return std::nullopt;
  return Release{static_cast<uint16_t>(major), static_cast<uint16_t>(minor)};
}

}  // namespace elfmeta
