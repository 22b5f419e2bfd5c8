// SFRAME-CFI-*: the rows of each FDE against the DWARF CFI of the same
// code (the .eh_frame gas made them from), compared at every PC where
// either changes; and SFRAME-ELF-007: functions with CFI but no FDE.
// Linked files are compared at their addresses; objects (ET_REL), whose
// function starts on both sides are relocations, at (section, offset),
// in the layout of their code sections input::DwarfCfi makes.
#include <dwarf.h>
#include <elf.h>

#include <algorithm>

#include "core/text.h"
#include "input/dwarf_cfi.h"
#include "sframe/fre_state.h"
#include "sframe/sframe_checks.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {
namespace {

using input::CfiRow;
using input::SavedRule;

// Where the CFI says a register of the caller is, against where the FRE
// says (fre_state.h): equal, different, or not comparable (an expression
// on the CFI's side, a FLEX rule beyond CFA offsets and registers on
// SFrame's).
enum class Match { kEqual, kDifferent, kNotCompared };

Match compare_saved(const SavedRule& cfi, const Location& sframe) {
  if (sframe.kind == Location::kOther) return Match::kNotCompared;
  switch (cfi.kind) {
    case SavedRule::kAtCfa:
      return sframe.kind == Location::kAtCfa && sframe.offset == cfi.offset ? Match::kEqual : Match::kDifferent;
    case SavedRule::kSameValue:
    case SavedRule::kUndefined:
      return sframe.kind == Location::kUnchanged ? Match::kEqual : Match::kDifferent;
    case SavedRule::kInRegister:
      return sframe.kind == Location::kInRegister && sframe.reg == static_cast<uint32_t>(cfi.reg) ? Match::kEqual
                                                                                                 : Match::kDifferent;
    default:
      return Match::kNotCompared;  // an expression
  }
}

// A CFA loaded from memory, *(reg + k): the CFI's DW_OP_bregN k; DW_OP_deref.
bool cfi_loads_cfa_from(const input::CfaRule& cfa, uint32_t reg, int64_t offset) {
  if (cfa.simple || cfa.expression.size() != 2 || cfa.expression[1].first != DW_OP_deref) return false;
  const auto [atom, k] = cfa.expression[0];
  return atom >= DW_OP_breg0 && atom <= DW_OP_breg31 && uint32_t(atom - DW_OP_breg0) == reg && k == offset;
}

struct Counts {
  size_t points = 0, equal = 0, expressions = 0, without_cfi = 0, not_compared = 0, unaligned = 0;
  size_t unplaced = 0;  // objects: FDEs whose start is in no code section the CFI has placed
  // FDEs over code no CFI covers at any of their rows: the CFI was stripped
  // (strip -g takes .debug_frame) or never written (ld's PLT FDEs in a link
  // of code built with -fno-asynchronous-unwind-tables, ld 2.47.50 seen).
  size_t fdes_without_cfi = 0;
};

// Where FDE i starts in the CFI's addresses: its own address when linked;
// in an object, its (section, offset) placed as the CFI placed its code.
std::optional<uint64_t> start_of(const SframeTable& t, const input::DwarfCfi& cfi, size_t i) {
  const FunctionStart& s = t.starts[i];
  return t.relocatable ? cfi.address_of(s.section, s.address) : std::optional<uint64_t>(s.address);
}

// A PC in a message: its address; in an object, section+offset.
std::string place(const input::Artifact& a, const input::DwarfCfi& cfi, uint64_t pc) {
  const auto at = cfi.section_offset(pc);
  if (!at) return hex(pc);
  const input::Section* s = a.section_at(at->first);
  return (s ? s->name : "section " + std::to_string(at->first)) + "+" + hex(at->second);
}

class Differential {
 public:
  Differential(const SframeTable& t, const input::DwarfCfi& cfi, SframeFindings& f)
      : t_(t), cfi_(cfi), f_(f), abi_(abi_facts(t.header.abi)) {}

  void fde(size_t i) {
    const Fde& d = t_.fdes[i];
    const FreRange& b = t_.blocks[i];
    if (!t_.starts[i].resolved || !b.complete || b.count == 0 || d.size == 0) return;
    const auto placed = start_of(t_, cfi_, i);
    if (!placed) {
      ++n_.unplaced;
      return;
    }
    flex_ = t_.header.version == 3 && (d.info2 & 0x1f) == kFlex;
    fres_.clear();  // this function's FREs, decoded once
    for (FreCursor c(t_, i); !c.done(); c.next()) fres_.push_back(*c);
    if (d.pc_type() == kPcMask) {
      mask_fde(i);
      return;
    }
    const uint64_t start = *placed, end = start + d.size;
    // Rows between instructions (assembler data, `.byte` in a test): the
    // CFI, whose rows advance by the code alignment factor, cannot say
    // where they change (AArch64 gas rounds the advance down).
    if (abi_ && abi_->insn_align > 1 &&
        (start % abi_->insn_align || std::any_of(fres_.begin(), fres_.end(), [&](const Fre& r) { return r.start % abi_->insn_align; }))) {
      ++n_.unaligned;
      return;
    }
    reported_ = 0;
    size_t k = 0;  // the FRE in force
    for (uint64_t pc = start; pc < end;) {
      while (k + 1 < fres_.size() && start + fres_[k + 1].start <= pc) ++k;
      const auto row = cfi_.row_at(pc);
      if (!row) {
        ++n_.without_cfi;
        // No CFI anywhere in the FDE is missing context, not a
        // disagreement: counted, not compared.
        if (pc == start && !cfi_at_a_row(start)) {
          ++n_.fdes_without_cfi;
          return;
        }
        // An object's FDE whose pc_begin did not resolve may be this one's.
        if (!cfi_.unresolved_fdes())
          f_.at_fde(rules::ELF_007, i, d.at, "no DWARF CFI at " + at(pc) + " inside the FDE");
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

  // Whether the CFI covers the start of any of this FDE's rows (fres_),
  // the FDE starting at `start`: one lookup per row, however long the
  // FDE says it is.
  bool cfi_at_a_row(uint64_t start) const {
    return std::any_of(fres_.begin(), fres_.end(), [&](const Fre& r) { return bool(cfi_.row_at(start + r.start)); });
  }

 private:
  // SFRAME-CFI-006: a PC-mask FDE (PLT entries, FREs in fres_), every PC,
  // against the CFI's expression. The first difference is reported, naming
  // the producer defect when the FDE's rows are one the ABI table knows
  // (.plt.got).
  void mask_fde(size_t i) {
    const Fde& d = t_.fdes[i];
    const uint32_t block = t_.header.version == 1 ? 16 : d.rep_size;
    if (!block) return;
    const std::vector<Fre>& fres = fres_;
    const uint64_t start = *start_of(t_, cfi_, i);
    // Every PC, so no further than the code the FDE starts in: its size and
    // the CFI's range are the input's and may both claim 4 GiB.
    const uint64_t end = std::min<uint64_t>(start + d.size, code_end(start));
    for (uint64_t pc = start; pc < end; ++pc) {
      const auto row = cfi_.row_at(pc);
      if (!row) return;
      const auto cfa = input::evaluate_cfa(row->cfa, pc, cfi_.registers().ra);
      const Fre* fre = nullptr;
      for (const auto& r : fres)
        if (r.start <= (pc - start) % block) fre = &r;
      if (!cfa || !fre) continue;
      ++n_.points;
      const auto s = state_of(t_.header, flex_, *fre);
      if (s && !s->outermost && !s->cfa_deref && s->cfa_reg == static_cast<uint32_t>(cfa->first) &&
          s->cfa_offset == cfa->second) {
        ++n_.equal;
        continue;
      }
      f_.at_fre(rules::CFI_006, i, static_cast<size_t>(fre - fres.data()), fre->at,
                "at " + at(pc) + ": SFrame " + (s ? describe(*s, abi_) : std::string("(unreadable)")) +
                    "; DWARF CFA r" + std::to_string(cfa->first) + "+" + std::to_string(cfa->second) + known_defect(i));
      return;
    }
  }

  // " (a known producer defect: ...)" when FDE i is a PLT FDE whose rows
  // the ABI table records as one.
  std::string known_defect(size_t i) const {
    if (!abi_ || t_.artifact->kind != input::ArtifactKind::Elf || t_.relocatable) return "";  // ld writes PLTs
    for (const auto& sec : t_.artifact->sections) {
      if (!(sec.flags & SHF_EXECINSTR) || t_.starts[i].address < sec.addr || t_.starts[i].address >= sec.addr + sec.size)
        continue;
      const PltMatch m = match_plt_fde(t_, *abi_, sec, i);
      if (m.shape && !m.shape->defect.empty()) return " (a known producer defect: " + std::string(m.shape->defect) + ")";
      return "";
    }
    return "";
  }

  // SFRAME-CFI-001 to -005: FRE k of FDE i against the CFI row at pc (CFA,
  // FP, RA, outermost frames, CFAs SFrame cannot say).
  void compare(size_t i, size_t k, uint64_t pc, const CfiRow& row) {
    ++n_.points;
    const auto s = state_of(t_.header, flex_, fres_[k]);
    if (!s) {  // words that do not read (SFRAME-FRE-003/011 report them)
      ++n_.not_compared;
      return;
    }
    const auto both = [&] {  // the message, made only for a difference
      return " at " + at(pc) + ": SFrame " + describe(*s, abi_) + "; DWARF CFA " + input::describe(row.cfa) + ", FP " +
             input::describe(row.fp) + ", RA " + input::describe(row.ra);
    };
    if ((row.ra.kind == SavedRule::kUndefined) != s->outermost) {
      report(rules::CFI_004, i, k, both());
      return;
    }
    if (s->outermost) {
      ++n_.equal;
      return;
    }
    bool equal = true;
    if (s->cfa_deref) {  // FLEX: a CFA loaded from memory (DRAP)
      if (!cfi_loads_cfa_from(row.cfa, s->cfa_reg, s->cfa_offset)) equal = report(rules::CFI_001, i, k, both());
    } else if (const auto cfa = input::evaluate_cfa(row.cfa, pc, cfi_.registers().ra)) {
      if (cfa->first != static_cast<int>(s->cfa_reg) || cfa->second != s->cfa_offset)
        equal = report(rules::CFI_001, i, k, both());
    } else {  // a CFA read from memory: a default FDE cannot say it, a FLEX one says it otherwise
      ++n_.expressions;
      report(flex_ ? rules::CFI_001 : rules::CFI_005, i, k, both());
      return;
    }
    bool compared = true;
    for (auto [cfi, sframe, rule] : {std::tuple{&row.fp, &s->fp, &rules::CFI_002}, std::tuple{&row.ra, &s->ra, &rules::CFI_003}}) {
      const Match m = compare_saved(*cfi, *sframe);
      if (m == Match::kDifferent) equal = report(*rule, i, k, both());
      compared &= m != Match::kNotCompared;
    }
    if (!compared) ++n_.not_compared;
    n_.equal += equal;
  }

  std::string at(uint64_t pc) const { return place(*t_.artifact, cfi_, pc); }

  // The end of the code section holding `pc` in the CFI's addresses (`pc`
  // itself when none does).
  uint64_t code_end(uint64_t pc) const {
    if (t_.relocatable) {
      const auto at = cfi_.section_offset(pc);
      const input::Section* s = at ? t_.artifact->section_at(at->first) : nullptr;
      return s && at->second <= s->size ? pc - at->second + s->size : pc;
    }
    for (const auto& s : t_.artifact->sections)
      if ((s.flags & SHF_EXECINSTR) && pc >= s.addr && pc - s.addr < s.size) return s.addr + s.size;
    return pc;
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
  const AbiFacts* abi_;
  Counts n_;
  unsigned reported_ = 0;
  bool flex_ = false;
  std::vector<Fre> fres_;
};

// What the CFI of [start, end) does that a default FDE cannot say.
std::string why_no_fde(const input::DwarfCfi& cfi, uint64_t start, uint64_t end, const Header& h) {
  const auto& regs = cfi.registers();
  // Version 3 FLEX FDEs (AMD64, s390x) can say some of what default FDEs cannot.
  const AbiFacts* abi = abi_facts(h.abi);
  const std::string flex = h.version >= 3 && abi && abi->flex ? " (a version 3 FLEX FDE can say it)" : "";
  for (uint64_t pc = start; pc < end;) {
    const auto row = cfi.row_at(pc);
    if (!row) break;
    if (!row->cfa.simple) return "its CFA is a DWARF expression (stack realignment through DRAP)" + flex;
    if (row->cfa.reg != regs.sp && row->cfa.reg != regs.fp) return "its CFA is based on r" + std::to_string(row->cfa.reg) + flex;
    if (row->ra.kind == SavedRule::kUndefined)
      return h.version < 3 ? "it is an outermost frame (RA undefined), which version " + std::to_string(h.version) +
                                 " cannot mark"
                           : "it is an outermost frame (RA undefined)";
    if (row->ra.kind == SavedRule::kInRegister && !flex.empty())
      return "its return address is in r" + std::to_string(row->ra.reg) + flex;
    if (row->ra.kind == SavedRule::kOther || row->ra.kind == SavedRule::kInRegister || (h.fixed_ra != 0 && row->ra.kind == SavedRule::kAtCfa && row->ra.offset != h.fixed_ra) ||
        row->ra.kind == SavedRule::kSameValue)
      return "its return address is not where SFrame can say (" + input::describe(row->ra) + ")";
    if (row->fp.kind == SavedRule::kOther) return "its frame pointer is saved by an expression";
    pc = std::max<uint64_t>(row->end, pc + 1);
  }
  return "its rows are ones SFrame can say: the producer skipped it for a directive it does not follow "
         "(gas 2.40: .cfi_remember_state first, DW_CFA_GNU_args_size), or it was not assembled with --gsframe";
}

// Function symbols that the CFI describes and no FDE covers. In an
// object, only when every FDE start on both sides resolved (a function
// whose FDE did not is not uncovered); false when it did not run.
bool check_coverage(const SframeTable& t, const input::DwarfCfi& cfi, const input::SymtabSymbols* symbols,
                    SframeFindings& f) {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    const auto start = t.starts[i].resolved ? start_of(t, cfi, i) : std::nullopt;
    if (start) ranges.emplace_back(*start, *start + std::max<uint32_t>(t.fdes[i].size, 1));
    else if (t.relocatable) return false;
  }
  if (t.relocatable && cfi.unresolved_fdes()) return false;
  std::sort(ranges.begin(), ranges.end());
  // Linker-made code without symbols: the PLT sections (none in an object).
  for (const auto& sec : t.artifact->sections) {
    if (t.relocatable) break;
    if (!(sec.flags & SHF_EXECINSTR) || !sec.name.starts_with(".plt") || sec.size == 0) continue;
    auto it = std::upper_bound(ranges.begin(), ranges.end(), std::pair{sec.addr, ~uint64_t(0)});
    if (it != ranges.begin() && std::prev(it)->second > sec.addr) continue;
    if (!cfi.row_at(sec.addr)) continue;
    const AbiFacts* abi = abi_facts(t.header.abi);
    const bool gap = abi && !abi->plt_gap.empty() && std::any_of(abi->plt.begin(), abi->plt.end(), [&](const PltShape& p) {
                       return p.section == sec.name;
                     });
    f.at_section(rules::ELF_007, std::nullopt,
                 sec.name + " at " + hex(sec.addr) + " has DWARF CFI but no SFrame FDE" +
                     (gap ? " (a known producer defect: " + std::string(abi->plt_gap) + ")" : ""));
  }
  if (!symbols) return true;
  for (const auto& s : symbols->symbols) {
    if (!s.function() || s.size == 0) continue;
    const auto address = t.relocatable ? cfi.address_of(s.section, s.address) : std::optional<uint64_t>(s.address);
    if (!address) continue;  // an object's symbol outside its code sections
    auto it = std::upper_bound(ranges.begin(), ranges.end(), std::pair{*address, ~uint64_t(0)});
    if (it != ranges.begin() && std::prev(it)->second > *address) continue;
    if (!cfi.row_at(*address)) continue;
    const std::string name(symbols->name(s));
    f.at_section(rules::ELF_007, std::nullopt,
                 name + " at " + place(*t.artifact, cfi, *address) + " has DWARF CFI but no SFrame FDE");
    f.at_section(rules::CFI_008, std::nullopt, name + ": " + why_no_fde(cfi, *address, *address + s.size, t.header));
  }
  return true;
}

}  // namespace

bool check_cfi(const SframeTable& t, const input::SymtabSymbols* symbols, SframeFindings& f) {
  if (!t.section || !t.usable) return false;
  std::string why;
  const auto cfi = input::DwarfCfi::open(*t.artifact, &why);
  if (!cfi) {
    f.note("SFRAME-CFI-* and SFRAME-ELF-007 not checked: " + why);
    return false;
  }
  Differential diff(t, *cfi, f);
  for (size_t i = 0; i < t.fdes.size(); ++i) diff.fde(i);
  const bool coverage = check_coverage(t, *cfi, symbols, f);
  const Counts& n = diff.counts();
  // What an object left out: FDEs on either side whose start did not
  // resolve, and so the functions without FDEs (checked only when all did).
  std::string object;
  if (t.relocatable) {
    object = "; in the object, (section, offset) against " + cfi->sections() + " relocated";
    if (cfi->unresolved_fdes())
      object += ", " + std::to_string(cfi->unresolved_fdes()) + " " + cfi->sections() +
                " FDEs left out (pc_begin relocation does not resolve)";
    const size_t sframe_unresolved =
        n.unplaced + size_t(std::count_if(t.starts.begin(), t.starts.end(), [](const FunctionStart& s) { return !s.resolved; }));
    if (sframe_unresolved) object += ", " + std::to_string(sframe_unresolved) + " SFrame FDEs left out (start does not resolve)";
    if (!coverage) object += ", functions without an FDE not looked for";
  } else if (cfi->has_debug_frame()) {
    object = "; CFI of " + cfi->sections();
  }
  if (n.fdes_without_cfi)
    object += "; " + std::to_string(n.fdes_without_cfi) + " of " + std::to_string(t.fdes.size()) +
              " FDEs not compared: no DWARF CFI covers their code (stripped, or never written)";
  f.note("SFrame against DWARF CFI: " + std::to_string(n.points) + " points, " + std::to_string(n.equal) + " equal, " +
         std::to_string(n.expressions) + " with a CFA expression SFrame cannot say" +
         (n.not_compared ? ", " + std::to_string(n.not_compared) + " with a rule one side cannot compare (a DWARF expression, "
                          "a FLEX rule beyond offsets and registers)" : std::string()) +
         (n.unaligned ? ", " + std::to_string(n.unaligned) + " FDEs with rows between instructions not compared (the "
                        "CFI's code alignment cannot place them)" : std::string()) + object);
  return true;
}

}  // namespace elfmeta::sframe
