// Character classes as the Linux kernel's lib/ctype.c defines them.
//
// The kernel's table is Latin-1, not ASCII: bytes 0xC0-0xFF (except 0xD7 and
// 0xF7) are letters and 0xA0-0xFF are printable, so "\xc0" is a valid BTF
// identifier and "\xa0" a valid DATASEC name (confirmed on 6.18 with
// BPF_BTF_LOAD, see docs/btf.md). Name rules must use these classes, not the
// C library's locale-dependent ones.
#pragma once

#include <array>
#include <cstdint>

namespace elfmeta::kctype {

enum : uint8_t { kUpper = 1, kLower = 2, kDigit = 4, kControl = 8, kPunct = 16, kSpace = 32, kHex = 64, kHardSpace = 128 };

constexpr std::array<uint8_t, 256> make_table() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 32; ++c) t[c] = kControl;
  for (int c = 9; c <= 13; ++c) t[c] = kControl | kSpace;
  t[32] = kSpace | kHardSpace;
  for (int c = 33; c <= 126; ++c) t[c] = kPunct;
  for (int c = '0'; c <= '9'; ++c) t[c] = kDigit;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kUpper | (c <= 'F' ? kHex : 0);
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kLower | (c <= 'f' ? kHex : 0);
  t[127] = kControl;
  // 128-159: no class at all.
  t[160] = kSpace | kHardSpace;
  for (int c = 161; c <= 191; ++c) t[c] = kPunct;
  for (int c = 192; c <= 222; ++c) t[c] = kUpper;
  t[215] = kPunct;
  t[223] = kLower;
  for (int c = 224; c <= 255; ++c) t[c] = kLower;
  t[247] = kPunct;
  return t;
}

inline constexpr std::array<uint8_t, 256> kTable = make_table();

constexpr bool isalpha(uint8_t c) { return kTable[c] & (kUpper | kLower); }
constexpr bool isalnum(uint8_t c) { return kTable[c] & (kUpper | kLower | kDigit); }
constexpr bool isprint(uint8_t c) { return kTable[c] & (kPunct | kUpper | kLower | kDigit | kHardSpace); }

}  // namespace elfmeta::kctype
