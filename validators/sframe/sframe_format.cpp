#include "sframe/sframe_format.h"

namespace elfmeta::sframe {

std::string_view abi_name(uint8_t abi) {
  switch (abi) {
    case kAarch64Be: return "aarch64-be";
    case kAarch64Le: return "aarch64-le";
    case kAmd64Le: return "amd64";
    case kS390xBe: return "s390x";
    default: return "abi?";
  }
}

bool abi_big_endian(uint8_t abi) { return abi == kAarch64Be || abi == kS390xBe; }

namespace {
std::string signed_offset(int64_t v) { return (v < 0 ? "" : "+") + std::to_string(v); }
}  // namespace

std::string describe(const Fre& f, int8_t fixed_ra, uint8_t abi) {
  if (f.count() == 0) return "outermost (RA undefined)";
  std::string s = std::string(f.base_sp() ? "sp" : "fp") + signed_offset(f.words[0]);
  size_t k = 1;
  if (fixed_ra == 0 && k < f.count()) s += " ra@cfa" + signed_offset(f.words[k++]);
  if (k < f.count()) s += " fp@cfa" + signed_offset(f.words[k++]);
  for (; k < f.count(); ++k) s += " ?" + signed_offset(f.words[k]);
  if (f.mangled_ra() && (abi == kAarch64Be || abi == kAarch64Le)) s += " ra-mangled";
  return s;
}

}  // namespace elfmeta::sframe
