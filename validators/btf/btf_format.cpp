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

}  // namespace elfmeta::btf
