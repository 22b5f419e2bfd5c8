// Small text helpers for messages about untrusted bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace elfmeta {

// Quote-safe rendering of untrusted bytes: non-printable ASCII and bytes >= 0x80
// become \xNN; longer input is cut at max_len characters with "...".
std::string printable(std::string_view s, size_t max_len = 80);

std::string hex(uint64_t v);
// "2,391,484": a count for a message.
std::string with_thousands(uint64_t v);
// "fe5d32bf..." for a byte string (at most 64 bytes shown).
std::string hex_bytes(std::span<const uint8_t> bytes);

}  // namespace elfmeta
