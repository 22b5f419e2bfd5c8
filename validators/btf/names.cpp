#include "btf/names.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstring>

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

namespace {
// The masks of 16 bytes at `p`, as bits `shift`..`shift + 15` of a block.
void classify_16(const uint8_t* p, unsigned shift, uint64_t& stop, uint64_t& nul, uint64_t& bad_first) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i rest = identifier_bytes(x);
  const auto bits = [&](__m128i m) { return uint64_t(static_cast<uint16_t>(_mm_movemask_epi8(m))) << shift; };
  stop |= ~bits(rest) & (uint64_t(0xffff) << shift);
  nul |= bits(equal(x, 0));
  bad_first |= ~bits(_mm_andnot_si128(in_range(x, '0', '9'), rest)) & (uint64_t(0xffff) << shift);
}
}  // namespace
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

// One bit per byte of 64 bytes of strings.
struct ByteClasses {
  uint64_t stop = 0;       // not an identifier byte after the first (NULs included)
  uint64_t nul = 0;        // a NUL
  uint64_t bad_first = 0;  // not an identifier byte in first place
};

ByteClasses classify_64(const uint8_t* p) {
  ByteClasses c;
#if defined(__SSE2__)
  for (unsigned i = 0; i < 64; i += 16) classify_16(p + i, i, c.stop, c.nul, c.bad_first);
#else
  for (unsigned i = 0; i < 64; ++i) {
    c.stop |= uint64_t(!detail::kIdentifierRest[p[i]]) << i;
    c.nul |= uint64_t(p[i] == 0) << i;
    c.bad_first |= uint64_t(!detail::kIdentifierFirst[p[i]]) << i;
  }
#endif
  return c;
}

// Bits lo..hi-1 (0 <= lo <= hi <= 64).
uint64_t bit_range(unsigned lo, unsigned hi) {
  if (lo >= hi) return 0;
  const uint64_t below_hi = hi == 64 ? ~uint64_t(0) : (uint64_t(1) << hi) - 1;
  return below_hi & ~((uint64_t(1) << lo) - 1);
}

}  // namespace

// Walks the blocks from the end: an offset starts an identifier when its byte
// may come first and the first stop after it is a NUL within kMaxNameLength
// bytes. Each run between two stops takes the verdict of the stop above it;
// the run at the top of a block continues into the block after it.
IdentifierMap::IdentifierMap(const uint8_t* strings, uint32_t length) : starts_((uint64_t(length) + 63) / 64) {
  bool next_stop_is_nul = false;  // the first stop at or after the block above
  uint64_t next_stop_distance = 0;  // from the start of the block above to that stop
  for (size_t b = starts_.size(); b-- > 0;) {
    const uint8_t* p = strings + 64 * b;
    uint8_t tail[64];
    if (64 * b + 64 > length) {  // pad the last block with a byte that is neither a name byte nor NUL
      std::memset(tail, '!', sizeof tail);
      std::memcpy(tail, p, length - 64 * b);
      p = tail;
    }
    const ByteClasses c = classify_64(p);
    uint64_t out = 0;
    // The run at the top: its strings reach into the blocks above.
    const unsigned top_stop = c.stop ? 63 - static_cast<unsigned>(__builtin_clzll(c.stop)) : 0;
    const unsigned run_from = c.stop ? top_stop + 1 : 0;
    if (next_stop_is_nul && next_stop_distance + 64 - run_from <= kMaxNameLength) {
      out |= bit_range(run_from, 64);
    } else if (next_stop_is_nul && next_stop_distance < kMaxNameLength) {
      // only the strings that start high enough are short enough
      const unsigned lowest = static_cast<unsigned>(64 + next_stop_distance - kMaxNameLength);
      if (lowest < 64) out |= bit_range(std::max(lowest, run_from), 64);
    }
    // The runs below each stop of this block.
    for (uint64_t stops = c.stop; stops;) {
      const unsigned s = 63 - static_cast<unsigned>(__builtin_clzll(stops));
      stops &= ~(uint64_t(1) << s);
      const unsigned below = stops ? 64 - static_cast<unsigned>(__builtin_clzll(stops)) : 0;
      if (c.nul >> s & 1) out |= bit_range(below, s);
    }
    starts_[b] = out & ~c.bad_first;
    if (c.stop) {
      const unsigned lowest_stop = static_cast<unsigned>(__builtin_ctzll(c.stop));
      next_stop_is_nul = c.nul >> lowest_stop & 1;
      next_stop_distance = lowest_stop;
    } else {
      next_stop_distance += 64;
    }
  }
}

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
