// The DWARF call frame information of an ELF file (.eh_frame and
// .debug_frame), read through elfutils libdw: at any address, the rule for
// the CFA and where the caller's frame pointer and return address are.
// The ORC and SFrame differentials compare their tables with it. Code built
// with -fno-asynchronous-unwind-tables -g has its CFI in .debug_frame
// alone, and gas makes SFrame from that too.
//
// An object's (ET_REL) FDEs start where their pc_begin relocations say,
// which libdw does not apply: open() lays the object's code sections out
// apart in an address space of its own and writes each FDE's relocated
// pc_begin (and in .debug_frame its relocated CIE pointer) into its copy of
// the section, so that rows are looked up by address_of(section, offset).
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
  // Null when the file has no CFI, or a CFI section libdw cannot read; for
  // an object, also when a CFI section has a record this reader cannot
  // relocate (a pointer encoding other than absolute or PC-relative
  // fixed-size values, a compressed section). `why`, when given, is then
  // set to the reason, for the note of a check that did not run.
  static std::unique_ptr<DwarfCfi> open(const Artifact& a, std::string* why = nullptr);
  ~DwarfCfi();
  DwarfCfi(const DwarfCfi&) = delete;
  DwarfCfi& operator=(const DwarfCfi&) = delete;

  // The row covering `pc` (.eh_frame's where both sections cover it);
  // nullopt when no FDE covers it.
  std::optional<CfiRow> row_at(uint64_t pc) const;
  const CfiRegisters& registers() const { return regs_; }

  // Where offset `offset` of section `section` lies in the addresses
  // row_at reads. A linked file's are its own (the section is ignored); an
  // object's code sections (SHF_EXECINSTR) each have a place, apart from
  // the others: nullopt for another section.
  std::optional<uint64_t> address_of(uint32_t section, uint64_t offset) const;
  // The other way: the (section index, offset) of an address in an
  // object's layout; nullopt in a linked file or outside every section.
  std::optional<std::pair<uint32_t, uint64_t>> section_offset(uint64_t address) const;
  bool relocatable() const { return relocatable_; }
  // The sections read: ".eh_frame", ".debug_frame" or both, for notes.
  std::string sections() const;
  bool has_debug_frame() const { return debug_cfi_ != nullptr; }
  // Objects: the FDEs (of .eh_frame and .debug_frame) whose pc_begin has
  // no relocation that resolves into a code section (missing, of another
  // type, against a symbol of no code section, or beyond it); they cover no
  // address.
  size_t unresolved_fdes() const { return unresolved_; }

 private:
  struct Placed {
    uint32_t section = 0;
    uint64_t base = 0, size = 0;
  };
  enum class FrameSection { kEh, kDebug };
  DwarfCfi() = default;
  void place_code_sections(const Artifact& a, uint64_t above);
  bool relocate(const Artifact& a, const Section& frames, FrameSection kind);
  bool relocatable_ = false;
  std::vector<Placed> placed_;                        // objects: code sections by base
  std::vector<std::pair<uint32_t, size_t>> by_section_;  // (section index, position in placed_), sorted
  size_t unresolved_ = 0;
  std::vector<uint8_t> image_;  // libelf wants writable memory
  void* elf_ = nullptr;         // Elf*
  void* eh_cfi_ = nullptr;      // Dwarf_CFI* of .eh_frame
  void* dwarf_ = nullptr;       // Dwarf* whose CFI is .debug_frame's
  void* debug_cfi_ = nullptr;   // Dwarf_CFI* of .debug_frame (dwarf_'s)
  CfiRegisters regs_{};
};

std::string describe(const CfaRule& r);
std::string describe(const SavedRule& r);

}  // namespace elfmeta::input
