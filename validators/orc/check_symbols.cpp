// ORC-SYM-*: what the entries say at function starts.
#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>

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

// A linked image whose entries ascend (kernels since 5.6): one merge of the
// entries and the starts, both in address order. The walk is a plain loop
// on purpose: the branch predictor runs it ahead, where a branch-free step
// that computes the next position from the last waits on every load.
void cover_sorted_image(const OrcTable& t, const std::vector<CodeStart>& starts, std::vector<uint32_t>& cover) {
  const size_t n = t.size();
  if (n == 0) return;
  const auto sites = t.sites.slot_view();
  const uint64_t first = sites.address(0);
  // Starts come by address: mostly in the same code section as the last.
  const input::Section* code = nullptr;
  uint64_t code_lo = 0, code_span = 0;  // its [addr, addr + size], in registers
  size_t c = 0;
  for (size_t k = 0; k < starts.size(); ++k) {
    const uint64_t a = starts[k].address;
    if (!code || a < code_lo || a - code_lo > code_span) {
      code = t.code_at(a);
      if (!code) continue;
      code_lo = code->addr;
      code_span = code->size;
    }
    if (a < first) continue;
    while (c + 1 < n && sites.address(c + 1) <= a) ++c;
    cover[k] = static_cast<uint32_t>(c);
  }
}

// Any other linked file (a shared object's table is not sorted).
void cover_any_image(const OrcTable& t, const std::vector<CodeStart>& starts, std::vector<uint32_t>& cover) {
  Coverage image = Coverage::of_image(t);
  const input::Section* code = nullptr;
  for (size_t k = 0; k < starts.size(); ++k) {
    const uint64_t a = starts[k].address;
    if (!code || a < code->addr || a - code->addr > code->size) code = t.code_at(a);
    if (code) cover[k] = image.covering(a);
  }
}

// For each code start, the entry covering it (kNoCodeStart: none, or the
// symbol is outside the code the table describes).
std::vector<uint32_t> covering_entries(const OrcTable& t, const input::SymbolIndex& symbols) {
  const auto& starts = symbols.code_starts();
  std::vector<uint32_t> cover(starts.size(), kNoCodeStart);
  if (!t.relocatable) {
    if (t.ascending && t.sites.computed())
      cover_sorted_image(t, starts, cover);
    else
      cover_any_image(t, starts, cover);
    return cover;
  }
  std::map<uint32_t, std::vector<uint32_t>> per_section;
  for (size_t i = 0; i < t.size(); ++i)
    if (t.sites[i].resolved) per_section[t.sites[i].section].push_back(static_cast<uint32_t>(i));
  std::map<uint32_t, Coverage> coverage;
  for (auto& [section, entries] : per_section) coverage.emplace(section, Coverage::of(t, std::move(entries)));
  for (size_t k = 0; k < starts.size(); ++k) {
    const input::Symbol& s = symbols.symbols()[starts[k].symbol];
    if (!s.section || !t.code_section(s.section)) continue;
    auto it = coverage.find(s.section);
    if (it != coverage.end()) cover[k] = it->second.covering(s.address);
  }
  return cover;
}

// sp+8 with no frame pointer saved: what a C function starts with, and all
// SYM-001 asks (bytes 0-1 sp_offset, byte 4 sp_reg | bp_reg << 4).
bool starts_call_frame(const uint8_t* raw) { return raw[0] == 8 && raw[1] == 0 && raw[4] == kRegSp; }

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

}  // namespace

void check_symbols(const OrcTable& t, const input::SymbolIndex& symbols, OrcFindings& f) {
  const auto& starts = symbols.code_starts();
  const auto& all = symbols.symbols();
  const std::vector<uint32_t> cover = covering_entries(t, symbols);
  for (size_t k = 0; k < starts.size(); ++k) {
    const CodeStart& c = starts[k];
    const uint32_t i = cover[k];
    if (i == kNoCodeStart || c.role == CodeRole::ColdFragment || c.role == CodeRole::Marker) continue;
    const uint8_t* raw = t.entries.raw(i);
    if (c.role == CodeRole::Prefix) {
      const uint32_t j = c.prefixed == kNoCodeStart ? kNoCodeStart : cover[c.prefixed];
      if (j == kNoCodeStart || j == i || same_entry(raw, t.entries.raw(j))) continue;
      const Entry e = t.entries[i], fn = t.entries[j];
      if (!is_weak(fn, t.layout))
        f.at_entry(rules::SYM_003, i, all[c.symbol].name + " is covered by " + describe(e, t.layout) + ", " +
                                          all[starts[c.prefixed].symbol].name + " starts with " + describe(fn, t.layout));
      continue;
    }
    if (starts_call_frame(raw)) continue;
    // Assembly with other frames (entry code, thunks) is not compiled C.
    const Entry e = t.entries[i];
    if (e.type != kTypeCall || is_entry_state(e)) continue;
    f.at_entry(rules::SYM_001, i, all[c.symbol].name + " starts under " + describe(e, t.layout) + ", not call sp+8");
  }
}

}  // namespace elfmeta::orc
