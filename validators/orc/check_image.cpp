// Linked images (vmlinux): where the entries point, their order, the
// boundary symbols, and the fast lookup table the kernel builds at boot.
#include <elf.h>

#include <algorithm>
#include <cstring>

#include "core/text.h"
#include "orc/orc_checks.h"
#include "orc/orc_rules.h"

namespace elfmeta::orc {
namespace {

constexpr Release kBuildTimeSort{5, 6};

struct TextRange {
  uint64_t start = 0, end = 0;  // _stext, _etext
  std::string how;
};

std::optional<uint64_t> symbol(const input::SymbolIndex* symbols, std::string_view name) {
  if (!symbols) return std::nullopt;
  const input::Symbol* s = symbols->find(name);
  return s ? std::optional<uint64_t>(s->address) : std::nullopt;
}

// The lookup range: _stext to _etext, or the .text section without symbols.
std::optional<TextRange> text_range(const OrcTable& t, const input::SymbolIndex* symbols) {
  const auto stext = symbol(symbols, "_stext"), etext = symbol(symbols, "_etext");
  if (stext && etext && *etext >= *stext) return TextRange{*stext, *etext, "_stext.._etext"};
  if (const input::Section* text = t.artifact->section(".text"))
    return TextRange{text->addr, text->addr + text->size, ".text"};
  return std::nullopt;
}

// ORC-COV-001 (and the note for ORC-COV-007, which reads the code too). A
// file without any executable section (a vmlinux reduced
// with objcopy --only-section, say) gives no code to place the entries in:
// one note, the rule counted as not run, rather than an error per entry.
void check_sites(const OrcTable& t, OrcFindings& f) {
  if (t.code.empty()) {
    f.note("ORC-COV-001 and ORC-COV-007 not checked: the file has no executable section, so no entry's address can "
           "be placed in the code");
    return;
  }
  auto report = [&](size_t i) { f.at_entry(rules::COV_001, i, "address " + hex(t.sites.address(i)) + " is not in a code section"); };
  if (t.sites.computed()) {
    for (uint32_t i : t.sites.unresolved()) report(i);
    return;
  }
  for (size_t i = 0; i < t.size(); ++i)
    if (!t.sites[i].resolved) report(i);
}

// The order at entry i against i-1 (equal or descending addresses).
void check_pair_order(const OrcTable& t, size_t i, bool sorted_on_disk, OrcFindings& f) {
  const uint64_t prev = t.sites.address(i - 1), cur = t.sites.address(i);
  if (cur < prev) {
    if (sorted_on_disk)
      f.at_entry(rules::SORT_001, i, "address " + hex(cur) + " after entry " + std::to_string(i - 1) + " at " + hex(prev));
    return;
  }
  if (cur == prev && t.layout_known) {
    const bool weak_prev = is_weak(t.entries[i - 1]), weak_cur = is_weak(t.entries[i]);
    if (weak_cur && !weak_prev)
      f.at_entry(rules::SORT_002, i, "a terminator after entry " + std::to_string(i - 1) + " (" +
                                         describe(t.entries[i - 1]) + ") at the same address " + hex(cur));
    else if (!weak_cur && !weak_prev)
      f.at_entry(rules::SORT_003, i, "entry " + std::to_string(i - 1) + " is also a real entry at " + hex(cur));
  }
}

// Returns whether the addresses never go down.
bool check_order(const OrcTable& t, OrcFindings& f) {
  // Tables were sorted at boot before 5.6.
  const bool sorted_on_disk = !t.release || *t.release >= kBuildTimeSort;
  if (t.ascending) {  // the reader saw them: only the ties are left to look at
    for (uint32_t i : t.ties) check_pair_order(t, i, sorted_on_disk, f);
    return true;
  }
  for (size_t i = 1; i < t.size(); ++i)
    if (t.sites.address(i) <= t.sites.address(i - 1)) check_pair_order(t, i, sorted_on_disk, f);
  return false;
}

void check_boundary_symbols(const OrcTable& t, const input::SymbolIndex& symbols, OrcFindings& f) {
  for (const input::Section* s : {t.ip, t.unwind, t.header}) {
    if (!s) continue;
    const std::string base = s->name.substr(1);  // "orc_unwind_ip"
    for (const auto& [name, expected] : {std::pair{"__start_" + base, s->addr}, std::pair{"__stop_" + base, s->addr + s->size}}) {
      const auto value = symbol(&symbols, name);
      if (value && *value != expected)
        f.at_section(rules::SEC_009, s->name, std::nullopt,
                     name + " is " + hex(*value) + ", the section says " + hex(expected));
    }
  }
}

// Word i: the last entry at or below start + 256*i; the last word: at or
// below the end of the range. Entries must be sorted for this to mean much.
std::vector<uint32_t> compute_lookup(const OrcTable& t, const TextRange& r, size_t words) {
  std::vector<uint32_t> lookup(words, 0);
  size_t k = 0;
  for (size_t i = 0; i < words; ++i) {
    const uint64_t ip = i + 1 == words ? r.end : r.start + uint64_t(i) * kLookupBlockSize;
    while (k + 1 < t.size() && t.sites.address(k + 1) <= ip) ++k;
    lookup[i] = static_cast<uint32_t>(k);
  }
  return lookup;
}

// The kernel's search: the rightmost entry at or below `ip` among
// entries [first, first + n).
size_t find_in(const OrcTable& t, size_t first, size_t n, uint64_t ip) {
  size_t lo = first, found = first;
  size_t hi = first + n;  // exclusive
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (t.sites.address(mid) <= ip) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return found;
}

void check_lookup(const OrcTable& t, const input::SymbolIndex* symbols, bool ascending, OrcFindings& f) {
  const auto range = text_range(t, symbols);
  if (!range) {
    f.note("no _stext/_etext and no .text: the lookup table is not checked");
    return;
  }
  if (t.size() && t.sites.address(0) > range->start)
    f.at_entry(rules::COV_005, 0, "first entry at " + hex(t.sites.address(0)) + ", after the start of the text at " +
                                      hex(range->start) + " (" + range->how + ")");
  const uint64_t expected_words = (range->end - range->start + kLookupBlockSize - 1) / kLookupBlockSize + 1;
  if (!t.lookup) {
    if (t.artifact->is_vmlinux()) f.at_section(rules::SEC_010, ".orc_lookup", std::nullopt, "missing");
    return;
  }
  if (t.lookup->size != expected_words * 4)
    f.at_section(rules::SEC_010, ".orc_lookup", std::nullopt,
                 std::to_string(t.lookup->size) + " bytes; " + range->how + " (" + hex(range->end - range->start) +
                     " bytes of text) needs " + std::to_string(expected_words * 4));
  const auto start_sym = symbol(symbols, "orc_lookup"), end_sym = symbol(symbols, "orc_lookup_end");
  if (start_sym && end_sym && *end_sym - *start_sym != t.lookup->size)
    f.at_section(rules::SEC_010, ".orc_lookup", std::nullopt,
                 "orc_lookup_end - orc_lookup is " + std::to_string(*end_sym - *start_sym) + " bytes, the section " +
                     std::to_string(t.lookup->size));
  const size_t words = static_cast<size_t>(std::min<uint64_t>(t.lookup->size, expected_words * 4) / 4);
  if (words < 2 || t.size() == 0) return;
  // A file image has the table zeroed (the kernel fills it at boot); a
  // memory image has it filled, and then it must be the table computed.
  const auto& stored_bytes = t.lookup->data;
  const bool filled = t.lookup->type != SHT_NOBITS && stored_bytes.size() >= words * 4 &&
                      std::any_of(stored_bytes.begin(), stored_bytes.end(), [](uint8_t b) { return b != 0; });
  // Every entry in the range must be what the kernel's lookup of its own
  // address finds (an entry at the same address, the last of them). With
  // ascending addresses and the lookup table computed from them that holds
  // by construction.
  if (ascending && !filled) return;
  // A filled table bounds the words by its bytes; an empty one only by the
  // section header and the text range, which hostile files make huge.
  constexpr size_t kMaxComputedWords = size_t(1) << 22;  // 1 GiB of text
  if (!filled && words > kMaxComputedWords) {
    f.note("the lookup table of " + std::to_string(words) + " words (" + range->how +
           ") is not recomputed: more text than any kernel has");
    return;
  }
  std::vector<uint32_t> lookup = compute_lookup(t, *range, words);
  if (filled) {
    std::vector<uint32_t> stored(words);
    std::memcpy(stored.data(), stored_bytes.data(), words * 4);
    for (size_t i = 0; i < words; ++i) {
      if (stored[i] >= t.size() || (i && stored[i] < stored[i - 1]))
        f.at_section(rules::LOOKUP_002, ".orc_lookup", uint64_t(i) * 4,
                     "word " + std::to_string(i) + " is " + std::to_string(stored[i]));
      else if (stored[i] != lookup[i])
        f.at_section(rules::LOOKUP_001, ".orc_lookup", uint64_t(i) * 4,
                     "word " + std::to_string(i) + " is " + std::to_string(stored[i]) + ", the table gives " +
                         std::to_string(lookup[i]));
    }
    lookup = std::move(stored);
  }
  for (size_t i = 0; i < t.size(); ++i) {
    const uint64_t ip = t.sites.address(i);
    if (ip < range->start || ip >= range->end) continue;
    const size_t block = static_cast<size_t>((ip - range->start) / kLookupBlockSize);
    if (block + 1 >= words) continue;
    const size_t first = lookup[block], stop = size_t(lookup[block + 1]) + 1;
    if (first >= t.size() || stop > t.size() || stop <= first) continue;  // LOOKUP-002
    const size_t found = find_in(t, first, stop - first, ip);
    if (t.sites.address(found) != ip)
      f.at_entry(rules::LOOKUP_003, i, "a lookup of " + hex(ip) + " finds entry " + std::to_string(found) + " at " +
                                           hex(t.sites.address(found)));
  }
}

}  // namespace

void check_image(const OrcTable& t, const input::SymbolIndex* symbols, OrcFindings& f) {
  check_sites(t, f);
  // Only kernel images are sorted (by sorttable); a shared object that kept
  // objtool's sections is not. An executable with ORC is a kernel's link
  // even where nothing else tells it is vmlinux (no __ksymtab, no .BTF).
  const bool sorted = t.artifact->is_vmlinux() || t.artifact->elf_type == ET_EXEC || t.lookup;
  const bool ascending = sorted ? check_order(t, f) : false;
  if (symbols) check_boundary_symbols(t, *symbols, f);
  if (t.artifact->is_vmlinux() || t.lookup) check_lookup(t, symbols, ascending, f);
}

}  // namespace elfmeta::orc
