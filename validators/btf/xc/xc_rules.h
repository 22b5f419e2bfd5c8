// The cross-check rule tables, one per family (IDs from spec btf.md §3).
#pragma once

#include <span>

#include "core/rule.h"

namespace elfmeta::btf::xc::rules {

std::span<const Rule* const> symbol_table();      // XC-SYM-*
std::span<const Rule* const> dedup_table();       // XC-DEDUP-*
std::span<const Rule* const> convention_table();  // XC-CONV-*
std::span<const Rule* const> dwarf_table();       // XC-DW-*
std::span<const Rule* const> context_table();     // XC-CTX-*

}  // namespace elfmeta::btf::xc::rules

namespace elfmeta::btf::xc::rules {

extern const Rule SYM_001, SYM_002, SYM_003, SYM_004, SYM_005, SYM_006, SYM_007, SYM_008, SYM_010, SYM_012, SYM_013;
extern const Rule DEDUP_001, DEDUP_002, DEDUP_003, DEDUP_004, DEDUP_005, DEDUP_006;
extern const Rule CTX_001, CTX_002;
extern const Rule CONV_001, CONV_002, CONV_003, CONV_004, CONV_005, CONV_007, CONV_009;

}  // namespace elfmeta::btf::xc::rules
