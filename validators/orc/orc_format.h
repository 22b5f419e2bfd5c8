// The x86-64 ORC entry (arch/x86/include/asm/orc_types.h): 6 bytes,
// decoded into meanings (register, type) through the generation's row of
// the layout table (orc_layouts.h), and encoded back.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "orc/orc_layouts.h"

namespace elfmeta::orc {

std::string_view reg_name(Reg reg);  // objtool's dump names: "sp", "prevsp", "bp(ind)", ...
std::string_view type_name(uint8_t type);

struct Entry {
  int16_t sp_offset = 0, bp_offset = 0;
  Reg sp_reg = kRegUndefined, bp_reg = kRegUndefined;  // meanings (kRegUnassigned: see the codes)
  uint8_t sp_code = 0, bp_code = 0;  // the register codes as stored
  uint8_t raw_type = 0;  // the type field as stored (2 bits before 6.4, 3 from 6.4)
  uint8_t type = 0;      // in the 6.4+ numbering; kTypeInvalid: undefined code
  bool end = false;      // the end bit (before 6.4)
  bool signal = false;   // the signal bit (6.3 on)
  uint16_t reserved = 0;  // the set bits of the layout's reserved mask
  uint16_t bits = 0;      // the raw bitfield word
  std::array<uint8_t, kEntrySize> bytes{};
};

Entry decode(const uint8_t* p, Layout layout);
// decode(p, layout).type alone, from bytes 4-5: for passes over every entry
// that look at few of them.
inline uint8_t entry_type(const uint8_t* p, const LayoutInfo& l) {
  const unsigned bits = p[4] | p[5] << 8;
  if (!l.typed_no_info && l.registers[bits & 0xf] == kRegUndefined)
    return l.end_bit >= 0 && (bits >> l.end_bit & 1) ? kTypeEndOfStack : kTypeUndefined;
  return l.types[bits >> 8 & ((1u << l.type_bits) - 1)];
}
// The 6 bytes of an entry in `layout` from its fields: meanings where the
// layout has a code for them (else the stored codes), the type (else the
// stored type code), flags, offsets and reserved bits. For any 6 bytes,
// encode(decode(b)) == b.
std::array<uint8_t, kEntrySize> encode(const Entry& e, Layout layout);

// Entries as objtool writes them.
Entry call_frame(int16_t sp_offset, Reg sp_reg = kRegSp, Reg bp_reg = kRegUndefined, int16_t bp_offset = 0);
Entry terminator();    // undefined: no information
Entry end_of_stack();
// "call sp+8 bp:prevsp-16", as objtool --dump prints it.
std::string describe(const Entry& e);

// A "weak" entry: no information (terminators, padding). Among entries at
// one address the kernel's binary search returns the last, so weak ones
// must come first. Before 6.4: sp_reg UNDEFINED without the end bit (the
// decoder gives those type undefined).
inline bool is_weak(const Entry& e) { return e.type == kTypeUndefined; }
inline bool is_frame(const Entry& e) {
  return e.type == kTypeCall || e.type == kTypeRegs || e.type == kTypeRegsPartial;
}
// The entry a C function starts with: a call frame, return address at SP.
inline bool is_entry_state(const Entry& e) {
  return e.type == kTypeCall && e.sp_reg == kRegSp && e.sp_offset == 8 && e.bp_reg == kRegUndefined;
}

// Whether the unwinder of `layout` could use the entry, and whether objtool
// could have written it: no reserved bits, a defined type, frames with
// bases the unwinder accepts, entries without information that carry
// nothing. What layout inference counts against a layout.
bool is_plausible(const Entry& e, const LayoutInfo& layout);

}  // namespace elfmeta::orc
