// SFRAME-CFI-*: the rows of each FDE against the DWARF CFI of the same
// code (the .eh_frame gas made them from), compared at every PC where
// either changes; and SFRAME-ELF-007: functions with CFI but no FDE.
#include <elf.h>

#include <algorithm>

#include "core/text.h"
#include "input/dwarf_cfi.h"
#include "sframe/sframe_checks.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {
namespace {

using input::CfiRow;
using input::SavedRule;

// What one FRE says, in DWARF terms.
struct State {
  bool outermost = false;
  int cfa_reg = -1;
  int64_t cfa_offset = 0;
  std::optional<int64_t> fp, ra;  // saved at CFA + value; nullopt: not saved
};

// A FLEX FRE: (control, offset) pairs for CFA, RA, FP; control bit 0
// names a register (bits 3+), bit 1 dereferences. nullopt for rules the
// comparison does not cover (a CFA loaded from memory, a register holding
// RA or FP).
std::optional<State> flex_state_of(const Header& h, const Fre& fre) {
  State s;
  const auto control = [&](size_t w) { return static_cast<uint32_t>(fre.words[w]); };
  if (fre.count() < 2 || !(control(0) & 1) || (control(0) & 2)) return std::nullopt;
  s.cfa_reg = static_cast<int>(control(0) >> 3);
  s.cfa_offset = fre.words[1];
  if (h.fixed_ra != 0) s.ra = h.fixed_ra;
  size_t w = 2;
  for (std::optional<int64_t>* slot : {&s.ra, &s.fp}) {
    if (w >= fre.count()) break;
    if (control(w) == 0) {  // padding: not described
      ++w;
      continue;
    }
    if (w + 1 >= fre.count() || control(w) != 2) return std::nullopt;  // only *(CFA + offset)
    *slot = fre.words[w + 1];
    w += 2;
  }
  return s;
}

State state_of(const Header& h, const Fre& fre, const input::CfiRegisters& regs) {
  State s;
  if (fre.count() == 0) {
    s.outermost = true;
    return s;
  }
  s.cfa_reg = fre.base_sp() ? regs.sp : regs.fp;
  s.cfa_offset = fre.words[0];
  size_t k = 1;
  if (h.fixed_ra != 0)
    s.ra = h.fixed_ra;
  else if (k < fre.count())
    s.ra = fre.words[k++];
  if (h.fixed_fp != 0)
    s.fp = h.fixed_fp;
  else if (k < fre.count())
    s.fp = fre.words[k];
  return s;
}

std::string describe_state(const State& s) {
  if (s.outermost) return "outermost";
  std::string out = "CFA r" + std::to_string(s.cfa_reg) + (s.cfa_offset < 0 ? "" : "+") + std::to_string(s.cfa_offset);
  out += ", FP " + (s.fp ? "at cfa" + std::to_string(*s.fp) : std::string("kept"));
  out += ", RA " + (s.ra ? "at cfa" + std::to_string(*s.ra) : std::string("in its register"));
  return out;
}

bool saved_equal(const SavedRule& cfi, const std::optional<int64_t>& sframe) {
  if (cfi.kind == SavedRule::kAtCfa) return sframe && *sframe == cfi.offset;
  if (cfi.kind == SavedRule::kSameValue || cfi.kind == SavedRule::kUndefined) return !sframe;
  return true;  // an expression: not comparable
}

struct Counts {
  size_t points = 0, equal = 0, expressions = 0, without_cfi = 0, flex = 0;
};

class Differential {
 public:
  Differential(const SframeTable& t, const input::DwarfCfi& cfi, SframeFindings& f) : t_(t), cfi_(cfi), f_(f) {}

  void fde(size_t i) {
    const Fde& d = t_.fdes[i];
    const FreRange& b = t_.blocks[i];
    if (!t_.starts[i].resolved || !b.complete || b.count == 0 || d.size == 0) return;
    flex_ = t_.header.version == 3 && (d.info2 & 0x1f) == kFlex;
    fres_.clear();  // this function's FREs, decoded once
    for (FreCursor c(t_, i); !c.done(); c.next()) fres_.push_back(*c);
    if (d.pc_type() == kPcMask) {
      mask_fde(i);
      return;
    }
    const uint64_t start = t_.starts[i].address, end = start + d.size;
    reported_ = 0;
    size_t k = 0;  // the FRE in force
    for (uint64_t pc = start; pc < end;) {
      while (k + 1 < fres_.size() && start + fres_[k + 1].start <= pc) ++k;
      const auto row = cfi_.row_at(pc);
      if (!row) {
        ++n_.without_cfi;
        f_.at_fde(rules::ELF_007, i, d.at, "no DWARF CFI at " + hex(pc) + " inside the FDE");
        return;
      }
      if (pc == start && t_.header.version == 3 && bool(d.info >> 7 & 1) != row->signal)
        f_.at_fde(rules::CFI_007, i, d.at, std::string("signal bit ") + (d.info >> 7 & 1 ? "set" : "clear") +
                                               ", the CIE " + (row->signal ? "has" : "lacks") + " 'S'");
      if (start + fres_[0].start <= pc) compare(i, k, pc, *row);
      uint64_t next = std::max<uint64_t>(row->end, pc + 1);
      if (k + 1 < fres_.size()) next = std::min<uint64_t>(next, start + fres_[k + 1].start);
      pc = std::max(next, pc + 1);
    }
  }

  const Counts& counts() const { return n_; }

 private:
  // A PC-mask FDE (PLT entries, FREs in fres_): every PC, against the CFI's expression.
  void mask_fde(size_t i) {
    const Fde& d = t_.fdes[i];
    const uint32_t block = t_.header.version == 1 ? 16 : d.rep_size;
    if (!block || t_.header.abi != kAmd64Le) return;
    const std::vector<Fre>& fres = fres_;
    const uint64_t start = t_.starts[i].address;
    for (uint64_t pc = start; pc < start + d.size; ++pc) {
      const auto row = cfi_.row_at(pc);
      if (!row) return;
      const auto cfa = input::evaluate_cfa(row->cfa, pc, cfi_.registers().ra);
      const Fre* fre = nullptr;
      for (const auto& r : fres)
        if (r.start <= (pc - start) % block) fre = &r;
      if (!cfa || !fre) continue;
      ++n_.points;
      const State s = state_of(t_.header, *fre, cfi_.registers());
      if (s.cfa_reg == cfa->first && s.cfa_offset == cfa->second) {
        ++n_.equal;
        continue;
      }
      f_.at_fre(rules::CFI_006, i, static_cast<size_t>(fre - fres.data()), fre->at,
                "at " + hex(pc) + ": SFrame " + describe_state(s) + "; DWARF CFA r" + std::to_string(cfa->first) + "+" +
                    std::to_string(cfa->second));
      return;
    }
  }

  void compare(size_t i, size_t k, uint64_t pc, const CfiRow& row) {
    ++n_.points;
    std::optional<State> flex;
    if (flex_ && fres_[k].count() && !(flex = flex_state_of(t_.header, fres_[k]))) {
      ++n_.flex;  // a FLEX rule beyond register + offset and CFA-relative saves
      return;
    }
    const State s = flex ? *flex : state_of(t_.header, fres_[k], cfi_.registers());
    const auto both = [&] {  // the message, made only for a difference
      return " at " + hex(pc) + ": SFrame " + describe_state(s) + "; DWARF CFA " + input::describe(row.cfa) + ", FP " +
             input::describe(row.fp) + ", RA " + input::describe(row.ra);
    };
    if ((row.ra.kind == SavedRule::kUndefined) != s.outermost) {
      report(rules::CFI_004, i, k, both());
      return;
    }
    if (s.outermost) {
      ++n_.equal;
      return;
    }
    const auto cfa = input::evaluate_cfa(row.cfa, pc, cfi_.registers().ra);
    if (!cfa) {  // a CFA read from memory: no default FDE can say it
      ++n_.expressions;
      report(rules::CFI_005, i, k, both());
      return;
    }
    bool equal = true;
    if (cfa->first != s.cfa_reg || cfa->second != s.cfa_offset) equal = report(rules::CFI_001, i, k, both());
    if (!saved_equal(row.fp, s.fp)) equal = report(rules::CFI_002, i, k, both());
    if (!saved_equal(row.ra, s.ra)) equal = report(rules::CFI_003, i, k, both());
    n_.equal += equal;
  }

  // The first difference of each kind in a function (the rest follow from it).
  bool report(const Rule& rule, size_t i, size_t k, const std::string& what) {
    const unsigned bit = rule.id == rules::CFI_001.id   ? 1
                         : rule.id == rules::CFI_002.id ? 2
                         : rule.id == rules::CFI_003.id ? 4
                         : rule.id == rules::CFI_004.id ? 8
                                                        : 16;
    if (!(reported_ & bit)) f_.at_fre(rule, i, k, fres_[k].at, what.substr(1));
    reported_ |= bit;
    return false;
  }

  const SframeTable& t_;
  const input::DwarfCfi& cfi_;
  SframeFindings& f_;
  Counts n_;
  unsigned reported_ = 0;
  bool flex_ = false;
  std::vector<Fre> fres_;
};

// What the CFI of [start, end) does that a default FDE cannot say.
std::string why_no_fde(const input::DwarfCfi& cfi, uint64_t start, uint64_t end, const Header& h) {
  const auto& regs = cfi.registers();
  for (uint64_t pc = start; pc < end;) {
    const auto row = cfi.row_at(pc);
    if (!row) break;
    if (!row->cfa.simple) return "its CFA is a DWARF expression (stack realignment through DRAP)";
    if (row->cfa.reg != regs.sp && row->cfa.reg != regs.fp) return "its CFA is based on r" + std::to_string(row->cfa.reg);
    if (row->ra.kind == SavedRule::kUndefined)
      return h.version < 3 ? "it is an outermost frame (RA undefined), which version " + std::to_string(h.version) +
                                 " cannot mark"
                           : "it is an outermost frame (RA undefined)";
    if (row->ra.kind == SavedRule::kOther || (h.fixed_ra != 0 && row->ra.kind == SavedRule::kAtCfa && row->ra.offset != h.fixed_ra) ||
        row->ra.kind == SavedRule::kSameValue)
      return "its return address is not where SFrame can say (" + input::describe(row->ra) + ")";
    if (row->fp.kind == SavedRule::kOther) return "its frame pointer is saved by an expression";
    pc = std::max<uint64_t>(row->end, pc + 1);
  }
  return "its rows are ones SFrame can say: the producer skipped it for a directive it does not follow "
         "(gas 2.40: .cfi_remember_state first, DW_CFA_GNU_args_size), or it was not assembled with --gsframe";
}

// Function symbols that the CFI describes and no FDE covers.
void check_coverage(const SframeTable& t, const input::DwarfCfi& cfi, const input::SymtabSymbols* symbols,
                    SframeFindings& f) {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (size_t i = 0; i < t.fdes.size(); ++i)
    if (t.starts[i].resolved) ranges.emplace_back(t.starts[i].address, t.starts[i].address + std::max<uint32_t>(t.fdes[i].size, 1));
  std::sort(ranges.begin(), ranges.end());
  // Linker-made code without symbols: the PLT sections.
  for (const auto& sec : t.artifact->sections) {
    if (!(sec.flags & SHF_EXECINSTR) || !sec.name.starts_with(".plt") || sec.size == 0) continue;
    auto it = std::upper_bound(ranges.begin(), ranges.end(), std::pair{sec.addr, ~uint64_t(0)});
    if (it != ranges.begin() && std::prev(it)->second > sec.addr) continue;
    if (cfi.row_at(sec.addr))
      f.at_section(rules::ELF_007, std::nullopt, sec.name + " at " + hex(sec.addr) + " has DWARF CFI but no SFrame FDE");
  }
  if (!symbols) return;
  for (const auto& s : symbols->symbols) {
    if (!s.function() || s.size == 0) continue;
    auto it = std::upper_bound(ranges.begin(), ranges.end(), std::pair{s.address, ~uint64_t(0)});
    if (it != ranges.begin() && std::prev(it)->second > s.address) continue;
    if (!cfi.row_at(s.address)) continue;
    const std::string name(symbols->name(s));
    f.at_section(rules::ELF_007, std::nullopt, name + " at " + hex(s.address) + " has DWARF CFI but no SFrame FDE");
    f.at_section(rules::CFI_008, std::nullopt, name + ": " + why_no_fde(cfi, s.address, s.address + s.size, t.header));
  }
}

}  // namespace

bool check_cfi(const SframeTable& t, const input::SymtabSymbols* symbols, SframeFindings& f) {
  if (t.relocatable || !t.section || !t.usable) return false;
  const auto cfi = input::DwarfCfi::open(*t.artifact);
  if (!cfi) return false;
  Differential diff(t, *cfi, f);
  for (size_t i = 0; i < t.fdes.size(); ++i) diff.fde(i);
  check_coverage(t, *cfi, symbols, f);
  const Counts& n = diff.counts();
  f.note("SFrame against DWARF CFI: " + std::to_string(n.points) + " points, " + std::to_string(n.equal) + " equal, " +
         std::to_string(n.expressions) + " with a CFA expression SFrame cannot say" +
         (n.flex ? ", " + std::to_string(n.flex) + " FLEX rows with dereferences or registers not compared" : std::string()));
  return true;
}

}  // namespace elfmeta::sframe
