// ORC-COV-007: the undefined entries inside functions, between their first
// and their last instruction.
#include <algorithm>
#include <optional>
#include <tuple>

#include "core/text.h"
#include "orc/orc_checks.h"
#include "orc/orc_rules.h"
#include "orc/x86_fill.h"

namespace elfmeta::orc {
namespace {

using input::CodeRole;
using input::CodeStart;

// The resolved entries in address order (each code section of an object on
// its own): a kernel image's own order when it ascends, else sorted indexes.
class InAddressOrder {
 public:
  explicit InAddressOrder(const OrcTable& t) : t_(t), identity_(!t.relocatable && t.ascending && t.sites.unresolved().empty()) {
    if (identity_) return;
    order_.reserve(t.size());
    for (size_t i = 0; i < t.size(); ++i)
      if (t.sites[i].resolved) order_.push_back(static_cast<uint32_t>(i));
    auto before = [&](uint32_t x, uint32_t y) { return key(x) < key(y); };
    if (!std::is_sorted(order_.begin(), order_.end(), before)) std::stable_sort(order_.begin(), order_.end(), before);
  }
  size_t size() const { return identity_ ? t_.size() : order_.size(); }
  uint32_t index(size_t j) const { return identity_ ? static_cast<uint32_t>(j) : order_[j]; }
  // (code section in an object, else 0; address) of position j.
  std::pair<uint32_t, uint64_t> place(size_t j) const { return key(index(j)); }
  // Of several entries at one place the lookup finds the last: whether j is it.
  bool effective(size_t j) const { return j + 1 >= size() || place(j + 1) != place(j); }
  // The effective entry before j's place, and the one after (size(): none).
  size_t effective_before(size_t j) const {
    const auto at = place(j);
    while (j > 0 && place(j - 1) == at) --j;
    return j == 0 ? size() : j - 1;
  }
  size_t effective_after(size_t j) const {
    if (++j >= size()) return size();
    while (!effective(j)) ++j;
    return j;
  }

 private:
  std::pair<uint32_t, uint64_t> key(uint32_t i) const { return {t_.relocatable ? t_.sites[i].section : 0, t_.sites.address(i)}; }
  const OrcTable& t_;
  bool identity_;
  std::vector<uint32_t> order_;
};

// The functions of each code section (one list for an image), by section
// and start: what holds an entry's address.
class Functions {
 public:
  Functions(const OrcTable& t, const input::SymbolIndex& symbols) : symbols_(symbols) {
    const auto& starts = symbols.code_starts();
    extents_.reserve(starts.size());
    // From the last start back, so that each knows the next higher start
    // address (where a symbol without a size, kallsyms', ends) in one pass.
    std::optional<uint64_t> following;
    for (size_t k = starts.size(); k-- > 0;) {
      if (k + 1 < starts.size() && starts[k + 1].address > starts[k].address) following = starts[k + 1].address;
      if (starts[k].role != CodeRole::Function) continue;
      const input::Symbol& s = symbols.symbols()[starts[k].symbol];
      if (t.relocatable && !t.code_section(s.section)) continue;
      if (s.size == 0 && !following) continue;
      extents_.push_back({t.relocatable ? s.section : 0, s.address, s.size ? s.address + s.size : *following, starts[k].symbol});
    }
    std::reverse(extents_.begin(), extents_.end());
    // An object's starts ascend by offset across its sections.
    auto before = [](const Extent& x, const Extent& y) { return std::tie(x.section, x.start) < std::tie(y.section, y.start); };
    if (t.relocatable) std::stable_sort(extents_.begin(), extents_.end(), before);
  }
  struct Extent {
    uint32_t section = 0;
    uint64_t start = 0, end = 0;
    uint32_t symbol = 0;
  };
  // The function with the last start before `address` (not at it: a
  // function's first entry is ORC-SYM-001's), if it holds the address.
  // Asked in the entries' order, (section, address) ascending: one walk.
  const Extent* holding(uint32_t section, uint64_t address) {
    auto below = [&](const Extent& e) { return std::tie(e.section, e.start) < std::tie(section, address); };
    while (next_ < extents_.size() && below(extents_[next_])) ++next_;
    if (next_ == 0) return nullptr;
    const Extent& e = extents_[next_ - 1];
    return e.section == section && address < e.end ? &e : nullptr;
  }
  std::string_view name(const Extent& e) const { return symbols_.symbols()[e.symbol].name; }

 private:
  const input::SymbolIndex& symbols_;
  std::vector<Extent> extents_;
  size_t next_ = 0;  // holding(): the first extent at or after the last place asked
};

// The code bytes [address, address + length) of an entry's place, cut at
// the section's end. Code sections always have their bytes (orc_table.cpp
// takes no SHT_NOBITS section for code; without any, check_image.cpp's
// note says this rule did not run).
std::span<const uint8_t> code_bytes(const OrcTable& t, uint32_t section, uint64_t address, uint64_t length) {
  const input::Section* s = t.relocatable ? t.code_section(section) : t.code_at(address);
  if (!s || s->data.empty()) return {};
  const uint64_t offset = t.relocatable ? address : address - s->addr;
  if (offset >= s->data.size()) return {};
  return s->data.subspan(offset, std::min<uint64_t>(length, s->data.size() - offset));
}

}  // namespace

void check_function_bodies(const OrcTable& t, const input::SymbolIndex& symbols, OrcFindings& f) {
  const InAddressOrder entries(t);
  const LayoutInfo& layout = layout_info(t.layout);
  auto type = [&](uint32_t i) { return entry_type(t.entries.raw(i), layout); };
  std::optional<Functions> functions;  // built at the first undefined entry that needs them
  for (size_t j = 0; j < entries.size(); ++j) {
    const uint32_t i = entries.index(j);
    if (type(i) != kTypeUndefined || !entries.effective(j)) continue;
    const size_t before = entries.effective_before(j), after = entries.effective_after(j);
    if (before == entries.size() || after == entries.size()) continue;
    const auto [section, address] = entries.place(j);
    const auto [next_section, next_address] = entries.place(after);
    // Compiled code has call frames only; entry assembly between register
    // frames may declare its state undefined (UNWIND_HINT_UNDEFINED).
    if (next_section != section || entries.place(before).first != section ||
        type(entries.index(before)) != kTypeCall || type(entries.index(after)) != kTypeCall)
      continue;
    if (!functions) functions.emplace(t, symbols);
    const Functions::Extent* fn = functions->holding(section, address);
    if (!fn || next_address >= fn->end) continue;
    const auto code = code_bytes(t, section, address, next_address - address);
    if (x86_all_fill(code)) continue;
    f.at_entry(rules::COV_007, i,
               std::string(functions->name(*fn)) + "+" + hex(address - fn->start) + ": undefined between " +
                   describe(t.entries[entries.index(before)]) + " and " + describe(t.entries[entries.index(after)]) +
                   ", on code that is not padding (" + hex_bytes(code.first(std::min<size_t>(code.size(), 8))) +
                   (code.size() > 8 ? "..." : "") + ")");
  }
}

}  // namespace elfmeta::orc
