// The passes of the SFrame check, one per invariant family, over a table
// read by read_sframe.
#pragma once

#include "input/symbols.h"
#include "sframe/sframe_abi.h"
#include "sframe/sframe_findings.h"
#include "sframe/sframe_table.h"

namespace elfmeta::sframe {

// SFRAME-HDR-*: flags, ABI, fixed offsets, counts and lengths against the
// records; `consumer` adds the version the selected reader supports.
void check_header(const SframeTable& t, uint32_t consumer, SframeFindings& f);
// The function symbol starting where FDE i starts (in its section, for an
// object), preferring one of the FDE's size when several start there.
const input::SymtabSymbol* function_at(const SframeTable& t, const input::SymtabSymbols& symbols, size_t i);

// FDE i, in the linker-made section `sec`, against the PLT shapes of its
// ABI: its rows (CFA as SP + offset; INT32_MIN where a row is not of that
// form), whether ld writes FDEs for that section, and the shape it matches.
struct PltMatch {
  std::vector<PltRow> rows;
  bool known_section = false;
  const PltShape* shape = nullptr;
};
PltMatch match_plt_fde(const SframeTable& t, const AbiFacts& abi, const input::Section& sec, size_t i);

// SFRAME-FDE-*: info bits, block sizes, ranges, order and overlap; with the
// artifact's symbols (null: none), the function each FDE covers.
void check_fdes(const SframeTable& t, const input::SymtabSymbols* symbols, SframeFindings& f);
// SFRAME-FRE-*: word counts, start offsets, plausibility of each FRE.
void check_fres(const SframeTable& t, SframeFindings& f);
// SFRAME-ELF-*: the section header and the segment of linked files.
void check_elf(const SframeTable& t, SframeFindings& f);
// SFRAME-CFI-* and ELF-007: linked files against their DWARF CFI (libdw);
// false when there is none to compare with.
bool check_cfi(const SframeTable& t, const input::SymtabSymbols* symbols, SframeFindings& f);

}  // namespace elfmeta::sframe
