// The XC-DW rules (spec btf.md §3.2), for the check that emits them.
#pragma once

#include "core/rule.h"

namespace elfmeta::btf::xc::rules {

extern const Rule DW_001;  // struct/union (and typedef) layout
extern const Rule DW_002;  // enum
extern const Rule DW_003;  // array dimensions
extern const Rule DW_004;  // function prototype
extern const Rule DW_005;  // variable type
extern const Rule DW_006;  // type tags

}  // namespace elfmeta::btf::xc::rules
