#include "btf/names.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <array>
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
void classify_16(const uint8_t* p, unsigned shift, uint64_t& name, uint64_t& nul, uint64_t& first) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i rest = identifier_bytes(x);
  const auto bits = [&](__m128i m) { return uint64_t(static_cast<uint16_t>(_mm_movemask_epi8(m))) << shift; };
  name |= bits(rest);
  nul |= bits(equal(x, 0));
  first |= bits(_mm_andnot_si128(in_range(x, '0', '9'), rest));
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

// One bit per byte of 64 bytes of strings, byte i at bit 63 - i.
struct ByteClasses {
  uint64_t name = 0;   // an identifier byte after the first
  uint64_t nul = 0;    // a NUL
  uint64_t first = 0;  // an identifier byte in first place
};

uint64_t reverse_bits(uint64_t x) {
  x = __builtin_bswap64(x);
  x = (x >> 1 & 0x5555555555555555ull) | (x & 0x5555555555555555ull) << 1;
  x = (x >> 2 & 0x3333333333333333ull) | (x & 0x3333333333333333ull) << 2;
  return (x >> 4 & 0x0f0f0f0f0f0f0f0full) | (x & 0x0f0f0f0f0f0f0f0full) << 4;
}

ByteClasses classify_64(const uint8_t* p) {
  ByteClasses c;
#if defined(__SSE2__)
  for (unsigned i = 0; i < 64; i += 16) classify_16(p + i, i, c.name, c.nul, c.first);
#else
  for (unsigned i = 0; i < 64; ++i) {
    c.name |= uint64_t(detail::kIdentifierRest[p[i]]) << i;
    c.nul |= uint64_t(p[i] == 0) << i;
    c.first |= uint64_t(detail::kIdentifierFirst[p[i]]) << i;
  }
#endif
  return {reverse_bits(c.name), reverse_bits(c.nul), reverse_bits(c.first)};
}

#if defined(__x86_64__)
// The identifier bytes by their two nibbles: a byte is one when the table
// entries of its low and of its high nibble share a bit. Each bit is a set
// of high nibbles that allow the same low nibbles.
enum NibbleGroup : uint8_t {
  kDot = 1,          // 0x2E
  kDigits = 2,       // 0x30-0x39: not in first place
  kFromOne = 4,      // 0x41-0x4F, 0x61-0x6F
  kUpperP = 8,       // 0x50-0x5A and '_'
  kLowerP = 16,      // 0x70-0x7A
  kAll = 32,         // 0xC0-0xCF, 0xE0-0xEF
  kAllBut7 = 64,     // 0xD0-0xDF, 0xF0-0xFF except 0xD7, 0xF7
};
constexpr std::array<uint8_t, 16> low_nibble_groups() {
  std::array<uint8_t, 16> t{};
  for (unsigned lo = 0; lo < 16; ++lo)
    t[lo] = static_cast<uint8_t>((lo == 0xe ? kDot : 0) | (lo <= 9 ? kDigits : 0) | (lo >= 1 ? kFromOne : 0) |
                                 (lo <= 0xa || lo == 0xf ? kUpperP : 0) | (lo <= 0xa ? kLowerP : 0) | kAll |
                                 (lo != 7 ? kAllBut7 : 0));
  return t;
}
constexpr std::array<uint8_t, 16> kLowNibble = low_nibble_groups();
constexpr std::array<uint8_t, 16> kHighNibble = {0, 0, kDot, kDigits, kFromOne, kUpperP, kFromOne, kLowerP,
                                                 0, 0, 0,    0,       kAll,     kAllBut7, kAll,   kAllBut7};
constexpr bool nibble_tables_agree() {
  for (unsigned c = 0; c < 256; ++c) {
    const uint8_t g = kLowNibble[c & 15] & kHighNibble[c >> 4];
    if ((g != 0) != detail::kIdentifierRest[c] || ((g & ~kDigits) != 0) != detail::kIdentifierFirst[c]) return false;
  }
  return true;
}
static_assert(nibble_tables_agree(), "the nibble tables must classify bytes as the kernel's ctype does");

__attribute__((target("avx2"))) inline __m256i reversed_32(const uint8_t* p) {
  const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i within_lanes = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,  //
                                                15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(x, within_lanes), 0x4e);
}

// The three masks of 32 bytes, last byte first.
__attribute__((target("avx2"))) inline void classify_32_reversed(__m256i x, uint32_t& name, uint32_t& nul, uint32_t& first) {
  const __m256i low_table = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kLowNibble.data())));
  const __m256i high_table = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kHighNibble.data())));
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const __m256i groups = _mm256_and_si256(_mm256_shuffle_epi8(low_table, _mm256_and_si256(x, nibble)),
                                          _mm256_shuffle_epi8(high_table, _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble)));
  const __m256i zero = _mm256_setzero_si256();
  name = ~static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(groups, zero)));
  first = ~static_cast<uint32_t>(_mm256_movemask_epi8(
      _mm256_cmpeq_epi8(_mm256_andnot_si256(_mm256_set1_epi8(kDigits), groups), zero)));
  nul = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, zero)));
}

__attribute__((target("avx2"))) inline ByteClasses classify_64_avx2(const uint8_t* p) {
  uint32_t name_hi, nul_hi, first_hi, name_lo, nul_lo, first_lo;
  classify_32_reversed(reversed_32(p), name_hi, nul_hi, first_hi);       // bytes 0-31: bits 63-32
  classify_32_reversed(reversed_32(p + 32), name_lo, nul_lo, first_lo);  // bytes 32-63: bits 31-0
  return {uint64_t(name_hi) << 32 | name_lo, uint64_t(nul_hi) << 32 | nul_lo, uint64_t(first_hi) << 32 | first_lo};
}

// The same tables on 64 bytes at once; the masks come out of the compares
// whole, and one byte permutation puts byte i at bit 63 - i.
// (GCC 12's AVX-512 headers start some intrinsics from a self-initialised
// "undefined" vector, which -Wmaybe-uninitialized flags where they inline.)
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define ELFMETA_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi")))
ELFMETA_AVX512 inline ByteClasses classify_64_avx512(const uint8_t* p) {
  static constexpr auto kLastFirst = [] {
    std::array<uint8_t, 64> order{};
    for (unsigned i = 0; i < 64; ++i) order[i] = static_cast<uint8_t>(63 - i);
    return order;
  }();
  const __m512i x = _mm512_permutexvar_epi8(_mm512_loadu_si512(kLastFirst.data()), _mm512_loadu_si512(p));
  const __m512i low_table = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kLowNibble.data())));
  const __m512i high_table = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kHighNibble.data())));
  const __m512i nibble = _mm512_set1_epi8(0x0f);
  const __m512i groups = _mm512_and_si512(_mm512_shuffle_epi8(low_table, _mm512_and_si512(x, nibble)),
                                          _mm512_shuffle_epi8(high_table, _mm512_and_si512(_mm512_srli_epi16(x, 4), nibble)));
  return {_mm512_test_epi8_mask(groups, groups), _mm512_testn_epi8_mask(x, x),
          _mm512_test_epi8_mask(groups, _mm512_set1_epi8(static_cast<char>(~kDigits)))};
}
#endif

// Block `b` of the strings; the last, when short, copied into `tail` and
// padded with a byte that is neither a name byte nor NUL.
inline const uint8_t* block_at(const uint8_t* strings, uint32_t length, size_t b, uint8_t (&tail)[64]) {
  const uint8_t* p = strings + 64 * b;
  if (64 * b + 64 <= length) return p;
  std::memset(tail, '!', sizeof tail);
  std::memcpy(tail, p, length - 64 * b);
  return tail;
}

// Walks the blocks from the end, each as a word whose bit 63 - i is byte i,
// so that a run of name bytes sits above (at higher bits than) the byte that
// ends it. Adding each NUL's bit, shifted up one, carries through the run
// above the NUL and out of it: the bits that flip are the runs a NUL ends.
// The run at the end of a block (its low bits) is ended in a later block, by
// a NUL or not, and is a name only within kMaxNameLength bytes of that end.
// Inlined into one function per instruction set, so that the classifier is
// inlined too.
template <ByteClasses (*Classify)(const uint8_t*)>
[[gnu::always_inline]] inline void fill_starts(const uint8_t* strings, uint32_t length, uint64_t* starts, size_t blocks) {
  bool next_stop_is_nul = false;    // the first non-name byte at or after the block above
  uint64_t next_stop_distance = 0;  // from the start of the block above to that byte
  for (size_t b = blocks; b-- > 0;) {
    uint8_t tail[64];
    const ByteClasses c = Classify(block_at(strings, length, b, tail));
    const uint64_t stops = ~c.name;
    uint64_t names = ((c.name + (c.nul << 1)) ^ c.name) & c.name;
    if (next_stop_is_nul && next_stop_distance < kMaxNameLength) {
      const uint64_t short_enough = std::min<uint64_t>(64, kMaxNameLength - next_stop_distance);
      const uint64_t run = std::min<uint64_t>(short_enough, stops ? __builtin_ctzll(stops) : 64);
      names |= run == 64 ? ~uint64_t(0) : (uint64_t(1) << run) - 1;
    }
    starts[b] = names & c.first;
    if (stops) {
      const unsigned lowest_stop = static_cast<unsigned>(__builtin_clzll(stops));  // byte index of the first
      next_stop_is_nul = c.nul >> (63 - lowest_stop) & 1;
      next_stop_distance = lowest_stop;
    } else {
      next_stop_distance += 64;
    }
  }
}

// The same with the blocks as the words of one long number, lowest first,
// so that the carry of a run that a NUL ends goes on into the block before
// (an add with carry instead of tracking where the next stop is). It does not
// know kMaxNameLength: false when a run of name bytes might be longer (it
// would span six whole blocks), and fill_starts() must do it again.
template <ByteClasses (*Classify)(const uint8_t*)>
[[gnu::always_inline]] inline bool fill_starts_carried(const uint8_t* strings, uint32_t length, uint64_t* starts,
                                                       size_t blocks) {
  static_assert(kMaxNameLength >= 7 * 64);
  uint64_t carry = 0, nul_after = 0;  // nul_after: whether the byte after the block is a NUL, at bit 0
  uint32_t whole_name_blocks = 0, most_whole_name_blocks = 0;
  for (size_t b = blocks; b-- > 0;) {
    uint8_t tail[64];
    const ByteClasses c = Classify(block_at(strings, length, b, tail));
    const uint64_t addend = c.nul << 1 | nul_after;
    const uint64_t partial = c.name + addend, sum = partial + carry;
    carry = (partial < addend) | (sum < partial);
    starts[b] = (sum ^ c.name) & c.name & c.first;
    nul_after = c.nul >> 63;
    whole_name_blocks = c.name == ~uint64_t(0) ? whole_name_blocks + 1 : 0;
    most_whole_name_blocks = std::max(most_whole_name_blocks, whole_name_blocks);
  }
  return most_whole_name_blocks < 6;
}

template <ByteClasses (*Classify)(const uint8_t*)>
[[gnu::always_inline]] inline void fill_all_starts(const uint8_t* strings, uint32_t length, uint64_t* starts,
                                                   size_t blocks) {
  if (!fill_starts_carried<Classify>(strings, length, starts, blocks)) fill_starts<Classify>(strings, length, starts, blocks);
}

void fill_starts_portable(const uint8_t* strings, uint32_t length, uint64_t* starts, size_t blocks) {
  fill_all_starts<classify_64>(strings, length, starts, blocks);
}
#if defined(__x86_64__)
__attribute__((target("avx2"))) void fill_starts_avx2(const uint8_t* strings, uint32_t length, uint64_t* starts,
                                                      size_t blocks) {
  fill_all_starts<classify_64_avx2>(strings, length, starts, blocks);
}
ELFMETA_AVX512 void fill_starts_avx512(const uint8_t* strings, uint32_t length, uint64_t* starts, size_t blocks) {
  fill_all_starts<classify_64_avx512>(strings, length, starts, blocks);
}
#undef ELFMETA_AVX512
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

}  // namespace

bool byte_classifier_supported(ByteClassifier how) {
  switch (how) {
#if defined(__x86_64__)
    case ByteClassifier::kAvx2: return __builtin_cpu_supports("avx2");
    case ByteClassifier::kAvx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vbmi");
#else
    case ByteClassifier::kAvx2:
    case ByteClassifier::kAvx512: return false;
#endif
    default: return true;
  }
}

ByteClassifier widest_byte_classifier() {
  static const ByteClassifier widest = byte_classifier_supported(ByteClassifier::kAvx512) ? ByteClassifier::kAvx512
                                       : byte_classifier_supported(ByteClassifier::kAvx2) ? ByteClassifier::kAvx2
                                                                                           : ByteClassifier::kPortable;
  return widest;
}

IdentifierMap::IdentifierMap(const uint8_t* strings, uint32_t length, ByteClassifier how)
    : past_(static_cast<uint32_t>((uint64_t(length) + 63) / 64)),
      starts_(std::make_unique_for_overwrite<uint64_t[]>(past_ + 1)) {
  starts_[past_] = 0;
  if (!byte_classifier_supported(how)) how = ByteClassifier::kPortable;
#if defined(__x86_64__)
  if (how == ByteClassifier::kAvx512) {
    fill_starts_avx512(strings, length, starts_.get(), past_);
    return;
  }
  if (how == ByteClassifier::kAvx2) {
    fill_starts_avx2(strings, length, starts_.get(), past_);
    return;
  }
#endif
  fill_starts_portable(strings, length, starts_.get(), past_);
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
