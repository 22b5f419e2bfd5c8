#include "orc/orc_format.h"

namespace elfmeta::orc {

std::string_view reg_name(Reg reg) {
  static constexpr std::string_view kNames[] = {"und", "prevsp", "ax", "dx", "di", "bp", "sp", "r10", "r13", "bp(ind)", "sp(ind)"};
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
  const LayoutInfo& l = layout_info(layout);
  Entry e;
  for (uint32_t i = 0; i < kEntrySize; ++i) e.bytes[i] = p[i];
  e.sp_offset = static_cast<int16_t>(p[0] | p[1] << 8);
  e.bp_offset = static_cast<int16_t>(p[2] | p[3] << 8);
  e.bits = static_cast<uint16_t>(p[4] | p[5] << 8);
  e.sp_code = e.bits & 0xf;
  e.bp_code = e.bits >> 4 & 0xf;
  e.sp_reg = l.registers[e.sp_code];
  e.bp_reg = l.registers[e.bp_code];
  e.raw_type = static_cast<uint8_t>(e.bits >> 8 & ((1u << l.type_bits) - 1));
  e.end = l.end_bit >= 0 && (e.bits >> l.end_bit & 1);
  e.signal = l.signal_bit >= 0 && (e.bits >> l.signal_bit & 1);
  e.reserved = e.bits & l.reserved_mask;
  e.type = entry_type(p, l);
  return e;
}

std::array<uint8_t, kEntrySize> encode(const Entry& e, Layout layout) {
  const LayoutInfo& l = layout_info(layout);
  const uint8_t sp = e.sp_reg == kRegUnassigned ? e.sp_code : l.code_of(e.sp_reg).value_or(e.sp_code);
  const uint8_t bp = e.bp_reg == kRegUnassigned ? e.bp_code : l.code_of(e.bp_reg).value_or(e.bp_code);
  uint16_t bits = static_cast<uint16_t>((sp & 0xf) | (bp & 0xf) << 4);
  bool end = e.end;
  uint8_t type = e.raw_type;
  if (!l.typed_no_info && (e.type == kTypeUndefined || e.type == kTypeEndOfStack))
    end = e.type == kTypeEndOfStack;  // no type of their own: the end bit tells them apart
  else if (e.type != kTypeInvalid)
    type = l.type_code_of(e.type).value_or(e.raw_type);
  bits |= static_cast<uint16_t>((type & ((1u << l.type_bits) - 1)) << 8);
  if (l.end_bit >= 0 && end) bits |= static_cast<uint16_t>(1u << l.end_bit);
  if (l.signal_bit >= 0 && e.signal) bits |= static_cast<uint16_t>(1u << l.signal_bit);
  bits |= e.reserved & l.reserved_mask;
  const auto so = static_cast<uint16_t>(e.sp_offset), bo = static_cast<uint16_t>(e.bp_offset);
  return {static_cast<uint8_t>(so), static_cast<uint8_t>(so >> 8), static_cast<uint8_t>(bo), static_cast<uint8_t>(bo >> 8),
          static_cast<uint8_t>(bits), static_cast<uint8_t>(bits >> 8)};
}

Entry call_frame(int16_t sp_offset, Reg sp_reg, Reg bp_reg, int16_t bp_offset) {
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

std::string describe(const Entry& e) {
  auto offset = [](int v) { return v < 0 ? std::to_string(v) : "+" + std::to_string(v); };
  auto reg = [](Reg r, uint8_t code) {
    return r == kRegUnassigned ? "reg" + std::to_string(code) : std::string(reg_name(r));
  };
  std::string s(type_name(e.type));
  if (e.type == kTypeInvalid) s = "type " + std::to_string(e.raw_type);
  if (e.type == kTypeUndefined || e.type == kTypeEndOfStack) return s;
  s += " sp:" + reg(e.sp_reg, e.sp_code) + offset(e.sp_offset);
  s += " bp:" + reg(e.bp_reg, e.bp_code);
  if (e.bp_reg != kRegUndefined) s += offset(e.bp_offset);
  if (e.signal) s += " signal";
  return s;
}

bool is_plausible(const Entry& e, const LayoutInfo& l) {
  if (e.reserved || e.type == kTypeInvalid) return false;
  if (is_frame(e)) {
    if (!l.accepts_cfa_base(e.sp_reg) || !l.accepts_bp_base(e.bp_reg)) return false;
    if (e.end) return false;  // the end bit only ever marks sp_reg undefined
    return !(e.signal && e.type == kTypeCall);
  }
  // Undefined and end of stack: objtool writes nothing else in them.
  // (Before 6.4 the type field of such an entry is left 0.)
  return e.sp_code == 0 && e.bp_code == 0 && e.sp_offset == 0 && e.bp_offset == 0 && !e.signal &&
         (l.typed_no_info || e.raw_type == 0);
}

}  // namespace elfmeta::orc
