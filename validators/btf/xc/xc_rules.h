// The cross-check rule tables, one per family (IDs from spec btf.md §3).
#pragma once

#include <span>

#include "core/rule.h"

namespace elfmeta::btf::xc::rules {

std::span<const Rule* const> symbol_table();      // XC-SYM-*
std::span<const Rule* const> dedup_table();       // XC-DEDUP-*
std::span<const Rule* const> convention_table();  // XC-CONV-*
std::span<const Rule* const> dwarf_table();       // XC-DW-*

}  // namespace elfmeta::btf::xc::rules
