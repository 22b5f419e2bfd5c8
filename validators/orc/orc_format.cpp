#include "orc/orc_format.h"

namespace elfmeta::orc {

std::string_view layout_name(Layout l) { return l == Layout::V1 ? "v1 (Linux 4.14-6.2)" : "v2 (Linux 6.3+)"; }

std::string_view reg_name(uint8_t reg) {
  static constexpr std::string_view kNames[] = {"und", "prevsp", "dx", "di", "bp", "sp", "r10", "r13", "bp(ind)", "sp(ind)"};
  return reg < std::size(kNames) ? kNames[reg] : "reg?";
}

std::string_view type_name(uint8_t type) {
  switch (type) {
    case kTypeUndefined: return "undefined";
    case kTypeEndOfStack: return "end_of_stack";
    case kTypeCall: return "call";
    case kTypeRegs: return "regs";
    case kTypeRegsPartial: return "regs_partial";
    default: return "type?";
  }
}

Entry decode(const uint8_t* p, Layout layout) {
  Entry e;
  for (uint32_t i = 0; i < kEntrySize; ++i) e.bytes[i] = p[i];
  e.sp_offset = static_cast<int16_t>(p[0] | p[1] << 8);
  e.bp_offset = static_cast<int16_t>(p[2] | p[3] << 8);
  e.bits = static_cast<uint16_t>(p[4] | p[5] << 8);
  e.sp_reg = e.bits & 0xf;
  e.bp_reg = e.bits >> 4 & 0xf;
  if (layout == Layout::V1) {
    e.raw_type = e.bits >> 8 & 3;
    e.flag = e.bits >> 10 & 1;
    e.reserved = static_cast<uint8_t>(e.bits >> 11);
    // v1 has no undefined/end types: sp_reg UNDEFINED marks them.
    if (e.sp_reg == kRegUndefined)
      e.type = e.flag ? kTypeEndOfStack : kTypeUndefined;
    else
      e.type = e.raw_type <= 2 ? static_cast<uint8_t>(kTypeCall + e.raw_type) : kTypeInvalid;
  } else {
    e.raw_type = e.bits >> 8 & 7;
    e.flag = e.bits >> 11 & 1;
    e.reserved = static_cast<uint8_t>(e.bits >> 12);
    e.type = e.raw_type <= kTypeRegsPartial ? e.raw_type : kTypeInvalid;
  }
  return e;
}

std::array<uint8_t, kEntrySize> encode(const Entry& e, Layout layout) {
  uint16_t bits = static_cast<uint16_t>((e.sp_reg & 0xf) | (e.bp_reg & 0xf) << 4);
  if (layout == Layout::V1) {
    // Undefined and end of stack have no type of their own in v1.
    const uint16_t type = e.type >= kTypeCall && e.type != kTypeInvalid ? e.type - kTypeCall : e.raw_type & 3;
    const bool end = e.type == kTypeEndOfStack || (e.type != kTypeUndefined && e.flag);
    bits |= static_cast<uint16_t>(type << 8 | uint16_t(end) << 10 | uint16_t(e.reserved) << 11);
  } else {
    const uint16_t type = e.type == kTypeInvalid ? e.raw_type : e.type;
    bits |= static_cast<uint16_t>((type & 7) << 8 | uint16_t(e.flag) << 11 | uint16_t(e.reserved) << 12);
  }
  const auto sp = static_cast<uint16_t>(e.sp_offset), bp = static_cast<uint16_t>(e.bp_offset);
  return {static_cast<uint8_t>(sp), static_cast<uint8_t>(sp >> 8), static_cast<uint8_t>(bp), static_cast<uint8_t>(bp >> 8),
          static_cast<uint8_t>(bits), static_cast<uint8_t>(bits >> 8)};
}

Entry call_frame(int16_t sp_offset, uint8_t sp_reg, uint8_t bp_reg, int16_t bp_offset) {
  Entry e;
  e.type = kTypeCall;
  e.sp_reg = sp_reg;
  e.sp_offset = sp_offset;
  e.bp_reg = bp_reg;
  e.bp_offset = bp_offset;
  return e;
}

Entry terminator() { return Entry{}; }

Entry end_of_stack() {
  Entry e;
  e.type = kTypeEndOfStack;
  return e;
}

std::string describe(const Entry& e, Layout layout) {
  auto offset = [](int v) { return v < 0 ? std::to_string(v) : "+" + std::to_string(v); };
  std::string s(type_name(e.type));
  if (e.type == kTypeInvalid) s = "type " + std::to_string(e.raw_type);
  if (e.type == kTypeUndefined || e.type == kTypeEndOfStack) return s;
  s += " sp:" + std::string(reg_name(e.sp_reg)) + offset(e.sp_offset);
  s += " bp:" + std::string(reg_name(e.bp_reg));
  if (e.bp_reg != kRegUndefined) s += offset(e.bp_offset);
  if (layout == Layout::V2 && e.flag) s += " signal";
  return s;
}

}  // namespace elfmeta::orc
