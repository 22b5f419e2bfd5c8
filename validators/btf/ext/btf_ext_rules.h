// Rules of BPF objects: the .BTF.ext table (BTF-EXT-*, spec btf.md §2.6)
// and the object-file cross-checks of .BTF against the ELF symbols and
// sections (XC-SYM-009, XC-SYM-011, XC-CONV-006 of spec §3.1 and §3.4).
#pragma once

#include <span>

#include "core/rule.h"

namespace elfmeta::btf::ext::rules {

std::span<const Rule* const> table();             // BTF-EXT-*
std::span<const Rule* const> bpf_object_table();  // the object-file cross-checks

extern const Rule EXT_001, EXT_002, EXT_003, EXT_004, EXT_005, EXT_006, EXT_007, EXT_008, EXT_009, EXT_010,
    EXT_011, EXT_012, EXT_013, EXT_014, EXT_015, EXT_016, EXT_017;
extern const Rule XC_SYM_009, XC_SYM_011, XC_CONV_006;

}  // namespace elfmeta::btf::ext::rules
