// The SFrame rule table (IDs from ../shared/spec/sframe.md §2).
#pragma once

#include <span>

#include "core/rule.h"

namespace elfmeta::sframe::rules {

std::span<const Rule* const> table();

extern const Rule HDR_001, HDR_002, HDR_003, HDR_004, HDR_005, HDR_006, HDR_007, HDR_008, HDR_009, HDR_010,
    HDR_011, HDR_012, HDR_013, HDR_014, HDR_015, HDR_016, HDR_017, HDR_018, HDR_019, HDR_020;
extern const Rule FDE_001, FDE_002, FDE_003, FDE_004, FDE_005, FDE_007, FDE_008, FDE_009, FDE_010, FDE_011, FDE_013,
    FDE_006, FDE_012, FDE_014;
extern const Rule FRE_001, FRE_002, FRE_003, FRE_004, FRE_005, FRE_006, FRE_007, FRE_008, FRE_009, FRE_010, FRE_011,
    FRE_012, FRE_013, FRE_014;
extern const Rule ELF_001, ELF_002, ELF_003, ELF_004, ELF_005, ELF_006, ELF_007, ELF_008, ELF_009, ELF_010;
extern const Rule CFI_001, CFI_002, CFI_003, CFI_004, CFI_005, CFI_006, CFI_007, CFI_008;

}  // namespace elfmeta::sframe::rules
