#include "btf/type_size.h"

namespace elfmeta::btf {

std::optional<uint32_t> sizeof_type(const Btf& btf, uint32_t id) {
  uint64_t nelems = 1;
  for (uint32_t depth = 0; depth < kMaxResolveDepth; ++depth) {
    if (!btf.has_type(id) || id == 0) return std::nullopt;
    const TypeRef t = btf.type(id);
    const uint32_t k = t.kind();
    uint64_t size;
    if (has_size_field(k) && k != kDatasec) {
      size = t.size();
    } else if (k == kPtr) {
      size = kPointerSize;
    } else if (is_modifier(k)) {
      id = t.type();
      continue;
    } else if (k == kArray) {
      nelems *= t.payload(2);
      if (nelems > UINT32_MAX) return std::nullopt;
      id = t.payload(0);
      continue;
    } else {
      return std::nullopt;
    }
    const uint64_t total = size * nelems;
    if (total > UINT32_MAX) return std::nullopt;
    return static_cast<uint32_t>(total);
  }
  return std::nullopt;
}

}  // namespace elfmeta::btf
