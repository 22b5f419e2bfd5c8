// What an ELF file's compressed DWARF sections claim to expand to, for the
// readers that hand the file to libdw (XC-DW, the CFI reader): libdw
// expands every compressed debug section whole when it opens the file's
// DWARF, and a megabyte of zlib can claim a gigabyte. The artifact reader
// leaves these sections compressed (input/artifact.cpp).
#pragma once

#include <string>

#include "input/artifact.h"

namespace elfmeta::input {

// Real DWARF compresses 3 to 8 times (zlib, zstd); a section claiming more
// than this many times its compressed size is refused, from a floor (small
// sections of zeros compress further).
inline constexpr uint64_t kMaxDwarfExpansion = 64;
inline constexpr uint64_t kDwarfExpansionFloor = uint64_t(16) << 20;

// A DWARF section's name: .debug_*, or GNU's older .zdebug_* (compressed,
// with a "ZLIB" header of its own).
bool is_dwarf_section(std::string_view name);

// Why the file's DWARF should not be given to libdw: the first compressed
// DWARF section (SHF_COMPRESSED, or .zdebug_*) that claims more than
// kMaxDwarfExpansion times its size (past kDwarfExpansionFloor), or whose
// header cannot be read; "" when none does.
std::string oversized_compressed_dwarf(const Artifact& a);

}  // namespace elfmeta::input
