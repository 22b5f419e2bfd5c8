#include "core/utf8.h"

#include <cstdio>

namespace elfmeta {

// Unicode's table of well-formed byte sequences (The Unicode Standard,
// table 3-7): the second byte's range depends on the first.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = at(i);
  if (c < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // of the second byte
  if (c >= 0xc2 && c <= 0xdf) length = 2;
  else if (c == 0xe0) length = 3, low = 0xa0;
  else if (c >= 0xe1 && c <= 0xec) length = 3;
  else if (c == 0xed) length = 3, high = 0x9f;  // no surrogates
  else if (c >= 0xee && c <= 0xef) length = 3;
  else if (c == 0xf0) length = 4, low = 0x90;
  else if (c >= 0xf1 && c <= 0xf3) length = 4;
  else if (c == 0xf4) length = 4, high = 0x8f;  // nothing past U+10FFFF
  else return 0;
  if (s.size() - i < length) return 0;
  if (at(i + 1) < low || at(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k)
    if (at(i + k) < 0x80 || at(i + k) > 0xbf) return 0;
  return length;
}

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_sequence_length(s, i);
    if (n) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(s[i]));
    out += buf;
    ++i;
  }
  return out;
}

}  // namespace elfmeta
