#include "orc/x86_fill.h"

namespace elfmeta::orc {
namespace {

constexpr size_t kMaxInstruction = 15;  // the architecture's limit

// The bytes a ModRM byte adds after itself (SIB and displacement), for the
// 64-bit addressing forms.
size_t modrm_tail(uint8_t modrm, std::span<const uint8_t> after) {
  const uint8_t mod = modrm >> 6, rm = modrm & 7;
  if (mod == 3) return 0;  // a register operand
  size_t n = 0;
  if (rm == 4) {  // a SIB byte follows
    if (after.empty()) return SIZE_MAX;
    n = 1;
    if (mod == 0 && (after[0] & 7) == 5) return n + 4;  // no base: disp32
  } else if (mod == 0 && rm == 5) {
    return 4;  // RIP-relative disp32
  }
  return n + (mod == 1 ? 1 : mod == 2 ? 4 : 0);
}

}  // namespace

size_t x86_fill_length(std::span<const uint8_t> code) {
  size_t p = 0;
  while (p < code.size() && p < kMaxInstruction && (code[p] == 0x66 || code[p] == 0x2e)) ++p;
  if (p >= code.size()) return 0;
  const uint8_t op = code[p];
  if (op == 0x90) return p + 1;                           // nop, xchg %ax,%ax, data16 ... nop
  if (op == 0xcc) return p == 0 ? 1 : 0;                  // int3
  if (op != 0x0f || p + 1 >= code.size()) return 0;
  if (code[p + 1] == 0x0b) return p == 0 ? 2 : 0;         // ud2
  if (code[p + 1] != 0x1f || p + 2 >= code.size()) return 0;
  const uint8_t modrm = code[p + 2];
  if ((modrm >> 3 & 7) != 0) return 0;                    // 0f 1f /0 is NOP; other /r are not
  const size_t tail = modrm_tail(modrm, code.subspan(p + 3));
  const size_t length = p + 3 + tail;
  return tail != SIZE_MAX && length <= code.size() && length <= kMaxInstruction ? length : 0;
}

bool x86_all_fill(std::span<const uint8_t> code) {
  size_t p = 0;
  while (p < code.size()) {
    const size_t n = x86_fill_length(code.subspan(p));
    if (n == 0) return false;
    p += n;
  }
  return true;
}

}  // namespace elfmeta::orc
