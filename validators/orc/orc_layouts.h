// The on-disk generations of the x86-64 ORC entry (arch/x86/include/asm/
// orc_types.h and the unwinder that reads it, arch/x86/kernel/unwind_orc.c),
// as one table: register numbering, the bits of the 16-bit word, the entry
// types, what each generation's unwinder accepts, and the .orc_header
// fingerprint (Linux 6.3.10+) or the releases (older tables) it is found by.
// Decoding, encoding and the entry rules read the table; no check compares
// a register code or a bit position of its own. docs/orc.md lists the rows
// and the evidence for each (real Debian images, headers of the releases).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/release.h"

namespace elfmeta::orc {

inline constexpr uint32_t kEntrySize = 6, kIpSize = 4, kHeaderSize = 20;
inline constexpr uint32_t kLookupBlockSize = 256;

// The generations, oldest first. G3_AX is a state that no release shipped
// (objtool's first support of AX, appended as register 10, before the 7.1
// renumbering) but that a stable backport would carry: known by its
// fingerprint only.
enum class Layout : uint8_t { G1, G2, G3, G4, G3_AX };
inline constexpr size_t kLayoutCount = 5;

// What a register code means, whatever its number in a generation.
enum Reg : uint8_t {
  kRegUndefined, kRegPrevSp, kRegAx, kRegDx, kRegDi, kRegBp, kRegSp, kRegR10, kRegR13,
  kRegBpIndirect, kRegSpIndirect,
  kRegUnassigned,  // a code the generation does not define
};
inline constexpr uint16_t reg_bit(Reg r) { return static_cast<uint16_t>(1u << r); }

// Entry types, in the 6.4+ numbering; older generations' codes are
// translated on decoding (their undefined and end-of-stack entries have no
// type of their own: sp_reg UNDEFINED and the `end` bit mark them).
enum Type : uint8_t { kTypeUndefined = 0, kTypeEndOfStack = 1, kTypeCall = 2, kTypeRegs = 3, kTypeRegsPartial = 4 };
inline constexpr uint8_t kTypeInvalid = 0xff;  // a code the generation does not define

using Fingerprint = std::array<uint8_t, kHeaderSize>;

struct LayoutInfo {
  Layout layout;
  std::string_view name;   // "G4"
  std::string_view title;  // "G4 (Linux 7.1+)"
  // Header-less tables are matched by release: [first, until). A row that
  // no release wrote has neither and is found by fingerprint only.
  std::optional<Release> first, until;
  // The .orc_header value (scripts/orc_hash.sh of this orc_types.h), when the
  // generation lived on into releases that write one.
  std::optional<Fingerprint> fingerprint;
  std::string_view header_since;  // "Linux 6.3.10" (the first release writing the header)

  // The 16-bit word of bytes 4-5: sp_reg bits 0-3, bp_reg bits 4-7 in every
  // generation; then the type field from bit 8, and the flags.
  uint8_t type_bits;
  int8_t end_bit;     // -1: none (6.4+ has an END_OF_STACK type instead)
  int8_t signal_bit;  // -1: none (before 6.3 the unwinder derived it from the type)
  uint16_t reserved_mask;  // bits that must be zero
  // Whether "no information" and "end of stack" are types (6.4+); before,
  // sp_reg UNDEFINED marks them and `end` tells which.
  bool typed_no_info;
  std::array<uint8_t, 8> types;  // type code -> Type (kTypeInvalid: undefined code)
  std::array<Reg, 16> registers;  // register code -> meaning

  // What the generation's unwinder accepts (unwind_next_frame()): the
  // registers it computes a frame's CFA from, and those it restores RBP from.
  uint16_t cfa_bases, bp_bases;
  std::string_view unwinder;  // the same in words, with what it rejects
  std::string_view evidence;  // where the row was established

  // The code of a register meaning, nullopt when the generation has none.
  std::optional<uint8_t> code_of(Reg r) const {
    for (uint8_t c = 0; c < registers.size(); ++c)
      if (registers[c] == r) return c;
    return std::nullopt;
  }
  std::optional<uint8_t> type_code_of(uint8_t type) const {
    for (uint8_t c = 0; c < types.size(); ++c)
      if (types[c] == type) return c;
    return std::nullopt;
  }
  bool accepts_cfa_base(Reg r) const { return r != kRegUnassigned && (cfa_bases & reg_bit(r)); }
  bool accepts_bp_base(Reg r) const { return r != kRegUnassigned && (bp_bases & reg_bit(r)); }
  // Bytes 4-5 of `call sp+8 bp:(und)`, the entry state of every compiled
  // function (what a function's first instruction is covered by).
  std::array<uint8_t, 2> entry_state_word() const;
  bool by_release() const { return first.has_value(); }
};

// The table, oldest first.
std::span<const LayoutInfo> layout_table();
const LayoutInfo& layout_info(Layout l);
// "G4 (Linux 7.1+)".
std::string_view layout_name(Layout l);

std::optional<Layout> layout_for_fingerprint(std::span<const uint8_t> header);
// The generation a release's objtool writes (nullopt before ORC, 4.14).
std::optional<Layout> layout_for_release(Release r);

}  // namespace elfmeta::orc
