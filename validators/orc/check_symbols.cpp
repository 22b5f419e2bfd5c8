// ORC-SYM-*: what the entries say at function starts.
#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <optional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/text.h"
#include "orc/orc_checks.h"
#include "orc/orc_rules.h"

namespace elfmeta::orc {
namespace {

using input::CodeRole;
using input::CodeStart;
using input::kNoCodeStart;

// The entries of one code region in address order (their indexes; none
// needed when the table is sorted already), to find the entry that covers
// an address: the last one at or below it.
class Coverage {
 public:
  // Given entries (of one section of an object).
  static Coverage of(const OrcTable& t, std::vector<uint32_t> entries) {
    auto by_address = [&](uint32_t x, uint32_t y) { return t.sites.address(x) < t.sites.address(y); };
    if (!std::is_sorted(entries.begin(), entries.end(), by_address)) std::stable_sort(entries.begin(), entries.end(), by_address);
    return Coverage(t, std::move(entries), 0);
  }
  // All entries of a linked image: usually sorted already.
  static Coverage of_image(const OrcTable& t) {
    if (t.ascending) return Coverage(t, {}, t.size());
    std::vector<uint32_t> all(t.size());
    std::iota(all.begin(), all.end(), 0u);
    return of(t, std::move(all));
  }

  // Queries in ascending address order walk forward (galloping over long
  // stretches without symbols); others search from the start.
  uint32_t covering(uint64_t address) {
    const size_t n = size();
    if (n == 0 || address < at(0)) return kNoCodeStart;
    if (address < last_address_) cursor_ = 0;
    last_address_ = address;
    size_t step = 1;
    while (cursor_ + step < n && at(cursor_ + step) <= address) {
      cursor_ += step;
      step *= 2;
    }
    while (step > 1) {
      step /= 2;
      if (cursor_ + step < n && at(cursor_ + step) <= address) cursor_ += step;
    }
    return static_cast<uint32_t>(index(cursor_));
  }

 private:
  Coverage(const OrcTable& t, std::vector<uint32_t> order, size_t count) : t_(t), order_(std::move(order)), count_(count) {}
  size_t size() const { return order_.empty() ? count_ : order_.size(); }
  size_t index(size_t k) const { return order_.empty() ? k : order_[k]; }
  uint64_t at(size_t k) const { return t_.sites.address(index(k)); }

  const OrcTable& t_;
  std::vector<uint32_t> order_;  // empty: the table's own order
  size_t count_ = 0;
  size_t cursor_ = 0;
  uint64_t last_address_ = 0;
};

// The addresses of a linked image's ascending entries as 32-bit offsets
// from the first (a kernel's span a few dozen MiB; none over 2 GiB here).
class EntryOffsets {
 public:
  static std::optional<EntryOffsets> of(const OrcTable& t) {
    const size_t n = t.size();
    if (n == 0 || !t.ascending || !t.sites.computed()) return std::nullopt;
    const auto sites = t.sites.slot_view();
    const uint64_t first = sites.address(0), span = sites.address(n - 1) - first;
    if (span >= (uint64_t(1) << 31)) return std::nullopt;
    return EntryOffsets(sites, first, span, n);
  }
  uint64_t first() const { return first_; }

  // The last entry at or below `address` (the first entry when none is).
  size_t find(uint64_t address) const {
    size_t c = 0, above = n_;
    while (c + 1 < above) {
      const size_t mid = c + (above - c) / 2;
      if (sites_.address(mid) <= address)
        c = mid;
      else
        above = mid;
    }
    return c;
  }

  // The last entry at or below `address`, from `c`, which is at or below it.
  size_t advance(size_t c, uint64_t address) const {
    if (address - first_ >= span_) return n_ - 1;
    const uint32_t x = static_cast<uint32_t>(address - first_);
    // Half the starts are a function after its prefix, under the same
    // entry: one comparison, not sixteen.
    if (c + 1 < n_ && offset(c + 1) > x) return c;
    for (;;) {
      if (c + kLanes >= n_) {
        while (c + 1 < n_ && offset(c + 1) <= x) ++c;
        return c;
      }
      const uint32_t below = count_at_or_below(c + 1, x);
      c += below;
      if (below < kLanes) return c;
    }
  }

 private:
  static constexpr uint32_t kLanes = 16;
  EntryOffsets(Sites::SlotView sites, uint64_t first, uint64_t span, size_t n)
      : sites_(sites), first_(first), span_(span), n_(n), to_offset_(static_cast<uint32_t>(sites.base - first)) {}
  uint32_t offset(size_t j) const { return static_cast<uint32_t>(sites_.address(j) - first_); }

  // Of entries j .. j + 15, how many are at offset x or below: they ascend,
  // so the lanes above x are a suffix, and the count is where it begins.
  // Offsets and x are below 2^31 (of() sees to it): signed compares do.
  uint32_t count_at_or_below(size_t j, uint32_t x) const {
#if defined(__SSE2__)
    const __m128i limit = _mm_set1_epi32(int32_t(x));
    const __m128i* slots = reinterpret_cast<const __m128i*>(sites_.slots + j * kIpSize);
    const __m128i base = _mm_add_epi32(_mm_set1_epi32(int32_t(to_offset_ + uint32_t(j * kIpSize))), _mm_setr_epi32(0, 4, 8, 12));
    auto above = [&](int q) {
      const __m128i offsets = _mm_add_epi32(_mm_loadu_si128(slots + q), _mm_add_epi32(base, _mm_set1_epi32(16 * q)));
      return _mm_cmpgt_epi32(offsets, limit);
    };
    const __m128i bytes = _mm_packs_epi16(_mm_packs_epi32(above(0), above(1)), _mm_packs_epi32(above(2), above(3)));
    return static_cast<uint32_t>(__builtin_ctz(unsigned(_mm_movemask_epi8(bytes)) | 0x10000u));
#else
    uint32_t below = 0;
    for (uint32_t q = 0; q < kLanes; ++q) below += offset(j + q) <= x;
    return below;
#endif
  }

  Sites::SlotView sites_;
  uint64_t first_, span_;
  size_t n_;
  uint32_t to_offset_;  // slot addresses minus the first entry's, mod 2^32
};

// A linked image whose entries ascend (kernels since 5.6): a merge of the
// entries and the starts, both in address order. Each start's entry is
// counted from the last start's without a branch (a plain merge mispredicts
// its loop's exit at every start); the count waits on its loads, so four
// merges over four stretches of the starts run interleaved, and the
// processor overlaps them.
void cover_sorted_image(const OrcTable& t, const EntryOffsets& entries, const std::vector<CodeStart>& starts,
                        size_t from, size_t to, std::vector<uint32_t>& cover) {
  struct Merge {
    size_t k = 0, end = 0, c = 0;
    OrcTable::CodeBounds code;  // of the last start
  };
  constexpr size_t kMerges = 4;
  Merge m[kMerges];
  const size_t per = (to - from + kMerges - 1) / kMerges;
  for (size_t q = 0; q < kMerges; ++q) {
    m[q].k = std::min(to, from + q * per);
    m[q].end = std::min(to, m[q].k + per);
    if (m[q].k < m[q].end) {
      m[q].code = t.code_bounds_at(starts[m[q].k].address);
      m[q].c = entries.find(starts[m[q].k].address);
    }
  }
  const uint64_t first = entries.first();
  auto step = [&](Merge& x) {
    const size_t k = x.k++;
    const uint64_t a = starts[k].address;
    if (!x.code.holds(a)) x.code = t.code_bounds_at(a);
    if (!x.code.in_code || a < first) return;
    x.c = entries.advance(x.c, a);
    cover[k - from] = static_cast<uint32_t>(x.c);
  };
  for (bool more = true; more;) {
    more = false;
    for (auto& x : m)
      if (x.k < x.end) {
        step(x);
        more = true;
      }
  }
}

// Any other linked file (a shared object's table is not sorted).
void cover_any_image(const OrcTable& t, Coverage& image, const std::vector<CodeStart>& starts, size_t from, size_t to,
                     std::vector<uint32_t>& cover) {
  if (from >= to) return;
  OrcTable::CodeBounds code = t.code_bounds_at(starts[from].address);
  for (size_t k = from; k < to; ++k) {
    const uint64_t a = starts[k].address;
    if (!code.holds(a)) code = t.code_bounds_at(a);
    if (code.in_code) cover[k - from] = image.covering(a);
  }
}

// The entry covering each code start (kNoCodeStart: none, or the symbol is
// outside the code the table describes), for stretches of the starts.
class CoverFinder {
 public:
  CoverFinder(const OrcTable& t, const input::SymbolIndex& symbols)
      : t_(t), symbols_(symbols), image_entries_(t.relocatable ? std::nullopt : EntryOffsets::of(t)) {
    if (!t.relocatable) return;
    std::map<uint32_t, std::vector<uint32_t>> per_section;
    for (size_t i = 0; i < t.size(); ++i)
      if (t.sites[i].resolved) per_section[t.sites[i].section].push_back(static_cast<uint32_t>(i));
    for (auto& [section, entries] : per_section) per_section_.emplace(section, Coverage::of(t, std::move(entries)));
  }

  // cover[k - from] for the starts k in [from, to).
  void fill(size_t from, size_t to, std::vector<uint32_t>& cover) {
    const auto& starts = symbols_.code_starts();
    cover.assign(to - from, kNoCodeStart);
    if (image_entries_) {
      cover_sorted_image(t_, *image_entries_, starts, from, to, cover);
    } else if (!t_.relocatable) {
      if (!image_) image_.emplace(Coverage::of_image(t_));
      cover_any_image(t_, *image_, starts, from, to, cover);
    } else {
      for (size_t k = from; k < to; ++k) {
        const input::Symbol& s = symbols_.symbols()[starts[k].symbol];
        if (!s.section || !t_.code_section(s.section)) continue;
        auto it = per_section_.find(s.section);
        if (it != per_section_.end()) cover[k - from] = it->second.covering(s.address);
      }
    }
  }

  uint32_t of(size_t k) {
    fill(k, k + 1, one_);
    return one_.front();
  }

 private:
  const OrcTable& t_;
  const input::SymbolIndex& symbols_;
  std::optional<EntryOffsets> image_entries_;  // a sorted image
  std::optional<Coverage> image_;              // any other image
  std::map<uint32_t, Coverage> per_section_;   // an object
  std::vector<uint32_t> one_;
};

// sp+8 with no frame pointer saved: what a C function starts with, and all
// SYM-001 asks (bytes 0-1 sp_offset, byte 4 sp_reg | bp_reg << 4, whose
// codes are the layout's: 0x05 before 7.1, 0x03 from 7.1).
bool starts_call_frame(const uint8_t* raw, uint8_t registers) { return raw[0] == 8 && raw[1] == 0 && raw[4] == registers; }

// The same six bytes (two fixed-size loads each, not a byte loop).
bool same_entry(const uint8_t* x, const uint8_t* y) {
  uint32_t x4, y4;
  uint16_t x2, y2;
  std::memcpy(&x4, x, 4);
  std::memcpy(&y4, y, 4);
  std::memcpy(&x2, x + 4, 2);
  std::memcpy(&y2, y + 4, 2);
  return x4 == y4 && x2 == y2;
}

// Kallsyms has no symbol types: an assembly label inside a function
// (SYM_INNER_LABEL: ftrace_call, int3_selftest_ip), which a symtab marks
// STT_NOTYPE (CodeRole::Label), looks like a function there. Its state is
// that of the code around it, begun before the label; a compiled function's
// start begins an entry of its own whenever its state differs from the code
// before it (objtool starts each function from the entry state). A name
// beginning with '.' is a local assembly label (.slowpath): no compiler
// names a function so. Symbols with a size (a symtab's) are never guessed.
bool untyped_inner_label(const input::Symbol& s, uint64_t entry_address) {
  if (s.size != 0 || s.section != 0) return false;
  return entry_address < s.address || s.name.starts_with('.');
}

}  // namespace

void check_symbols(const OrcTable& t, const input::SymbolIndex& symbols, OrcFindings& f, size_t from, size_t to) {
  const auto& starts = symbols.code_starts();
  const auto& all = symbols.symbols();
  to = std::min(to, starts.size());
  if (from >= to) return;
  CoverFinder finder(t, symbols);
  const uint8_t entry_registers = layout_info(t.layout).entry_state_word()[0];
  // Stretches of starts whose covers stay in the first-level cache while
  // they are checked.
  constexpr size_t kStretch = kSymbolStretch;
  std::vector<uint32_t> cover;
  cover.reserve(kStretch);
  for (size_t lo = from; lo < to; lo += kStretch) {
    const size_t hi = std::min(to, lo + kStretch);
    finder.fill(lo, hi, cover);
    // A prefix's function is the next start, outside the stretch at its end.
    auto cover_of = [&](size_t k) { return k >= lo && k < hi ? cover[k - lo] : finder.of(k); };
    for (size_t k = lo; k < hi; ++k) {
      const CodeStart& c = starts[k];
      const uint32_t i = cover[k - lo];
      if (i == kNoCodeStart || c.role == CodeRole::ColdFragment || c.role == CodeRole::Marker ||
          c.role == CodeRole::Label)
        continue;
      const uint8_t* raw = t.entries.raw(i);
      if (c.role == CodeRole::Prefix) {
        const uint32_t j = c.prefixed == kNoCodeStart ? kNoCodeStart : cover_of(c.prefixed);
        if (j == kNoCodeStart || j == i || same_entry(raw, t.entries.raw(j))) continue;
        const Entry e = t.entries[i], fn = t.entries[j];
        if (!is_weak(fn))
          f.at_entry(rules::SYM_003, i, all[c.symbol].name + " is covered by " + describe(e) + ", " +
                                            all[starts[c.prefixed].symbol].name + " starts with " + describe(fn));
        continue;
      }
      if (starts_call_frame(raw, entry_registers)) continue;
      // Assembly with other frames (entry code, thunks) is not compiled C.
      const Entry e = t.entries[i];
      if (e.type != kTypeCall || is_entry_state(e)) continue;
      if (untyped_inner_label(all[c.symbol], t.sites.address(i))) continue;
      f.at_entry(rules::SYM_001, i, all[c.symbol].name + " starts under " + describe(e) + ", not call sp+8");
    }
  }
}

}  // namespace elfmeta::orc
