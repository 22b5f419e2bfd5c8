#include "btf/names.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/text.h"

namespace elfmeta::btf {

#if defined(__SSE2__)
namespace {
// Bytes of `x` in [lo, hi] (unsigned).
inline __m128i in_range(__m128i x, uint8_t lo, uint8_t hi) {
  const __m128i span = _mm_set1_epi8(static_cast<char>(hi - lo));
  const __m128i shifted = _mm_sub_epi8(x, _mm_set1_epi8(static_cast<char>(lo)));
  return _mm_cmpeq_epi8(_mm_max_epu8(shifted, span), span);
}
inline __m128i equal(__m128i x, uint8_t c) { return _mm_cmpeq_epi8(x, _mm_set1_epi8(static_cast<char>(c))); }

// Identifier bytes of the kernel's ctype table: ASCII letters and digits,
// '_', '.', and Latin-1 letters 0xC0-0xFF except 0xD7 and 0xF7.
inline __m128i identifier_bytes(__m128i x) {
  const __m128i latin1 = _mm_andnot_si128(_mm_or_si128(equal(x, 0xd7), equal(x, 0xf7)), in_range(x, 0xc0, 0xff));
  return _mm_or_si128(_mm_or_si128(_mm_or_si128(in_range(x, 'a', 'z'), in_range(x, 'A', 'Z')),
                                   _mm_or_si128(in_range(x, '0', '9'), _mm_or_si128(equal(x, '_'), equal(x, '.')))),
                      latin1);
}
inline __m128i printable_bytes(__m128i x) { return _mm_or_si128(in_range(x, 0x20, 0x7e), in_range(x, 0xa0, 0xff)); }

template <typename Classify, typename Table>
size_t run_of(const uint8_t* p, const uint8_t* end, Classify classify, const Table& table) {
  size_t i = 0;
  while (p + i + 16 <= end) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(classify(x)));
    if (mask != 0xffff) return i + static_cast<size_t>(__builtin_ctz(~mask));
    i += 16;
  }
  while (table[p[i]]) ++i;
  return i;
}
}  // namespace

size_t identifier_run(const uint8_t* p, const uint8_t* end) { return run_of(p, end, identifier_bytes, detail::kIdentifierRest); }
size_t printable_run(const uint8_t* p, const uint8_t* end) { return run_of(p, end, printable_bytes, detail::kPrintable); }
#else
size_t identifier_run(const uint8_t* p, const uint8_t*) {
  size_t i = 0;
  while (detail::kIdentifierRest[p[i]]) ++i;
  return i;
}
size_t printable_run(const uint8_t* p, const uint8_t*) {
  size_t i = 0;
  while (detail::kPrintable[p[i]]) ++i;
  return i;
}
#endif

namespace {

// Index of the first offending byte, or kMaxNameLength for a name that is
// too long; only called for names that fail.
template <typename Ok>
size_t first_problem(const char* s, Ok ok_at) {
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  size_t i = 0;
  while (p[i] && i < kMaxNameLength) {
    if (!ok_at(p[i], i)) return i;
    ++i;
  }
  return p[i] ? kMaxNameLength : (i == 0 ? 0 : i);
}

std::string describe(const char* s, size_t at) {
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  if (at == kMaxNameLength) return "is longer than " + std::to_string(kMaxNameLength) + " bytes";
  if (!p[at]) return at == 0 ? "is empty" : "is invalid";
  return "has byte '" + printable(std::string_view(s + at, 1)) + "' at position " + std::to_string(at);
}

}  // namespace

std::string identifier_problem(const char* s) {
  return describe(s, first_problem(s, [](uint8_t c, size_t i) {
                    return i ? detail::kIdentifierRest[c] : detail::kIdentifierFirst[c];
                  }));
}

std::string section_name_problem(const char* s) {
  return describe(s, first_problem(s, [](uint8_t c, size_t) { return detail::kPrintable[c]; }));
}

}  // namespace elfmeta::btf
