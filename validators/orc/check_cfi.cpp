// ORC-CFI-*: entries against the DWARF CFI (.eh_frame) of the same code,
// through libdw. Both describe the CFA and the caller's RBP at every
// address; they are compared wherever either changes. Linked files only:
// an object's .eh_frame is relocatable (compare it after linking, as
// `gcc -shared` does).
#include <algorithm>
#include <numeric>
#include <optional>

#include "core/text.h"
#include "input/dwarf_cfi.h"
#include "orc/orc_checks.h"
#include "orc/orc_rules.h"

namespace elfmeta::orc {
namespace {

constexpr int kDwarfRbp = 6, kDwarfRsp = 7;

using input::CfiRow;
using input::SavedRule;

struct Counts {
  size_t points = 0, equal = 0, epilogue_rbp = 0, padding = 0, expressions = 0;
  // Where ORC last said the caller's RBP is saved, in this function.
  bool rbp_saved = false;
  int64_t saved_rbp = 0;
};

void compare(const OrcTable& t, size_t i, uint64_t at, const CfiRow& row, Counts& n, OrcFindings& f) {
  const Entry& e = t.entries[i];
  ++n.points;
  if (is_weak(e) || e.type == kTypeEndOfStack) {
    ++n.padding;  // unreachable bytes, such as alignment padding
    return;
  }
  if (e.type == kTypeRegs || e.type == kTypeRegsPartial) {
    f.at_entry(rules::CFI_006, i, "at " + hex(at) + ", inside a compiler FDE");
    return;
  }
  const input::CfaRule& cfa = row.cfa;
  if (!cfa.simple || (e.sp_reg != kRegSp && e.sp_reg != kRegBp)) {
    ++n.expressions;  // realignment (DRAP): compared only structurally
    return;
  }
  const int orc_reg = e.sp_reg == kRegSp ? kDwarfRsp : kDwarfRbp;
  if (cfa.reg != orc_reg || cfa.offset != e.sp_offset) {
    f.at_entry(rules::CFI_001, i,
               "at " + hex(at) + " DWARF says CFA = " + (cfa.reg == kDwarfRsp ? "rsp" : cfa.reg == kDwarfRbp ? "rbp" : "r" + std::to_string(cfa.reg)) +
                   "+" + std::to_string(cfa.offset) + ", ORC " + describe(e));
    return;
  }
  const SavedRule& rbp = row.fp;
  const bool kept = rbp.kind == SavedRule::kSameValue || rbp.kind == SavedRule::kUndefined;
  const bool orc_saved = e.bp_reg == kRegPrevSp;
  const bool agree = (kept && e.bp_reg == kRegUndefined) ||
                     (rbp.kind == SavedRule::kAtCfa && orc_saved && rbp.offset == e.bp_offset);
  if (agree) {
    ++n.equal;
  } else if (rbp.kind == SavedRule::kAtCfa && e.bp_reg == kRegUndefined && n.rbp_saved && n.saved_rbp == rbp.offset) {
    // After `pop %rbp` GCC keeps the saved-RBP rule and objtool says kept:
    // both give the same RBP (the epilogue of a function whose earlier
    // entries saved RBP there).
    ++n.epilogue_rbp;
  } else {
    f.at_entry(rules::CFI_002, i,
               "at " + hex(at) + " DWARF says RBP " +
                   (kept ? std::string("kept") : rbp.kind == SavedRule::kAtCfa ? "at CFA" + std::to_string(rbp.offset) : "is an expression") +
                   ", ORC " + describe(e));
  }
  if (orc_saved) {
    n.rbp_saved = true;
    n.saved_rbp = e.bp_offset;
  }
}

}  // namespace

bool check_cfi(const OrcTable& t, OrcFindings& f) {
  const input::Artifact& a = *t.artifact;
  if (t.relocatable || !a.section(".eh_frame") || t.size() == 0) return false;
  const auto cfi = input::DwarfCfi::open(a);
  if (!cfi) return false;
  // Entries by address (a shared object's table is not sorted).
  std::vector<size_t> order(t.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return t.sites[x].address < t.sites[y].address; });
  Counts n;
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t i = order[k];
    // The last entry at an address is the one a lookup finds.
    if (k + 1 < order.size() && t.sites[order[k + 1]].address == t.sites[i].address) continue;
    const uint64_t start = t.sites[i].address;
    const uint64_t end = k + 1 < order.size() ? t.sites[order[k + 1]].address : start + 1;
    for (uint64_t at = start; at < end;) {
      const auto row = cfi->row_at(at);
      if (!row) break;  // no FDE here (ORC-CFI-005)
      compare(t, i, at, *row, n, f);
      if (is_entry_state(t.entries[i])) n.rbp_saved = false;  // a function ends (ret) or starts here
      at = std::max<uint64_t>(row->end, at + 1);
    }
  }
  f.note("ORC against DWARF CFI: " + std::to_string(n.points) + " points, " + std::to_string(n.equal) + " equal, " +
         std::to_string(n.epilogue_rbp) + " epilogue RBP differences (benign), " + std::to_string(n.padding) +
         " ORC entries without information (padding), " + std::to_string(n.expressions) +
         " realigned frames compared only in structure");
  return true;
}

}  // namespace elfmeta::orc
