#include "btf/btf_rules.h"

namespace elfmeta::btf::rules {
namespace {
constexpr uint32_t kAll = kBpfBtfLoad | kModuleLoad;  // every kernel parse
constexpr uint32_t kLoad = kBpfBtfLoad;               // BPF_BTF_LOAD only (resolve pass, size limits)
constexpr uint32_t kLint = kNoConsumer;               // accepted by the kernel; wrong or suspicious
constexpr uint32_t kLib = kLibbpf;                    // libbpf's btf__new only
}  // namespace

// ---------------------------------------------------------------- header
const Rule HDR_001{"BTF-HDR-001", Severity::Error, kAll,
                   "blob shorter than the 8 bytes holding magic, version, flags and hdr_len",
                   "The kernel reads hdr_len at offset 4 before anything else; a blob that cannot "
                   "hold it is refused.",
                   "Linux 4.18", "hdr_len not found",
                   "A 7-byte blob: magic 0xEB9F, version 1, flags 0, then one byte of hdr_len."};
const Rule HDR_002{"BTF-HDR-002", Severity::Error, kAll, "blob shorter than its hdr_len",
                   "btf_parse_hdr in kernel/bpf/btf.c reads hdr_len bytes of header. hdr_len claims more header "
                   "bytes than the blob has.", "Linux 4.18",
                   "btf_header not found",
                   "A valid blob of [1] int whose hdr_len is set to the blob's size plus 4."};
const Rule HDR_003{"BTF-HDR-003", Severity::Error, kAll,
                   "non-zero header bytes past the fields the kernel knows",
                   "A header longer than the kernel's struct btf_header is accepted only when every "
                   "byte the kernel does not know is zero (past 32 bytes; bytes 24-31 are the "
                   "kind-layout fields, BTF-LAYOUT-001). The load fails with E2BIG.",
                   "Linux 4.18", "Unsupported btf_header",
                   "A 36-byte header whose byte 33 (past the 32 bytes the kernel knows) is 1."};
const Rule HDR_004{"BTF-HDR-004", Severity::Error, kAll, "magic is not 0xEB9F",
                   "The first two bytes must be the BTF magic in the byte order of the kernel that "
                   "loads it; BPF_BTF_LOAD swaps nothing. A raw blob in the other byte order is "
                   "refused under bpf-load and module-load (its hdr_len then reads as hundreds of "
                   "megabytes: \"btf_header not found\", BTF-HDR-002, before the magic is read); "
                   "libbpf swaps it (--libbpf). The .BTF of an ELF file is checked in the file's "
                   "byte order, its target's.",
                   "Linux 4.18", "Invalid magic",
                   "A valid blob of [1] int with magic 0xEB9E."};
const Rule HDR_005{"BTF-HDR-005", Severity::Error, kAll, "version is not 1",
                   "btf_parse_hdr checks the version after the magic. Only BTF version 1 exists; the kernel "
                   "answers ENOTSUPP.", "Linux 4.18",
                   "Unsupported version",
                   "A valid blob of [1] int with version 2."};
const Rule HDR_006{"BTF-HDR-006", Severity::Error, kAll, "flags is not 0",
                   "btf_parse_hdr checks the flags after the version. No header flag is defined; the kernel "
                   "answers ENOTSUPP.", "Linux 4.18",
                   "Unsupported flags",
                   "A valid blob of [1] int with flags 1."};
const Rule HDR_007{"BTF-HDR-007", Severity::Error, kAll, "base BTF has nothing after its header",
                   "btf_parse_hdr refuses a blob with no bytes after the header. A base (non-split) blob must "
                   "carry type and string data.", "Linux 4.18",
                   "No data",
                   "A 24-byte header with no types and an empty string section: nothing after the header."};
const Rule HDR_008{"BTF-HDR-008", Severity::Error, kAll,
                   "a section offset lies beyond the end of the blob",
                   "type_off and str_off are counted from the end of the header and must not point "
                   "past the blob.",
                   "Linux 4.18", "Invalid section offset",
                   "A blob of [1] int whose str_off points 1,000 bytes past the end of the data."};
const Rule HDR_009{"BTF-HDR-009", Severity::Error, kAll, "gap before a section",
                   "Sorted by offset, the sections must start right after the header and follow "
                   "each other with no gap (libbpf allows gaps, the kernel does not).",
                   "Linux 4.18", "Unsupported section found",
                   "A blob of [1] int with 4 zero bytes between the type section and the strings, counted by "
                   "neither."};
const Rule HDR_010{"BTF-HDR-010", Severity::Error, kAll, "sections overlap",
                   "btf_check_sec_info sorts the sections by offset and walks them. Two sections claim the same "
                   "bytes.", "Linux 4.18", "Section overlap found",
                   "A blob of [1] int whose string section starts 4 bytes before the end of the type section."};
const Rule HDR_011{"BTF-HDR-011", Severity::Error, kAll, "a section runs past the end of the blob",
                   "btf_check_sec_info checks each section against the blob's size. A section length exceeds the "
                   "bytes left after its offset.", "Linux 4.18",
                   "Total section length too long",
                   "A blob of [1] int whose str_len is 4 more than the strings written."};
const Rule HDR_012{"BTF-HDR-012", Severity::Error, kAll, "bytes after the last section",
                   "btf_check_sec_info requires the sections to end at the end of the blob. The header and the "
                   "sections must cover the blob exactly.", "Linux 4.18",
                   "Unsupported section found",
                   "A valid blob of [1] int with 4 zero bytes appended."};
const Rule HDR_013{"BTF-HDR-013", Severity::Error, kAll,
                   "string section does not end at the end of the blob",
                   "btf_parse_str_sec takes the strings to run to the end of the blob. With a 24-byte header the "
                   "string section must come last.", "Linux 4.18",
                   "String section is not at the end",
                   "A blob of [1] int (24-byte header) with the strings (padded to 4 bytes) before the types."};
const Rule HDR_014{"BTF-HDR-014", Severity::Error, kLoad, "type section is not 4-byte aligned",
                   "BPF_BTF_LOAD requires type_off to be a multiple of 4. Kernel BTF (vmlinux, "
                   "modules) is parsed without this check.",
                   "Linux 4.18", "Unaligned type_off",
                   "Split BTF on a base of int and char: strings at offset 0 (\"a\", 2 bytes), then an empty type "
                   "section at type_off 2."};
const Rule HDR_015{"BTF-HDR-015", Severity::Error, kLoad, "base BTF has no types",
                   "btf_parse_type_sec (user BTF only). BPF_BTF_LOAD refuses a base blob with an empty type "
                   "section.", "Linux 4.18",
                   "No type found",
                   "A base blob of the strings alone: type_len 0."};
const Rule HDR_016{"BTF-HDR-016", Severity::Error, kLoad, "blob larger than 16 MiB",
                   "BPF_BTF_LOAD refuses user BTF over BTF_MAX_SIZE (16 MiB) with E2BIG before "
                   "reading it. Kernel BTF has no such limit.",
                   "Linux 4.18", "",
                   "A blob of [1] int whose strings are padded to make it 16 MiB plus one byte."};
const Rule HDR_017{"BTF-HDR-017", Severity::Warning, kLint, "header not laid out as producers write it",
                   "pahole, clang and libbpf write hdr_len 24 (libbpf 1.8: 32), type_off 0 and "
                   "str_off = type_len. Other layouts are legal but suggest a hand-made or "
                   "damaged blob, and libbpf refuses some of them.",
                   "", "",
                   "A blob of [1] int with a 28-byte header (4 zero bytes after the 24 standard ones)."};
const Rule LAYOUT_001{"BTF-LAYOUT-001", Severity::Error, kAll,
                      "kind-layout header fields (bytes 24-31) are not zero",
                      "A 32-byte header whose layout_off/layout_len are set describes the Linux 7.1 "
                      "kind-layout section; every kernel before 7.1 treats those bytes as unknown "
                      "header and refuses the blob with E2BIG. libbpf 1.8 strips the section for "
                      "such kernels.",
                      "Linux 7.1 accepts it", "Unsupported btf_header",
                      "A 32-byte header whose byte 24 (layout_off) is 4, for a kernel that knows no kind layout."};
const Rule LAYOUT_003{"BTF-LAYOUT-003", Severity::Error, kAll,
                      "header of 25-31 bytes with non-zero bytes past offset 24",
                      "Kernels before 7.1 require every header byte past 24 to be zero.",
                      "Linux 7.1 stops checking them", "Unsupported btf_header",
                      "A 28-byte header whose byte 24 is 1."};
const Rule LAYOUT_006{"BTF-LAYOUT-006", Severity::Error, kAll, "kind-layout section not 4-byte aligned",
                      "Linux 7.1 requires layout_off to be a multiple of 4 (the entries are 4 bytes).",
                      "Linux 7.1", "Unaligned layout_off",
                      "On Linux 7.1: types, strings, then a kind-layout section of 8 bytes at layout_off 2 bytes "
                      "past 4-byte alignment."};
const Rule LAYOUT_007{"BTF-LAYOUT-007", Severity::Error, kAll, "kind-layout section not a whole number of entries",
                      "Linux 7.1 requires layout_len to be at least 4 and a multiple of 4 (one 4-byte "
                      "entry per kind).",
                      "Linux 7.1", "Layout section is too small / layout_len is not multiple of 4",
                      "On Linux 7.1: a 32-byte header whose kind-layout section, between types and strings, is 6 "
                      "bytes long."};

// ---------------------------------------------------------------- strings
const Rule STR_001{"BTF-STR-001", Severity::Error, kAll, "base BTF has an empty string section",
                   "btf_parse_str_sec in kernel/bpf/btf.c refuses an empty base string section. Base BTF needs at "
                   "least the empty string at offset 0.", "Linux 4.18",
                   "Invalid string section",
                   "One anonymous INT and a string section of 0 bytes (no leading NUL)."};
const Rule STR_002{"BTF-STR-002", Severity::Error, kAll, "string section larger than 16 MiB + 1",
                   "str_len - 1 must not exceed BTF_MAX_NAME_OFFSET (0xffffff).", "Linux 4.18",
                   "Invalid string section",
                   "Kernel BTF of [1] int whose string section is 16 MiB plus one byte."};
const Rule STR_003{"BTF-STR-003", Severity::Error, kAll, "string section does not end with NUL",
                   "btf_parse_str_sec requires the last byte to be NUL. Every string must be NUL-terminated inside "
                   "the section.", "Linux 4.18",
                   "Invalid string section",
                   "A blob of [1] int whose last string byte is 'x' instead of NUL."};
const Rule STR_004{"BTF-STR-004", Severity::Error, kAll, "base string section does not start with NUL",
                   "Offset 0 is the empty name of anonymous types. Split BTF continues the base's "
                   "strings and may start with any byte.",
                   "Linux 4.18", "Invalid string section",
                   "A blob of [1] int whose first string byte is 'x' instead of NUL: the strings read \"xint\"."};
const Rule STR_006{"BTF-STR-006", Severity::Error, kAll, "type name offset outside the strings",
                   "btf_name_offset_valid in kernel/bpf/btf.c bounds every name_off. name_off must be below the "
                   "combined size of the base and own string sections.",
                   "Linux 4.18", "Invalid name_offset",
                   "INT long (8 bytes) whose name_off is 1,000 past the end of the strings."};
const Rule STR_007{"BTF-STR-007", Severity::Error, kAll,
                   "member or enumerator name offset outside the strings",
                   "Every name_off of a struct/union member or enumerator must point inside the "
                   "strings. (Parameter names are checked later, by BTF-PROTO-006.)",
                   "Linux 4.18", "Invalid member name_offset / Invalid name_offset",
                   "STRUCT s size 4 { int a at bit 0 } whose member name_off is 1,000 past the end of the strings."};
const Rule STR_008{"BTF-STR-008", Severity::Warning, kLint, "name points into the middle of a string",
                   "The kernel only checks that a name offset is inside the section. Producers "
                   "always point at the start of a string; a mid-string offset gives a suffix of "
                   "another name and usually means a wrong base or a corrupted offset.",
                   "", "",
                   "INT of 8 bytes whose name_off points inside the string \"xlong\" (at \"long\") rather than at "
                   "a string's start."};
const Rule STR_011{"BTF-STR-011", Severity::Warning, kLint, "tag value with non-printable bytes",
                   "DECL_TAG and TYPE_TAG values are free text; the kernel accepts any bytes, but "
                   "control characters break every tool that prints them.",
                   "", "",
                   "FUNC f with a DECL_TAG whose value is \"a\\x01b\" (a control character)."};

// ---------------------------------------------------------------- records
const Rule TYPE_001{"BTF-TYPE-001", Severity::Error, kAll,
                    "type section ends inside a record's 12-byte common part",
                    "Fewer than 12 bytes are left for the next record.", "Linux 4.18",
                    "meta_left:X meta_needed:12",
                    "A blob of [1] int with 8 zero bytes after the last record: less than a record's 12-byte "
                    "common part."};
const Rule TYPE_002{"BTF-TYPE-002", Severity::Error, kAll, "info has bits outside 0x9f00ffff",
                    "Bits 16-23 and 29-30 of info are reserved and must be zero before Linux 7.2. From "
                    "7.2 they widen vlen to 24 bits and kind to 7 (the kernel reads and checks them as "
                    "such: a kind of 32 or more is BTF-TYPE-003, a vlen on a kind without items is that "
                    "kind's vlen rule, and records of 65,536 or more items are accepted).",
                    "Linux 4.18", "Invalid btf_info",
                    "[1] int with bit 16 of its info word set (a bit no field uses)."};
const Rule TYPE_003{"BTF-TYPE-003", Severity::Error, kAll, "unknown kind",
                    "Kind 0 and kinds above ENUM64 (19) are refused; without a length field the "
                    "rest of the section cannot be parsed either.",
                    "Linux 4.18", "Invalid kind",
                    "A record of kind 20, one past the last kind the kernel knows."};
const Rule TYPE_004{"BTF-TYPE-004", Severity::Error, kAll, "record's items run past the type section",
                    "The kind's fixed payload or its vlen items do not fit in the bytes left.",
                    "Linux 4.18", "meta_left:X meta_needed:Y",
                    "STRUCT s size 8 with vlen 2 whose second member is cut off by the end of the type section."};
const Rule TYPE_007{"BTF-TYPE-007", Severity::Error, kLoad, "reference to a type id that does not exist",
                    "A referenced type id is at or above the number of types (base included).",
                    "Linux 4.18", "Invalid type_id",
                    "PTR to type 99 in a blob of 2 types."};
const Rule TYPE_009{"BTF-TYPE-009", Severity::Error, kLoad, "reference cycle not broken by a pointer",
                    "Following typedefs, modifiers, struct members or array elements leads back "
                    "to a type on the path. Only a pointer may close a cycle.",
                    "Linux 4.18", "Loop detected",
                    "TYPEDEF a -> TYPEDEF b -> TYPEDEF a: a loop."};
const Rule TYPE_010{"BTF-TYPE-010", Severity::Error, kLoad, "reference chain deeper than 32",
                    "The kernel resolves references with a 32-entry stack. Which chains are too "
                    "deep depends on type id order: a chain is only walked as far as the first "
                    "already-resolved (lower-id) type.",
                    "Linux 4.18", "Exceeded max resolving depth:32",
                    "A chain of 33 TYPEDEFs, t0 -> t1 -> ... -> t32 -> int (32 is the most the kernel follows)."};
const Rule TYPE_012{"BTF-TYPE-012", Severity::Error, kLoad, "reference to a VAR, DATASEC or DECL_TAG",
                    "These kinds are sources only: nothing but a DATASEC (to a VAR) and a DECL_TAG "
                    "may refer to them.",
                    "Linux 5.2", "Invalid type_id / Invalid member / Invalid arg#N",
                    "PTR to VAR v."};

// ---------------------------------------------------------------- INT
const Rule INT_001{"BTF-INT-001", Severity::Error, kAll, "INT with vlen != 0",
                   "btf_int_check_meta requires vlen 0: an INT's only extra data is its encoding word.",
                   "Linux 4.18", "vlen != 0",
                   "[1] int with vlen 1."};
const Rule INT_002{"BTF-INT-002", Severity::Error, kAll, "INT with kind_flag set",
                   "btf_int_check_meta refuses kind_flag 1 on an INT: signedness and char/bool are in the encoding "
                   "word, not in kind_flag.", "Linux 5.0",
                   "Invalid btf_info kind_flag",
                   "[1] int with kind_flag 1."};
const Rule INT_003{"BTF-INT-003", Severity::Error, kAll, "INT data word has bits 28-31 set",
                   "btf_int_check_meta refuses bits outside the three fields (BTF_INT_MASK). The encoding word is "
                   "encoding<<24 | bit_offset<<16 | nr_bits.", "Linux 4.18",
                   "Invalid int_data",
                   "[1] int whose encoding word has bit 28 set."};
const Rule INT_004{"BTF-INT-004", Severity::Error, kAll, "INT bit_offset + nr_bits exceeds 128",
                   "btf_int_check_meta refuses an INT whose bit offset plus nr_bits exceeds 128 (BITS_PER_U128): "
                   "no integer is wider. Encoders writing the DWARF bit size of a _BitInt(N) larger than 128 get "
                   "it wrong.",
                   "Linux 4.18", "nr_bits exceeds 128",
                   "INT w of 16 bytes with nr_bits 129."};
const Rule INT_005{"BTF-INT-005", Severity::Error, kAll, "INT bits do not fit its byte size",
                   "btf_int_check_meta checks the bits against the byte size. roundup(bit_offset + nr_bits, 8) "
                   "must not exceed 8 * size.", "Linux 4.18",
                   "nr_bits exceeds type_size",
                   "INT w of 1 byte with nr_bits 16."};
const Rule INT_006{"BTF-INT-006", Severity::Error, kAll, "INT encoding is not one of SIGNED, CHAR, BOOL",
                   "btf_int_check_meta checks the encoding bits (BTF_INT_ENCODING). At most one encoding bit may "
                   "be set; the kernel answers ENOTSUPP.", "Linux 4.18",
                   "Unsupported encoding",
                   "INT w of 4 bytes with encoding SIGNED|CHAR (3): two encodings at once."};
const Rule INT_008{"BTF-INT-008", Severity::Warning, kLint, "INT that no C compiler produces",
                   "Producers emit INTs of 1, 2, 4, 8 or 16 bytes with bit_offset 0 and nr_bits = "
                   "8 * size (bool: 1 bit); other shapes are legal but suspicious.",
                   "", "",
                   "INT w of 3 bytes, 24 bits: a size that is not a power of two."};
const Rule INT_009{"BTF-INT-009", Severity::Warning, kLint, "BOOL or CHAR INT of an odd size",
                   "A BOOL INT should have 1 or 8 bits, a CHAR INT one byte.", "", "",
                   "INT flag of 2 bytes, 16 bits, encoding BOOL."};

// ---------------------------------------------------------------- PTR, TYPEDEF, modifiers, TYPE_TAG
const Rule REF_001{"BTF-REF-001", Severity::Error, kAll, "pointer, typedef or modifier with vlen != 0",
                   "btf_ref_type_check_meta (PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG) requires vlen 0: "
                   "these kinds are one type id and nothing more.",
                   "Linux 4.18", "vlen != 0",
                   "PTR to int with vlen 1."};
const Rule REF_002{"BTF-REF-002", Severity::Error, kAll, "pointer, typedef or qualifier with kind_flag set",
                   "btf_ref_type_check_meta refuses kind_flag on PTR, TYPEDEF and the qualifiers. Only TYPE_TAG "
                   "may set kind_flag (Linux 6.15: attribute-style tag).", "Linux 5.0",
                   "Invalid btf_info kind_flag",
                   "CONST int with kind_flag 1."};
const Rule REF_003{"BTF-REF-003", Severity::Error, kAll, "target type id above BTF_MAX_TYPE",
                   "btf_ref_type_check_meta refuses a target id above BTF_MAX_TYPE (0xfffff); 0 (void) is allowed. "
                   "A corrupted or wrongly remapped id triggers it.",
                   "Linux 4.18", "Invalid type_id",
                   "PTR to type 0x100000 (BTF_MAX_TYPE + 1)."};
const Rule REF_004{"BTF-REF-004", Severity::Error, kAll, "TYPEDEF without a valid identifier name",
                   "A typedef name must be a C identifier (letters, digits, '_', '.'), at most 512 "
                   "characters (128 before Linux 6.1).",
                   "Linux 4.18", "Invalid name",
                   "TYPEDEF a$b -> int."};
const Rule REF_005{"BTF-REF-005", Severity::Error, kAll, "TYPE_TAG with an empty value",
                   "btf_ref_type_check_meta checks a TYPE_TAG's name (its value). The tag's name is its value (any "
                   "characters) and must not be empty.",
                   "Linux 5.17", "Invalid name",
                   "PTR to TYPE_TAG with an empty value -> int."};
const Rule REF_006{"BTF-REF-006", Severity::Error, kAll, "named PTR, CONST, VOLATILE or RESTRICT",
                   "btf_ref_type_check_meta refuses a name on PTR and the qualifiers (\"Invalid name\"). Pointers "
                   "and qualifiers are anonymous.", "Linux 4.18", "Invalid name",
                   "PTR named \"p\" to int."};
const Rule REF_007{"BTF-REF-007", Severity::Error, kLoad,
                   "pointer or modifier target has no size and is not void, FWD or FUNC_PROTO",
                   "A chain of typedefs and qualifiers must end in a sized type, void, a FWD or a "
                   "FUNC_PROTO. A FUNC target is accepted only once that FUNC has been resolved, "
                   "i.e. when it has the lower type id (kernel behaviour, see docs/btf.md).",
                   "Linux 4.18", "Invalid type_id",
                   "PTR -> FUNC f, where the FUNC has a higher id than the PTR."};
const Rule REF_008{"BTF-REF-008", Severity::Error, kAll, "TYPE_TAG below a typedef or qualifier",
                   "In a chain of modifiers all TYPE_TAGs must come first (right under the "
                   "pointer). Checked for user, vmlinux and module BTF from 5.19 to 7.1; Linux 7.2 "
                   "keeps only the chain limit (BTF-REF-009).",
                   "Linux 5.19", "Type tags don't precede modifiers",
                   "PTR -> CONST -> TYPE_TAG user -> int: the tag under a qualifier instead of directly under the "
                   "PTR."};
const Rule REF_009{"BTF-REF-009", Severity::Error, kAll, "modifier chain longer than 32 or cyclic",
                   "The type-tag pass (the modifier-chain pass from 7.2) follows each modifier chain at "
                   "most 32 steps.", "Linux 5.19",
                   "Max chain length or cycle detected",
                   "Kernel BTF: TYPEDEF a -> TYPEDEF b -> TYPEDEF a, a loop no reference pass catches."};
const Rule REF_012{"BTF-REF-012", Severity::Error, kModuleLoad,
                   "modifier chain reaches a type id that does not exist (kernel BTF)",
                   "vmlinux and module BTF skip the resolve pass, but the type-tag pass walks "
                   "every modifier chain and fails with EINVAL, without a log line, when a target "
                   "id does not exist. The module's BTF is then dropped.",
                   "Linux 5.19", "",
                   "Kernel BTF: CONST to type 99 in a blob of 2 types."};

// ---------------------------------------------------------------- ARRAY
const Rule ARRAY_002{"BTF-ARRAY-002", Severity::Error, kAll, "ARRAY with a name, vlen, kind_flag or size",
                     "btf_array_check_meta in kernel/bpf/btf.c refuses any other ARRAY record. ARRAY records are "
                     "anonymous with vlen 0, kind_flag 0 and size field 0.",
                     "Linux 4.18", "Invalid name / vlen != 0 / Invalid btf_info kind_flag / size != 0",
                     "ARRAY int[4] (index int) named \"arr\"."};
const Rule ARRAY_003{"BTF-ARRAY-003", Severity::Error, kAll, "ARRAY element type 0 or above BTF_MAX_TYPE",
                     "btf_array_check_meta refuses an ARRAY whose element type id is 0 (void has no size) or above "
                     "BTF_MAX_TYPE (0xfffff), before any type is resolved. A truncated or hand-built record, or a "
                     "type id written in the wrong field, gets it wrong.", "Linux 4.18", "Invalid elem",
                     "ARRAY of element type 0, index int, 4 elements."};
const Rule ARRAY_004{"BTF-ARRAY-004", Severity::Error, kAll, "ARRAY index type 0 or above BTF_MAX_TYPE",
                     "btf_array_check_meta also refuses an index type id of 0 or above BTF_MAX_TYPE. Producers "
                     "write an INT for the index (pahole and clang: `__ARRAY_SIZE_TYPE__` or `unsigned int`); 0 "
                     "appears in hand-built BTF and after a bad id remapping.", "Linux 4.18", "Invalid index",
                     "ARRAY int[4] with index type 0."};
const Rule ARRAY_005{"BTF-ARRAY-005", Severity::Error, kLoad, "ARRAY index type is not a regular INT",
                     "The index type must resolve to an INT of whole bytes (1, 2, 4, 8 or 16) with "
                     "no bit offset.",
                     "Linux 4.18", "Invalid index",
                     "ARRAY int[4] whose index type is STRUCT s { int a }."};
const Rule ARRAY_006{"BTF-ARRAY-006", Severity::Error, kLoad, "ARRAY element type has no size",
                     "btf_array_resolve needs the element's size (btf_type_id_size). void, FWD, FUNC, FUNC_PROTO "
                     "and DECL_TAG elements are refused.", "Linux 4.18",
                     "Invalid elem",
                     "ARRAY of FWD later, 4 elements: an element without a size."};
const Rule ARRAY_007{"BTF-ARRAY-007", Severity::Error, kLoad, "ARRAY of a bitfield-shaped INT",
                     "btf_array_resolve accepts an INT element only when btf_type_int_is_regular: whole bytes, no "
                     "bit offset. INT elements must be regular ints.", "Linux 4.18", "Invalid array of int",
                     "ARRAY of a 1-byte BOOL INT bit of 1 bit, 4 elements."};
const Rule ARRAY_008{"BTF-ARRAY-008", Severity::Error, kLoad, "ARRAY byte size overflows u32",
                     "btf_array_resolve multiplies the element size by nelems and refuses a product above U32_MAX "
                     "(every BTF size is 32 bits). Huge arrays in DWARF (a `char buf[1UL << 40]` declaration, an "
                     "address-space map) cannot be encoded; an encoder must drop or shorten them, not wrap.",
                     "Linux 4.18", "Array size overflows U32_MAX",
                     "ARRAY int[0x40000001]: 4 bytes times 2^30 + 1 elements."};

// ---------------------------------------------------------------- STRUCT / UNION
const Rule AGG_002{"BTF-AGG-002", Severity::Error, kAll, "struct/union name is not a valid identifier",
                   "btf_struct_check_meta in kernel/bpf/btf.c allows a STRUCT or UNION to be anonymous (name_off "
                   "0); a name must be a C identifier (btf_name_valid_identifier: a letter or '_', then letters, "
                   "digits and '_'). A name with a dot, a space or a C++ qualifier (`ns::s`) is refused; producers "
                   "that copy a non-C compile unit's names (Rust, C++) into BTF get this wrong.",
                   "Linux 4.18", "Invalid name",
                   "STRUCT 9a size 4 { int a at bit 0 }."};
const Rule AGG_003{"BTF-AGG-003", Severity::Error, kAll, "member name is not a valid identifier",
                   "btf_struct_check_meta in kernel/bpf/btf.c checks each member's name_off and name. A member is "
                   "anonymous (name_off 0) or named with a C identifier.", "Linux 4.18",
                   "Invalid name",
                   "STRUCT s size 4 { int a-b at bit 0 }."};
const Rule AGG_004{"BTF-AGG-004", Severity::Error, kAll, "member type 0 or above BTF_MAX_TYPE",
                   "btf_struct_check_meta refuses a member of type 0 (\"Invalid type_id\"). A member cannot be "
                   "void.", "Linux 4.18", "Invalid type_id",
                   "STRUCT s size 4 { member a of type 0 (void) at bit 0 }."};
const Rule AGG_005{"BTF-AGG-005", Severity::Error, kAll, "union member at a non-zero bit offset",
                   "Every member of a union starts at bit 0: btf_struct_check_meta in kernel/bpf/btf.c refuses a "
                   "UNION member whose bit offset (with kind_flag, BTF_MEMBER_BIT_OFFSET) is not 0. A union "
                   "bitfield still sits at offset 0; an encoder that lays a union out like a struct, or "
                   "hand-written BTF, gets it wrong.",
                   "Linux 4.18", "Invalid member bits_offset",
                   "UNION u size 8 { int a at bit 0, int b at bit 32 }."};
const Rule AGG_006{"BTF-AGG-006", Severity::Error, kAll, "struct member offsets decrease",
                   "Members must be listed in offset order (equal offsets are allowed). Rust DWARF "
                   "lists fields in source order, which pahole 1.26 handles by excluding Rust CUs.",
                   "Linux 4.18", "Invalid member bits_offset",
                   "STRUCT s size 8 { int a at bit 32, int b at bit 0 }."};
const Rule AGG_007{"BTF-AGG-007", Severity::Error, kAll, "member offset beyond the struct size",
                   "btf_struct_check_meta refuses a member whose offset, rounded down to bytes, lies past the "
                   "struct's byte size, before any member type is looked at. A struct size taken from one "
                   "definition and members from another, larger one (BTF rewritten by a tool, two definitions "
                   "merged wrongly) triggers it.",
                   "Linux 4.18", "Member bits_offset exceeds its struct size",
                   "STRUCT s size 4 { int a at bit 40 }."};
const Rule AGG_008{"BTF-AGG-008", Severity::Error, kLoad, "member type has no size",
                   "void, FWD, FUNC, FUNC_PROTO or a typedef/qualifier chain ending in one cannot "
                   "be a member.",
                   "Linux 4.18", "Invalid member",
                   "STRUCT s size 4 { FWD later a at bit 0 }."};
const Rule AGG_009{"BTF-AGG-009", Severity::Error, kLoad, "non-bitfield member not byte-aligned",
                   "The member callbacks of the resolve pass (btf_generic_check_member, btf_enum_check_member) "
                   "refuse a non-bitfield member at a bit offset that is not a multiple of 8 (\"Member is not byte "
                   "aligned\"). Pointer, array, struct, union and enum members must start on a byte boundary.",
                   "Linux 4.18", "Member is not byte aligned",
                   "STRUCT s size 16 { int *p at bit 4 }."};
const Rule AGG_010{"BTF-AGG-010", Severity::Error, kLoad, "member extends past the end of the struct",
                   "When the resolve pass (btf_struct_resolve) checks each member through its type's check_member "
                   "callback (btf_generic_check_member, btf_int_check_member, btf_enum_check_member, "
                   "btf_struct_check_member), a member whose bytes end after the struct's size is refused: a BPF "
                   "program reading the member would read past the object. The kernel's own BTF is parsed without "
                   "this pass (module-load), so only BPF_BTF_LOAD enforces it. A struct size taken from a shorter "
                   "declaration, or a trailing member after a flexible array, is how it happens.",
                   "Linux 4.18", "Member exceeds struct_size",
                   "STRUCT s size 4 { int a at bit 32 }."};
const Rule AGG_011{"BTF-AGG-011", Severity::Error, kLoad, "INT member bit range overflows",
                   "The member offset plus the INT's bit offset overflows u32, or the bits to copy "
                   "exceed 128.",
                   "Linux 4.18", "bits_offset exceeds U32_MAX / nr_copy_bits exceeds 128",
                   "STRUCT s size 32 { __int128 a at bit 4 }."};
const Rule AGG_012{"BTF-AGG-012", Severity::Error, kLoad, "bitfield base type is not a regular INT",
                   "With kind_flag 1 an INT member must be a regular int; the bitfield width is in "
                   "the member offset word.",
                   "Linux 5.0", "Invalid member base type",
                   "STRUCT s size 4 (kind_flag) { a: 1 bit at bit 0, of a 1-byte BOOL INT of 1 bit }."};
const Rule AGG_013{"BTF-AGG-013", Severity::Error, kLoad, "bad INT bitfield size or offset",
                   "bitfield_size must not exceed the INT's bits; with bitfield_size 0 the offset "
                   "must be byte-aligned.",
                   "Linux 5.0", "Invalid member bitfield_size / Invalid member offset",
                   "STRUCT s size 8 (kind_flag) { int a : 33 at bit 0 }."};
const Rule AGG_014{"BTF-AGG-014", Severity::Error, kLoad, "ENUM bitfield wider than 32 bits",
                   "With kind_flag set, btf_enum_check_kflag_member, which enum64_ops uses too, accepts an "
                   "ENUM or ENUM64 bitfield of at most 32 bits (sizeof(int)), whatever the enum's size. A "
                   "bitfield of a 64-bit enum wider than 32 bits (legal with GCC, whose enums can be 64-bit) "
                   "encoded faithfully by pahole is refused.",
                   "Linux 5.0", "Invalid member bitfield_size",
                   "ENUM64 e size 8 { A = 1 }; STRUCT s size 8 (kind_flag) { e a : 33 at bit 0 }."};
const Rule AGG_015{"BTF-AGG-015", Severity::Error, kLoad,
                   "bitfield size on a pointer, array, struct, union or float member",
                   "With kind_flag set, btf_generic_check_kflag_member (used for PTR, ARRAY, STRUCT, UNION and "
                   "FLOAT members) refuses a non-zero bitfield size: only INT and ENUM members can be bitfields. "
                   "An encoder that writes a bitfield size for every member of a kind_flag struct, rather than 0 "
                   "for the non-bitfields, triggers it.", "Linux 5.0",
                   "Invalid member bitfield_size",
                   "STRUCT s size 16 (kind_flag) { int x : 3 at bit 0, int *p : 8 at bit 64 }."};
const Rule AGG_016{"BTF-AGG-016", Severity::Error, kLoad, "FLOAT member not aligned to min(8, size)",
                   "btf_float_check_member requires a FLOAT member's offset to be a multiple of min(sizeof(void "
                   "*), the float's size): the smallest alignment any architecture gives it, so that types "
                   "relocated by CO-RE still load. A packed struct holding a double (`struct { char c; double d; } "
                   "__attribute__((packed))`), encoded faithfully by pahole or clang, is refused.",
                   "Linux 5.13", "Member is not properly aligned",
                   "STRUCT s size 16 { int a at bit 0, FLOAT double (8 bytes) d at bit 32 }."};
const Rule AGG_017{"BTF-AGG-017", Severity::Warning, kLint, "kind_flag set on a struct/union without bitfields",
                   "pahole and clang set kind_flag only when a member is a bitfield.", "", "",
                   "STRUCT s size 4 with kind_flag 1 and no bitfield: { int a at bit 0 }."};

// ---------------------------------------------------------------- ENUM / ENUM64
const Rule ENUM_002{"BTF-ENUM-002", Severity::Error, kAll, "enum size is not 1, 2, 4 or 8",
                    "btf_enum_check_meta accepts sizes 1, 2, 4 and 8 only. Size 0 is refused even for an enum "
                    "without values.", "Linux 5.1",
                    "Unexpected size",
                    "ENUM e of size 3 { A = 1 }."};
const Rule ENUM_003{"BTF-ENUM-003", Severity::Error, kAll, "enum name is not a valid identifier",
                    "btf_enum_check_meta allows an anonymous ENUM, but a named one must have a C identifier as its "
                    "name. Non-C compile units (Rust's enums, C++'s scoped names) are where invalid names come "
                    "from.",
                    "Linux 4.18", "Invalid name",
                    "ENUM 1e size 4 { A = 1 }."};
const Rule ENUM_004{"BTF-ENUM-004", Severity::Error, kAll, "enumerator without a valid identifier name",
                    "btf_enum_check_meta refuses an enumerator whose name_off is 0, outside the strings or not a C "
                    "identifier: unlike members, enumerators cannot be anonymous. A lost string or a non-C name "
                    "gets it wrong.",
                    "Linux 4.18", "Invalid name",
                    "ENUM e size 4 with one enumerator without a name (value 1)."};
const Rule ENUM_007{"BTF-ENUM-007", Severity::Warning, kLint, "enumerator value does not fit the enum's size",
                    "A value outside the range of the declared size and signedness is truncated by "
                    "every consumer.",
                    "", "",
                    "ENUM e of size 1 { A = 300 }."};
const Rule ENUM_008{"BTF-ENUM-008", Severity::Warning, kLint, "8-byte ENUM (not ENUM64)",
                    "ENUM stores 32-bit values; an 8-byte enum encoded as ENUM has lost the upper "
                    "halves (pahole without ENUM64 support; sched_ext picked wrong DSQ ids).",
                    "", "",
                    "ENUM (not ENUM64) e of size 8 { A = 1 }."};

// ---------------------------------------------------------------- FWD
const Rule FWD_001{"BTF-FWD-001", Severity::Error, kAll, "FWD with vlen != 0",
                   "btf_fwd_check_meta requires vlen 0: a forward declaration has no members.",
                   "Linux 4.18", "vlen != 0",
                   "FWD f with vlen 1."};
const Rule FWD_002{"BTF-FWD-002", Severity::Error, kAll, "FWD with a non-zero type field",
                   "btf_fwd_check_meta requires the type field to be 0; a FWD refers to nothing. A FWD rewritten "
                   "from a struct record with its size left in place triggers it (size and type share the word).",
                   "Linux 4.18",
                   "type != 0",
                   "FWD f whose type field is 1."};
const Rule FWD_003{"BTF-FWD-003", Severity::Error, kAll, "FWD without a valid identifier name",
                   "btf_fwd_check_meta requires a C identifier as the name. A forward declaration must be named.",
                   "Linux 4.18", "Invalid name",
                   "FWD without a name."};

// ---------------------------------------------------------------- FUNC / FUNC_PROTO
const Rule FUNC_001{"BTF-FUNC-001", Severity::Error, kAll, "FUNC without a valid identifier name",
                    "btf_func_check_meta requires a FUNC to be named with a C identifier (name_off not 0, "
                    "btf_name_valid_identifier). Compiler-made clone names with a dot (`foo.isra.0`, `bar.cold`) "
                    "are not identifiers: pahole takes names from DWARF, where they have no suffix; a producer "
                    "that copies ELF symbol names gets it wrong.",
                    "Linux 5.0", "Invalid name",
                    "FUNC without a name, of FUNC_PROTO int(void)."};
const Rule FUNC_002{"BTF-FUNC-002", Severity::Error, kAll, "FUNC linkage (vlen) is not static or global",
                    "Extern (2) functions must be resolved or removed by libbpf before load.",
                    "Linux 5.6", "Invalid func linkage",
                    "FUNC f of int(void) with linkage (vlen) 2, extern."};
const Rule FUNC_003{"BTF-FUNC-003", Severity::Error, kAll, "FUNC with kind_flag set",
                    "btf_func_check_meta refuses kind_flag 1 on a FUNC. Linkage lives in vlen (BTF-FUNC-002); a "
                    "producer that encodes it in kind_flag triggers this.", "Linux 5.0",
                    "Invalid btf_info kind_flag",
                    "FUNC f of int(void) with kind_flag 1."};
const Rule FUNC_004{"BTF-FUNC-004", Severity::Error, kLoad, "FUNC type is not a FUNC_PROTO",
                    "btf_func_check, called for every FUNC after the resolve pass, requires the FUNC's type to be "
                    "a FUNC_PROTO: the FUNC names a function, the prototype describes it. A FUNC pointing at a "
                    "TYPEDEF of a prototype, or at a PTR to one, is refused; id remapping bugs in BTF rewriting "
                    "tools cause it.",
                    "Linux 5.0", "Invalid type_id",
                    "FUNC f whose type is [1] int, not a FUNC_PROTO."};
const Rule FUNC_005{"BTF-FUNC-005", Severity::Error, kLoad, "FUNC parameter without a name",
                    "btf_func_check (kernel/bpf/btf.c), run on every FUNC after the resolve pass, refuses an "
                    "unnamed parameter (\"Invalid arg#N\"); a FUNC_PROTO alone may have unnamed ones (function "
                    "pointers). Every parameter of a FUNC's prototype must be named, except a trailing vararg.",
                    "Linux 5.0", "Invalid arg#N",
                    "FUNC f of FUNC_PROTO int(int) whose parameter has no name."};
const Rule PROTO_002{"BTF-PROTO-002", Severity::Error, kAll, "FUNC_PROTO with a name or kind_flag",
                     "btf_func_proto_check_meta in kernel/bpf/btf.c refuses a named FUNC_PROTO or one with "
                     "kind_flag set. Prototypes are anonymous with kind_flag 0.", "Linux 5.0",
                     "Invalid name / Invalid btf_info kind_flag",
                     "FUNC_PROTO int(void) named \"proto\"."};
const Rule PROTO_003{"BTF-PROTO-003", Severity::Error, kLoad, "bad FUNC_PROTO return type",
                     "btf_func_proto_check resolves the return type (btf_type_id_size). The return type is void "
                     "(0) or an existing type that resolves to a size.",
                     "Linux 5.0", "Invalid return type",
                     "FUNC_PROTO returning FWD later."};
const Rule PROTO_004{"BTF-PROTO-004", Severity::Error, kLoad, "vararg (type 0) parameter not last or named",
                     "btf_func_proto_check allows a parameter of type 0 only as the last one and only unnamed: it "
                     "marks a variadic function (`...`). A void parameter before others, or a named one, is "
                     "refused; `f(void)` is a prototype with no parameters, not one void parameter.",
                     "Linux 5.0", "Invalid arg#N",
                     "FUNC_PROTO int(..., int x): the vararg marker (type 0) first."};
const Rule PROTO_005{"BTF-PROTO-005", Severity::Error, kLoad, "parameter type missing or without size",
                     "btf_func_proto_check refuses a parameter whose type id does not exist or whose type has no "
                     "size (btf_type_id_size fails: a FWD, a FUNC_PROTO, a DATASEC). Compilers do not pass "
                     "incomplete types by value, so this comes from ids past the type section or remapped wrongly.",
                     "Linux 5.0", "Invalid arg#N",
                     "FUNC_PROTO int(x of type 99) in a blob of 3 types."};
const Rule PROTO_006{"BTF-PROTO-006", Severity::Error, kLoad, "parameter name offset or identifier invalid",
                     "A named parameter's name_off must be inside the strings and name a C "
                     "identifier. Only the resolve pass checks this, so kernel BTF is not checked.",
                     "Linux 5.0", "Invalid arg#N",
                     "FUNC_PROTO int(int \"a b\")."};

// ---------------------------------------------------------------- VAR / DATASEC
const Rule VAR_001{"BTF-VAR-001", Severity::Error, kAll, "VAR with vlen or kind_flag set",
                   "btf_var_check_meta requires vlen 0 and kind_flag 0: a VAR's one extra word is its linkage.",
                   "Linux 5.2",
                   "vlen != 0 / Invalid btf_info kind_flag",
                   "VAR v of int with vlen 1."};
const Rule VAR_002{"BTF-VAR-002", Severity::Error, kAll, "VAR without a valid identifier name",
                   "btf_var_check_meta requires a VAR to be named with a C identifier. The ELF symbols of static "
                   "locals carry a compiler suffix (`counter.0`); pahole and clang use the declared name from "
                   "DWARF or the source, a producer that copies symbol names gets it wrong.",
                   "Linux 5.2", "Invalid name",
                   "VAR -x of int."};
const Rule VAR_003{"BTF-VAR-003", Severity::Error, kAll, "VAR type 0 or above BTF_MAX_TYPE",
                   "btf_var_check_meta refuses a VAR of type 0 (void has no size) or above BTF_MAX_TYPE. An "
                   "`extern` declaration without a type in a hand-built object triggers it.", "Linux 5.2",
                   "Invalid type_id",
                   "VAR v of type 0."};
const Rule VAR_004{"BTF-VAR-004", Severity::Error, kAll, "VAR linkage is not static or global-allocated",
                   "clang emits extern (2) for __kconfig/__ksym variables; libbpf rewrites them "
                   "before load.",
                   "Linux 5.2", "Linkage not supported",
                   "VAR v of int with linkage 2 (extern)."};
const Rule VAR_005{"BTF-VAR-005", Severity::Error, kLoad, "VAR type has no size",
                   "A variable's type must resolve to something with a size (not void, FWD or a "
                   "FUNC_PROTO).",
                   "Linux 5.2", "Invalid type_id",
                   "VAR v of FWD later: a type without a size."};
const Rule DATASEC_002{"BTF-DATASEC-002", Severity::Error, kAll, "DATASEC size 0",
                       "clang leaves object-file DATASECs at size 0 for libbpf to fill in; such BTF "
                       "must be fixed up before load.",
                       "Linux 5.2", "size == 0",
                       "DATASEC .rule_data of size 0 with no entries."};
const Rule DATASEC_003{"BTF-DATASEC-003", Severity::Error, kAll, "DATASEC with kind_flag set",
                       "btf_datasec_check_meta refuses a DATASEC with kind_flag set: no flag is defined for it. A "
                       "hand-written record or a tool that reuses a VAR's or FUNC's info word triggers it.",
                       "Linux 5.2", "Invalid btf_info kind_flag",
                       "DATASEC .rule_data size 4, no entries, kind_flag 1."};
const Rule DATASEC_004{"BTF-DATASEC-004", Severity::Error, kAll, "DATASEC name not printable",
                       "Since Linux 6.9 any printable characters are allowed (a C identifier with "
                       "dots before), at most 512 bytes.",
                       "Linux 5.2, relaxed in 6.9", "Invalid name",
                       "DATASEC named \"\\x01\", size 4."};
const Rule DATASEC_005{"BTF-DATASEC-005", Severity::Error, kAll, "DATASEC without a name",
                       "An empty section name is refused (6.9-6.11 read past it, fixed in 2024).",
                       "Linux 5.2", "Invalid name",
                       "DATASEC whose name_off points at an empty string other than offset 0."};
const Rule DATASEC_006{"BTF-DATASEC-006", Severity::Error, kAll, "DATASEC entry type 0 or above BTF_MAX_TYPE",
                       "btf_datasec_check_meta refuses an entry (btf_var_secinfo) whose type is 0 or above "
                       "BTF_MAX_TYPE (0xfffff). Producers write the id of the VAR; 0 or a huge id comes from "
                       "truncated, hand-built or wrongly remapped data.", "Linux 5.2", "Invalid type_id",
                       "DATASEC .rule_data size 4 { type 0 at 0, size 4 }."};
const Rule DATASEC_007{"BTF-DATASEC-007", Severity::Error, kAll, "DATASEC entries unsorted or overlapping",
                       "btf_datasec_check_meta walks the entries in order and refuses one that starts before the "
                       "previous one ends (\"Invalid offset\"). Each entry must start at or after the end of the "
                       "previous one.", "Linux 5.2",
                       "Invalid offset",
                       "VAR v, w of int; DATASEC .rule_data size 8 { v at 0 size 4, w at 2 size 4 }."};
const Rule DATASEC_008{"BTF-DATASEC-008", Severity::Error, kAll, "DATASEC entry offset at or past the section size",
                       "btf_datasec_check_meta refuses an entry whose offset is at or past the DATASEC's size. In "
                       "a BPF object the DATASEC size is 0 until libbpf sets it from the ELF section (the "
                       "bpf-object consumer models that fix-up); a size copied from another section, or stale "
                       "after the section shrank, gets it wrong.", "Linux 5.2", "Invalid offset",
                       "VAR v of int; DATASEC .rule_data size 8 { v at 8 size 4 }."};
const Rule DATASEC_009{"BTF-DATASEC-009", Severity::Error, kAll, "DATASEC entry size 0 or past the section end",
                       "btf_datasec_check_meta refuses an entry of size 0, an entry larger than the section, and "
                       "one whose offset plus size runs past the section's end. Producers take the size from the "
                       "variable's symbol; a symbol of size 0 or a section size that does not cover the last "
                       "variable triggers it.", "Linux 5.2", "Invalid size / Invalid offset+size",
                       "VAR v of int; DATASEC .rule_data size 8 { v at 6 size 4 }: ends at 10."};
const Rule DATASEC_011{"BTF-DATASEC-011", Severity::Error, kLoad, "DATASEC entry is not a VAR",
                       "btf_datasec_resolve requires every entry's type to be a VAR: a DATASEC lists variables, "
                       "not types. Kernel BTF (module-load) is parsed without this pass. Hand-built BTF and id "
                       "remapping bugs that point an entry at the VAR's type instead of the VAR trigger it.",
                       "Linux 5.2", "Not a VAR kind member",
                       "DATASEC .rule_data size 4 { [1] int at 0 size 4 }: an entry that is not a VAR."};
const Rule DATASEC_012{"BTF-DATASEC-012", Severity::Error, kLoad, "DATASEC entry smaller than its VAR's type",
                       "btf_datasec_resolve sizes each entry's VAR type (btf_type_id_size) and refuses an entry "
                       "smaller than it: the section would not hold the variable. clang sizes entries from the "
                       "symbol; a symbol of size 0 or an alias smaller than the variable's type gets it wrong.",
                       "Linux 5.2", "Invalid size",
                       "VAR v of int; DATASEC .rule_data size 4 { v at 0 size 2 }."};
const Rule DATASEC_013{"BTF-DATASEC-013", Severity::Warning, kLint, "DATASEC entry larger than its VAR's type",
                       "Accepted by the kernel, but producers emit the exact size; a larger entry "
                       "hides the real extent of the variable.",
                       "", "",
                       "VAR v of int; DATASEC .rule_data size 8 { v at 0 size 8 }."};
const Rule DATASEC_015{"BTF-DATASEC-015", Severity::Warning, kLint, "two DATASECs with the same name",
                       "Consumers look sections up by name.", "", "",
                       "Two DATASECs named .rule_data."};

// ---------------------------------------------------------------- FLOAT, DECL_TAG
const Rule FLOAT_001{"BTF-FLOAT-001", Severity::Error, kAll, "FLOAT with vlen != 0",
                     "btf_float_check_meta requires vlen 0: a FLOAT is just a name and a size. Hand-built records "
                     "that reuse an INT's layout trigger it.", "Linux 5.13", "vlen != 0",
                     "FLOAT double of 8 bytes with vlen 1."};
const Rule FLOAT_002{"BTF-FLOAT-002", Severity::Error, kAll, "FLOAT with kind_flag set",
                     "btf_float_check_meta refuses kind_flag 1: no flag is defined for FLOAT.", "Linux 5.13",
                     "Invalid btf_info kind_flag",
                     "FLOAT double of 8 bytes with kind_flag 1."};
const Rule FLOAT_003{"BTF-FLOAT-003", Severity::Error, kAll, "FLOAT size is not 2, 4, 8, 12 or 16",
                     "btf_float_check_meta accepts the sizes of C's floating types on supported targets only: 2 "
                     "(_Float16), 4, 8, 12 (i386's long double) and 16. A producer that writes the byte size of "
                     "another floating type (a 10-byte x87 value without padding, a decimal float) gets it wrong.",
                     "Linux 5.13", "Invalid type_size",
                     "FLOAT f of 3 bytes."};
const Rule DTAG_002{"BTF-DTAG-002", Severity::Error, kAll, "DECL_TAG with an empty value",
                    "btf_decl_tag_check_meta refuses a DECL_TAG whose value (the string at name_off) is empty: the "
                    "tag's text is its only content. Producers write the string of "
                    "__attribute__((btf_decl_tag(\"...\"))); an empty name_off comes from a lost string.",
                    "Linux 5.16",
                    "Invalid value",
                    "FUNC f; DECL_TAG with an empty value on f."};
const Rule DTAG_003{"BTF-DTAG-003", Severity::Error, kAll, "DECL_TAG with vlen != 0",
                    "btf_decl_tag_check_meta requires vlen 0: the component index is the one word after the "
                    "record. A producer that counts that word in vlen triggers it.", "Linux 5.16",
                    "vlen != 0",
                    "FUNC f; DECL_TAG t on f (component_idx -1) with vlen 1."};
const Rule DTAG_005{"BTF-DTAG-005", Severity::Error, kAll, "DECL_TAG component_idx below -1",
                    "btf_decl_tag_check_meta reads component_idx as a signed 32-bit value and refuses anything "
                    "below -1: -1 tags the declaration itself, 0 and above a member or parameter. A producer "
                    "writing an unsigned \"none\" other than 0xffffffff gets it wrong.", "Linux 5.16",
                    "Invalid component_idx",
                    "FUNC f; DECL_TAG t on f with component_idx -2."};
const Rule DTAG_006{"BTF-DTAG-006", Severity::Error, kLoad, "DECL_TAG target is not a FUNC, struct, union, VAR or TYPEDEF",
                    "btf_decl_tag_resolve accepts a tag only on a STRUCT, UNION, VAR, FUNC or TYPEDEF (and, with "
                    "an index, on a member or parameter of the first two or a FUNC). A tag on a PTR, INT or "
                    "FUNC_PROTO is refused; clang moves tags on parameters to the FUNC, a hand-built BTF may not.",
                    "Linux 5.16", "Invalid type_id",
                    "DECL_TAG t on a PTR to int."};
const Rule DTAG_007{"BTF-DTAG-007", Severity::Error, kLoad, "DECL_TAG on a VAR or TYPEDEF with a component index",
                    "btf_decl_tag_resolve checks component_idx against its target. Variables and typedefs have no "
                    "components; component_idx must be -1.", "Linux 5.16",
                    "Invalid component_idx",
                    "VAR v of int; DECL_TAG t on v with component_idx 0."};
const Rule DTAG_008{"BTF-DTAG-008", Severity::Error, kLoad, "DECL_TAG component index out of range",
                    "For a struct/union it must be below the member count, for a FUNC below the "
                    "parameter count of its prototype.",
                    "Linux 5.16", "Invalid component_idx",
                    "STRUCT s size 4 { int a }; DECL_TAG t on s with component_idx 1 (s has one member)."};

// ---------------------------------------------------------------- special fields
// Only BPF_BTF_LOAD scans structs for the members the BPF runtime manages
// (locks, graph roots and nodes, refcounts, kptrs), as its last step.
const Rule FIELD_003{"BTF-FIELD-003", Severity::Error, kLoad, "struct is scanned for special fields but yields none",
                     "A struct is scanned because a member's type is a BPF special struct (the first "
                     "STRUCT named bpf_spin_lock, bpf_list_head, bpf_list_node, bpf_rb_root, "
                     "bpf_rb_node or bpf_refcount) or a kptr, but no member is recognised: wrong size "
                     "or misaligned. The kernel answers EFAULT.",
                     "Linux 6.2", "",
                     "STRUCT v size 8 { char c at 0, struct bpf_spin_lock l at bit 16 }: the lock is not 4-byte "
                     "aligned, so the kernel's scan skips it and finds no special field."};
const Rule FIELD_004{"BTF-FIELD-004", Severity::Error, kLoad, "bitfield member in a struct with special fields",
                     "Every member of a scanned struct, and of structs embedded in it by value, must "
                     "start on a byte boundary (EINVAL).",
                     "Linux 6.10", "",
                     "STRUCT v size 8 { bpf_spin_lock l at 0, int a : 4 at bit 32, int b : 4 at bit 36 }: two "
                     "bitfields in one word after a special field."};
const Rule FIELD_005{"BTF-FIELD-005", Severity::Error, kLoad, "two spin locks at one struct level",
                     "At most one bpf_spin_lock and one bpf_res_spin_lock per struct level (E2BIG). The "
                     "count is by type name, so a union or typedef named bpf_spin_lock counts too.",
                     "Linux 6.2", "",
                     "STRUCT v size 8 { bpf_spin_lock a at 0, bpf_spin_lock b at bit 32 }."};
const Rule FIELD_006{"BTF-FIELD-006", Severity::Error, kLoad,
                     "a second bpf_spin_lock or bpf_refcount in a processed struct or a struct it embeds",
                     "Linux 7.2 (and 6.12.111/6.12.115 stable) counts the unique fields (bpf_spin_lock, "
                     "bpf_res_spin_lock, and from then on bpf_refcount) over the processed struct and "
                     "the structs embedded in it together, and refuses a second one (E2BIG); kernels "
                     "6.13 to 7.1 count each struct level on its own, allow several bpf_refcount, and "
                     "only WARN.",
                     "Linux 7.2, 6.12 stable", "",
                     "On Debian's 6.12: STRUCT inner { bpf_refcount r }; STRUCT v { bpf_refcount r, inner i }."};
const Rule FIELD_007{"BTF-FIELD-007", Severity::Error, kLoad, "bpf_spin_lock together with bpf_res_spin_lock",
                     "A struct may hold one kind of BPF lock (EINVAL).", "Linux 6.15", "",
                     "STRUCT v size 8 { bpf_spin_lock a at 0, bpf_res_spin_lock b at bit 32 }."};
const Rule FIELD_008{"BTF-FIELD-008", Severity::Error, kLoad, "special fields overlap",
                     "In scan order, each special field must start after the previous one ends "
                     "(EEXIST).",
                     "Linux 6.2", "",
                     "STRUCT v size 32 { bpf_list_node n at 0, bpf_spin_lock l at bit 64 }: the lock overlaps the "
                     "node."};
const Rule FIELD_009{"BTF-FIELD-009", Severity::Error, kLoad, "array of special fields that cannot repeat",
                     "An array of more than one element may hold only kptrs, bpf_list_head and "
                     "bpf_rb_root (EINVAL).",
                     "Linux 6.10", "",
                     "STRUCT v size 12 { bpf_refcount r at 0, bpf_spin_lock l[2] at bit 32 }."};
const Rule FIELD_010{"BTF-FIELD-010", Severity::Error, kLoad, "more than 11 special fields in one struct",
                     "BTF_FIELDS_MAX is 11, counting embedded and array-expanded fields (E2BIG).",
                     "Linux 6.2", "",
                     "STRUCT v of 12 kptr_untrusted pointers p0..p11 to a program struct: one more than the "
                     "kernel's 11 special fields."};
const Rule FIELD_011{"BTF-FIELD-011", Severity::Error, kLoad, "special-field scan nested 32 levels deep",
                     "Structs embedded 32 levels deep, or 32 array dimensions, are refused (E2BIG).",
                     "Linux 6.10", "",
                     "STRUCT v { bpf_spin_lock l, l31 deep }, where l31 nests 32 structs l31 -> ... -> l0 { int x "
                     "}."};
const Rule FIELD_012{"BTF-FIELD-012", Severity::Error, kLoad, "bpf_list_head or bpf_rb_root without a lock",
                     "A graph root needs a bpf_spin_lock or bpf_res_spin_lock in the same struct (EINVAL).",
                     "Linux 6.2", "",
                     "STRUCT root { bpf_list_head head } tagged \"contains:elem:n\" on member 0, without a "
                     "bpf_spin_lock beside the head."};
const Rule FIELD_013{"BTF-FIELD-013", Severity::Error, kLoad, "list and rbtree node without bpf_refcount",
                     "A struct with both a bpf_list_node and a bpf_rb_node needs a bpf_refcount (EINVAL).",
                     "Linux 6.4", "",
                     "STRUCT v size 64 { bpf_list_node ln at 0, bpf_rb_node rn at bit 192 } without a "
                     "bpf_refcount."};
const Rule FIELD_014{"BTF-FIELD-014", Severity::Error, kLoad, "graph root without exactly one contains: tag",
                     "A bpf_list_head/bpf_rb_root member needs one DECL_TAG \"contains:TYPE:MEMBER\" on "
                     "that member (EINVAL).",
                     "Linux 6.2", "",
                     "STRUCT root { bpf_list_head head, bpf_spin_lock lock } tagged \"container:elem:n\" (not "
                     "\"contains:\")."};
const Rule FIELD_015{"BTF-FIELD-015", Severity::Error, kLoad, "contains: tag malformed or naming no struct",
                     "The tag value is contains:TYPE:MEMBER with a non-empty MEMBER, and TYPE names a "
                     "STRUCT of the same BTF (EINVAL, ENOENT).",
                     "Linux 6.2", "",
                     "STRUCT root { bpf_list_head head, bpf_spin_lock lock } tagged \"contains:nosuch:n\": no "
                     "struct nosuch."};
const Rule FIELD_016{"BTF-FIELD-016", Severity::Error, kLoad, "contains: tag names a bad node member",
                     "MEMBER must exist once in TYPE, be a STRUCT bpf_list_node (list) or bpf_rb_node "
                     "(rbtree) and sit at a multiple of 8 bytes (EINVAL, ENOENT).",
                     "Linux 6.2", "",
                     "STRUCT root { bpf_list_head head, bpf_spin_lock lock } tagged \"contains:elem:data\", where "
                     "elem.data is an int, not a bpf_list_node."};
const Rule FIELD_017{"BTF-FIELD-017", Severity::Error, kLoad, "graph value type is not itself scanned",
                     "The struct a graph root contains must be scanned too, i.e. its node member uses "
                     "the first STRUCT of that name (EFAULT).",
                     "Linux 6.2", "",
                     "STRUCT elem's node member n uses a second struct named bpf_list_node (not the first one), so "
                     "the graph's node is not found."};
const Rule FIELD_018{"BTF-FIELD-018", Severity::Error, kLoad, "graph ownership cycle",
                     "A struct that is both a graph root and a node may own only structs that are not "
                     "roots (ELOOP). Linux 7.2 (and 6.12.113 stable) drop this rule for the bound on "
                     "ownership depth, BTF-FIELD-023.",
                     "Linux 6.2", "",
                     "STRUCT tree { bpf_spin_lock lock, bpf_list_head head, bpf_list_node n } whose head is tagged "
                     "\"contains:tree:n\": it contains itself."};
const Rule FIELD_019{"BTF-FIELD-019", Severity::Error, kLoad, "malformed kptr member",
                     "A pointer tagged kptr, kptr_untrusted or percpu_kptr must point, past modifiers, "
                     "to a STRUCT. Up to 7.1 the tag must come right after the pointer, and a second "
                     "type tag or an unknown tag value there is refused (EINVAL); from 7.2 the tags are "
                     "looked for along the whole modifier chain (btf_type_tag_walk()), unknown ones are "
                     "ignored, and only two different kptr tags are refused.",
                     "Linux 6.12", "",
                     "STRUCT v size 16 { bpf_spin_lock l, kptr_untrusted pointer p to [1] int }: a kptr to a type "
                     "that is not a struct."};
const Rule FIELD_023{"BTF-FIELD-023", Severity::Error, kLoad, "ownership chain longer than 8 structs, or cyclic",
                     "Linux 7.2 (and 6.12.113 stable) follow what each scanned struct owns (the value "
                     "struct of a bpf_list_head or bpf_rb_root, the program-defined target of a kptr or "
                     "percpu_kptr) and refuse a cycle or a chain of more than 8 such structs "
                     "(btf_check_ownership_depth(), ELOOP), because freeing an object recurses through "
                     "them. A kptr to a struct the kernel's BTF also has is no edge; without that BTF "
                     "(--kernel-btf) every kptr target is taken to be program-defined.",
                     "Linux 7.2, 6.12 stable", "",
                     "On Linux 7.2: nine structs elfmeta_s0 to elfmeta_s8, each holding a percpu_kptr to the next "
                     "(eight is the most)."};
const Rule FIELD_021{"BTF-FIELD-021", Severity::Warning, kLint, "referenced kptr whose target may need a destructor",
                     "A `kptr` to a struct that also exists in the running kernel's BTF is accepted only "
                     "if that kernel registered a destructor for it (ENOENT otherwise); a struct only "
                     "the program defines is fine. The destructor list is not in any BTF, so elfmeta "
                     "cannot decide.",
                     "Linux 6.12", "",
                     "STRUCT v size 8 { a pointer tagged \"kptr\" (a referenced kptr) to the program's STRUCT "
                     "elfmeta_obj }."};

const Rule FIELD_022{"BTF-FIELD-022", Severity::Warning, kLint, "special-field scan of a struct costs the kernel a million visits",
                     "BPF_BTF_LOAD's last pass looks for special fields in every struct that has a "
                     "bpf_spin_lock, graph root or node, refcount or kptr member, and recurses into each "
                     "struct member without remembering what it found: a struct member that is used "
                     "three times by the next struct, and so on k levels down, is scanned 3^k times. "
                     "The BTF is valid and the kernel accepts it, but a blob of a kilobyte holds a CPU "
                     "in the syscall for minutes (Linux 6.18: 0.13 s at 800,000 visits, x3 per level). "
                     "elfmeta scans each such struct once and reports the estimate and the chain of "
                     "members that multiplies it from a million visits on.",
                     "Linux 6.11", "",
                     "STRUCT top { bpf_spin_lock l, s0 s }, where each of s0..s12 holds three members of the next "
                     "and s13 is { int v }: 2.4 million visits in the kernel's field scan."};

// ---------------------------------------------------------------- version gates
// Findings of these rules exist only under a --kernel profile older than the
// release that accepted the feature (validators/btf/kernel_profile.cpp).
const Rule VER_001{"BTF-VER-001", Severity::Error, kAll, "FUNC/FUNC_PROTO or kind_flag for an older kernel",
                   "Kernels before 5.0 know neither the FUNC and FUNC_PROTO kinds nor a kind_flag on "
                   "STRUCT, UNION or FWD (bitfield offsets, union forward declarations). libbpf "
                   "rewrites such types for old kernels; raw BTF must not contain them.",
                   "Linux 5.0 accepts it", "Invalid kind / Invalid btf_info kind_flag",
                   "On Linux 4.20: FUNC_PROTO int(int a) (FUNC and FUNC_PROTO came in 5.0)."};
const Rule VER_002{"BTF-VER-002", Severity::Error, kAll, "VAR or DATASEC for an older kernel",
                   "Kernels before 5.2 do not know the VAR and DATASEC kinds (global data). pahole "
                   "--skip_encoding_btf_vars leaves them out.",
                   "Linux 5.2 accepts it", "Invalid kind",
                   "On Linux 5.1: VAR v of int (VAR and DATASEC came in 5.2)."};
const Rule VER_003{"BTF-VER-003", Severity::Error, kAll, "non-static FUNC linkage for an older kernel",
                   "Kernels before 5.6 require the vlen (linkage) of a FUNC to be 0 (static); libbpf "
                   "rewrites global functions as static for them.",
                   "Linux 5.6 accepts it", "vlen != 0",
                   "On Linux 5.5: FUNC f of int(void) with global linkage (1)."};
const Rule VER_004{"BTF-VER-004", Severity::Error, kAll, "FLOAT for an older kernel",
                   "Kernels before 5.13 do not know the FLOAT kind. pahole emits it only with "
                   "--btf_gen_floats (feature float); libbpf rewrites it for old kernels.",
                   "Linux 5.13 accepts it", "Invalid kind",
                   "On Linux 5.12: FLOAT double of 8 bytes."};
const Rule VER_005{"BTF-VER-005", Severity::Error, kAll, "DECL_TAG for an older kernel",
                   "Kernels before 5.16 do not know the DECL_TAG kind (pahole "
                   "--skip_encoding_btf_decl_tag leaves it out).",
                   "Linux 5.16 accepts it", "Invalid kind",
                   "On Linux 5.15: DECL_TAG tag on STRUCT s."};
const Rule VER_006{"BTF-VER-006", Severity::Error, kAll, "TYPE_TAG for an older kernel",
                   "Kernels before 5.17 do not know the TYPE_TAG kind (pahole "
                   "--skip_encoding_btf_type_tag leaves it out).",
                   "Linux 5.17 accepts it", "Invalid kind",
                   "On Linux 5.16: PTR to TYPE_TAG user -> int."};
const Rule VER_007{"BTF-VER-007", Severity::Error, kAll, "ENUM64 or signed ENUM for an older kernel",
                   "Kernels before 6.0 know neither the ENUM64 kind nor the kind_flag that marks an "
                   "ENUM signed (pahole --skip_encoding_btf_enum64; libbpf rewrites ENUM64 as a "
                   "UNION and clears the flag).",
                   "Linux 6.0 accepts it", "Invalid kind / Invalid btf_info kind_flag",
                   "On Linux 5.19: ENUM64 e of 8 bytes { A = 1 }."};
const Rule VER_008{"BTF-VER-008", Severity::Error, kAll, "identifier longer than an older kernel allows",
                   "KSYM_NAME_LEN was 128 before Linux 6.1 and is 512 since; longer names (Rust "
                   "symbols, long C++-ish names) are refused by the older kernels.",
                   "Linux 6.1 accepts up to 512 bytes", "Invalid name",
                   "On Linux 6.0: STRUCT with a name of 129 characters."};
const Rule VER_009{"BTF-VER-009", Severity::Error, kAll, "DATASEC name that is not an identifier, for an older kernel",
                   "Before Linux 6.9 a DATASEC name had to be an identifier (letters, digits, '_', "
                   "'.'); since, any printable bytes are accepted (e.g. \"?.struct_ops\", which "
                   "libbpf renames for older kernels).",
                   "Linux 6.9 accepts it", "Invalid name",
                   "On Linux 6.8: DATASEC named \".data x\" (a space) holding VAR v."};
const Rule VER_010{"BTF-VER-010", Severity::Error, kModuleLoad, "distilled base BTF for an older kernel",
                   "A module's .BTF.base (pahole feature distilled_base) is understood only by Linux "
                   "6.11 and later; an older kernel reads the split BTF against its own vmlinux, "
                   "whose ids and strings differ, and drops the module's BTF.",
                   "Linux 6.11 accepts it", "failed to validate module BTF",
                   "On Linux 6.10: a module (ET_REL) whose .BTF is split BTF on a .BTF.base section (distilled "
                   "base)."};
const Rule VER_011{"BTF-VER-011", Severity::Error, kAll, "kind_flag on DECL_TAG or TYPE_TAG for an older kernel",
                   "Since Linux 6.15 a kind_flag marks a tag value as an attribute (pahole feature "
                   "attributes); older kernels refuse any kind_flag on the tag kinds.",
                   "Linux 6.15 accepts it", "Invalid btf_info kind_flag",
                   "On Linux 6.14: PTR to TYPE_TAG attr with kind_flag 1 (attribute-style tag)."};
const Rule VER_015{"BTF-VER-015", Severity::Error, kAll, "'.' in a name, for an older kernel",
                   "Before Linux 6.4 only VAR and DATASEC names could contain dots; 6.4 allowed "
                   "them in every name (function names such as \"foo.cold\", produced by GCC), "
                   "and the change was backported to the 5.10, 5.15 and 6.1 series.",
                   "Linux 6.4 (and 5.10.y, 5.15.y, 6.1.y) accept it", "Invalid name",
                   "On Linux 6.3: FUNC named \"f.cold\"."};
const Rule VER_016{"BTF-VER-016", Severity::Error, kAll, "ENUM size other than 4, for an older kernel",
                   "Before Linux 5.4 an ENUM had to be 4 bytes; since, 1, 2, 4 and 8 are accepted.",
                   "Linux 5.4 accepts it", "Expected size:4",
                   "On Linux 5.3: ENUM e of 2 bytes { A = 1 }."};
const Rule VER_017{"BTF-VER-017", Severity::Error, kAll, "INT wider than 64 bits, for an older kernel",
                   "Before Linux 5.1 an INT had at most 64 bits (bit offset included); __int128 "
                   "needs 5.1.",
                   "Linux 5.1 accepts it", "Invalid nr_bits / Invalid btf_info",
                   "On Linux 5.0: INT __int128 of 16 bytes, 128 bits."};
const Rule VER_018{"BTF-VER-018", Severity::Error, kAll, "DATASEC without entries, for an older kernel",
                   "Before Linux 5.12 a DATASEC needed at least one variable (\"vlen == 0\").",
                   "Linux 5.12 accepts it", "vlen == 0",
                   "On Linux 5.11: VAR v of int and an empty DATASEC .rule_data of size 4."};

// ---------------------------------------------------------------- libbpf
// libbpf's own checks (validators/btf/libbpf_model.cpp), enforced only with
// --libbpf X.Y. Log fragments are libbpf's debug/warning messages.
const Rule LIBBPF_001{"BTF-LIBBPF-001", Severity::Error, kLib, "blob shorter than libbpf's 24-byte header",
                      "libbpf reads a full 24-byte header before anything else.", "libbpf 1.0",
                      "BTF header not found",
                      "libbpf 1.1: a valid blob of [1] int cut to 20 bytes, shorter than its header."};
const Rule LIBBPF_002{"BTF-LIBBPF-002", Severity::Error, kLib, "non-native byte order with a header libbpf cannot swap",
                      "libbpf swaps foreign-endian BTF itself, but before 1.8 only with hdr_len exactly 24 "
                      "(1.8: at least 24); ENOTSUP otherwise. A 32-byte (kind-layout) header in the other "
                      "byte order is refused by every libbpf before 1.8.",
                      "libbpf 1.0", "Can't load BTF with non-native endianness due to unsupported header length",
                      "libbpf 1.7: a 32-byte header in the other byte order."};
const Rule LIBBPF_003{"BTF-LIBBPF-003", Severity::Error, kLib, "magic is neither 0xEB9F nor 0x9FEB",
                      "libbpf recognises BTF in either byte order by its magic only.", "libbpf 1.0",
                      "Invalid BTF magic",
                      "libbpf 1.1: a blob of [1] int with magic 0xEB9E."};
const Rule LIBBPF_004{"BTF-LIBBPF-004", Severity::Error, kLib, "hdr_len larger than the blob",
                      "libbpf's btf_parse_hdr (btf__new) refuses a header whose hdr_len is larger than the blob. "
                      "The kernel reports the same input as BTF-HDR-002.", "libbpf 1.0",
                      "BTF header len larger than data size",
                      "libbpf 1.1: a blob of [1] int whose hdr_len is the blob's size plus 4."};
const Rule LIBBPF_005{"BTF-LIBBPF-005", Severity::Error, kLib, "string section runs past the end of the blob",
                      "btf_parse_hdr refuses a blob whose string section (str_off + str_len, after the header) "
                      "ends past the data; the kernel reports such layouts as BTF-HDR-011.",
                      "libbpf 1.0", "Invalid BTF total size",
                      "libbpf 1.1: a blob of [1] int whose str_len is 100 more than the strings written."};
const Rule LIBBPF_006{"BTF-LIBBPF-006", Severity::Error, kLib, "sections not in libbpf's order",
                      "libbpf requires the types to end before the strings start (and, in 1.8, the kind "
                      "layout to sit between them). Gaps are allowed, unlike in the kernel; strings before "
                      "types are not.",
                      "libbpf 1.0", "Invalid BTF data sections layout",
                      "libbpf 1.1: a blob of [1] int with the strings before the types."};
const Rule LIBBPF_007{"BTF-LIBBPF-007", Severity::Error, kLib, "type section not 4-byte aligned",
                      "btf_parse_hdr refuses a type_off that is not a multiple of 4: libbpf reads the type records "
                      "as 32-bit words in place. The kernel checks this only for BPF_BTF_LOAD (BTF-HDR-014).",
                      "libbpf 1.0",
                      "BTF type section is not aligned to 4 bytes",
                      "libbpf 1.1: a blob of [1] int with type_off 2 (two padding bytes before the types)."};
const Rule LIBBPF_008{"BTF-LIBBPF-008", Severity::Error, kLib, "kind-layout section misaligned or not whole entries",
                      "libbpf 1.8 reads the layout section: layout_off and layout_len must be multiples of 4.",
                      "libbpf 1.8", "BTF layout section is not aligned to 4 bytes / Invalid BTF kind layout section",
                      "libbpf 1.8: a 32-byte header with a kind-layout section of 6 bytes."};
const Rule LIBBPF_009{"BTF-LIBBPF-009", Severity::Error, kLib, "string section empty, unterminated or over 2 GiB",
                      "Base BTF needs a non-empty string section ending in NUL (split BTF may have none).",
                      "libbpf 1.0", "Invalid BTF string section",
                      "libbpf 1.1: a blob of [1] int whose last string byte is 'x' instead of NUL."};
const Rule LIBBPF_010{"BTF-LIBBPF-010", Severity::Error, kLib, "base BTF strings do not start with NUL",
                      "Usually split BTF read without its base.", "libbpf 1.0",
                      "Malformed BTF string section, did you forget to provide base BTF?",
                      "libbpf 1.6: a blob of [1] int whose first string byte is 'x' instead of NUL: the strings "
                      "read \"xint\"."};
const Rule LIBBPF_011{"BTF-LIBBPF-011", Severity::Error, kLib, "kind libbpf does not know",
                      "libbpf sizes records from its own table of kinds 1-19; any other kind (0 included) "
                      "stops the parse. libbpf 1.8 sizes unknown kinds from the kind-layout section, in "
                      "native byte order only, and reads 7 kind bits and 24 vlen bits.",
                      "libbpf 1.0", "Unsupported BTF_KIND",
                      "libbpf 1.7: a record of kind 20."};
const Rule LIBBPF_012{"BTF-LIBBPF-012", Severity::Error, kLib, "layout entry of an unknown kind with unusable sizes",
                      "libbpf 1.8 sizes an unknown kind as 12 + info_sz + vlen * elem_sz and needs both sizes to "
                      "be multiples of 4.",
                      "libbpf 1.8", "Unsupported info_sz / Unsupported elem_sz",
                      "libbpf 1.8: a record of kind 20 whose kind-layout entry gives 2 bytes of record data where "
                      "4 follow."};
const Rule LIBBPF_013{"BTF-LIBBPF-013", Severity::Error, kLib, "record runs past the type section",
                      "btf_parse_type_sec walks the records by their kind's size (btf_type_size) and refuses one "
                      "whose vlen-sized tail runs past type_len. A vlen larger than the members written, or a "
                      "type_len that stops inside a record, triggers it.", "libbpf 1.0",
                      "BTF type [N] is malformed",
                      "libbpf 1.1: STRUCT s size 8 with vlen 2 whose second member is cut off, type_len shortened "
                      "to match."};
const Rule LIBBPF_014{"BTF-LIBBPF-014", Severity::Error, kLib, "bytes after the last whole record",
                      "1 to 11 bytes left in the type section.", "libbpf 1.0", "BTF types data is malformed",
                      "libbpf 1.1: a blob of [1] int with 4 zero bytes after the last record."};
const Rule LIBBPF_015{"BTF-LIBBPF-015", Severity::Error, kLib, "name offset outside the strings (libbpf 1.3+)",
                      "libbpf's sanity pass checks every name offset of types, members, enumerators and "
                      "parameters; any offset inside the strings passes.",
                      "libbpf 1.3", "invalid type name / invalid field name / invalid enum name / invalid param name",
                      "libbpf 1.3: INT long whose name_off is 1,000 past the end of the strings."};
const Rule LIBBPF_016{"BTF-LIBBPF-016", Severity::Error, kLib, "referenced type id does not exist (libbpf 1.3+)",
                      "The sanity pass checks that referenced ids exist (not their kind); a FUNC_PROTO's "
                      "return type is not checked.",
                      "libbpf 1.3", "invalid referenced type ID",
                      "libbpf 1.3: PTR to a type id 100 past the last type."};
const Rule LIBBPF_017{"BTF-LIBBPF-017", Severity::Error, kLib, "FUNC not pointing to a FUNC_PROTO (libbpf 1.3+)",
                      "Since libbpf 1.3, btf_validate_type (run by btf__new) refuses a FUNC whose type is not a "
                      "FUNC_PROTO, as the kernel's btf_func_check does (BTF-FUNC-004).",
                      "libbpf 1.3", "referenced type is not FUNC_PROTO",
                      "libbpf 1.3: FUNC f whose type is [1] int, not a FUNC_PROTO."};

// What libbpf's tools do with what btf__new accepted
// (validators/btf/libbpf_dump_stack.cpp, libbpf_dump_order.cpp).
const Rule LIBBPF_018{"BTF-LIBBPF-018", Severity::Warning, kLib,
                      "declarations nest past btf_dump's first 16 stack entries under a view it reads again",
                      "libbpf's btf_dump (`bpftool btf dump file F format c`, which writes vmlinux.h) walks a "
                      "declarator chain (pointers, modifiers, arrays, prototypes) through a view into a stack it "
                      "shares with what it emits inline inside the chain: anonymous structs and unions, and "
                      "prototype parameters. When these push the stack past its first 16 entries it is "
                      "reallocated, and a chain that is read again after an anonymous struct it emitted (the "
                      "`*p` of `struct { ... } *p`) reads freed memory (a heap-use-after-free under ASan; with "
                      "glibc mostly unnoticed, as realloc often grows the block in place). Valid BTF of legal C "
                      "triggers it: eight anonymous structs nested behind pointers, from gcc 16 and pahole 1.32 "
                      "(regress/known-bugs/libbpf-1.7); libbpf's newest source has the same code. No real "
                      "kernel's BTF comes near: keep inline declarations shallower, or name the structs.",
                      "libbpf 1.0", "",
                      "libbpf 1.7: STRUCT outer { inner: PTR to an anonymous STRUCT { deep: 14 PTRs to int } }: "
                      "the stack reaches 17 entries (13 PTRs: 16, clean)."};
const Rule LIBBPF_019{"BTF-LIBBPF-019", Severity::Warning, kLib,
                      "reference cycle btf_dump's ordering follows without end",
                      "Before it writes C, btf_dump orders the types (btf_dump_order_type), recursing along "
                      "references. It marks a struct or union before its members, so a cycle through one ends, "
                      "but pointers, modifiers, typedefs, arrays and prototypes are marked only once ordered. A "
                      "cycle of those alone, which the kernel accepts when a prototype breaks it (a function "
                      "pointer among its own parameter types), makes the recursion overflow the stack: "
                      "`bpftool btf dump file F format c` (sid's bpftool 7.8, libbpf 1.8) dies with SIGSEGV. C "
                      "cannot spell such a type, so a producer wrote it by mistake (a dedup that merged two "
                      "prototypes into one that refers to itself). Reported once per type the walk closes a "
                      "cycle on; cycles the kernel refuses are BTF-TYPE-009 too.",
                      "libbpf 1.0", "",
                      "libbpf 1.7: FUNC_PROTO int (p) whose parameter p is a PTR to that FUNC_PROTO."};
const Rule LIBBPF_020{"BTF-LIBBPF-020", Severity::Warning, kLib,
                      "type cycle btf_dump cannot order: bpftool writes no C",
                      "btf_dump orders the types so that a struct is defined before the structs that embed it, "
                      "and a pointer lets a forward declaration do. Two things C requires defeat the pointer: an "
                      "anonymous struct or union is defined where it is used, and an array's element type must "
                      "be complete (`struct S (*p)[2]` needs struct S). A struct or union reached again from "
                      "its own members otherwise, which the kernel accepts when a pointer breaks the cycle, makes "
                      "btf_dump_order_type fail with \"unsatisfiable type cycle\" (-ELOOP): `bpftool btf dump "
                      "file F format c` writes no C (exit 216) and no vmlinux.h can be made from the BTF. Legal "
                      "Rust makes it: `struct Node { pair: *const [Node; 2] }` through rustc 1.97 and pahole 1.32 "
                      "(regress/known-bugs/libbpf-1.8). Reported once per set of types the cycle joins; a cycle "
                      "without a struct or union is BTF-LIBBPF-019's.",
                      "libbpf 1.0", "",
                      "libbpf 1.7: STRUCT S { p: PTR to ARRAY[2] of S }."};

namespace {
constexpr const Rule* kTable[] = {
    &HDR_001, &HDR_002, &HDR_003, &HDR_004, &HDR_005, &HDR_006, &HDR_007, &HDR_008, &HDR_009,
    &HDR_010, &HDR_011, &HDR_012, &HDR_013, &HDR_014, &HDR_015, &HDR_016, &HDR_017,
    &LAYOUT_001, &LAYOUT_003, &LAYOUT_006, &LAYOUT_007,
    &STR_001, &STR_002, &STR_003, &STR_004, &STR_006, &STR_007, &STR_008, &STR_011,
    &TYPE_001, &TYPE_002, &TYPE_003, &TYPE_004, &TYPE_007, &TYPE_009, &TYPE_010, &TYPE_012,
    &INT_001, &INT_002, &INT_003, &INT_004, &INT_005, &INT_006, &INT_008, &INT_009,
    &REF_001, &REF_002, &REF_003, &REF_004, &REF_005, &REF_006, &REF_007, &REF_008, &REF_009, &REF_012,
    &ARRAY_002, &ARRAY_003, &ARRAY_004, &ARRAY_005, &ARRAY_006, &ARRAY_007, &ARRAY_008,
    &AGG_002, &AGG_003, &AGG_004, &AGG_005, &AGG_006, &AGG_007, &AGG_008, &AGG_009, &AGG_010,
    &AGG_011, &AGG_012, &AGG_013, &AGG_014, &AGG_015, &AGG_016, &AGG_017,
    &ENUM_002, &ENUM_003, &ENUM_004, &ENUM_007, &ENUM_008,
    &FWD_001, &FWD_002, &FWD_003,
    &FUNC_001, &FUNC_002, &FUNC_003, &FUNC_004, &FUNC_005,
    &PROTO_002, &PROTO_003, &PROTO_004, &PROTO_005, &PROTO_006,
    &VAR_001, &VAR_002, &VAR_003, &VAR_004, &VAR_005,
    &DATASEC_002, &DATASEC_003, &DATASEC_004, &DATASEC_005, &DATASEC_006, &DATASEC_007,
    &DATASEC_008, &DATASEC_009, &DATASEC_011, &DATASEC_012, &DATASEC_013, &DATASEC_015,
    &FLOAT_001, &FLOAT_002, &FLOAT_003,
    &DTAG_002, &DTAG_003, &DTAG_005, &DTAG_006, &DTAG_007, &DTAG_008,
    &FIELD_003, &FIELD_004, &FIELD_005, &FIELD_006, &FIELD_007, &FIELD_008, &FIELD_009, &FIELD_010, &FIELD_011,
    &FIELD_012, &FIELD_013, &FIELD_014, &FIELD_015, &FIELD_016, &FIELD_017, &FIELD_018, &FIELD_019,
    &FIELD_021, &FIELD_022, &FIELD_023,
    &VER_001, &VER_002, &VER_003, &VER_004, &VER_005, &VER_006, &VER_007, &VER_008, &VER_009,
    &VER_010, &VER_011, &VER_015, &VER_016, &VER_017, &VER_018,
    &LIBBPF_001, &LIBBPF_002, &LIBBPF_003, &LIBBPF_004, &LIBBPF_005, &LIBBPF_006, &LIBBPF_007, &LIBBPF_008,
    &LIBBPF_009, &LIBBPF_010, &LIBBPF_011, &LIBBPF_012, &LIBBPF_013, &LIBBPF_014, &LIBBPF_015, &LIBBPF_016,
    &LIBBPF_017, &LIBBPF_018, &LIBBPF_019, &LIBBPF_020,
};
}  // namespace

std::span<const Rule* const> table() { return kTable; }

}  // namespace elfmeta::btf::rules
