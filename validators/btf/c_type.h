// The C spelling of a BTF type as it would be declared without a name:
// "const char *", "int (*)(struct sk_buff *, int)", "struct foo *[4]",
// "void (int)" for a bare prototype. For messages and diffs of types from
// any blob that parses, so bounded whatever the graph: reference chains are
// followed at most 32 steps, prototypes nested at most 3 deep, and the whole
// spelling is cut at `max_chars` with "..."; an id past the last type is
// "<type N>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "btf/btf.h"

namespace elfmeta::btf {

std::string c_type_name(const Btf& btf, uint32_t id, size_t max_chars = 240);

}  // namespace elfmeta::btf
