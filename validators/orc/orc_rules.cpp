#include "orc/orc_rules.h"

namespace elfmeta::orc::rules {
namespace {
constexpr uint32_t kUnw = kUnwinder;
constexpr uint32_t kLint = kNoConsumer;
}  // namespace

// ---------------------------------------------------------------- sections
const Rule SEC_001{"ORC-SEC-001", Severity::Error, kUnw, ".orc_unwind without .orc_unwind_ip, or the reverse",
                   "The module loader registers ORC only when it finds both tables, and sorttable refuses a "
                   "vmlinux with one of them.",
                   "Linux 4.14", "",
                   "A valid ORC object, module or image whose .orc_unwind is renamed .orc_unwinx: .orc_unwind_ip "
                   "alone."};
const Rule SEC_002{"ORC-SEC-002", Severity::Error, kUnw, "ORC table sizes do not match",
                   ".orc_unwind_ip holds 4-byte slots and .orc_unwind 6-byte entries, one of each per "
                   "address; a vmlinux needs at least one. The kernel disables the unwinder for a bad "
                   "vmlinux table and warns for a module.",
                   "Linux 4.14", "Bad or missing .orc_unwind table",
                   "A valid table whose .orc_unwind header size is 2 bytes larger: no longer 6 bytes per "
                   ".orc_unwind_ip slot."};
const Rule SEC_003{"ORC-SEC-003", Severity::Warning, kLint, "ORC section with unexpected type or flags",
                   "objtool writes both tables as SHT_PROGBITS, SHF_ALLOC only, with entry sizes 4 and 6 (or "
                   "0 after linking).",
                   "", "",
                   "objtool's object or a module whose .orc_unwind is flagged SHF_ALLOC|SHF_WRITE."};
const Rule SEC_004{"ORC-SEC-004", Severity::Error, kUnw, ".orc_unwind_ip relocations missing or malformed",
                   "In a relocatable object every 4-byte slot of .orc_unwind_ip needs exactly one relocation "
                   "(a slot without one decodes to its own address); .orc_unwind is never relocated.",
                   "Linux 4.14", "",
                   "objtool's object or a module whose first .rela.orc_unwind_ip entry's r_offset is moved 2 bytes "
                   "off its slot."};
const Rule SEC_005{"ORC-SEC-005", Severity::Error, kUnw, ".orc_unwind_ip relocation is not R_X86_64_PC32",
                   "orc_ip in arch/x86/kernel/unwind_orc.c reads each .orc_unwind_ip slot as a self-relative s32: "
                   "the slot's own address plus its value. A relocation of another type stores another value.",
                   "Linux 4.14", "",
                   "objtool's object or a module whose first .orc_unwind_ip relocation is R_X86_64_PLT32 instead "
                   "of PC32."};
const Rule SEC_006{"ORC-SEC-006", Severity::Error, kUnw, ".orc_unwind_ip relocation does not point into code",
                   "Symbol plus addend must land in an executable section, at most at its end (a "
                   "terminator).",
                   "Linux 4.14", "",
                   "objtool's object or a module whose first .orc_unwind_ip relocation's addend is 16 MiB larger, "
                   "past its code section."};
const Rule SEC_007{"ORC-SEC-007", Severity::Warning, kLint, "relocated .orc_unwind_ip slot is not zero",
                   "RELA relocations carry the addend; a non-zero slot suggests a REL-style producer or a "
                   "relocation applied twice.",
                   "", "",
                   "objtool's object or a module whose first relocated .orc_unwind_ip slot holds 0x11 instead of "
                   "0."};
const Rule SEC_008{"ORC-SEC-008", Severity::Error, kUnw, ".orc_header malformed or of an unknown layout",
                   ".orc_header (Linux 6.3.10+, 6.4+) is the 20-byte SHA-1 fingerprint of the ORC definitions "
                   "in orc_types.h: db84aed4... for 6.3 (G2), fe5d32bf... for 6.4-7.0 (G3), 137c36ad... for "
                   "7.1+ (G4, registers renumbered). Debuggers such as drgn refuse tables they cannot "
                   "identify; the kernel does not read it. An unknown fingerprint means a layout elfmeta does "
                   "not know: the entries are checked only if exactly one known layout fits them (or all that "
                   "fit decode them alike), else not at all (a note says so).",
                   "Linux 6.4", "",
                   "A module or image of 6.3.10+ whose .orc_header fingerprint has its first byte inverted."};
const Rule SEC_009{"ORC-SEC-009", Severity::Error, kUnw, "ORC boundary symbols disagree with the sections",
                   "The kernel uses __start/__stop_orc_unwind(_ip) and sorttable the section headers; padding "
                   "inside an output section makes them disagree and sorttable sorts garbage.",
                   "Linux 5.6", "",
                   "A vmlinux whose __stop_orc_unwind_ip symbol is 8 bytes past the end of .orc_unwind_ip."};
const Rule SEC_010{"ORC-SEC-010", Severity::Error, kUnw, ".orc_lookup has the wrong size",
                   "The linker script reserves one 32-bit word per 256 bytes of text between _stext and "
                   "_etext, plus one; unwind_init() fills it at boot.",
                   "Linux 4.14", "",
                   "A vmlinux whose .orc_lookup is 4 bytes shorter than the text it covers needs."};
const Rule SEC_011{"ORC-SEC-011", Severity::Warning, kLint, "ORC table address not aligned",
                   "The linker script aligns .orc_unwind_ip to 4 and .orc_unwind to 2.", "", "",
                   "A vmlinux whose .orc_unwind (and its boundary symbols) start one byte later, at an odd "
                   "address."};
const Rule SEC_012{"ORC-SEC-012", Severity::Warning, kLint, "ORC layout cannot be determined",
                   "A table without .orc_header whose kernel release is unknown (no banner, no vermagic, no "
                   "--kernel) is read in the layout its entries fit. When no known layout fits them, or two fit "
                   "equally and decode them differently (G1 and G2 tables can), nothing that decodes an entry "
                   "is checked and a note says so; pass --kernel X.Y.",
                   "", "",
                   "A table without .orc_header, release string or vermagic, with a reserved bit set in every "
                   "entry that is not a terminator: no layout fits."};

// ---------------------------------------------------------------- entries
const Rule ENT_001{"ORC-ENT-001", Severity::Error, kUnw, "reserved bits of an ORC entry are set",
                   "Bits 11-15 (G1, Linux 4.14-6.2) or 12-15 (6.3+) of the flags word are unused; set bits "
                   "usually mean the table is decoded with the wrong layout.",
                   "Linux 4.14", "",
                   "A valid table with the lowest reserved bit of its layout set in one inner-frame entry."};
const Rule ENT_002{"ORC-ENT-002", Severity::Error, kUnw, "ORC entry with a register the unwinder cannot use",
                   "The CFA base (sp_reg) must be one the unwinder computes from (sp, bp, sp/bp indirect, "
                   "r10, r13, di, dx; ax from 7.1), except for entries without information; bp_reg must be "
                   "undefined, prevsp or bp. The codes are the layout's: prevsp is 1 before 7.1 and 8 from "
                   "7.1, where 8 was bp(ind).",
                   "Linux 4.14", "unknown SP base reg / unknown BP base reg",
                   "A valid table with one inner-frame entry's bp_reg set to DX, a register the unwinder cannot "
                   "read."};
const Rule ENT_003{"ORC-ENT-003", Severity::Error, kUnw, "ORC entry of an undefined type",
                   "Before 6.4 types 0-2 are defined (call, regs, regs_partial), from 6.4 types 0-4 "
                   "(undefined, end_of_stack, call, regs, regs_partial); the unwinder stops with an error on "
                   "others (4.14-5.6 only warned).",
                   "Linux 4.14", "",
                   "A valid table with one inner-frame entry's type set to the layout's first undefined code (3 "
                   "before 6.4, 5 after)."};
const Rule ENT_004{"ORC-ENT-004", Severity::Warning, kLint, "undefined or end-of-stack entry with a payload",
                   "objtool clears these entries; registers or offsets in them are never read and suggest a "
                   "producer bug.",
                   "", "",
                   "A 6.4+ table with one entry of type undefined given sp_offset 8."};
const Rule ENT_005{"ORC-ENT-005", Severity::Warning, kLint, "pre-6.4 entry without information that is not clean",
                   "Before 6.4 (G1, G2) sp_reg undefined marks a terminator (end 0) or the end of the stack "
                   "(end 1); objtool writes nothing else in such entries, and end only in them.",
                   "", "",
                   "A pre-6.4 table with one entry of type undefined (sp_reg undefined) given bp_offset -8."};
const Rule ENT_006{"ORC-ENT-006", Severity::Warning, kLint, "call frame with an implausible SP offset",
                   "A call frame based on SP has the return address at least 8 bytes up, in whole words. Only "
                   "hand-written assembly deviates.",
                   "", "",
                   "A valid table with one inner call frame's sp_offset set to 20, not a multiple of 8."};
const Rule ENT_007{"ORC-ENT-007", Severity::Warning, kLint, "saved RBP outside the frame",
                   "With bp_reg prevsp the caller's RBP is saved below the CFA (negative, whole words) and "
                   "inside the frame; with bp_reg undefined bp_offset is 0.",
                   "", "",
                   "A valid table with one inner call frame's bp_offset set to 8, above the CFA."};
const Rule ENT_009{"ORC-ENT-009", Severity::Warning, kLint, "signal bit on an entry that is not a register frame",
                   "unwind_next_frame looks the caller up at its IP itself when the frame's signal bit is set and "
                   "at IP-1 (inside the call) otherwise, so a wrong bit sends the lookup to the wrong instruction. "
                   "The signal bit (6.3+) marks interrupt/exception frames (regs, regs_partial).", "", "",
                   "A table of a layout with a signal bit, with that bit set on an inner call frame."};
const Rule ENT_010{"ORC-ENT-010", Severity::Warning, kLint, "register frame with an unusual base",
                   "regs and regs_partial frames are found from SP (DX in the NMI entry) and leave RBP to the "
                   "saved registers.",
                   "", "",
                   "A valid table whose inner call frame (CFA sp+16, RBP saved at CFA-16) is made a regs frame, "
                   "with the signal bit where the layout has one: a regs frame with an RBP rule."};

// ---------------------------------------------------------------- order
const Rule SORT_001{"ORC-SORT-001", Severity::Error, kUnw, "ORC table of a linked image not sorted by address",
                    "Since Linux 5.6 sorttable sorts vmlinux tables at build time and the kernel no longer "
                    "sorts them at boot; its binary search then misses entries.",
                    "Linux 5.6", "",
                    "A vmlinux with two neighbouring entries swapped together with their addresses: the later "
                    "address comes first."};
const Rule SORT_002{"ORC-SORT-002", Severity::Error, kUnw, "terminator after a real entry at the same address",
                    "The lookup returns the last entry of an address, so a weak entry placed after a real "
                    "one hides it and unwinding there stops with an error.",
                    "Linux 4.14", "",
                    "A vmlinux with a terminator moved after the real entry at its address."};
const Rule SORT_003{"ORC-SORT-003", Severity::Warning, kLint, "two real entries at one address",
                    "__orc_find in arch/x86/kernel/unwind_orc.c binary-searches the sorted addresses for the last "
                    "one at or below the IP; with two real entries at one address either may be found. Their "
                    "order, and so the answer of a lookup, is arbitrary.", "", "",
                    "A vmlinux with an inner-frame entry moved back onto the address of the entry before it."};

// ---------------------------------------------------------------- coverage
const Rule COV_001{"ORC-COV-001", Severity::Error, kUnw, "ORC entry outside the code",
                   "Every entry's address must lie in an executable section, or exactly at its end. Often "
                   "a slot moved without re-biasing its self-relative value.",
                   "Linux 4.14", "",
                   "A vmlinux whose last entry's address is moved 1 GiB past the text."};
const Rule COV_002{"ORC-COV-002", Severity::Warning, kLint, "code section without its end terminator",
                   "objtool ends the entries of every code section with a terminator at the section's end, "
                   "so that the code after it in the linked image is not unwound with the last state.",
                   "", "",
                   "objtool's object or a module whose end-of-section terminator is moved one byte before the "
                   "section's end."};
const Rule COV_004{"ORC-COV-004", Severity::Warning, kLint, "consecutive identical entries in one objtool output",
                   "objtool merges runs of identical state; repeats in one object suggest a producer bug.", "",
                   "",
                   "objtool's object with an entry replaced by a copy of the entry before it in the same section."};
const Rule COV_005{"ORC-COV-005", Severity::Error, kUnw, "first ORC entry after the start of the text",
                   "The lookup starts from the first entry, so an address before it silently gets that "
                   "entry instead of none.",
                   "Linux 4.14", "",
                   "A vmlinux whose first entry is made a terminator at the second entry's address."};
const Rule COV_007{"ORC-COV-007", Severity::Warning, kLint, "undefined entry on code inside a function",
                   "objtool marks undefined only what no path reaches: alignment NOPs, the int3 after a return "
                   "(straight-line speculation) and the ud2 or int3 after a call that does not return. An "
                   "undefined entry between two call frames of one function, on bytes that are not such fill, "
                   "stops the unwinder at an instruction that runs: a reliable stack trace (livepatch) fails "
                   "there and a sampled one is cut short. Entry assembly, whose frames are register frames, may "
                   "declare its state undefined on purpose and is not judged. Checked where the function's "
                   "extent is known (a symtab's size, or the next kallsyms symbol) and the file holds the code.",
                   "", "",
                   "A valid table with an inner call frame of a function, between two others, changed to "
                   "undefined (its first byte a push, where a generated table has NOPs)."};

// ---------------------------------------------------------------- lookup table
const Rule LOOKUP_001{"ORC-LOOKUP-001", Severity::Error, kUnw, ".orc_lookup contents differ from the table",
                      "Word i is the index of the last entry at or below _stext + 256*i; a memory image with "
                      "other values makes lookups wrong.",
                      "Linux 4.14", "Corrupt .orc_unwind table",
                      "A vmlinux with .orc_lookup filled as a memory image holds it, its last word one higher."};
const Rule LOOKUP_002{"ORC-LOOKUP-002", Severity::Error, kUnw, ".orc_lookup not increasing or out of range",
                      "orc_find in arch/x86/kernel/unwind_orc.c takes the entries to search for an address from "
                      "two consecutive .orc_lookup words; when the first is at or past the table's end or the "
                      "second goes past it, the unwinder warns \"bad lookup value\" and finds no entry, so the "
                      "stack trace stops there. The words must not decrease and must stay below the entry count. "
                      "The kernel computes vmlinux's words at boot (unwind_init), so this concerns a memory image "
                      "or a crash dump whose table was overwritten.", "Linux 4.14", "bad lookup value",
                      "A vmlinux with .orc_lookup filled as a memory image holds it, word 1 raised by 2^30."};
const Rule LOOKUP_003{"ORC-LOOKUP-003", Severity::Error, kUnw, "entry the fast lookup cannot find",
                      "The search for an address is confined to the entries its 256-byte block's lookup "
                      "words name; an entry outside that window is invisible.",
                      "Linux 4.14", "",
                      "A vmlinux with .orc_lookup filled, word 0 raised by 2, past entries of the first 256-byte "
                      "block."};

// ---------------------------------------------------------------- symbols
const Rule SYM_001{"ORC-SYM-001", Severity::Warning, kLint, "function start not covered by its entry state",
                   "At the first instruction of a compiled function the frame is a fresh call: call, sp+8, "
                   "RBP unchanged. .cold fragments, assembly and section markers are exempt.",
                   "", "",
                   "A valid table with a function's first entry (call, sp+8) changed to call sp+16."};
const Rule SYM_003{"ORC-SYM-003", Severity::Warning, kLint, "__pfx_ padding not covered by its function's entry state",
                   "With call padding objtool copies a function's entry state onto its 16 prefix bytes.",
                   "", "",
                   "A 6.4+ table whose entry state at a __pfx_ prefix is moved 16 bytes on, to the function "
                   "itself."};

// ---------------------------------------------------------------- DWARF CFI
const Rule CFI_001{"ORC-CFI-001", Severity::Error, kUnw, "ORC and DWARF CFI disagree on the CFA",
                   "Where both describe an address, DWARF CFA rsp+N must be ORC sp+N and rbp+N bp+N.", "", "",
                   "objtool's ORC of a shared object built by gcc, one inner call frame's sp_offset 8 more than "
                   "its DWARF CFA says."};
const Rule CFI_002{"ORC-CFI-002", Severity::Warning, kLint, "ORC and DWARF CFI disagree on the saved RBP",
                   "DWARF offset(N) is ORC bp:prevsp N, and no rule is bp undefined. After an epilogue GCC "
                   "keeps the saved-RBP rule while objtool says unchanged: both recover the same value, so "
                   "that case is a note.",
                   "", "",
                   "objtool's ORC of a shared object built by gcc, one inner call frame given a saved RBP at CFA-8 "
                   "that its CFI does not save."};
const Rule CFI_006{"ORC-CFI-006", Severity::Warning, kLint, "register frame inside compiled code",
                   "Inside a compiler's FDE reachable code is a call frame; regs frames belong to annotated "
                   "entry assembly.",
                   "", "",
                   "objtool's ORC of a shared object built by gcc, one inner call frame inside an FDE changed to a "
                   "regs (signal) frame."};

namespace {
constexpr const Rule* kTable[] = {
    &SEC_001, &SEC_002, &SEC_003, &SEC_004, &SEC_005, &SEC_006, &SEC_007, &SEC_008, &SEC_009, &SEC_010, &SEC_011, &SEC_012,
    &ENT_001, &ENT_002, &ENT_003, &ENT_004, &ENT_005, &ENT_006, &ENT_007, &ENT_009, &ENT_010,
    &SORT_001, &SORT_002, &SORT_003,
    &COV_001, &COV_002, &COV_004, &COV_005, &COV_007,
    &LOOKUP_001, &LOOKUP_002, &LOOKUP_003,
    &SYM_001, &SYM_003,
    &CFI_001, &CFI_002, &CFI_006,
};
}  // namespace

std::span<const Rule* const> table() { return kTable; }

}  // namespace elfmeta::orc::rules
