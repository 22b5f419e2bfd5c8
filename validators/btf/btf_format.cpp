#include "btf/btf_format.h"

#include <array>

namespace elfmeta::btf {

std::string_view kind_name(uint32_t kind) {
  static constexpr std::array<std::string_view, 20> kNames = {
      "UNKNOWN", "INT",      "PTR",      "ARRAY",    "STRUCT", "UNION",   "ENUM",
      "FWD",     "TYPEDEF",  "VOLATILE", "CONST",    "RESTRICT", "FUNC",  "FUNC_PROTO",
      "VAR",     "DATASEC",  "FLOAT",    "DECL_TAG", "TYPE_TAG", "ENUM64"};
  return kind < kNames.size() ? kNames[kind] : std::string_view("UNKNOWN");
}

std::optional<uint64_t> payload_size(uint32_t kind, uint32_t vlen) {
  switch (kind) {
    case kInt:
    case kVar:
    case kDeclTag:
      return 4;
    case kArray:
      return 12;
    case kStruct:
    case kUnion:
    case kDatasec:
    case kEnum64:
      return 12ull * vlen;
    case kEnum:
    case kFuncProto:
      return 8ull * vlen;
    case kPtr:
    case kFwd:
    case kTypedef:
    case kVolatile:
    case kConst:
    case kRestrict:
    case kFunc:
    case kFloat:
    case kTypeTag:
      return 0;
    default:
      return std::nullopt;
  }
}

}  // namespace elfmeta::btf
