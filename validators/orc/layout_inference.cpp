#include "orc/layout_inference.h"

#include <algorithm>
#include <vector>

#include "orc/orc_format.h"

namespace elfmeta::orc {
namespace {

struct Tally {
  Layout layout;
  size_t frames = 0, entry_states = 0, implausible = 0;
};

Tally tally(const uint8_t* entries, size_t count, const LayoutInfo& l) {
  Tally t{l.layout};
  for (size_t i = 0; i < count; ++i) {
    const Entry e = decode(entries + i * kEntrySize, l.layout);
    t.frames += is_frame(e);
    t.entry_states += is_entry_state(e);
    t.implausible += !is_plausible(e, l);
  }
  return t;
}

// A wrong layout makes a large share of a table implausible (every saved
// RBP of a 6.4-7.0 table read with the 7.1 numbering, a third of it); a
// broken producer or a hostile edit, a few entries (one in the few entries of
// an object).
bool plausible(const Tally& t, size_t count) {
  const bool few_implausible = t.implausible <= std::max<size_t>(1, count / 10);
  const bool functions_start = t.frames == 0 || (t.entry_states > 0 && t.entry_states * 50 >= t.frames);
  return few_implausible && functions_start;
}

// Whether every entry means the same in all of `layouts`.
bool decode_alike(const uint8_t* entries, size_t count, const std::vector<Layout>& layouts) {
  for (size_t i = 0; i < count; ++i) {
    const Entry a = decode(entries + i * kEntrySize, layouts.front());
    for (size_t k = 1; k < layouts.size(); ++k) {
      const Entry b = decode(entries + i * kEntrySize, layouts[k]);
      if (a.type != b.type || a.sp_reg != b.sp_reg || a.bp_reg != b.bp_reg || a.sp_offset != b.sp_offset ||
          a.bp_offset != b.bp_offset || a.signal != b.signal || a.end != b.end || (a.reserved != 0) != (b.reserved != 0))
        return false;
    }
  }
  return true;
}

std::string names(const std::vector<Layout>& layouts) {
  std::string s;
  for (size_t k = 0; k < layouts.size(); ++k) {
    if (k) s += k + 1 == layouts.size() ? " and " : ", ";
    s += layout_info(layouts[k]).name;
  }
  return s;
}

}  // namespace

LayoutGuess infer_layout(const uint8_t* entries, size_t count) {
  std::vector<Tally> tallies;
  for (const LayoutInfo& l : layout_table())
    if (l.by_release()) tallies.push_back(tally(entries, count, l));
  std::string evidence;
  for (const Tally& t : tallies) {
    if (!evidence.empty()) evidence += "; ";
    evidence += std::string(layout_info(t.layout).name) + ": " + std::to_string(t.entry_states) + " of " +
                std::to_string(t.frames) + " frames call sp+8, " + std::to_string(t.implausible) + " implausible";
  }
  std::vector<const Tally*> fitting;
  for (const Tally& t : tallies)
    if (plausible(t, count)) fitting.push_back(&t);
  if (fitting.empty()) return {std::nullopt, "no known layout fits the entries (" + evidence + ")"};
  const size_t fewest = (*std::min_element(fitting.begin(), fitting.end(), [](const Tally* x, const Tally* y) {
                          return x->implausible < y->implausible;
                        }))->implausible;
  std::vector<Layout> best;
  for (const Tally* t : fitting)
    if (t->implausible == fewest) best.push_back(t->layout);
  if (best.size() == 1) return {best.front(), std::string(layout_info(best.front()).name) + " fits the entries (" + evidence + ")"};
  if (decode_alike(entries, count, best))
    return {best.front(), names(best) + " fit the entries and decode them alike (" + evidence + ")"};
  return {std::nullopt, names(best) + " fit the entries equally and decode them differently (" + evidence + ")"};
}

}  // namespace elfmeta::orc
