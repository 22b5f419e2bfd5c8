// A readable listing of BTF types, one record per line with its items indented.
#pragma once

#include <ostream>

#include "btf/btf.h"

namespace elfmeta::btf {

void dump(const Btf& btf, std::ostream& out);

}  // namespace elfmeta::btf
