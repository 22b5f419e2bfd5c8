// ORC-CFI-*: entries against the DWARF CFI (.eh_frame) of the same code,
// through libdw. Both describe the CFA and the caller's RBP at every
// address; they are compared wherever either changes. Linked files only:
// an object's .eh_frame is relocatable (compare it after linking, as
// `gcc -shared` does).
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <libelf.h>

#include <algorithm>
#include <numeric>
#include <optional>

#include "core/text.h"
#include "orc/orc_checks.h"
#include "orc/orc_rules.h"

namespace elfmeta::orc {
namespace {

constexpr int kDwarfRbp = 6, kDwarfRsp = 7;

struct Cfa {
  bool simple = false;  // register + offset
  int reg = -1;
  int64_t offset = 0;
};

Cfa cfa_of(Dwarf_Frame* frame) {
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  Cfa c;
  if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1) return c;
  if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
    c.simple = true;
    c.reg = ops[0].atom - DW_OP_breg0;
    c.offset = static_cast<int64_t>(ops[0].number);
  } else if (ops[0].atom == DW_OP_bregx) {  // libdw's form for def_cfa
    c.simple = true;
    c.reg = static_cast<int>(ops[0].number);
    c.offset = static_cast<int64_t>(ops[0].number2);
  }
  return c;
}

// The caller's RBP: saved at CFA+N (offset), kept (same value or
// undefined), or something else.
struct SavedRbp {
  enum { kKept, kAtCfa, kOther } rule = kOther;
  int64_t offset = 0;
};

SavedRbp rbp_of(Dwarf_Frame* frame) {
  Dwarf_Op mem[3];
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  SavedRbp r;
  if (dwarf_frame_register(frame, kDwarfRbp, mem, &ops, &nops) != 0) return r;
  if (nops == 0) {
    r.rule = SavedRbp::kKept;
    return r;
  }
  if (ops[0].atom != DW_OP_call_frame_cfa) return r;
  if (nops == 1) {
    r.rule = SavedRbp::kAtCfa;
  } else if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
    r.rule = SavedRbp::kAtCfa;
    r.offset = static_cast<int64_t>(ops[1].number);
  } else if (nops == 3 && ops[1].atom == DW_OP_consts && ops[2].atom == DW_OP_plus) {
    r.rule = SavedRbp::kAtCfa;
    r.offset = static_cast<int64_t>(ops[1].number);
  }
  return r;
}

struct Counts {
  size_t points = 0, equal = 0, epilogue_rbp = 0, padding = 0, expressions = 0;
  // Where ORC last said the caller's RBP is saved, in this function.
  bool rbp_saved = false;
  int64_t saved_rbp = 0;
};

void compare(const OrcTable& t, size_t i, uint64_t at, Dwarf_Frame* frame, Counts& n, OrcFindings& f) {
  const Entry& e = t.entries[i];
  ++n.points;
  if (is_weak(e, t.layout) || e.type == kTypeEndOfStack) {
    ++n.padding;  // unreachable bytes, such as alignment padding
    return;
  }
  if (e.type == kTypeRegs || e.type == kTypeRegsPartial) {
    f.at_entry(rules::CFI_006, i, "at " + hex(at) + ", inside a compiler FDE");
    return;
  }
  const Cfa cfa = cfa_of(frame);
  if (!cfa.simple || (e.sp_reg != kRegSp && e.sp_reg != kRegBp)) {
    ++n.expressions;  // realignment (DRAP): compared only structurally
    return;
  }
  const int orc_reg = e.sp_reg == kRegSp ? kDwarfRsp : kDwarfRbp;
  if (cfa.reg != orc_reg || cfa.offset != e.sp_offset) {
    f.at_entry(rules::CFI_001, i,
               "at " + hex(at) + " DWARF says CFA = " + (cfa.reg == kDwarfRsp ? "rsp" : cfa.reg == kDwarfRbp ? "rbp" : "r" + std::to_string(cfa.reg)) +
                   "+" + std::to_string(cfa.offset) + ", ORC " + describe(e, t.layout));
    return;
  }
  const SavedRbp rbp = rbp_of(frame);
  const bool orc_saved = e.bp_reg == kRegPrevSp;
  const bool agree = (rbp.rule == SavedRbp::kKept && e.bp_reg == kRegUndefined) ||
                     (rbp.rule == SavedRbp::kAtCfa && orc_saved && rbp.offset == e.bp_offset);
  if (agree) {
    ++n.equal;
  } else if (rbp.rule == SavedRbp::kAtCfa && e.bp_reg == kRegUndefined && n.rbp_saved && n.saved_rbp == rbp.offset) {
    // After `pop %rbp` GCC keeps the saved-RBP rule and objtool says kept:
    // both give the same RBP (the epilogue of a function whose earlier
    // entries saved RBP there).
    ++n.epilogue_rbp;
  } else {
    f.at_entry(rules::CFI_002, i,
               "at " + hex(at) + " DWARF says RBP " +
                   (rbp.rule == SavedRbp::kKept ? std::string("kept") : rbp.rule == SavedRbp::kAtCfa ? "at CFA" + std::to_string(rbp.offset) : "is an expression") +
                   ", ORC " + describe(e, t.layout));
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
  std::vector<uint8_t> image(a.content.begin(), a.content.end());  // libelf wants writable memory
  Elf* elf = elf_memory(reinterpret_cast<char*>(image.data()), image.size());
  if (!elf) return false;
  Dwarf_CFI* cfi = dwarf_getcfi_elf(elf);
  if (!cfi) {
    elf_end(elf);
    return false;
  }
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
      Dwarf_Frame* frame = nullptr;
      if (dwarf_cfi_addrframe(cfi, at, &frame) != 0) break;  // no FDE here (ORC-CFI-005)
      Dwarf_Addr row_start = 0, row_end = 0;
      dwarf_frame_info(frame, &row_start, &row_end, nullptr);
      compare(t, i, at, frame, n, f);
      if (is_entry_state(t.entries[i])) n.rbp_saved = false;  // a function ends (ret) or starts here
      free(frame);
      at = std::max<uint64_t>(row_end, at + 1);
    }
  }
  dwarf_cfi_end(cfi);
  elf_end(elf);
  f.note("ORC against DWARF CFI: " + std::to_string(n.points) + " points, " + std::to_string(n.equal) + " equal, " +
         std::to_string(n.epilogue_rbp) + " epilogue RBP differences (benign), " + std::to_string(n.padding) +
         " ORC entries without information (padding), " + std::to_string(n.expressions) +
         " realigned frames compared only in structure");
  return true;
}

}  // namespace elfmeta::orc
