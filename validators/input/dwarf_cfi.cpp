#include "input/dwarf_cfi.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <libelf.h>

#include <cstdlib>

namespace elfmeta::input {
namespace {

CfaRule cfa_of(Dwarf_Frame* frame) {
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  CfaRule c;
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

CfaRule cfa_expression(Dwarf_Frame* frame) {
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  CfaRule c = cfa_of(frame);
  if (c.simple || dwarf_frame_cfa(frame, &ops, &nops) != 0) return c;
  for (size_t k = 0; k < nops && k < 64; ++k) c.expression.emplace_back(ops[k].atom, static_cast<int64_t>(ops[k].number));
  return c;
}

SavedRule saved_of(Dwarf_Frame* frame, int reg) {
  Dwarf_Op mem[3];
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  SavedRule r;
  if (dwarf_frame_register(frame, reg, mem, &ops, &nops) != 0) return r;
  if (nops == 0) {
    r.kind = ops ? SavedRule::kUndefined : SavedRule::kSameValue;
    return r;
  }
  if (nops == 1 && ops[0].atom == DW_OP_regx) {  // libdw's form of DW_CFA_register
    r.kind = SavedRule::kInRegister;
    r.reg = static_cast<int>(ops[0].number);
    return r;
  }
  if (ops[0].atom != DW_OP_call_frame_cfa) return r;
  if (nops == 1) {
    r.kind = SavedRule::kAtCfa;
  } else if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
    r.kind = SavedRule::kAtCfa;
    r.offset = static_cast<int64_t>(ops[1].number);
  } else if (nops == 3 && ops[1].atom == DW_OP_consts && ops[2].atom == DW_OP_plus) {
    r.kind = SavedRule::kAtCfa;
    r.offset = static_cast<int64_t>(ops[1].number);
  }
  return r;
}

}  // namespace

std::optional<CfiRegisters> cfi_registers(uint16_t machine) {
  switch (machine) {
    case EM_X86_64: return CfiRegisters{7, 6, 16};   // rsp, rbp, return address column
    case EM_AARCH64: return CfiRegisters{31, 29, 30};  // sp, x29, x30
    case EM_S390: return CfiRegisters{15, 11, 14};
    default: return std::nullopt;
  }
}

std::unique_ptr<DwarfCfi> DwarfCfi::open(const Artifact& a) {
  if (a.kind != ArtifactKind::Elf || a.elf_type == ET_REL) return nullptr;
  if (!a.section(".eh_frame") && !a.section(".debug_frame")) return nullptr;
  const auto regs = cfi_registers(a.machine);
  if (!regs) return nullptr;
  std::unique_ptr<DwarfCfi> c(new DwarfCfi);
  c->regs_ = *regs;
  c->image_.assign(a.content.begin(), a.content.end());
  Elf* elf = elf_memory(reinterpret_cast<char*>(c->image_.data()), c->image_.size());
  if (!elf) return nullptr;
  c->elf_ = elf;
  Dwarf_CFI* cfi = dwarf_getcfi_elf(elf);
  if (!cfi) return nullptr;  // the destructor ends elf
  c->cfi_ = cfi;
  return c;
}

DwarfCfi::~DwarfCfi() {
  if (cfi_) dwarf_cfi_end(static_cast<Dwarf_CFI*>(cfi_));
  if (elf_) elf_end(static_cast<Elf*>(elf_));
}

std::optional<CfiRow> DwarfCfi::row_at(uint64_t pc) const {
  Dwarf_Frame* frame = nullptr;
  if (dwarf_cfi_addrframe(static_cast<Dwarf_CFI*>(cfi_), pc, &frame) != 0) return std::nullopt;
  CfiRow row;
  Dwarf_Addr start = 0, end = 0;
  dwarf_frame_info(frame, &start, &end, &row.signal);
  row.start = start;
  row.end = end;
  row.cfa = cfa_expression(frame);
  row.fp = saved_of(frame, regs_.fp);
  row.ra = saved_of(frame, regs_.ra);
  std::free(frame);
  return row;
}

std::optional<std::pair<int, int64_t>> evaluate_cfa(const CfaRule& r, uint64_t pc, int pc_register) {
  if (r.simple) return std::pair{r.reg, r.offset};
  // Values are constants or one register plus a constant.
  struct Value {
    int reg = -1;
    int64_t k = 0;
  };
  std::vector<Value> stack;
  auto pop = [&](Value& v) {
    if (stack.empty()) return false;
    v = stack.back();
    stack.pop_back();
    return true;
  };
  for (const auto& [atom, n] : r.expression) {
    Value a, b;
    if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) {
      stack.push_back({-1, atom - DW_OP_lit0});
    } else if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
      const int reg = atom - DW_OP_breg0;
      stack.push_back(reg == pc_register ? Value{-1, static_cast<int64_t>(pc) + n} : Value{reg, n});
    } else if (atom == DW_OP_const1u || atom == DW_OP_const1s || atom == DW_OP_const2u || atom == DW_OP_const2s ||
               atom == DW_OP_const4u || atom == DW_OP_const4s || atom == DW_OP_constu || atom == DW_OP_consts) {
      stack.push_back({-1, n});
    } else if (atom == DW_OP_plus_uconst) {
      if (!pop(a)) return std::nullopt;
      stack.push_back({a.reg, a.k + n});
    } else if (atom == DW_OP_plus || atom == DW_OP_minus || atom == DW_OP_and || atom == DW_OP_shl || atom == DW_OP_ge ||
               atom == DW_OP_gt || atom == DW_OP_lt || atom == DW_OP_le || atom == DW_OP_mul) {
      if (!pop(b) || !pop(a)) return std::nullopt;
      if (atom == DW_OP_plus && (a.reg < 0 || b.reg < 0)) {
        stack.push_back({a.reg >= 0 ? a.reg : b.reg, a.k + b.k});
        continue;
      }
      if (atom == DW_OP_minus && b.reg < 0) {
        stack.push_back({a.reg, a.k - b.k});
        continue;
      }
      if (a.reg >= 0 || b.reg >= 0) return std::nullopt;
      int64_t v = 0;
      switch (atom) {
        case DW_OP_and: v = a.k & b.k; break;
        case DW_OP_shl: v = b.k >= 0 && b.k < 64 ? int64_t(uint64_t(a.k) << b.k) : 0; break;
        case DW_OP_ge: v = a.k >= b.k; break;
        case DW_OP_gt: v = a.k > b.k; break;
        case DW_OP_lt: v = a.k < b.k; break;
        case DW_OP_le: v = a.k <= b.k; break;
        case DW_OP_mul: v = a.k * b.k; break;
        default: v = atom == DW_OP_plus ? a.k + b.k : a.k - b.k; break;
      }
      stack.push_back({-1, v});
    } else {
      return std::nullopt;  // memory, other registers, control flow
    }
  }
  if (stack.size() != 1 || stack.back().reg < 0) return std::nullopt;
  return std::pair{stack.back().reg, stack.back().k};
}

std::string describe(const CfaRule& r) {
  if (!r.simple) return "an expression";
  return "r" + std::to_string(r.reg) + (r.offset < 0 ? "" : "+") + std::to_string(r.offset);
}

std::string describe(const SavedRule& r) {
  switch (r.kind) {
    case SavedRule::kSameValue: return "kept";
    case SavedRule::kUndefined: return "undefined";
    case SavedRule::kAtCfa: return "at cfa" + std::string(r.offset < 0 ? "" : "+") + std::to_string(r.offset);
    case SavedRule::kInRegister: return "in r" + std::to_string(r.reg);
    default: return "an expression";
  }
}

}  // namespace elfmeta::input
