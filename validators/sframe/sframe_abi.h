// What each SFrame ABI (the header's abi_arch) fixes, in one table: byte
// order and ELF machine, the DWARF registers an FRE's base bit names, the
// header's fixed offsets producers write, how the data words of an FRE
// read (which are tracked, s390x's stored CFA, register numbers in
// version 2), the relocation an object's FDE start takes per field width,
// and the PLT FDEs ld writes. The checks ask this table; none tests an ABI
// id itself. An ABI the table does not know gets SFRAME-HDR-006 once, and
// the rules that need its facts skip it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/byte_reader.h"

namespace elfmeta::sframe {

// The CFA offset as an FRE stores it: offset = word * scale + bias.
// s390x stores (offset - 160) / 8 so that the usual frames fit a byte.
struct CfaEncoding {
  int32_t scale = 1, bias = 0;
  int64_t decode(int64_t word) const { return word * scale + bias; }
};

// The relocation gas writes on an object's FDE start field: PC-relative and
// as wide as the field (4 bytes in versions 1 and 2, 8 in version 3); and
// the type ld -r writes over the relocations of discarded functions (ld
// skips those whose r_info is 0).
struct StartRelocations {
  uint32_t pc32 = 0, pc64 = 0, none = 0;
  uint32_t for_version(uint8_t version) const { return version >= 3 ? pc64 : pc32; }
};

// One row of a PLT FDE: CFA = SP + cfa from `start` (an offset in the
// function, or in the block of a PC-mask FDE).
struct PltRow {
  uint32_t start = 0;
  int32_t cfa = 0;  // decoded (s390x: the offset, not the stored word)
};

// An FDE ld writes for linker-made code, by section: the PC-increment FDE
// of the first entry (plt0) or the PC-mask FDE of the entries.
struct PltShape {
  std::string_view section;  // ".plt", ".plt.sec", ".plt.got"
  bool mask = false;         // the entries' PC-mask FDE (else plt0)
  PltRow rows[2] = {};
  uint8_t count = 0;
  std::string_view variant;  // what ld writes it for ("lazy PLT", "IBT lazy PLT", ...)
  // Non-empty when this shape is a known producer defect: which producer,
  // what is wrong, and the evidence (ld's own .eh_frame for the same code).
  std::string_view defect;

  std::span<const PltRow> row_span() const { return {rows, count}; }
};

struct AbiFacts {
  uint8_t id = 0;
  std::string_view name;
  Endian endian = Endian::Little;
  uint16_t machine = 0;        // e_machine
  int sp = -1, fp = -1, ra = -1;  // DWARF numbers: the base bit's SP and FP, the return address column
  int8_t fixed_ra = 0;          // the header's fixed RA offset producers write (0: RA tracked per FRE)
  int8_t fixed_fp = 0;          // likewise for FP (0 everywhere: FP is always tracked)
  CfaEncoding cfa = {};
  bool ra_padding = false;      // an RA word of 0 before an FP word says "RA not saved"
  bool v2_register_words = false;  // version 2: odd RA/FP words name the register holding them
  bool pauth = false;           // the FDE's pauth-key bit and the FRE's mangled-RA bit mean something
  bool flex = false;            // gas writes version 3 FLEX FDEs for this ABI
  int32_t min_sp_cfa = 0;       // an SP-based CFA offset below this is implausible (0: not checked)
  // Instructions start at multiples of this: DWARF CFI (whose code
  // alignment factor is this) cannot place a row between them.
  uint32_t insn_align = 1;
  StartRelocations relocations;
  std::span<const PltShape> plt = {};  // what ld writes for linker-made code
  // Non-empty when ld is known to leave a PLT without FDEs where it should
  // write them: which producer, when, and the evidence.
  std::string_view plt_gap = {};
  std::string_view since;       // the binutils release that introduced it
};

// Null for an ABI id the table does not know.
const AbiFacts* abi_facts(uint8_t abi);
// The ABIs of an ELF machine; empty for a machine without SFrame.
std::span<const AbiFacts> abis_of_machine(uint16_t machine);
// Every ABI the table knows, in id order.
std::span<const AbiFacts> all_abis();

// The shape among `shapes` of `section` and kind whose rows are `rows`, or
// null; `any` is set when the ABI has a shape for that section and kind.
const PltShape* match_plt(const AbiFacts& abi, std::string_view section, bool mask, std::span<const PltRow> rows,
                          bool& any);

}  // namespace elfmeta::sframe
