// The kernel's name rules for BTF records.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/kernel_ctype.h"

namespace elfmeta::btf {

// KSYM_NAME_LEN: 512 since Linux 6.1 (128 before).
inline constexpr size_t kMaxNameLength = 512;

namespace detail {
constexpr std::array<bool, 256> identifier_chars(bool first) {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[c] = (first ? kctype::isalpha(static_cast<uint8_t>(c)) : kctype::isalnum(static_cast<uint8_t>(c))) || c == '_' ||
           c == '.';
  return t;
}
constexpr std::array<bool, 256> printable_chars() {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = kctype::isprint(static_cast<uint8_t>(c));
  return t;
}
inline constexpr std::array<bool, 256> kIdentifierFirst = identifier_chars(true);
inline constexpr std::array<bool, 256> kIdentifierRest = identifier_chars(false);
inline constexpr std::array<bool, 256> kPrintable = printable_chars();
}  // namespace detail

// Length of the run of identifier bytes (resp. printable bytes) at `p`,
// reading no further than `end` (16 bytes at a time where SSE2 exists).
size_t identifier_run(const uint8_t* p, const uint8_t* end);
size_t printable_run(const uint8_t* p, const uint8_t* end);

// The length of `s` if it is a C identifier as the kernel checks it: first
// byte a letter, '_' or '.', then letters, digits, '_' or '.', at most
// kMaxNameLength bytes; otherwise kNotIdentifier. Letters are those of the
// kernel's Latin-1 ctype table. `s` is NUL-terminated before `end`.
inline constexpr size_t kNotIdentifier = SIZE_MAX;
inline size_t identifier_length(const char* s, const char* end) {
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  if (!detail::kIdentifierFirst[p[0]]) return kNotIdentifier;
  const size_t i = 1 + identifier_run(p + 1, reinterpret_cast<const uint8_t*>(end));
  return p[i] == 0 && i <= kMaxNameLength ? i : kNotIdentifier;  // NUL is not an identifier byte
}
inline bool valid_identifier(const char* s, const char* end) { return identifier_length(s, end) != kNotIdentifier; }

// A DATASEC name (Linux 6.9+): non-empty, printable bytes, at most the limit.
inline bool valid_section_name(const char* s, const char* end) {
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  const size_t i = printable_run(p, reinterpret_cast<const uint8_t*>(end));
  return i && p[i] == 0 && i <= kMaxNameLength;
}

// Which offsets of one string section start an identifier (as
// identifier_length() judges it), from a bitmap built in one pass over the
// section. The names of a vmlinux are 2 MB of strings read in the order the
// records refer to them: scanning each costs a cache miss, while the bitmap
// (one bit per byte) stays in L2.
// The instructions an IdentifierMap classifies bytes with.
enum class ByteClassifier : uint8_t { kPortable, kAvx2, kAvx512 };
bool byte_classifier_supported(ByteClassifier how);
ByteClassifier widest_byte_classifier();  // of those the processor has

class IdentifierMap {
 public:
  // `strings` ends with a NUL (the parser has checked it). Tests build it
  // every way the processor allows and compare.
  IdentifierMap(const uint8_t* strings, uint32_t length, ByteClassifier how = widest_byte_classifier());
  // Bit 63 - i of word w stands for offset 64 * w + i: in that order a run
  // of name bytes lies at higher bits than the byte that ends it, and one
  // addition fills the runs that a NUL ends (see names.cpp).
  // Without a branch: an offset past the section reads the zero word kept
  // after the others.
  bool starts_identifier(uint32_t rel) const {
    return starts_[std::min<uint32_t>(rel / 64, past_)] >> (63 - rel % 64) & 1;
  }

 private:
  uint32_t past_;  // index of the zero word
  // Not zeroed first: the fill writes every word.
  std::unique_ptr<uint64_t[]> starts_;
};

// Why a name fails, for messages: "is empty", "is longer than 512 bytes",
// "has byte '\x24' at position 1".
std::string identifier_problem(const char* s);
std::string section_name_problem(const char* s);

}  // namespace elfmeta::btf
