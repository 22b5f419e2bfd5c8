// Cross-checks of BTF against the rest of its input (spec btf.md §3): the
// kernel verifies that BTF is well-formed; these check that it is true —
// names backed by symbols, DATASEC offsets equal to symbol addresses, types
// equal to the DWARF they were made from, dedup that left nothing behind.
// Findings are warnings or notes and never change the kernel verdict.
#pragma once

#include "btf/btf.h"
#include "core/findings.h"
#include "input/artifact.h"
#include "input/symbols.h"

namespace elfmeta::btf::xc {

struct CrossCheckInput {
  const input::Artifact& artifact;
  // The checked blob; split BTF reaches its base chain through base().
  const Btf& btf;
  // The symbols of the code and data the BTF describes: a kernel image's
  // symtab or kallsyms tables, /proc/kallsyms, a module's or object's symtab.
  // Null when there are none (the symbol family is then skipped with a note).
  const input::SymbolIndex* symbols = nullptr;
};

// Every family below, in this order. `findings` is for section ".BTF".
void cross_check(const CrossCheckInput& in, Findings& findings);

void check_symbols(const CrossCheckInput& in, Findings& findings);      // XC-SYM
void check_dedup(const CrossCheckInput& in, Findings& findings);        // XC-DEDUP
void check_conventions(const CrossCheckInput& in, Findings& findings);  // XC-CONV
// XC-DW: every named struct, union, enum, typedef, FUNC and VAR against
// the artifact's DWARF (.debug_info, relocated for objects and modules).
// Does nothing when the artifact has no DWARF; ends with a note of what was
// compared and what was skipped.
// (elfmeta::Findings: with btf/findings.h included first, a bare Findings
// here would name btf::Findings.)
void check_dwarf(const CrossCheckInput& in, elfmeta::Findings& findings);  // XC-DW

}  // namespace elfmeta::btf::xc
