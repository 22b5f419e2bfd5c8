#include "sframe/sframe_rules.h"

namespace elfmeta::sframe::rules {
namespace {
constexpr uint32_t kLs = kLibsframe;
constexpr uint32_t kK = kSframeKernel;
constexpr uint32_t kBoth = kLibsframe | kSframeKernel;
constexpr uint32_t kLint = kNoConsumer;
}  // namespace

// ------------------------------------------------------------------ header
const Rule HDR_001{"SFRAME-HDR-001", Severity::Error, kBoth, "section too small for the SFrame header",
                   "A section needs the 28-byte header plus auxhdr_len bytes of auxiliary header; readers refuse "
                   "anything shorter (gas 2.45 once emitted an empty .sframe in a crt object).",
                   "binutils 2.40", "header doesn't fit in section",
                   "A raw section cut to 40 bytes whose header says its auxiliary header is 200 bytes."};
const Rule HDR_002{"SFRAME-HDR-002", Severity::Error, kBoth, "no SFrame magic",
                   "The section must start with 0xdee2 in either byte order; the order of the magic is the order "
                   "of every other field.",
                   "binutils 2.40", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file, its first "
                   "magic byte changed to 0x12."};
const Rule HDR_003{"SFRAME-HDR-003", Severity::Error, kLint, "byte order disagrees with the ELF file or the ABI",
                   "The magic's byte order must be the ELF file's (EI_DATA) and the one the ABI implies (AMD64 "
                   "little-endian, AArch64 id 1 big and 2 little, s390x big). No consumer cross-checks it.",
                   "", "",
                   "A raw section for ABI aarch64 big-endian written in little-endian byte order."};
const Rule HDR_004{"SFRAME-HDR-004", Severity::Error, kBoth, "SFrame version unknown or not read by the consumer",
                   "Versions 1 (binutils 2.40), 2 (2.41) and 3 (2.46) exist; a version the table does not know gets "
                   "this one finding and nothing else is read. --consumer libsframe is libsframe 2.40, which reads "
                   "version 1 only (libsframe 3, from binutils 2.46, reads versions 2 and 3 and refuses 1); the "
                   "kernel's reader version 3 only.",
                   "binutils 2.40", "bad/unsupported sframe header",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file with version "
                   "9."};
const Rule HDR_005{"SFRAME-HDR-005", Severity::Error, kBoth, "undefined header flag",
                   "Defined flags: v1 FDE_SORTED and FRAME_POINTER; v2 adds FDE_FUNC_START_PCREL (2.45); v3 has "
                   "FDE_SORTED and FDE_FUNC_START_PCREL only. libsframe 2.40 refuses other bits (reporting it as "
                   "out of memory).",
                   "binutils 2.40", "",
                   "A version 1 section in a linked file with flags 0x5 (bit 2 undefined)."};
const Rule HDR_006{"SFRAME-HDR-006", Severity::Error, kLs, "unknown ABI or one that does not match the ELF machine",
                   "abi_arch is 1/2 (AArch64 BE/LE), 3 (AMD64) or 4 (s390x, binutils 2.45) and must match e_machine; "
                   "ld refuses to merge sections of different ABIs. With an unknown ABI the rules that depend on "
                   "its facts (registers, fixed offsets, word encodings, relocation types, PLTs) are skipped.",
                   "binutils 2.40", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions, raw, with ABI 7."};
const Rule HDR_007{"SFRAME-HDR-007", Severity::Error, kLint, "fixed RA offset wrong for the ABI",
                   "AMD64 keeps the return address at CFA-8 (fixed RA offset -8); AArch64 and s390x track it per "
                   "FRE (0). Readers pick the FP word by this field, so a wrong value shifts every FP offset.",
                   "binutils 2.40", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file with "
                   "cfa_fixed_ra_offset 0 (AMD64's is -8)."};
const Rule HDR_008{"SFRAME-HDR-008", Severity::Warning, kLint, "fixed FP offset set",
                   "Legal, but no producer writes it; a reader given a fixed FP offset must not find FP words.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file with "
                   "cfa_fixed_fp_offset -16."};
const Rule HDR_009{"SFRAME-HDR-009", Severity::Error, kK, "auxiliary header present",
                   "No ABI defines an auxiliary header; the kernel refuses one and libsframe 2.40 misreads FREs "
                   "after it.",
                   "", "bad/unsupported sframe header",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions, raw, with an auxiliary header "
                   "of 4 bytes."};
const Rule HDR_010{"SFRAME-HDR-010", Severity::Error, kBoth, "FDE array outside the section or past the FREs",
                   "fdeoff must not exceed freoff, and the FDE array (num_fdes records from header end + fdeoff) "
                   "must end inside the section, at or before the FRE sub-section. A gap between the FDE array and the "
                   "FREs is legal but never produced, and libsframe 2.40 ignores freoff: it reads the FREs right "
                   "after the FDEs (an error for --consumer libsframe, a warning otherwise).",
                   "binutils 2.40", "inconsistent fde/fre offsets",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions, raw, with fdeoff 20: the FDE "
                   "array read one record late."};
const Rule HDR_011{"SFRAME-HDR-011", Severity::Error, kBoth, "FRE sub-section runs past the section",
                   "header end + freoff + fre_len must be within the section; the kernel checks it, libsframe 2.40 "
                   "does not and copies past its buffer.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions, raw, with fre_len 4000."};
const Rule HDR_012{"SFRAME-HDR-012", Severity::Warning, kLs, "non-zero bytes after the FRE sub-section",
                   "Producers leave no tail; libsframe tolerates zero padding only (and 2.40 no padding at all on "
                   "a foreign-endian section).",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file followed by "
                   "the bytes 0, 0, 7."};
const Rule HDR_013{"SFRAME-HDR-013", Severity::Error, kLint, "num_fres is not the sum of the FDEs' FRE counts",
                   "The header's FRE count must equal the sum over the FDEs; tools that trust it print wrong rows. "
                   "libsframe 2.40 refuses a section of the other byte order whose count disagrees (its "
                   "byte-swapping path walks the FREs by the header's counts), so under --consumer libsframe "
                   "this is an error there.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file with num_fres "
                   "99."};
const Rule HDR_014{"SFRAME-HDR-014", Severity::Error, kLint, "fre_len does not match the FRE blocks, or blocks overlap",
                   "fre_len is the byte length of all FRE blocks (plus the 5-byte attribute records in v3); the "
                   "blocks of different functions must not share bytes. libsframe 2.40 refuses a section of the "
                   "other byte order whose fre_len disagrees with its FREs, so under --consumer libsframe this is "
                   "an error there.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE's FREs start at offset 0, over the first FDE's."};
const Rule HDR_015{"SFRAME-HDR-015", Severity::Warning, kK, "no FDEs or no FREs",
                   "Valid for libsframe and ld, but the kernel refuses a section without entries.",
                   "", "no fde/fre entries",
                   "A linked file whose .sframe has a header and no FDEs."};
const Rule HDR_016{"SFRAME-HDR-016", Severity::Error, kLs, "section extents overflow 32-bit arithmetic",
                   "num_fdes times the FDE size, or freoff plus fre_len, does not fit in 32 bits; readers that "
                   "compute them in 32 bits (libsframe 2.40) read far outside the section and crash.",
                   "", "",
                   "A generated version 2 AMD64 .sframe, raw, whose num_fdes has its top byte set (0x10000003): "
                   "num_fdes × 20 overflows 32 bits."};
const Rule HDR_017{"SFRAME-HDR-017", Severity::Warning, kK, "linked SFrame without FDE_SORTED",
                   "Lookups binary-search the FDEs; libsframe returns FDE_NOTSORTED and the kernel (before the "
                   "2026 unsorted-FDE patch) refuses the section.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file with flags 0 "
                   "(no FDE_SORTED)."};
const Rule HDR_018{"SFRAME-HDR-018", Severity::Warning, kLint, "relocatable SFrame claims FDE_SORTED",
                   "In an object the start fields are relocation placeholders, so sorted means nothing; gas never "
                   "sets it, ld 2.40 -r does.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in an object (ET_REL) with "
                   "FDE_SORTED set."};
const Rule HDR_019{"SFRAME-HDR-019", Severity::Error, kK, "version 3 without FDE_FUNC_START_PCREL",
                   "FDE_FUNC_START_PCREL decides in version 3 as in version 2 whether a start field counts from "
                   "the field itself or from the section, and elfmeta reads it so; but every version 3 producer "
                   "sets it (libsframe's encoder refuses to work without it), libsframe's lookup assumes it and "
                   "the kernel's reader refuses a section without it.",
                   "binutils 2.46", "",
                   "A raw version 3 section with flags FDE_SORTED only, no FDE_FUNC_START_PCREL."};

const Rule HDR_020{"SFRAME-HDR-020", Severity::Note, kLint, "FRAME_POINTER flag set",
                   "Version 1 and 2 define it as \"every function keeps a frame pointer\" (a tracer may then walk "
                   "frame pointers where SFrame has no FDE); gas never sets it, version 3 dropped it.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file with flags "
                   "FDE_SORTED | FRAME_POINTER."};

// --------------------------------------------------------------------- FDE
const Rule FDE_001{"SFRAME-FDE-001", Severity::Error, kK, "v3 attribute record outside the FRE sub-section",
                   "A version 3 function's 5-byte attribute record (FRE count, info bytes, block size) sits at "
                   "its offset in the FRE sub-section and must lie inside it.",
                   "binutils 2.46", "",
                   "A version 3 section of three functions in a linked file whose third FDE's FRE offset is 500, "
                   "past the FREs."};
const Rule FDE_002{"SFRAME-FDE-002", Severity::Error, kBoth, "invalid FRE type",
                   "FRE start offsets are 1, 2 or 4 bytes (types 0, 1, 2); libsframe 2.40 asserts on others.",
                   "binutils 2.40", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE has FRE type 5."};
const Rule FDE_003{"SFRAME-FDE-003", Severity::Error, kK, "invalid v3 FDE kind",
                   "Version 3 info2 bits 0-4 are DEFAULT (0) or FLEX (1); bits 5-7 are zero.", "binutils 2.46", "",
                   "A version 3 section of three functions in a linked file whose first FDE has kind 3 in info2."};
const Rule FDE_004{"SFRAME-FDE-004", Severity::Warning, kLint, "unused FDE bits or padding set",
                   "Bits 6-7 of the v1/v2 info byte (bit 6 in v3) and the v2 padding are zero; the pauth-key bit "
                   "means something on AArch64 only.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose first "
                   "FDE has a padding byte of 1."};
const Rule FDE_005{"SFRAME-FDE-005", Severity::Error, kBoth, "PC-mask FDE with block size 0",
                   "PC-mask lookups take the PC modulo rep_size; libsframe and the kernel divide without checking "
                   "(SIGFPE, a divide error). A PC-increment FDE should leave rep_size 0 (warning).",
                   "binutils 2.41", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose first "
                   "FDE is PC-mask with rep_size 0."};
const Rule FDE_006{"SFRAME-FDE-006", Severity::Note, kLint, "version 1 PC-mask FDE without a block size",
                   "Version 1 has no rep_size: readers assume the 16-byte PLT entries of AMD64, and libsframe "
                   "2.40's lookups in such an FDE are wrong (see docs/sframe.md).",
                   "binutils 2.40", "",
                   "A version 1 section of one function in a linked file: a PC-mask FDE with one FRE and no block "
                   "size."};
const Rule FDE_007{"SFRAME-FDE-007", Severity::Error, kK, "function range outside the executable code",
                   "The resolved [start, start + size) must lie inside one executable section (a PF_X segment) "
                   "without wrapping; the kernel refuses starts outside its text range.",
                   "", "bad fde",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose third "
                   "FDE starts 0x10 bytes further on, past the end of the code."};
const Rule FDE_008{"SFRAME-FDE-008", Severity::Error, kBoth, "FDEs of a sorted section out of order",
                   "With FDE_SORTED the resolved starts must not decrease (libsframe binary-searches them); the "
                   "kernel requires them to increase strictly, so two FDEs with one start are refused there.",
                   "binutils 2.40", "fde not sorted",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file with "
                   "FDE_SORTED and the first two FDEs' starts swapped."};
const Rule FDE_009{"SFRAME-FDE-009", Severity::Error, kLint, "function ranges overlap",
                   "Two FDEs covering one PC make lookups depend on order. A size-0 FDE (gas writes one for an "
                   "empty .cfi_startproc/.cfi_endproc pair) is a warning.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "function starts at 16, inside the first (0..24)."};
const Rule FDE_010{"SFRAME-FDE-010", Severity::Error, kBoth, "FDE without FREs",
                   "In versions 1 and 2 an FDE without FREs leaves every PC of its function without a rule. "
                   "Version 3 defines a default FDE without FREs as an outermost frame, and gas 2.46+ writes "
                   "one with the signal bit for a signal frame whose CFI it cannot describe: a note there (a "
                   "warning for a FLEX FDE, for which no meaning is defined).",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE has no FREs."};
const Rule FDE_011{"SFRAME-FDE-011", Severity::Error, kBoth, "FRE block outside the FRE sub-section",
                   "fre_off plus the function's FREs must end within fre_len; libsframe 2.40 crashes on a huge "
                   "fre_off.",
                   "", "fre goes past end of subsection",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose third "
                   "FDE's FRE offset is 4000."};

const Rule FDE_012{"SFRAME-FDE-012", Severity::Note, kLint, "FRE blocks not in FDE order",
                   "Legal: ld sorts the FDEs but keeps the FRE blocks in input order (the PLT's come last in every "
                   "ld 2.40 link), so readers must not assume fre_off grows. A note here, not the catalogue's "
                   "warning: every linked file has it.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions, raw, whose FDEs point at the "
                   "FRE blocks in the order 28, 0, 14."};
const Rule FDE_013{"SFRAME-FDE-013", Severity::Note, kLint, "FRE start offsets wider than needed",
                   "gas and ld pick 1-byte start offsets for functions under 256 bytes and 2-byte ones under "
                   "64 KiB; a wider type is legal but wastes space (a narrower one cannot encode the offsets).",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE uses 4-byte FRE start offsets for a 24-byte function."};

const Rule FDE_014{"SFRAME-FDE-014", Severity::Warning, kLint, "FDE does not match a function symbol",
                   "An FDE should start at a function symbol (or a .cold part) and have its size, or cover a PLT; "
                   "otherwise a profiler names the frame after the wrong function.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE starts one byte into fn1 (one byte shorter), where no symbol starts."};

// --------------------------------------------------------------------- FRE
const Rule FRE_001{"SFRAME-FRE-001", Severity::Error, kBoth, "FRE runs past the FRE sub-section",
                   "Every FRE (start offset, info byte, data words) lies within the sub-section.", "",
                   "fre goes past end of subsection",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose third "
                   "FDE claims 6 FREs where 4 follow."};
const Rule FRE_002{"SFRAME-FRE-002", Severity::Error, kBoth, "FRE data-word size code 3",
                   "Data words are 1, 2 or 4 bytes (codes 0-2); libsframe 2.40's dump reads code 3 as 1 byte.",
                   "binutils 2.40", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE's second FRE has data-word size code 3."};
const Rule FRE_003{"SFRAME-FRE-003", Severity::Error, kBoth, "FRE word count does not fit the ABI",
                   "Default FDEs: CFA, then RA where the header's fixed RA offset is 0, then FP (AMD64 1-2 words; "
                   "AArch64 and s390x 1-3). Version 3 FLEX FDEs: the CFA's control and offset words, then RA and "
                   "FP each as a pair or a lone 0 word (no rule), nothing left over (2 to 6 words). The kernel "
                   "refuses leftover words.",
                   "binutils 2.40", "non-zero offset_count after reading fre",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE's second FRE has three words (16, -16, -24): AMD64 has no RA word."};
const Rule FRE_004{"SFRAME-FRE-004", Severity::Error, kK, "FRE start offsets not strictly increasing",
                   "libsframe's sframe_find_fre and the kernel's reader scan an FDE's FREs in order and take the "
                   "last one at or below the PC.", "",
                   "fre not sorted",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE's FREs start at 0, 1, 1, 20."};
const Rule FRE_005{"SFRAME-FRE-005", Severity::Error, kBoth, "FRE starts past the end of its function",
                   "A PC-increment FRE's start offset is at most the function size; equal covers nothing "
                   "(a warning, but an error for libsframe 2.40, which asserts on it: relaxed in PR 33131).",
                   "", "fre starts past end of function",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE's last FRE starts at 30, past the 24-byte function."};
const Rule FRE_006{"SFRAME-FRE-006", Severity::Warning, kLint, "first FRE does not start at 0",
                   "libsframe's sframe_find_fre finds no FRE for a PC below the first FRE's start. PCs before the "
                   "first FRE have no rule: lookups there fail.", "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE's first FRE starts at 1 (and the second at 2)."};
const Rule FRE_007{"SFRAME-FRE-007", Severity::Error, kLint, "PC-mask FRE starts beyond its block",
                   "In a PC-mask FDE start offsets are taken modulo the block size (rep_size; 16 for v1 AMD64 PLT "
                   "entries) and must be below it.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose first "
                   "FDE is PC-mask with block size 16 and an FRE starting at 17."};
const Rule FRE_008{"SFRAME-FRE-008", Severity::Error, kBoth, "FRE without data words before it was defined",
                   "An FRE without data words (RA undefined: the outermost frame) is defined by version 2's "
                   "erratum 2 and by version 3; gas writes it from 2.46 on (version 3), with an info byte of 0 "
                   "(other bits set: a warning). Version 1 readers refuse it.",
                   "binutils 2.46", "zero offset_count or size in fre info",
                   "A version 1 section of one function in a linked file whose fourth FRE has no data words."};
const Rule FRE_009{"SFRAME-FRE-009", Severity::Warning, kLint, "implausible CFA or save offsets",
                   "On AMD64 an SP-based CFA is at least SP+8 and saved FP/RA slots lie below the CFA. An "
                   "SP-based CFA of 0 or less is the mark of gas 2.40 encoding a CFA in another register as SP.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose first "
                   "FRE says CFA = SP + 0."};
const Rule FRE_010{"SFRAME-FRE-010", Severity::Warning, kLint, "mangled-RA bit outside AArch64",
                   "Bit 7 of the FRE info byte means a signed return address on AArch64 and nothing elsewhere.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose first "
                   "FDE's second FRE has the mangled-RA bit set."};

const Rule FRE_011{"SFRAME-FRE-011", Severity::Error, kK, "invalid FLEX control word",
                   "In a version 3 FLEX FDE the CFA's control word names a register (reg_p set) and bit 2 of "
                   "every control word is unused (0). Control words are unsigned (0x81 in one byte is register "
                   "16); a control word of 0 for RA or FP means no rule for it and stands alone.",
                   "binutils 2.46", "",
                   "A version 3 section in a linked file whose second FDE is FLEX with control word 7 << 3 (rsp, "
                   "but reg_p clear) and offset 8."};
const Rule FRE_012{"SFRAME-FRE-012", Severity::Note, kLint, "data words wider than needed",
                   "gas stores the words of an FRE in the smallest size holding all of them: from 2.46 (version 3) "
                   "the whole signed range (-128..127, then 16 bits), with FLEX control words read as unsigned; "
                   "before, -127..127 and -32767..32767. A re-encoder that wants gas's bytes must make the same "
                   "choice.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE's second FRE stores its 1-byte values in 2-byte words."};
const Rule FRE_013{"SFRAME-FRE-013", Severity::Note, kLint, "FRE repeats the previous one",
                   "Two consecutive FREs with the same state are legal but redundant. gas 2.40 merges them; gas "
                   "2.47.50 writes one wherever the DWARF rows change, also for registers SFrame does not "
                   "track (29,083 in the SQLite corpus of docs/sframe.md).",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose second "
                   "FDE's third FRE (at 4) repeats the second's rule."};
const Rule FRE_014{"SFRAME-FRE-014", Severity::Error, kLint, "s390x data word out of range or misused",
                   "s390x stores the CFA offset as (offset - 160) / 8, in default and FLEX FREs, which must decode "
                   "within 32 bits (libsframe 3 overflows a signed int decoding it); RA/FP words with the low "
                   "bit set name registers (register << 1 | 1, not negative), which only version 2 allows "
                   "(version 3 uses FLEX).",
                   "binutils 2.45", "",
                   "A raw big-endian version 3 s390x section whose second FDE's second FRE has words (2, -7, -16): "
                   "RA in a register, which v3 leaves to FLEX FDEs."};

// --------------------------------------------------------------------- ELF
const Rule ELF_001{"SFRAME-ELF-001", Severity::Error, kLint, ".sframe with the wrong type, flags or alignment",
                   "SHT_PROGBITS (SHT_GNU_SFRAME from 2.45), SHF_ALLOC only, aligned to at least 4 (gas uses 8); "
                   "and at most one .sframe.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose .sframe "
                   "header has SHF_WRITE."};
const Rule ELF_002{"SFRAME-ELF-002", Severity::Error, kK, "PT_GNU_SFRAME missing or not the .sframe section",
                   "A linked file with a non-empty .sframe needs PT_GNU_SFRAME at the section's address and "
                   "offset. A segment larger than the section is a warning: ld (2.40 to 2.47.50) sizes it as the "
                   "sum of its inputs.",
                   "binutils 2.40", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose "
                   "PT_GNU_SFRAME p_vaddr is 8 past the section."};
const Rule ELF_003{"SFRAME-ELF-003", Severity::Error, kLint, "FDE start relocation missing or malformed",
                   "In an object every FDE's start field gets one PC-relative relocation against code, as wide "
                   "as the field, with the field's bytes zero: R_X86_64_PC32, R_AARCH64_PREL32, R_390_PC32 in "
                   "versions 1-2; R_X86_64_PC64, R_AARCH64_PREL64, R_390_PC64 in version 3. ld takes the i-th "
                   "relocation for the i-th FDE, skipping R_*_NONE without a symbol (r_info 0), which ld -r "
                   "leaves where it dropped a function (PR ld/33401).",
                   "binutils 2.40", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in an object whose second FDE's "
                   "start field, which its relocation fills, holds 4 instead of 0."};

const Rule ELF_004{"SFRAME-ELF-004", Severity::Error, kLint, "ld -r output with stale FDE start relocations",
                   "ld -r re-encodes the merged section but keeps each input's .rela.sframe offsets, so relocations "
                   "land inside FDEs and FREs; only ld itself, which reads the unrelocated bytes, links it right.",
                   "binutils 2.40", "",
                   "ld -r of two objects built by gcc -O2 -Wa,--gsframe (frames.c, main.c): ld 2.40 re-encodes the "
                   "merged section and keeps the second object's relocation offsets."};
const Rule ELF_005{"SFRAME-ELF-005", Severity::Error, kLint, "dynamic relocation into .sframe",
                   "SFrame encodes positions relative to itself; a dynamic relocation would rewrite FDEs or FREs "
                   "at load time.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file with a dynamic "
                   "relocation at offset 28 of .sframe."};
const Rule ELF_006{"SFRAME-ELF-006", Severity::Error, kK, "FDE range outside the executable segments",
                   "The kernel registers the text of an executable as its PF_X PT_LOAD segments and refuses FDEs "
                   "outside them.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file whose code "
                   "segment (PT_LOAD) lost PF_X."};
const Rule ELF_007{"SFRAME-ELF-007", Severity::Warning, kLint, "function with DWARF CFI but no SFrame FDE",
                   "Every function the DWARF CFI describes should have an FDE; gas leaves out the ones whose CFI it "
                   "cannot represent (2.40 silently: a CFA expression, RA in a register, .cfi_remember_state "
                   "first; 2.46+ with a warning, after FLEX FDEs took over most of them), ld 2.40 wrote "
                   "none for .plt.got, and ld 2.47+ leaves out an input .sframe of the wrong type or version "
                   "with an error message but still links. Also reported: DWARF CFI (.eh_frame or "
                   ".debug_frame) that ends inside an FDE. An FDE none of whose rows has CFI (stripped with "
                   "the .debug_frame, or ld's PLT FDEs) is counted in the comparison's note, not reported.",
                   "", "",
                   "gas_defects.s assembled by gas 2.40 --gsframe and linked with gcc -shared: functions whose RA "
                   "is in a register or whose CFI uses .cfi_remember_state, args_size or .cfi_val_offset get no "
                   "FDE."};

const Rule ELF_008{"SFRAME-ELF-008", Severity::Warning, kLint, ".sframe lost in the link",
                   "The objects of a link have .sframe and its output has none: ld before the PR ld/32769 fix "
                   "(binutils 2.40 on bookworm) drops the whole section under --gc-sections. Checked when the "
                   "objects and the output are given together.",
                   "binutils 2.40", "",
                   "gcc -O2 -ffunction-sections -Wa,--gsframe objects linked with --gc-sections by ld 2.40, "
                   "checked with the objects: the output has no .sframe."};
const Rule ELF_009{"SFRAME-ELF-009", Severity::Note, kLint, "PLT FDE of an unexpected shape",
                   "ld writes FDEs for its PLTs in the shapes the ABI table lists: AMD64 .plt a 16-byte PC-increment "
                   "FDE for plt0 (sp+16, then sp+24 at 6) and a PC-mask FDE for the entries (sp+8, then sp+16 at 11; "
                   "at 9 in the IBT layout; sp+8 alone when non-lazy), .plt.sec entries sp+8, .plt.got entries "
                   "sp+16 (ld 2.44 to 2.47.50 at least), which is a known ld defect (a warning: the entries are jumps, CFA sp+8, as ld's "
                   ".eh_frame says); s390x PLT0 and entries CFA r15+160. Another shape is a note.",
                   "binutils 2.40", "",
                   "A generated version 2 AMD64 .sframe of two functions whose code section is .plt: plt0 with a "
                   "function's rows, not ld's."};
const Rule ELF_010{"SFRAME-ELF-010", Severity::Warning, kLint, "several SFrame sections concatenated",
                   "A linker that does not know SFrame (mold before 2.40, lld) concatenates the inputs: readers see "
                   "the first header only.",
                   "", "",
                   "A generated version 2 AMD64 .sframe of three 24-byte functions in a linked file followed, at "
                   "the next 8-byte boundary, by a second whole SFrame section."};

// --------------------------------------------------------------------- CFI
const Rule CFI_001{"SFRAME-CFI-001", Severity::Error, kLint, "CFA differs from the DWARF CFI",
                   "At every PC of an FDE the CFA base register and offset must be those of the .eh_frame row there "
                   "(the offset decoded: s390x stores (offset - 160) / 8; a FLEX FDE may name any register or load "
                   "the CFA from memory, compared with the CFI's DW_OP_bregN k; DW_OP_deref). gas 2.40 writes a CFA "
                   "in another register (r10) as SP.",
                   "", "",
                   "A generated linked section with .eh_frame whose second FDE's third FRE says CFA = FP + 24 "
                   "where the CFI says FP + 16."};
const Rule CFI_002{"SFRAME-CFI-002", Severity::Error, kLint, "frame pointer rule differs from the DWARF CFI",
                   "SFrame's FP offset must be where the CFI saves the frame pointer (CFA+k), and no FP word where "
                   "the CFI keeps it (same value or undefined).",
                   "", "",
                   "A generated linked version 3 section with .eh_frame whose FLEX FRE saves FP at CFA-24 where "
                   "the CFI says CFA-16."};
const Rule CFI_003{"SFRAME-CFI-003", Severity::Error, kLint, "return address rule differs from the DWARF CFI",
                   "AMD64's fixed RA offset -8 must be the CFI's RA rule; AArch64's and s390x's RA word must match "
                   "the saved x30/r14, no RA word (or s390x's 0 padding) where the return address stays in its "
                   "register, and a FLEX RA rule naming a register (or s390x version 2's odd register word) the "
                   "CFI's DW_CFA_register. gas 2.40 ignores .cfi_offset of the RA column.",
                   "", "",
                   "gas_defects.s linked: a function whose .cfi_offset moves the return address, which gas 2.40 "
                   "leaves at CFA-8."};
const Rule CFI_004{"SFRAME-CFI-004", Severity::Error, kLint, "outermost frame not marked",
                   "Where the CFI says the return address is undefined (_start, thread entry) SFrame needs an "
                   "FRE without data words (2.45+, version 3) or no FDE; gas 2.40 ignores .cfi_undefined rip and "
                   "writes RA at CFA-8.",
                   "", "",
                   "gas_defects.s linked: a function with .cfi_undefined rip (outermost frame), which gas 2.40 "
                   "does not mark."};

const Rule CFI_005{"SFRAME-CFI-005", Severity::Error, kLint, "FDE for CFI that SFrame cannot represent",
                   "Where the CFI computes the CFA with an expression that reads memory (stack realignment through "
                   "DRAP) a default FDE cannot say the same: the producer must leave the function out.",
                   "", "",
                   "gcc -O0 -Wa,--gsframe of frames.c with the last FDE's start and size set to drap(), whose CFA "
                   "is in the DRAP register."};
const Rule CFI_006{"SFRAME-CFI-006", Severity::Error, kLint, "PC-mask rows differ from the PLT's CFA expression",
                   "Where .eh_frame describes the PLT (ld writes it as an expression, rsp + 8 + ((rip & 15) >= 11) * 8 "
                   "for lazy pltN, or as the CIE's rsp+8 for .plt.got), the PC-mask FDE's rows must give that CFA at "
                   "every PC of every entry. ld (2.44 to 2.47.50 at least) gives .plt.got sp+16 (a known defect, "
                   "named in the message).",
                   "binutils 2.40", "",
                   "binutils 2.44's linked exe (tests/sframe/data/binutils-2.44): ld's .plt.got FDE says sp+16 "
                   "where the CFI expression says otherwise."};

const Rule CFI_007{"SFRAME-CFI-007", Severity::Warning, kLint, "signal-frame bit differs from the CIE",
                   "Version 3 marks signal trampolines in the FDE (info bit 7); the CFI marks them with the 'S' "
                   "augmentation. An unwinder treats the caller's PC differently in a signal frame.",
                   "binutils 2.46", "",
                   "A generated version 3 section of two functions with .eh_frame whose first FDE has the signal "
                   "bit while its CIE has no 'S'."};

const Rule CFI_008{"SFRAME-CFI-008", Severity::Note, kLint, "why a function has no FDE",
                   "For each function with CFI but no FDE (SFRAME-ELF-007), what its CFI does that SFrame cannot "
                   "say: a CFA expression (DRAP), a CFA in another register, the return address elsewhere, an "
                   "outermost frame in version 1; or nothing, when the code was not assembled with --gsframe.",
                   "", "",
                   "gas_defects.s linked: each function gas left out is named with the CFI that kept it out "
                   "(remember_state, args_size, val_offset, .plt.got)."};

namespace {
constexpr const Rule* kTable[] = {
    &HDR_001, &HDR_002, &HDR_003, &HDR_004, &HDR_005, &HDR_006, &HDR_007, &HDR_008, &HDR_009, &HDR_010, &HDR_011,
    &HDR_012, &HDR_013, &HDR_014, &HDR_015, &HDR_016, &HDR_017, &HDR_018, &HDR_019, &HDR_020, &FDE_001, &FDE_002, &FDE_003, &FDE_004,
    &FDE_005, &FDE_007, &FDE_008, &FDE_009, &FDE_010, &FDE_011, &FDE_013, &FDE_006, &FDE_012, &FDE_014, &FRE_001, &FRE_002, &FRE_003, &FRE_004, &FRE_005,
    &FRE_006, &FRE_007, &FRE_008, &FRE_009, &FRE_010, &FRE_011, &FRE_012, &FRE_013, &FRE_014, &ELF_001, &ELF_002, &ELF_003, &ELF_004, &ELF_005, &ELF_006, &ELF_007, &ELF_008, &ELF_009, &ELF_010, &CFI_001, &CFI_002,
    &CFI_003, &CFI_004, &CFI_005, &CFI_006, &CFI_007, &CFI_008,
};
}  // namespace

std::span<const Rule* const> table() { return kTable; }

}  // namespace elfmeta::sframe::rules
