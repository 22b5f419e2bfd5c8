// ORC-SYM-*: what the entries say at function starts.
#include <algorithm>
#include <map>
#include <numeric>

#include "core/text.h"
#include "orc/orc_checks.h"
#include "orc/orc_rules.h"

namespace elfmeta::orc {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Not function entries: GCC's .cold fragments, and the markers of section
// boundaries that kallsyms lists as text symbols (_sinittext,
// __entry_text_end, __irqentry_text_start, ...).
bool exempt(std::string_view name) {
  if (name.find(".cold") != std::string_view::npos) return true;
  if (name.starts_with("__") && (ends_with(name, "_start") || ends_with(name, "_end"))) return true;
  if ((name.starts_with("_s") || name.starts_with("_e")) && ends_with(name, "text")) return true;
  return false;
}

// The entries of one code region in address order (their indexes; none
// needed when the table is sorted already), to find the entry that covers
// an address: the last one at or below it.
class Coverage {
 public:
  // Given entries (of one section of an object).
  static Coverage of(const OrcTable& t, std::vector<uint32_t> entries) {
    auto by_address = [&](uint32_t x, uint32_t y) { return t.sites[x].address < t.sites[y].address; };
    if (!std::is_sorted(entries.begin(), entries.end(), by_address)) std::stable_sort(entries.begin(), entries.end(), by_address);
    return Coverage(t, std::move(entries), 0);
  }
  // All entries of a linked image: usually sorted already.
  static Coverage of_image(const OrcTable& t) {
    bool sorted = true;
    for (size_t i = 1; i < t.size() && sorted; ++i) sorted = t.sites[i - 1].address <= t.sites[i].address;
    if (sorted) return Coverage(t, {}, t.size());
    std::vector<uint32_t> all(t.size());
    std::iota(all.begin(), all.end(), 0u);
    return of(t, std::move(all));
  }

  // Queries in ascending address order walk forward; others search.
  std::optional<size_t> covering(uint64_t address) {
    const size_t n = size();
    if (n == 0 || address < at(0)) return std::nullopt;
    if (address < last_address_) cursor_ = 0;
    if (cursor_ + 64 < n && at(cursor_ + 64) <= address) {
      size_t lo = cursor_ + 64, hi = n;  // the first above `address` is in (lo, hi]
      while (lo + 1 < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        (at(mid) <= address ? lo : hi) = mid;
      }
      cursor_ = lo;
    }
    while (cursor_ + 1 < n && at(cursor_ + 1) <= address) ++cursor_;
    last_address_ = address;
    return index(cursor_);
  }

 private:
  Coverage(const OrcTable& t, std::vector<uint32_t> order, size_t count) : t_(t), order_(std::move(order)), count_(count) {}
  size_t size() const { return order_.empty() ? count_ : order_.size(); }
  size_t index(size_t k) const { return order_.empty() ? k : order_[k]; }
  uint64_t at(size_t k) const { return t_.sites[index(k)].address; }

  const OrcTable& t_;
  std::vector<uint32_t> order_;  // empty: the table's own order
  size_t count_ = 0;
  size_t cursor_ = 0;
  uint64_t last_address_ = 0;
};

}  // namespace

void check_symbols(const OrcTable& t, const input::SymbolIndex& symbols, OrcFindings& f) {
  // One coverage per code section for objects; one for the whole image.
  std::map<uint32_t, Coverage> coverage;
  std::optional<Coverage> image_coverage;
  if (t.relocatable) {
    std::map<uint32_t, std::vector<uint32_t>> per_section;
    for (size_t i = 0; i < t.size(); ++i)
      if (t.sites[i].resolved) per_section[t.sites[i].section].push_back(static_cast<uint32_t>(i));
    for (auto& [section, entries] : per_section) coverage.emplace(section, Coverage::of(t, std::move(entries)));
  } else {
    image_coverage.emplace(Coverage::of_image(t));
  }
  Coverage* image = image_coverage ? &*image_coverage : nullptr;
  const input::Section* code = nullptr;  // symbols come by address: mostly the same section
  auto covering = [&](const input::Symbol& s) -> std::optional<size_t> {
    if (image) {
      if (!code || s.address < code->addr || s.address - code->addr > code->size) code = t.code_at(s.address);
      return code ? image->covering(s.address) : std::nullopt;
    }
    if (!t.relocatable || !s.section || !t.code_section(s.section)) return std::nullopt;
    auto it = coverage.find(s.section);
    return it == coverage.end() ? std::nullopt : it->second.covering(s.address);
  };
  const auto& all = symbols.symbols();
  for (size_t k = 0; k < all.size(); ++k) {
    const input::Symbol& s = all[k];
    if (!s.function() || exempt(s.name)) continue;
    const auto i = covering(s);
    if (!i) continue;
    const Entry& e = t.entries[*i];
    if (s.name.starts_with("__pfx_")) {
      // The function follows its prefix: look among the next symbols first.
      const std::string_view fn_name = std::string_view(s.name).substr(6);
      const input::Symbol* fn = nullptr;
      for (size_t j = k + 1; j < all.size() && j < k + 8 && !fn; ++j)
        if (all[j].name == fn_name) fn = &all[j];
      if (!fn) fn = symbols.find(fn_name);
      const auto j = fn ? covering(*fn) : std::nullopt;
      if (j && !is_weak(t.entries[*j], t.layout) && t.entries[*j].bytes != e.bytes)
        f.at_entry(rules::SYM_003, *i, s.name + " is covered by " + describe(e, t.layout) + ", " + fn->name +
                                           " starts with " + describe(t.entries[*j], t.layout));
      continue;
    }
    // Assembly with other frames (entry code, thunks) is not compiled C.
    if (e.type != kTypeCall || is_entry_state(e)) continue;
    f.at_entry(rules::SYM_001, *i, s.name + " starts under " + describe(e, t.layout) + ", not call sp+8");
  }
}

}  // namespace elfmeta::orc
