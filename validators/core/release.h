// A kernel or tool release, major.minor, as profiles and layouts key on it.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace elfmeta {

struct Release {
  uint16_t major = 0, minor = 0;
  auto operator<=>(const Release&) const = default;
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
};

// "6.1", "6.12.117+deb12-cloud-amd64", "7.1-rc2": major.minor at the start.
std::optional<Release> parse_release(std::string_view text);

}  // namespace elfmeta
