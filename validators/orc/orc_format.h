// The x86-64 ORC unwind table format (arch/x86/include/asm/orc_types.h), in
// both of its layouts: "v1" of Linux 4.14 to 6.2 (2-bit type and an `end`
// bit) and "v2" of 6.3 on (3-bit type and a `signal` bit, types renumbered).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace elfmeta::orc {

inline constexpr uint32_t kEntrySize = 6, kIpSize = 4, kHeaderSize = 20;
inline constexpr uint32_t kLookupBlockSize = 256;

enum class Layout : uint8_t { V1, V2 };
std::string_view layout_name(Layout l);  // "v1 (4.14-6.2)", "v2 (6.3+)"

// .orc_header of the v2 layout: the SHA-1 of the ORC definitions in
// orc_types.h (scripts/orc_hash.sh); the same in 6.4 through 7.1.
inline constexpr std::array<uint8_t, kHeaderSize> kV2Fingerprint = {
    0xfe, 0x5d, 0x32, 0xbf, 0x58, 0x1b, 0xd6, 0x3b, 0x2c, 0xa9,
    0xa5, 0xc6, 0x5b, 0xa5, 0xa6, 0x25, 0xea, 0xb3, 0xfe, 0x24};

// Register codes, the same in both layouts.
enum Reg : uint8_t {
  kRegUndefined = 0, kRegPrevSp = 1, kRegDx = 2, kRegDi = 3, kRegBp = 4, kRegSp = 5,
  kRegR10 = 6, kRegR13 = 7, kRegBpIndirect = 8, kRegSpIndirect = 9, kRegMax = 15
};
std::string_view reg_name(uint8_t reg);

// Entry types, in v2 numbering; v1 entries are translated on decoding.
enum Type : uint8_t { kTypeUndefined = 0, kTypeEndOfStack = 1, kTypeCall = 2, kTypeRegs = 3, kTypeRegsPartial = 4 };
std::string_view type_name(uint8_t type);

struct Entry {
  int16_t sp_offset = 0, bp_offset = 0;
  uint8_t sp_reg = 0, bp_reg = 0;
  uint8_t raw_type = 0;  // the type field as stored (2 bits in v1, 3 in v2)
  uint8_t type = 0;      // normalised to the v2 numbering; 0xff: undefined code
  bool flag = false;     // v1 `end`, v2 `signal`
  uint8_t reserved = 0;  // the bits above the layout's fields (must be 0)
  uint16_t bits = 0;     // the raw bitfield word
  std::array<uint8_t, kEntrySize> bytes{};
};
inline constexpr uint8_t kTypeInvalid = 0xff;

Entry decode(const uint8_t* p, Layout layout);
// The 6 bytes of an entry in `layout` from its fields (type in v2 numbering,
// flag, registers, offsets, reserved bits): decode(encode(e)) == e.
std::array<uint8_t, kEntrySize> encode(const Entry& e, Layout layout);

// Entries as objtool writes them.
Entry call_frame(int16_t sp_offset, uint8_t sp_reg = kRegSp, uint8_t bp_reg = kRegUndefined, int16_t bp_offset = 0);
Entry terminator();    // undefined: no information
Entry end_of_stack();
// "call sp+8 bp:prevsp-16", as objtool --dump prints it.
std::string describe(const Entry& e, Layout layout);

// A "weak" entry: no information (terminators, padding). Among entries at
// one address the kernel's binary search returns the last, so weak ones
// must come first.
inline bool is_weak(const Entry& e, Layout layout) {
  return layout == Layout::V1 ? e.sp_reg == kRegUndefined && !e.flag : e.type == kTypeUndefined;
}
// The entry a C function starts with: a call frame, return address at SP.
inline bool is_entry_state(const Entry& e) {
  return e.type == kTypeCall && e.sp_reg == kRegSp && e.sp_offset == 8 && e.bp_reg == kRegUndefined;
}

}  // namespace elfmeta::orc
