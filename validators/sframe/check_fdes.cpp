// SFRAME-FDE-*: each FDE's encoding, and the function ranges together.
#include <elf.h>

#include <algorithm>
#include <climits>

#include "core/text.h"
#include "input/symbols.h"
#include "sframe/fre_state.h"
#include "sframe/sframe_abi.h"
#include "sframe/sframe_checks.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {
namespace {

bool address_below(const input::SymtabSymbol& sym, uint64_t address) { return sym.address < address; }

// function_at, given the first symbol at or after FDE i's start.
const input::SymtabSymbol* function_from(const SframeTable& t, const std::vector<input::SymtabSymbol>& all, size_t i,
                                   std::vector<input::SymtabSymbol>::const_iterator it);

// function_at for the FDEs in turn: the search for the first symbol at or
// after a start begins where the last one ended when the starts ascend (a
// linked file's FDEs are sorted; the next function is a step or two on),
// instead of a binary search of every FDE over all the symbols.
class FunctionCursor {
 public:
  FunctionCursor(const SframeTable& t, const input::SymtabSymbols& symbols)
      : t_(t), all_(symbols.symbols), at_(all_.begin()) {}
  const input::SymtabSymbol* operator()(size_t i) {
    const uint64_t address = t_.starts[i].address;
    if (at_ != all_.begin() && std::prev(at_)->address >= address) {
      at_ = std::lower_bound(all_.begin(), at_, address, address_below);
    } else {
      for (int step = 0; step < 4 && at_ != all_.end() && at_->address < address; ++step) ++at_;
      if (at_ != all_.end() && at_->address < address) at_ = std::lower_bound(at_, all_.end(), address, address_below);
    }
    return function_from(t_, all_, i, at_);
  }

 private:
  const SframeTable& t_;
  const std::vector<input::SymtabSymbol>& all_;
  std::vector<input::SymtabSymbol>::const_iterator at_;
};

// The executable sections of the artifact in section order, looked up for
// every FDE: a handful of plain ranges instead of a walk over all the
// section headers.
class CodeSections {
 public:
  explicit CodeSections(const SframeTable& t) {
    if (t.artifact->kind != input::ArtifactKind::Elf) return;
    for (const auto& sec : t.artifact->sections)
      if (sec.flags & SHF_EXECINSTR) code_.push_back({sec.addr, sec.addr + sec.size, bool(sec.flags & SHF_ALLOC), &sec});
  }
  // The first holding `address`.
  const input::Section* at(uint64_t address) const {
    for (const auto& c : code_)
      if (address >= c.begin && address < c.end) return c.section;
    return nullptr;
  }
  // Whether an allocated one holds all of [begin, end).
  bool hold(uint64_t begin, uint64_t end) const {
    for (const auto& c : code_)
      if (c.alloc && begin >= c.begin && end <= c.end) return true;
    return false;
  }

 private:
  struct Range {
    uint64_t begin, end;  // end as the section header says (addr + size, wrapping as it may)
    bool alloc;
    const input::Section* section;
  };
  std::vector<Range> code_;
};

// The linked code section holding FDE i's start, if any.
const input::Section* code_of(const SframeTable& t, const CodeSections& code, size_t i) {
  const FunctionStart& s = t.starts[i];
  if (!s.resolved || t.artifact->kind != input::ArtifactKind::Elf) return nullptr;
  if (t.relocatable) return t.artifact->section_at(s.section);
  return code.at(s.address);
}

bool in_plt(const SframeTable& t, const CodeSections& code, size_t i) {
  const input::Section* sec = code_of(t, code, i);
  return sec && sec->name.starts_with(".plt");
}

void check_encoding(const SframeTable& t, const CodeSections& code, size_t i, SframeFindings& f) {
  const Fde& d = t.fdes[i];
  const uint8_t version = t.header.version;
  if (version == 3) {
    if ((d.info2 & 0x1f) > kFlex) f.at_fde(rules::FDE_003, i, d.at, "FDE kind " + std::to_string(d.info2 & 0x1f));
    if (d.info2 & 0xe0) f.at_fde(rules::FDE_004, i, d.at, "info2 " + hex(d.info2) + ": bits 5-7 set");
  }
  const uint8_t unused = version == 3 ? 0x40 : 0xc0;
  if (d.info & unused) f.at_fde(rules::FDE_004, i, d.at, "info " + hex(d.info) + ": unused bits set");
  const AbiFacts* abi = abi_facts(t.header.abi);
  if (d.pauth_key_b() && abi && !abi->pauth)
    f.at_fde(rules::FDE_004, i, d.at, "pauth key B on " + std::string(abi_name(t.header.abi)));
  if (d.padding) f.at_fde(rules::FDE_004, i, d.at + 18, "padding " + hex(d.padding));
  if (version == 1 && d.pc_type() == kPcMask)
    f.at_fde(rules::FDE_006, i, d.at, "PC-mask FDE of " + std::to_string(d.size) + " bytes; readers assume 16-byte blocks");
  if (version >= 2) {
    if (d.pc_type() == kPcMask && d.rep_size == 0)
      f.at_fde(rules::FDE_005, i, d.at, "PC-mask FDE with rep_size 0");
    else if (d.pc_type() == kPcInc && d.rep_size != 0)
      f.at_fde(rules::FDE_005, i, d.at, "PC-increment FDE with rep_size " + std::to_string(d.rep_size),
               Severity::Warning);
  }
  // ld types plt0's FRE starts by the size of the whole .plt (2 bytes past
  // 255): not a choice to report.
  if (d.pc_type() == kPcInc && d.fre_type() <= kAddr4 && !in_plt(t, code, i)) {
    const uint8_t smallest = d.size < 256 ? kAddr1 : d.size < 65536 ? kAddr2 : kAddr4;
    if (d.fre_type() > smallest)
      f.at_fde(rules::FDE_013, i, d.at, std::to_string(start_size(d.fre_type())) + "-byte FRE starts in a " +
                                            std::to_string(d.size) + "-byte function");
  }
  if (d.num_fres == 0 && (version != 3 || t.blocks[i].end > t.blocks[i].begin)) {  // v3: the record was read
    // Version 3 gives a default FDE without FREs a meaning (an outermost
    // frame), and gas 2.46+ writes one for a signal frame whose CFI it
    // cannot describe; versions 1 and 2 have none.
    if (version < 3)
      f.at_fde(rules::FDE_010, i, d.at, "no FREs");
    else if ((d.info2 & 0x1f) == kFlex)
      f.at_fde(rules::FDE_010, i, d.at, "a FLEX FDE without FREs (only a default one marks an outermost frame)",
               Severity::Warning);
    else
      f.at_fde(rules::FDE_010, i, d.at,
               d.info >> 7 & 1 ? "a signal frame without FREs (gas 2.46+: CFI it cannot describe)"
                               : "no FREs: an outermost frame",
               Severity::Note);
  }
}

// [start, start + size) inside one executable section.
void check_range(const SframeTable& t, const CodeSections& code, size_t i, SframeFindings& f) {
  const FunctionStart& s = t.starts[i];
  const Fde& d = t.fdes[i];
  if (!s.resolved || t.artifact->kind != input::ArtifactKind::Elf) return;
  const uint64_t end = s.address + d.size;
  if (end < s.address) {
    f.at_fde(rules::FDE_007, i, d.at, "range " + hex(s.address) + " + " + hex(d.size) + " wraps");
    return;
  }
  if (t.relocatable) {
    const input::Section* sec = t.artifact->section_at(s.section);
    if (sec && end > sec->size)
      f.at_fde(rules::FDE_007, i, d.at, sec->name + "+" + hex(s.address) + " + " + hex(d.size) + " ends past the section's " +
                                            hex(sec->size) + " bytes");
    return;
  }
  if (code.hold(s.address, end)) return;
  f.at_fde(rules::FDE_007, i, d.at, "[" + hex(s.address) + ", " + hex(end) + ") is not inside an executable section");
}

void check_block_order(const SframeTable& t, SframeFindings& f) {
  for (size_t i = 1; i < t.fdes.size(); ++i)
    if (t.blocks[i].begin < t.blocks[i - 1].begin && t.blocks[i].end > t.blocks[i].begin) {
      f.at_fde(rules::FDE_012, i, t.fdes[i].at, "FREs at " + std::to_string(t.blocks[i].begin) + ", before FDE " +
                                                     std::to_string(i - 1) + "'s at " + std::to_string(t.blocks[i - 1].begin));
      return;  // once: the layout, not each FDE
    }
}

// SFRAME-ELF-009: an FDE in linker-made code against the shapes ld writes
// there (sframe_abi.h): a row is its start and its CFA as SP + offset. A
// shape the table records as a producer defect is a warning naming it.
void check_plt_shape(const SframeTable& t, const AbiFacts& abi, const input::Section& sec, size_t i, SframeFindings& f) {
  const Fde& d = t.fdes[i];
  const bool mask = d.pc_type() == kPcMask;
  const PltMatch m = match_plt_fde(t, abi, sec, i);
  if (!m.known_section) return;  // a section ld writes no SFrame for: nothing to compare
  if (!mask && t.starts[i].address != sec.addr) {
    f.at_fde(rules::ELF_009, i, d.at, "a PC-increment FDE inside " + sec.name + ", not at its start");
    return;
  }
  const auto& rows = m.rows;
  const PltShape* shape = m.shape;
  std::string got;
  for (const PltRow& r : rows)
    got += (got.empty() ? "" : ", ") + (r.cfa == INT32_MIN ? std::string("?") : "sp+" + std::to_string(r.cfa)) +
           (r.start ? " at " + std::to_string(r.start) : "");
  if (!shape)
    f.at_fde(rules::ELF_009, i, d.at, std::string(mask ? "PC-mask" : "first-entry") + " FDE of " + sec.name + " with rows " +
                                          (got.empty() ? "(none)" : got) + ": none of the shapes ld writes for " +
                                          std::string(abi.name));
  else if (!shape->defect.empty())
    f.at_fde(rules::ELF_009, i, d.at, sec.name + " " + std::string(shape->variant) + " with rows " + got +
                                          ": a known producer defect: " + std::string(shape->defect),
             Severity::Warning);
}

// Each FDE against the function symbols: one starting there, of its size;
// PLT sections have none.
void check_symbols(const SframeTable& t, const CodeSections& code, const input::SymtabSymbols& symbols, SframeFindings& f) {
  FunctionCursor function_starting(t, symbols);
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    const FunctionStart& s = t.starts[i];
    if (!s.resolved) continue;
    const input::Section* sec = code_of(t, code, i);
    if (sec && sec->name.starts_with(".plt")) {
      if (const AbiFacts* abi = abi_facts(t.header.abi)) check_plt_shape(t, *abi, *sec, i, f);
      continue;
    }
    const input::SymtabSymbol* match = function_starting(i);
    if (!match)
      f.at_fde(rules::FDE_014, i, t.fdes[i].at, "no function symbol at " + hex(s.address));
    else if (match->size && match->size != t.fdes[i].size)
      f.at_fde(rules::FDE_014, i, t.fdes[i].at, std::string(symbols.name(*match)) + " is " + std::to_string(match->size) + " bytes, the FDE " +
                                                     std::to_string(t.fdes[i].size));
  }
}

void check_order(const SframeTable& t, SframeFindings& f) {
  if (!(t.header.flags & kFdeSorted) || t.relocatable) return;
  for (size_t i = 1; i < t.fdes.size(); ++i) {
    const uint64_t prev = t.starts[i - 1].address, cur = t.starts[i].address;
    if (t.order_of(cur) < t.order_of(prev))
      f.at_fde(rules::FDE_008, i, t.fdes[i].at, "starts at " + hex(cur) + ", FDE " + std::to_string(i - 1) + " at " + hex(prev));
    else if (cur == prev)
      f.at_fde(rules::FDE_008, i, t.fdes[i].at,
               "starts at " + hex(cur) + " like FDE " + std::to_string(i - 1) + ": the kernel needs strictly increasing starts",
               std::nullopt, kSframeKernel);
  }
}

void check_overlap(const SframeTable& t, SframeFindings& f) {
  auto key = [&](size_t i) { return std::pair{t.starts[i].section, t.order_of(t.starts[i].address)}; };
  // A linked file's FDEs are in start order already: then they are walked
  // in place (an index of 20,000 FDEs, sorted, is memory the clean case
  // need not touch).
  bool in_order = true;
  for (size_t i = 0; i < t.fdes.size() && in_order; ++i)
    in_order = t.starts[i].resolved && (i == 0 || !(key(i) < key(i - 1)));
  std::vector<size_t> order;
  if (!in_order) {
    for (size_t i = 0; i < t.fdes.size(); ++i)
      if (t.starts[i].resolved) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return key(x) < key(y); });
  }
  const size_t n = in_order ? t.fdes.size() : order.size();
  for (size_t k = 0; k < n; ++k) {
    const size_t i = in_order ? k : order[k];
    if (t.fdes[i].size == 0) {
      f.at_fde(rules::FDE_009, i, t.fdes[i].at, "function of size 0", Severity::Warning);
      continue;
    }
    if (k + 1 == n) break;
    const size_t j = in_order ? k + 1 : order[k + 1];
    // The distance, not the end: a raw section's starts before the section
    // itself are near 2^64, where start + size wraps (found by the libsframe
    // 3 differential on mutated sizes).
    if (t.starts[j].section == t.starts[i].section && t.starts[j].address - t.starts[i].address < t.fdes[i].size &&
        t.fdes[j].size)
      f.at_fde(rules::FDE_009, j, t.fdes[j].at, "starts at " + hex(t.starts[j].address) + " inside FDE " +
                                                     std::to_string(i) + " [" + hex(t.starts[i].address) + ", " +
                                                     hex(t.starts[i].address + t.fdes[i].size) + ")");
  }
}

}  // namespace

PltMatch match_plt_fde(const SframeTable& t, const AbiFacts& abi, const input::Section& sec, size_t i) {
  const Fde& d = t.fdes[i];
  const bool flex = t.header.version == 3 && (d.info2 & 0x1f) == kFlex;
  PltMatch m;
  for (FreCursor c(t, i); !c.done(); c.next()) {
    const auto s = state_of(t.header, flex, *c);
    const bool sp_based = s && !s->outermost && !s->cfa_deref && s->cfa_reg == static_cast<uint32_t>(abi.sp) &&
                          s->fp.kind == Location::kUnchanged;
    m.rows.push_back({c->start, sp_based ? static_cast<int32_t>(s->cfa_offset) : INT32_MIN});
  }
  m.shape = match_plt(abi, sec.name, d.pc_type() == kPcMask, m.rows, m.known_section);
  return m;
}

const input::SymtabSymbol* function_at(const SframeTable& t, const input::SymtabSymbols& symbols, size_t i) {
  if (!t.starts[i].resolved) return nullptr;
  const auto& all = symbols.symbols;
  return function_from(t, all, i, std::lower_bound(all.begin(), all.end(), t.starts[i].address, address_below));
}

namespace {

const input::SymtabSymbol* function_from(const SframeTable& t, const std::vector<input::SymtabSymbol>& all, size_t i,
                                   std::vector<input::SymtabSymbol>::const_iterator it) {
  const FunctionStart& s = t.starts[i];
  const input::SymtabSymbol* found = nullptr;
  for (; it != all.end() && it->address == s.address; ++it)
    if (it->function() && (!t.relocatable || it->section == s.section) &&
        (!found || (it->size == t.fdes[i].size && found->size != t.fdes[i].size)))
      found = &*it;
  return found;
}

}  // namespace

void check_fdes(const SframeTable& t, const input::SymtabSymbols* symbols, SframeFindings& f) {
  const CodeSections code(t);
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    check_encoding(t, code, i, f);
    check_range(t, code, i, f);
  }
  check_order(t, f);
  check_overlap(t, f);
  check_block_order(t, f);
  if (symbols) check_symbols(t, code, *symbols, f);
}

}  // namespace elfmeta::sframe
