// The DWARF call frame information of a linked ELF file (.eh_frame, else
// .debug_frame), read through elfutils libdw: at any address, the rule for
// the CFA and where the caller's frame pointer and return address are.
// The ORC and SFrame differentials compare their tables with it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "input/artifact.h"

namespace elfmeta::input {

struct CfaRule {
  bool simple = false;  // register + offset; else an expression (DRAP realignment, PLT)
  int reg = -1;         // DWARF register number
  int64_t offset = 0;
  // The DWARF expression when not simple: (DW_OP_*, operand) pairs.
  std::vector<std::pair<uint8_t, int64_t>> expression;
};

// The CFA an expression gives at `pc` as register + offset, when it is of
// that form there (PLT entries: rsp + 8 + ((pc & 15) >= 11) * 8); nullopt
// for anything that reads memory or other registers.
std::optional<std::pair<int, int64_t>> evaluate_cfa(const CfaRule& r, uint64_t pc, int pc_register);

// Where the caller's value of a register is.
struct SavedRule {
  enum Kind { kSameValue, kUndefined, kAtCfa, kInRegister, kOther } kind = kOther;
  int64_t offset = 0;  // kAtCfa: saved at CFA + offset
  int reg = -1;        // kInRegister: the DWARF register holding it (DW_CFA_register)
};

struct CfiRow {
  uint64_t start = 0, end = 0;  // the addresses the row applies to
  CfaRule cfa;
  SavedRule fp, ra;
  bool signal = false;  // the CIE's 'S' augmentation
};

// DWARF numbers of the frame pointer and return address columns by machine.
struct CfiRegisters {
  int sp, fp, ra;
};
std::optional<CfiRegisters> cfi_registers(uint16_t machine);

class DwarfCfi {
 public:
  // Null when the file has no CFI libdw can read (or is not linked).
  static std::unique_ptr<DwarfCfi> open(const Artifact& a);
  ~DwarfCfi();
  DwarfCfi(const DwarfCfi&) = delete;
  DwarfCfi& operator=(const DwarfCfi&) = delete;

  // The row covering `pc`; nullopt when no FDE covers it.
  std::optional<CfiRow> row_at(uint64_t pc) const;
  const CfiRegisters& registers() const { return regs_; }

 private:
  DwarfCfi() = default;
  std::vector<uint8_t> image_;  // libelf wants writable memory
  void* elf_ = nullptr;         // Elf*
  void* cfi_ = nullptr;         // Dwarf_CFI*
  CfiRegisters regs_{};
};

std::string describe(const CfaRule& r);
std::string describe(const SavedRule& r);

}  // namespace elfmeta::input
