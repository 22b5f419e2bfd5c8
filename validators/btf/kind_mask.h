// The types of some kinds among a blob's own types, 64 at a time, without a
// branch per type: the kinds of a vmlinux alternate (FUNC, FUNC_PROTO, FUNC,
// ...), and a branch on each type's kind mostly goes the wrong way.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace elfmeta::btf {

// Bit j: kinds[j] is one of `Kinds`, for `count` <= 64 kinds.
template <uint8_t... Kinds>
inline uint64_t kind_mask(const uint8_t* kinds, uint32_t count) {
  uint64_t mask = 0;
  uint32_t j = 0;
#if defined(__SSE2__)
  for (; j + 16 <= count; j += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kinds + j));
    const __m128i in = (_mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(Kinds))) | ...);
    mask |= uint64_t(uint16_t(_mm_movemask_epi8(in))) << j;
  }
#endif
  for (; j < count; ++j) mask |= uint64_t(((kinds[j] == Kinds) || ...)) << j;
  return mask;
}

// The bits of a chunk of `count` <= 64 types.
constexpr uint64_t chunk_bits(uint32_t count) { return count == 64 ? ~uint64_t(0) : (uint64_t(1) << count) - 1; }

// Calls fn(i), in order, for every i < n whose bit is set in
// chunk_mask(base, count), the mask of the `count` <= 64 types from `base`.
// An `fn` that returns bool stops the walk by returning false.
template <typename ChunkMask, typename Fn>
void for_each_in_chunks(uint32_t n, ChunkMask chunk_mask, Fn fn) {
  for (uint32_t base = 0; base < n; base += 64) {
    const uint32_t count = n - base < 64 ? n - base : 64;
    for (uint64_t m = chunk_mask(base, count); m; m &= m - 1) {
      const uint32_t i = base + static_cast<uint32_t>(std::countr_zero(m));
      if constexpr (std::is_same_v<std::invoke_result_t<Fn&, uint32_t>, bool>) {
        if (!fn(i)) return;
      } else {
        fn(i);
      }
    }
  }
}

// Calls fn(i) for every i < n with kinds[i] one of `Kinds`, in order.
template <uint8_t... Kinds, typename Fn>
void for_each_of_kinds(const uint8_t* kinds, uint32_t n, Fn fn) {
  for_each_in_chunks(n, [kinds](uint32_t base, uint32_t count) { return kind_mask<Kinds...>(kinds + base, count); }, fn);
}

// Calls fn(i) for every i < n with kinds[i] none of `Kinds`, in order.
template <uint8_t... Kinds, typename Fn>
void for_each_not_of_kinds(const uint8_t* kinds, uint32_t n, Fn fn) {
  for_each_in_chunks(
      n, [kinds](uint32_t base, uint32_t count) { return ~kind_mask<Kinds...>(kinds + base, count) & chunk_bits(count); },
      fn);
}

}  // namespace elfmeta::btf
