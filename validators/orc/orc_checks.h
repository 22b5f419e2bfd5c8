// The ORC rule families, one function each, run by check_orc() in order.
#pragma once

#include <cstdint>

#include "input/symbols.h"
#include "orc/orc_findings.h"
#include "orc/orc_table.h"

namespace elfmeta::orc {

// ORC-ENT-*: every entry on its own (of entries [from, to)).
void check_entries(const OrcTable& t, OrcFindings& f, size_t from = 0, size_t to = SIZE_MAX);
// Linked images: ORC-COV-001/005, ORC-SORT-*, ORC-SEC-009/010, ORC-LOOKUP-*
// (ORC-SORT-002/003, which tell weak entries, only in a known layout).
void check_image(const OrcTable& t, const input::SymbolIndex* symbols, OrcFindings& f);
// Objects and modules: ORC-COV-002/004 (004 only in a known layout).
void check_object(const OrcTable& t, OrcFindings& f);
// ORC-SYM-001/003: function starts against the entries that cover them
// (of code starts [from, to), in symbols.code_starts()).
void check_symbols(const OrcTable& t, const input::SymbolIndex& symbols, OrcFindings& f, size_t from = 0,
                   size_t to = SIZE_MAX);
// check_symbols() finds the entries of this many starts at a time (a
// prefix at the end of a stretch has its function in the next one).
constexpr size_t kSymbolStretch = 4096;
// ORC-COV-007: inside each function, an undefined entry between two frames
// on bytes that are not fill (x86_fill.h).
void check_function_bodies(const OrcTable& t, const input::SymbolIndex& symbols, OrcFindings& f);
// ORC-CFI-*: entries against the DWARF CFI (.eh_frame/.debug_frame) of the
// same code; returns false when the artifact has none.
bool check_cfi(const OrcTable& t, OrcFindings& f);

}  // namespace elfmeta::orc
