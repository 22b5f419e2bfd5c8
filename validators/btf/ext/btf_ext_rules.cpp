#include "btf/ext/btf_ext_rules.h"

namespace elfmeta::btf::ext::rules {
namespace {
// btf_ext__new refuses the section: libbpf (bpf_object__open) drops .BTF.ext,
// so CO-RE relocations, func_info and line_info are lost; objects that need
// BTF (BTF-defined maps, externs) fail to open.
constexpr uint32_t kOpen = kLibbpf | kBpfObject;
// Refused when the object's programs are loaded: by libbpf while it
// relocates them or by BPF_PROG_LOAD, which checks the func_info, line_info
// and core_relo records libbpf passes on. elfmeta has no consumer bit for
// BPF_PROG_LOAD alone; the bpf-object profile stands for both.
constexpr uint32_t kProgLoad = kBpfObject;
constexpr uint32_t kProducer = kNoConsumer;
}  // namespace

const Rule EXT_001{"BTF-EXT-001", Severity::Error, kOpen, ".BTF.ext shorter than 8 bytes or than its hdr_len",
                   "libbpf reads magic, version, flags and hdr_len (8 bytes) and then the hdr_len-byte "
                   "header; a section that cannot hold them is refused and libbpf continues without "
                   ".BTF.ext.",
                   "every libbpf release", "BTF.ext header not found",
                   "clang's BPF object of progs.c whose .BTF.ext hdr_len is the section's size plus 4."};
const Rule EXT_002{"BTF-EXT-002", Severity::Error, kOpen, ".BTF.ext magic is not 0xEB9F in the object's byte order",
                   "The magic must be 0xEB9F in the byte order of the ELF object. A swapped magic is a "
                   ".BTF.ext written for the other byte order (libbpf before about 1.5 refuses any "
                   "non-native order).",
                   "every libbpf release", "Invalid BTF.ext magic",
                   "clang's BPF object of progs.c whose .BTF.ext magic bytes are swapped (0x9FEB)."};
const Rule EXT_003{"BTF-EXT-003", Severity::Error, kOpen, ".BTF.ext version is not 1 or flags is not 0",
                   "Only version 1 without flags exists.", "every libbpf release", "Unsupported BTF.ext version",
                   "clang's BPF object of progs.c whose .BTF.ext version byte is 2."};
const Rule EXT_004{"BTF-EXT-004", Severity::Error, kOpen, ".BTF.ext has nothing after its header",
                   "A .BTF.ext section that is only a header is refused by libbpf.", "every libbpf release",
                   "BTF.ext has no data",
                   "clang's BPF object of progs.c whose .BTF.ext hdr_len is the whole section: a header and "
                   "nothing after it."};
const Rule EXT_005{"BTF-EXT-005", Severity::Error, kOpen, ".BTF.ext hdr_len is less than 24",
                   "The header must hold the func_info and line_info offsets and lengths (24 bytes); "
                   "the core_relo pair is read only when hdr_len is at least 32 (clang 14 writes 32).",
                   "every libbpf release", "",
                   "clang's BPF object of progs.c whose .BTF.ext hdr_len is 20 (the func_info and line_info fields "
                   "need 24)."};
const Rule EXT_006{"BTF-EXT-006", Severity::Error, kOpen, "a .BTF.ext block offset is not 4-byte aligned",
                   "func_info_off, line_info_off and core_relo_off must be multiples of 4.", "every libbpf release",
                   ".BTF.ext %s section is not aligned to 4 bytes",
                   "clang's BPF object of progs.c whose .BTF.ext func_info_off is 2."};
const Rule EXT_007{"BTF-EXT-007", Severity::Error, kOpen, "a .BTF.ext block runs past the end of the section",
                   "Each block (offset from the end of the header, length) must lie inside .BTF.ext.",
                   "every libbpf release", "%s section (off:%u len:%u) is beyond the end of the ELF section .BTF.ext",
                   "clang's BPF object of progs.c whose .BTF.ext line_info_len is 0x10000, past the section."};
const Rule EXT_008{"BTF-EXT-008", Severity::Error, kOpen, "a .BTF.ext block has no or an invalid record size",
                   "A non-empty block starts with a u32 record size, at least 8 (func_info) or 16 "
                   "(line_info, core_relo) and a multiple of 4.",
                   "every libbpf release", ".BTF.ext %s record size not found / has invalid record size",
                   "clang's BPF object of progs.c whose func_info record size is 6 (the kernel needs at least 8)."};
const Rule EXT_009{"BTF-EXT-009", Severity::Error, kOpen, "a .BTF.ext block has no group or a truncated group header",
                   "After the record size a non-empty block holds one or more groups, each starting "
                   "with sec_name_off and num_info (8 bytes).",
                   "every libbpf release", ".BTF.ext %s section has no records / section header is not found",
                   "clang's BPF object of progs.c whose func_info_len is 4: the record size and no group."};
const Rule EXT_010{"BTF-EXT-010", Severity::Error, kOpen, "a .BTF.ext group has num_info 0 or its records do not fit",
                   "num_info must be positive and num_info records of the block's record size must "
                   "fit in what is left of the block.",
                   "every libbpf release", ".BTF.ext %s section has incorrect num_records",
                   "clang's BPF object of progs.c whose first func_info group has num_info 0."};
const Rule EXT_011{"BTF-EXT-011", Severity::Error, kProgLoad,
                   "a .BTF.ext string offset is not a .BTF string, or a group names no code section",
                   "sec_name_off, file_name_off, line_off and access_str_off index the .BTF string "
                   "section. libbpf resolves the section names when it assigns records to programs "
                   "(an invalid offset fails the load) and BPF_PROG_LOAD checks file_name_off and "
                   "line_off. A section name that is a string but names no executable ELF section is a "
                   "warning: libbpf never uses those records.",
                   "libbpf, Linux 5.0", "Invalid line_info[%u].line_off or .file_name_off",
                   "clang's BPF object of progs.c whose second .text line_info has file_name_off 0xfffff0, not a "
                   ".BTF string."};
const Rule EXT_012{"BTF-EXT-012", Severity::Error, kProgLoad,
                   "func_info record size over 252, or non-zero bytes past the 8 the kernel knows",
                   "BPF_PROG_LOAD accepts func_info records of 8 to 252 bytes; the bytes past the "
                   "kernel's struct bpf_func_info must be zero.",
                   "Linux 5.0", "invalid func info rec size / nonzero tailing record in func info",
                   "clang's BPF object of progs.c whose func_info records are 12 bytes with non-zero bytes (0x5a) "
                   "past the 8 the kernel knows."};
const Rule EXT_013{"BTF-EXT-013", Severity::Error, kProgLoad,
                   "func_info does not match the functions of its section",
                   "Per section, func_info insn_offs start at 0, increase strictly, and name exactly "
                   "the starts of the STT_FUNC symbols of that section (the subprograms libbpf "
                   "assembles into each program). BPF_PROG_LOAD requires one record per subprogram, "
                   "at its first instruction. A record whose FUNC is named differently from the "
                   "symbol at its offset is a warning.",
                   "Linux 5.0", "func_info BTF section doesn't match subprog layout in BPF program",
                   "clang's BPF object of progs.c with the first two .text func_info records swapped: not in "
                   "instruction order."};
const Rule EXT_014{"BTF-EXT-014", Severity::Error, kProgLoad, "func_info type_id is not a FUNC",
                   "Each func_info record names the BTF FUNC of its function.", "Linux 5.0",
                   "invalid type id %d in func info",
                   "clang's BPF object of progs.c whose xdp func_info type_id is the id of INT int, not a FUNC."};
const Rule EXT_015{"BTF-EXT-015", Severity::Error, kProgLoad,
                   "line_info out of order, on the second half of ld_imm64, tail not zero, or missing at a function start",
                   "line_info records of a section have strictly increasing insn_off, never point at "
                   "the second half of a 16-byte ld_imm64 (code 0), carry zero bytes past the 16 the "
                   "kernel knows (record size at most 252), and every function start (func_info "
                   "insn_off) has a line_info record.",
                   "Linux 5.0", "missing bpf_line_info for func#%u",
                   "clang's BPF object of progs.c whose third .text line_info repeats the second one's insn_off."};
const Rule EXT_016{"BTF-EXT-016", Severity::Error, kProgLoad,
                   "core_relo kind unknown, type invalid, access string malformed, or tail not zero",
                   "A CO-RE relocation has a kind 0..12, a root type_id that exists in .BTF, and an "
                   "access string that fits the kind: \"0\" for type relocations, one enumerator "
                   "index of an ENUM for enum-value relocations, and for field relocations "
                   "colon-separated indexes (an array index, then member or element indexes) that "
                   "walk the local types. libbpf refuses the others when it relocates the program "
                   "(\"failed to parse spec\"); BPF_PROG_LOAD with kernel-side CO-RE (5.17) checks the "
                   "record size (16..252) and that the tail is zero.",
                   "libbpf CO-RE, Linux 5.17", "nonzero tailing record in core_relo",
                   "clang's BPF object of core.c whose first kprobe/do_exit core_relo has kind 13 (the last is "
                   "12)."};
const Rule EXT_017{"BTF-EXT-017", Severity::Warning, kProducer,
                   "insn_off is not an instruction inside its section, or line_col looks truncated",
                   "In ELF objects insn_off is a byte offset: a multiple of 8 below the size of the named "
                   "section (libbpf divides it by 8). An offset off the section is an error under "
                   "bpf-object (the kernel refuses instruction offsets past the program). A column of "
                   "1023 (the 10-bit field saturated) or a column on line 0 is a warning.",
                   "", "Invalid line_info[%u].insn_off",
                   "clang's BPF object of progs.c whose last xdp line_info has insn_off 0x60, past the end of the "
                   "xdp section."};

namespace {
constexpr const Rule* kTable[] = {&EXT_001, &EXT_002, &EXT_003, &EXT_004, &EXT_005, &EXT_006,
                                  &EXT_007, &EXT_008, &EXT_009, &EXT_010, &EXT_011, &EXT_012,
                                  &EXT_013, &EXT_014, &EXT_015, &EXT_016, &EXT_017};
}  // namespace

std::span<const Rule* const> table() { return kTable; }

}  // namespace elfmeta::btf::ext::rules
