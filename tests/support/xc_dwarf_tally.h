// What check_dwarf (XC-DW) reported on a real kernel, for the tests that
// hold it to figures: the findings per rule, a listing of them, and the
// counts of its closing "XC-DW: ..." note.
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <string_view>

#include "core/diagnostic.h"

namespace elfmeta::testing {

struct XcDwarfTally {
  std::map<std::string, size_t> per_rule;
  std::string listing;  // "RULE: message" per finding, but those of the rule left unlisted
  std::string note;     // the closing note, "" when there was none
  bool note_read = false;  // the note had all six counts below
  unsigned compared = 0, units = 0, agree = 0, non_c = 0, asm_funcs = 0, not_found = 0;
};

// `unlisted`: a rule whose findings are counted but not listed (those a
// test expects).
inline XcDwarfTally tally_xc_dwarf(const DiagnosticList& list, std::string_view unlisted = {}) {
  XcDwarfTally t;
  for (const auto& d : list.items()) {
    if (!d.rule) {
      if (d.message.starts_with("XC-DW: ")) t.note = d.message;
      continue;
    }
    ++t.per_rule[std::string(d.rule->id)];
    if (std::string_view(d.rule->id) != unlisted) t.listing += std::string(d.rule->id) + ": " + d.message + "\n";
  }
  t.note_read = std::sscanf(t.note.c_str(),
                            "XC-DW: %u BTF types compared with the DWARF of %u compile units, %u agree; %u non-C "
                            "compile units skipped: %u FUNCs of functions only they define (no prototype in their "
                            "DWARF), %u other BTF names not found in the C units",
                            &t.compared, &t.units, &t.agree, &t.non_c, &t.asm_funcs, &t.not_found) == 6;
  return t;
}

}  // namespace elfmeta::testing
