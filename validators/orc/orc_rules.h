// The ORC rule table (IDs from ../shared/spec/orc.md §2).
#pragma once

#include <span>

#include "core/rule.h"

namespace elfmeta::orc::rules {

std::span<const Rule* const> table();

extern const Rule SEC_001, SEC_002, SEC_003, SEC_004, SEC_005, SEC_006, SEC_007, SEC_008, SEC_009, SEC_010,
    SEC_011, SEC_012;
extern const Rule ENT_001, ENT_002, ENT_003, ENT_004, ENT_005, ENT_006, ENT_007, ENT_009, ENT_010;
extern const Rule SORT_001, SORT_002, SORT_003;
extern const Rule COV_001, COV_002, COV_004, COV_005, COV_007;
extern const Rule LOOKUP_001, LOOKUP_002, LOOKUP_003;
extern const Rule SYM_001, SYM_003;
extern const Rule CFI_001, CFI_002, CFI_006;

}  // namespace elfmeta::orc::rules
