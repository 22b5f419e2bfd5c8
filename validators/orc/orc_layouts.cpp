#include "orc/orc_layouts.h"

#include <algorithm>

namespace elfmeta::orc {
namespace {

constexpr uint8_t kInv = kTypeInvalid;
constexpr Reg kNo = kRegUnassigned;

// Register numbering of orc_types.h from 4.14 to 7.0: PREV_SP 1, DX 2, DI 3,
// BP 4, SP 5, R10 6, R13 7, BP_INDIRECT 8, SP_INDIRECT 9.
constexpr std::array<Reg, 16> kOldRegisters = {kRegUndefined, kRegPrevSp, kRegDx, kRegDi, kRegBp, kRegSp, kRegR10, kRegR13,
                                               kRegBpIndirect, kRegSpIndirect, kNo, kNo, kNo, kNo, kNo, kNo};
// objtool's AX support as first merged: AX appended as 10.
constexpr std::array<Reg, 16> kOldRegistersAx = {kRegUndefined, kRegPrevSp, kRegDx, kRegDi, kRegBp, kRegSp, kRegR10,
                                                 kRegR13, kRegBpIndirect, kRegSpIndirect, kRegAx, kNo, kNo, kNo, kNo, kNo};
// 7.1 on: the real registers first, the pseudo-registers last (AX 1, DX 2,
// SP 3, BP 4, DI 5, R10 6, R13 7, PREV_SP 8, SP_INDIRECT 9, BP_INDIRECT 10).
constexpr std::array<Reg, 16> kNewRegisters = {kRegUndefined, kRegAx, kRegDx, kRegSp, kRegBp, kRegDi, kRegR10, kRegR13,
                                               kRegPrevSp, kRegSpIndirect, kRegBpIndirect, kNo, kNo, kNo, kNo, kNo};

// Types before 6.4: CALL 0, REGS 1, REGS_IRET/REGS_PARTIAL 2 (3: undefined).
constexpr std::array<uint8_t, 8> kOldTypes = {kTypeCall, kTypeRegs, kTypeRegsPartial, kInv, kInv, kInv, kInv, kInv};
// 6.4 on: UNDEFINED 0, END_OF_STACK 1, CALL 2, REGS 3, REGS_PARTIAL 4.
constexpr std::array<uint8_t, 8> kNewTypes = {kTypeUndefined, kTypeEndOfStack, kTypeCall, kTypeRegs, kTypeRegsPartial,
                                              kInv, kInv, kInv};

constexpr uint16_t bits(std::initializer_list<Reg> regs) {
  uint16_t m = 0;
  for (Reg r : regs) m = static_cast<uint16_t>(m | reg_bit(r));
  return m;
}
// The CFA bases unwind_next_frame() computes from; AX from the generation
// that numbers it. RBP is restored from the CFA (PREV_SP) or from RBP, or
// left alone (UNDEFINED).
constexpr uint16_t kCfaBases = bits({kRegSp, kRegBp, kRegSpIndirect, kRegBpIndirect, kRegR10, kRegR13, kRegDi, kRegDx});
constexpr uint16_t kCfaBasesAx = kCfaBases | reg_bit(kRegAx);
constexpr uint16_t kBpBases = bits({kRegUndefined, kRegPrevSp, kRegBp});

constexpr Fingerprint kG2Fingerprint = {0xdb, 0x84, 0xae, 0xd4, 0x10, 0x3b, 0x31, 0xdd, 0x51, 0xe0,
                                        0x17, 0xf8, 0xf7, 0x97, 0x83, 0xca, 0x98, 0x5c, 0x2c, 0x51};
constexpr Fingerprint kG3Fingerprint = {0xfe, 0x5d, 0x32, 0xbf, 0x58, 0x1b, 0xd6, 0x3b, 0x2c, 0xa9,
                                        0xa5, 0xc6, 0x5b, 0xa5, 0xa6, 0x25, 0xea, 0xb3, 0xfe, 0x24};
constexpr Fingerprint kG4Fingerprint = {0x13, 0x7c, 0x36, 0xad, 0x76, 0x27, 0xc4, 0xdd, 0x55, 0x93,
                                        0x21, 0x76, 0xbb, 0x0e, 0xcd, 0xbd, 0x50, 0x41, 0xfc, 0x82};
constexpr Fingerprint kG3AxFingerprint = {0xed, 0xfa, 0x4d, 0x15, 0x55, 0x2f, 0xdd, 0x2e, 0x1d, 0x56,
                                          0x67, 0x97, 0x28, 0x41, 0x63, 0x79, 0xf2, 0xfe, 0x45, 0x34};

const LayoutInfo kTable[] = {
    {Layout::G1, "G1", "G1 (Linux 4.14-6.2)", Release{4, 14}, Release{6, 3}, std::nullopt, "",
     2, 10, -1, 0xf800, false, kOldTypes, kOldRegisters, kCfaBases, kBpBases,
     "frames of types 0-2 (call, regs, regs_iret/regs_partial) with a CFA from sp, bp, sp(ind), bp(ind), r10, r13, "
     "di or dx; sp_reg undefined stops the unwind (end bit set: the end of the stack, clear: an error); prevsp (1) "
     "or 10-15 as the CFA base and type 3 are errors (type 3 only a warning up to 5.6); the signal state of the next "
     "lookup follows from the type",
     "orc_types.h of 4.19.71, Debian 5.10.223 and 6.1.176; Debian 6.1.0-50 and 6.1.0-56 images and modules"},
    {Layout::G2, "G2", "G2 (Linux 6.3)", Release{6, 3}, Release{6, 4}, kG2Fingerprint, "Linux 6.3.10",
     2, 11, 10, 0xf000, false, kOldTypes, kOldRegisters, kCfaBases, kBpBases,
     "as G1, with the signal bit (10) stored in the entry and the end bit moved to bit 11",
     "ffb1b4a41016 applied to 6.1's orc_types.h gives the blob of the patch's post-image, whose fingerprint is "
     "drgn's v6.3 constant; no 6.3 image at hand"},
    {Layout::G3, "G3", "G3 (Linux 6.4-7.0)", Release{6, 4}, Release{7, 1}, kG3Fingerprint, "Linux 6.4",
     3, -1, 11, 0xf000, true, kNewTypes, kOldRegisters, kCfaBases, kBpBases,
     "types 0-4: undefined (an error), end_of_stack (the end), call, regs, regs_partial; types 5-7 are errors; the "
     "same CFA and RBP bases as G1; the signal bit decides whether the next lookup uses ip or ip-1",
     "orc_types.h of Debian 6.12.117; Debian 6.12.117 (bookworm, trixie), 6.16-6.19 and 7.0 images and modules"},
    {Layout::G4, "G4", "G4 (Linux 7.1+)", Release{7, 1}, std::nullopt, kG4Fingerprint, "Linux 7.1",
     3, -1, 11, 0xf000, true, kNewTypes, kNewRegisters, kCfaBasesAx, kBpBases,
     "as G3, with the registers renumbered (1735858caa4b 'objtool/x86: Reorder ORC register numbering'): ax 1, dx 2, "
     "sp 3, bp 4, di 5, r10 6, r13 7, prevsp 8, sp(ind) 9, bp(ind) 10; ax (from the saved pt_regs) is a CFA base; "
     "prevsp (8) and 11-15 as the CFA base are errors",
     "orc_types.h of Debian 7.2.6, 7.2.13, 7.3.4; Debian 7.1.3, 7.1.13, 7.2.x, 7.3.x images; sid 7.2.13 modules"},
    {Layout::G3_AX, "G3+AX", "G3+AX (no release; a stable backport of AX support)", std::nullopt, std::nullopt,
     kG3AxFingerprint, "none observed",
     3, -1, 11, 0xf000, true, kNewTypes, kOldRegistersAx, kCfaBasesAx, kBpBases,
     "as G3, with ax appended as register 10 and accepted as a CFA base",
     "96f3b16a9de5 'objtool: Support Clang RAX DRAP sequence' before the renumbering (tip, March 2026) and its "
     "AUTOSEL stable mail; not in any Debian release"},
};

}  // namespace

std::array<uint8_t, 2> LayoutInfo::entry_state_word() const {
  const uint16_t word = static_cast<uint16_t>(code_of(kRegSp).value_or(0) | code_of(kRegUndefined).value_or(0) << 4 |
                                              type_code_of(kTypeCall).value_or(0) << 8);
  return {static_cast<uint8_t>(word), static_cast<uint8_t>(word >> 8)};
}

std::span<const LayoutInfo> layout_table() { return kTable; }

const LayoutInfo& layout_info(Layout l) { return kTable[static_cast<size_t>(l)]; }

std::string_view layout_name(Layout l) { return layout_info(l).title; }

std::optional<Layout> layout_for_fingerprint(std::span<const uint8_t> header) {
  for (const LayoutInfo& row : kTable)
    if (row.fingerprint && header.size() == kHeaderSize && std::equal(header.begin(), header.end(), row.fingerprint->begin()))
      return row.layout;
  return std::nullopt;
}

std::optional<Layout> layout_for_release(Release r) {
  for (const LayoutInfo& row : kTable)
    if (row.first && r >= *row.first && (!row.until || r < *row.until)) return row.layout;
  return std::nullopt;
}

}  // namespace elfmeta::orc
