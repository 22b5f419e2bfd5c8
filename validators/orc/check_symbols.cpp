// ORC-SYM-*: what the entries say at function starts.
#include <algorithm>
#include <map>

#include "core/text.h"
#include "orc/orc_checks.h"
#include "orc/orc_rules.h"

namespace elfmeta::orc {
namespace {

// Entries of one code region sorted by address, to find the entry that
// covers an address (the last one at or below it).
struct Coverage {
  std::vector<std::pair<uint64_t, size_t>> by_address;  // address, entry index
  std::optional<size_t> covering(uint64_t address) const {
    auto it = std::upper_bound(by_address.begin(), by_address.end(), std::pair{address, SIZE_MAX});
    if (it == by_address.begin()) return std::nullopt;
    return std::prev(it)->second;
  }
};

bool ends_with(std::string_view s, std::string_view suffix) { return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix; }

// Not function entries: GCC's .cold fragments, and the markers of section
// boundaries that kallsyms lists as text symbols (_sinittext,
// __entry_text_end, __irqentry_text_start, ...).
bool exempt(std::string_view name) {
  if (name.find(".cold") != std::string_view::npos) return true;
  if (name.starts_with("__") && (ends_with(name, "_start") || ends_with(name, "_end"))) return true;
  if ((name.starts_with("_s") || name.starts_with("_e")) && ends_with(name, "text")) return true;
  return false;
}

}  // namespace

void check_symbols(const OrcTable& t, const input::SymbolIndex& symbols, OrcFindings& f) {
  // One coverage per code section for objects; one for the whole image.
  std::map<uint32_t, Coverage> coverage;
  for (size_t i = 0; i < t.size(); ++i) {
    if (!t.sites[i].resolved) continue;
    coverage[t.relocatable ? t.sites[i].section : 0].by_address.push_back({t.sites[i].address, i});
  }
  for (auto& [section, c] : coverage) std::stable_sort(c.by_address.begin(), c.by_address.end());
  auto covering = [&](const input::Symbol& s) -> std::optional<size_t> {
    uint32_t region = 0;
    if (t.relocatable) {
      if (!s.section || !t.code_section(s.section)) return std::nullopt;
      region = s.section;
    } else if (!t.code_at(s.address)) {
      return std::nullopt;
    }
    auto it = coverage.find(region);
    return it == coverage.end() ? std::nullopt : it->second.covering(s.address);
  };
  for (const input::Symbol& s : symbols.symbols()) {
    if (!s.function() || exempt(s.name)) continue;
    const auto i = covering(s);
    if (!i) continue;
    const Entry& e = t.entries[*i];
    if (s.name.starts_with("__pfx_")) {
      const input::Symbol* fn = symbols.find(std::string_view(s.name).substr(6));
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
