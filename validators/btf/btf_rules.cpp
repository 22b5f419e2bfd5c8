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
                   "Linux 4.18", "hdr_len not found"};
const Rule HDR_002{"BTF-HDR-002", Severity::Error, kAll, "blob shorter than its hdr_len",
                   "hdr_len claims more header bytes than the blob has.", "Linux 4.18",
                   "btf_header not found"};
const Rule HDR_003{"BTF-HDR-003", Severity::Error, kAll,
                   "non-zero header bytes past the fields the kernel knows",
                   "A header longer than the kernel's struct btf_header is accepted only when every "
                   "byte the kernel does not know is zero (past 32 bytes; bytes 24-31 are the "
                   "kind-layout fields, BTF-LAYOUT-001). The load fails with E2BIG.",
                   "Linux 4.18", "Unsupported btf_header"};
const Rule HDR_004{"BTF-HDR-004", Severity::Error, kAll, "magic is not 0xEB9F",
                   "The first two bytes must be the BTF magic in the byte order of the kernel that "
                   "loads it; BPF_BTF_LOAD swaps nothing. A raw blob in the other byte order is "
                   "refused under bpf-load and module-load (its hdr_len then reads as hundreds of "
                   "megabytes: \"btf_header not found\", BTF-HDR-002, before the magic is read); "
                   "libbpf swaps it (--libbpf). The .BTF of an ELF file is checked in the file's "
                   "byte order, its target's.",
                   "Linux 4.18", "Invalid magic"};
const Rule HDR_005{"BTF-HDR-005", Severity::Error, kAll, "version is not 1",
                   "Only BTF version 1 exists; the kernel answers ENOTSUPP.", "Linux 4.18",
                   "Unsupported version"};
const Rule HDR_006{"BTF-HDR-006", Severity::Error, kAll, "flags is not 0",
                   "No header flag is defined; the kernel answers ENOTSUPP.", "Linux 4.18",
                   "Unsupported flags"};
const Rule HDR_007{"BTF-HDR-007", Severity::Error, kAll, "base BTF has nothing after its header",
                   "A base (non-split) blob must carry type and string data.", "Linux 4.18",
                   "No data"};
const Rule HDR_008{"BTF-HDR-008", Severity::Error, kAll,
                   "a section offset lies beyond the end of the blob",
                   "type_off and str_off are counted from the end of the header and must not point "
                   "past the blob.",
                   "Linux 4.18", "Invalid section offset"};
const Rule HDR_009{"BTF-HDR-009", Severity::Error, kAll, "gap before a section",
                   "Sorted by offset, the sections must start right after the header and follow "
                   "each other with no gap (libbpf allows gaps, the kernel does not).",
                   "Linux 4.18", "Unsupported section found"};
const Rule HDR_010{"BTF-HDR-010", Severity::Error, kAll, "sections overlap",
                   "Two sections claim the same bytes.", "Linux 4.18", "Section overlap found"};
const Rule HDR_011{"BTF-HDR-011", Severity::Error, kAll, "a section runs past the end of the blob",
                   "A section length exceeds the bytes left after its offset.", "Linux 4.18",
                   "Total section length too long"};
const Rule HDR_012{"BTF-HDR-012", Severity::Error, kAll, "bytes after the last section",
                   "The header and the sections must cover the blob exactly.", "Linux 4.18",
                   "Unsupported section found"};
const Rule HDR_013{"BTF-HDR-013", Severity::Error, kAll,
                   "string section does not end at the end of the blob",
                   "With a 24-byte header the string section must come last.", "Linux 4.18",
                   "String section is not at the end"};
const Rule HDR_014{"BTF-HDR-014", Severity::Error, kLoad, "type section is not 4-byte aligned",
                   "BPF_BTF_LOAD requires type_off to be a multiple of 4. Kernel BTF (vmlinux, "
                   "modules) is parsed without this check.",
                   "Linux 4.18", "Unaligned type_off"};
const Rule HDR_015{"BTF-HDR-015", Severity::Error, kLoad, "base BTF has no types",
                   "BPF_BTF_LOAD refuses a base blob with an empty type section.", "Linux 4.18",
                   "No type found"};
const Rule HDR_016{"BTF-HDR-016", Severity::Error, kLoad, "blob larger than 16 MiB",
                   "BPF_BTF_LOAD refuses user BTF over BTF_MAX_SIZE (16 MiB) with E2BIG before "
                   "reading it. Kernel BTF has no such limit.",
                   "Linux 4.18", ""};
const Rule HDR_017{"BTF-HDR-017", Severity::Warning, kLint, "header not laid out as producers write it",
                   "pahole, clang and libbpf write hdr_len 24 (libbpf 1.8: 32), type_off 0 and "
                   "str_off = type_len. Other layouts are legal but suggest a hand-made or "
                   "damaged blob, and libbpf refuses some of them.",
                   "", ""};
const Rule LAYOUT_001{"BTF-LAYOUT-001", Severity::Error, kAll,
                      "kind-layout header fields (bytes 24-31) are not zero",
                      "A 32-byte header whose layout_off/layout_len are set describes the Linux 7.1 "
                      "kind-layout section; every kernel before 7.1 treats those bytes as unknown "
                      "header and refuses the blob with E2BIG. libbpf 1.8 strips the section for "
                      "such kernels.",
                      "Linux 7.1 accepts it", "Unsupported btf_header"};
const Rule LAYOUT_003{"BTF-LAYOUT-003", Severity::Error, kAll,
                      "header of 25-31 bytes with non-zero bytes past offset 24",
                      "Kernels before 7.1 require every header byte past 24 to be zero.",
                      "Linux 7.1 stops checking them", "Unsupported btf_header"};
const Rule LAYOUT_006{"BTF-LAYOUT-006", Severity::Error, kAll, "kind-layout section not 4-byte aligned",
                      "Linux 7.1 requires layout_off to be a multiple of 4 (the entries are 4 bytes).",
                      "Linux 7.1", "Unaligned layout_off"};
const Rule LAYOUT_007{"BTF-LAYOUT-007", Severity::Error, kAll, "kind-layout section not a whole number of entries",
                      "Linux 7.1 requires layout_len to be at least 4 and a multiple of 4 (one 4-byte "
                      "entry per kind).",
                      "Linux 7.1", "Layout section is too small / layout_len is not multiple of 4"};

// ---------------------------------------------------------------- strings
const Rule STR_001{"BTF-STR-001", Severity::Error, kAll, "base BTF has an empty string section",
                   "Base BTF needs at least the empty string at offset 0.", "Linux 4.18",
                   "Invalid string section"};
const Rule STR_002{"BTF-STR-002", Severity::Error, kAll, "string section larger than 16 MiB + 1",
                   "str_len - 1 must not exceed BTF_MAX_NAME_OFFSET (0xffffff).", "Linux 4.18",
                   "Invalid string section"};
const Rule STR_003{"BTF-STR-003", Severity::Error, kAll, "string section does not end with NUL",
                   "Every string must be NUL-terminated inside the section.", "Linux 4.18",
                   "Invalid string section"};
const Rule STR_004{"BTF-STR-004", Severity::Error, kAll, "base string section does not start with NUL",
                   "Offset 0 is the empty name of anonymous types. Split BTF continues the base's "
                   "strings and may start with any byte.",
                   "Linux 4.18", "Invalid string section"};
const Rule STR_006{"BTF-STR-006", Severity::Error, kAll, "type name offset outside the strings",
                   "name_off must be below the combined size of the base and own string sections.",
                   "Linux 4.18", "Invalid name_offset"};
const Rule STR_007{"BTF-STR-007", Severity::Error, kAll,
                   "member or enumerator name offset outside the strings",
                   "Every name_off of a struct/union member or enumerator must point inside the "
                   "strings. (Parameter names are checked later, by BTF-PROTO-006.)",
                   "Linux 4.18", "Invalid member name_offset / Invalid name_offset"};
const Rule STR_008{"BTF-STR-008", Severity::Warning, kLint, "name points into the middle of a string",
                   "The kernel only checks that a name offset is inside the section. Producers "
                   "always point at the start of a string; a mid-string offset gives a suffix of "
                   "another name and usually means a wrong base or a corrupted offset.",
                   "", ""};
const Rule STR_011{"BTF-STR-011", Severity::Warning, kLint, "tag value with non-printable bytes",
                   "DECL_TAG and TYPE_TAG values are free text; the kernel accepts any bytes, but "
                   "control characters break every tool that prints them.",
                   "", ""};

// ---------------------------------------------------------------- records
const Rule TYPE_001{"BTF-TYPE-001", Severity::Error, kAll,
                    "type section ends inside a record's 12-byte common part",
                    "Fewer than 12 bytes are left for the next record.", "Linux 4.18",
                    "meta_left:X meta_needed:12"};
const Rule TYPE_002{"BTF-TYPE-002", Severity::Error, kAll, "info has bits outside 0x9f00ffff",
                    "Bits 16-23 and 29-30 of info are reserved and must be zero before Linux 7.2. From "
                    "7.2 they widen vlen to 24 bits and kind to 7 (the kernel reads and checks them as "
                    "such: a kind of 32 or more is BTF-TYPE-003, a vlen on a kind without items is that "
                    "kind's vlen rule, and records of 65,536 or more items are accepted).",
                    "Linux 4.18", "Invalid btf_info"};
const Rule TYPE_003{"BTF-TYPE-003", Severity::Error, kAll, "unknown kind",
                    "Kind 0 and kinds above ENUM64 (19) are refused; without a length field the "
                    "rest of the section cannot be parsed either.",
                    "Linux 4.18", "Invalid kind"};
const Rule TYPE_004{"BTF-TYPE-004", Severity::Error, kAll, "record's items run past the type section",
                    "The kind's fixed payload or its vlen items do not fit in the bytes left.",
                    "Linux 4.18", "meta_left:X meta_needed:Y"};
const Rule TYPE_007{"BTF-TYPE-007", Severity::Error, kLoad, "reference to a type id that does not exist",
                    "A referenced type id is at or above the number of types (base included).",
                    "Linux 4.18", "Invalid type_id"};
const Rule TYPE_009{"BTF-TYPE-009", Severity::Error, kLoad, "reference cycle not broken by a pointer",
                    "Following typedefs, modifiers, struct members or array elements leads back "
                    "to a type on the path. Only a pointer may close a cycle.",
                    "Linux 4.18", "Loop detected"};
const Rule TYPE_010{"BTF-TYPE-010", Severity::Error, kLoad, "reference chain deeper than 32",
                    "The kernel resolves references with a 32-entry stack. Which chains are too "
                    "deep depends on type id order: a chain is only walked as far as the first "
                    "already-resolved (lower-id) type.",
                    "Linux 4.18", "Exceeded max resolving depth:32"};
const Rule TYPE_012{"BTF-TYPE-012", Severity::Error, kLoad, "reference to a VAR, DATASEC or DECL_TAG",
                    "These kinds are sources only: nothing but a DATASEC (to a VAR) and a DECL_TAG "
                    "may refer to them.",
                    "Linux 5.2", "Invalid type_id / Invalid member / Invalid arg#N"};

// ---------------------------------------------------------------- INT
const Rule INT_001{"BTF-INT-001", Severity::Error, kAll, "INT with vlen != 0", "", "Linux 4.18", "vlen != 0"};
const Rule INT_002{"BTF-INT-002", Severity::Error, kAll, "INT with kind_flag set", "", "Linux 5.0",
                   "Invalid btf_info kind_flag"};
const Rule INT_003{"BTF-INT-003", Severity::Error, kAll, "INT data word has bits 28-31 set",
                   "The encoding word is encoding<<24 | bit_offset<<16 | nr_bits.", "Linux 4.18",
                   "Invalid int_data"};
const Rule INT_004{"BTF-INT-004", Severity::Error, kAll, "INT bit_offset + nr_bits exceeds 128", "",
                   "Linux 4.18", "nr_bits exceeds 128"};
const Rule INT_005{"BTF-INT-005", Severity::Error, kAll, "INT bits do not fit its byte size",
                   "roundup(bit_offset + nr_bits, 8) must not exceed 8 * size.", "Linux 4.18",
                   "nr_bits exceeds type_size"};
const Rule INT_006{"BTF-INT-006", Severity::Error, kAll, "INT encoding is not one of SIGNED, CHAR, BOOL",
                   "At most one encoding bit may be set; the kernel answers ENOTSUPP.", "Linux 4.18",
                   "Unsupported encoding"};
const Rule INT_008{"BTF-INT-008", Severity::Warning, kLint, "INT that no C compiler produces",
                   "Producers emit INTs of 1, 2, 4, 8 or 16 bytes with bit_offset 0 and nr_bits = "
                   "8 * size (bool: 1 bit); other shapes are legal but suspicious.",
                   "", ""};
const Rule INT_009{"BTF-INT-009", Severity::Warning, kLint, "BOOL or CHAR INT of an odd size",
                   "A BOOL INT should have 1 or 8 bits, a CHAR INT one byte.", "", ""};

// ---------------------------------------------------------------- PTR, TYPEDEF, modifiers, TYPE_TAG
const Rule REF_001{"BTF-REF-001", Severity::Error, kAll, "pointer, typedef or modifier with vlen != 0", "",
                   "Linux 4.18", "vlen != 0"};
const Rule REF_002{"BTF-REF-002", Severity::Error, kAll, "pointer, typedef or qualifier with kind_flag set",
                   "Only TYPE_TAG may set kind_flag (Linux 6.15: attribute-style tag).", "Linux 5.0",
                   "Invalid btf_info kind_flag"};
const Rule REF_003{"BTF-REF-003", Severity::Error, kAll, "target type id above BTF_MAX_TYPE", "",
                   "Linux 4.18", "Invalid type_id"};
const Rule REF_004{"BTF-REF-004", Severity::Error, kAll, "TYPEDEF without a valid identifier name",
                   "A typedef name must be a C identifier (letters, digits, '_', '.'), at most 512 "
                   "characters (128 before Linux 6.1).",
                   "Linux 4.18", "Invalid name"};
const Rule REF_005{"BTF-REF-005", Severity::Error, kAll, "TYPE_TAG with an empty value",
                   "The tag's name is its value (any characters) and must not be empty.",
                   "Linux 5.17", "Invalid name"};
const Rule REF_006{"BTF-REF-006", Severity::Error, kAll, "named PTR, CONST, VOLATILE or RESTRICT",
                   "Pointers and qualifiers are anonymous.", "Linux 4.18", "Invalid name"};
const Rule REF_007{"BTF-REF-007", Severity::Error, kLoad,
                   "pointer or modifier target has no size and is not void, FWD or FUNC_PROTO",
                   "A chain of typedefs and qualifiers must end in a sized type, void, a FWD or a "
                   "FUNC_PROTO. A FUNC target is accepted only once that FUNC has been resolved, "
                   "i.e. when it has the lower type id (kernel behaviour, see docs/btf.md).",
                   "Linux 4.18", "Invalid type_id"};
const Rule REF_008{"BTF-REF-008", Severity::Error, kAll, "TYPE_TAG below a typedef or qualifier",
                   "In a chain of modifiers all TYPE_TAGs must come first (right under the "
                   "pointer). Checked for user, vmlinux and module BTF from 5.19 to 7.1; Linux 7.2 "
                   "keeps only the chain limit (BTF-REF-009).",
                   "Linux 5.19", "Type tags don't precede modifiers"};
const Rule REF_009{"BTF-REF-009", Severity::Error, kAll, "modifier chain longer than 32 or cyclic",
                   "The type-tag pass (the modifier-chain pass from 7.2) follows each modifier chain at "
                   "most 32 steps.", "Linux 5.19",
                   "Max chain length or cycle detected"};
const Rule REF_012{"BTF-REF-012", Severity::Error, kModuleLoad,
                   "modifier chain reaches a type id that does not exist (kernel BTF)",
                   "vmlinux and module BTF skip the resolve pass, but the type-tag pass walks "
                   "every modifier chain and fails with EINVAL, without a log line, when a target "
                   "id does not exist. The module's BTF is then dropped.",
                   "Linux 5.19", ""};

// ---------------------------------------------------------------- ARRAY
const Rule ARRAY_002{"BTF-ARRAY-002", Severity::Error, kAll, "ARRAY with a name, vlen, kind_flag or size",
                     "ARRAY records are anonymous with vlen 0, kind_flag 0 and size field 0.",
                     "Linux 4.18", "Invalid name / vlen != 0 / Invalid btf_info kind_flag / size != 0"};
const Rule ARRAY_003{"BTF-ARRAY-003", Severity::Error, kAll, "ARRAY element type 0 or above BTF_MAX_TYPE",
                     "", "Linux 4.18", "Invalid elem"};
const Rule ARRAY_004{"BTF-ARRAY-004", Severity::Error, kAll, "ARRAY index type 0 or above BTF_MAX_TYPE",
                     "", "Linux 4.18", "Invalid index"};
const Rule ARRAY_005{"BTF-ARRAY-005", Severity::Error, kLoad, "ARRAY index type is not a regular INT",
                     "The index type must resolve to an INT of whole bytes (1, 2, 4, 8 or 16) with "
                     "no bit offset.",
                     "Linux 4.18", "Invalid index"};
const Rule ARRAY_006{"BTF-ARRAY-006", Severity::Error, kLoad, "ARRAY element type has no size",
                     "void, FWD, FUNC, FUNC_PROTO and DECL_TAG elements are refused.", "Linux 4.18",
                     "Invalid elem"};
const Rule ARRAY_007{"BTF-ARRAY-007", Severity::Error, kLoad, "ARRAY of a bitfield-shaped INT",
                     "INT elements must be regular ints.", "Linux 4.18", "Invalid array of int"};
const Rule ARRAY_008{"BTF-ARRAY-008", Severity::Error, kLoad, "ARRAY byte size overflows u32", "",
                     "Linux 4.18", "Array size overflows U32_MAX"};

// ---------------------------------------------------------------- STRUCT / UNION
const Rule AGG_002{"BTF-AGG-002", Severity::Error, kAll, "struct/union name is not a valid identifier", "",
                   "Linux 4.18", "Invalid name"};
const Rule AGG_003{"BTF-AGG-003", Severity::Error, kAll, "member name is not a valid identifier",
                   "A member is anonymous (name_off 0) or named with a C identifier.", "Linux 4.18",
                   "Invalid name"};
const Rule AGG_004{"BTF-AGG-004", Severity::Error, kAll, "member type 0 or above BTF_MAX_TYPE",
                   "A member cannot be void.", "Linux 4.18", "Invalid type_id"};
const Rule AGG_005{"BTF-AGG-005", Severity::Error, kAll, "union member at a non-zero bit offset", "",
                   "Linux 4.18", "Invalid member bits_offset"};
const Rule AGG_006{"BTF-AGG-006", Severity::Error, kAll, "struct member offsets decrease",
                   "Members must be listed in offset order (equal offsets are allowed). Rust DWARF "
                   "lists fields in source order, which pahole 1.26 handles by excluding Rust CUs.",
                   "Linux 4.18", "Invalid member bits_offset"};
const Rule AGG_007{"BTF-AGG-007", Severity::Error, kAll, "member offset beyond the struct size", "",
                   "Linux 4.18", "Member bits_offset exceeds its struct size"};
const Rule AGG_008{"BTF-AGG-008", Severity::Error, kLoad, "member type has no size",
                   "void, FWD, FUNC, FUNC_PROTO or a typedef/qualifier chain ending in one cannot "
                   "be a member.",
                   "Linux 4.18", "Invalid member"};
const Rule AGG_009{"BTF-AGG-009", Severity::Error, kLoad, "non-bitfield member not byte-aligned",
                   "Pointer, array, struct, union and enum members must start on a byte boundary.",
                   "Linux 4.18", "Member is not byte aligned"};
const Rule AGG_010{"BTF-AGG-010", Severity::Error, kLoad, "member extends past the end of the struct", "",
                   "Linux 4.18", "Member exceeds struct_size"};
const Rule AGG_011{"BTF-AGG-011", Severity::Error, kLoad, "INT member bit range overflows",
                   "The member offset plus the INT's bit offset overflows u32, or the bits to copy "
                   "exceed 128.",
                   "Linux 4.18", "bits_offset exceeds U32_MAX / nr_copy_bits exceeds 128"};
const Rule AGG_012{"BTF-AGG-012", Severity::Error, kLoad, "bitfield base type is not a regular INT",
                   "With kind_flag 1 an INT member must be a regular int; the bitfield width is in "
                   "the member offset word.",
                   "Linux 5.0", "Invalid member base type"};
const Rule AGG_013{"BTF-AGG-013", Severity::Error, kLoad, "bad INT bitfield size or offset",
                   "bitfield_size must not exceed the INT's bits; with bitfield_size 0 the offset "
                   "must be byte-aligned.",
                   "Linux 5.0", "Invalid member bitfield_size / Invalid member offset"};
const Rule AGG_014{"BTF-AGG-014", Severity::Error, kLoad, "ENUM bitfield wider than 32 bits", "",
                   "Linux 5.0", "Invalid member bitfield_size"};
const Rule AGG_015{"BTF-AGG-015", Severity::Error, kLoad,
                   "bitfield size on a pointer, array, struct, union or float member", "", "Linux 5.0",
                   "Invalid member bitfield_size"};
const Rule AGG_016{"BTF-AGG-016", Severity::Error, kLoad, "FLOAT member not aligned to min(8, size)", "",
                   "Linux 5.13", "Member is not properly aligned"};
const Rule AGG_017{"BTF-AGG-017", Severity::Warning, kLint, "kind_flag set on a struct/union without bitfields",
                   "pahole and clang set kind_flag only when a member is a bitfield.", "", ""};

// ---------------------------------------------------------------- ENUM / ENUM64
const Rule ENUM_002{"BTF-ENUM-002", Severity::Error, kAll, "enum size is not 1, 2, 4 or 8",
                    "Size 0 is refused even for an enum without values.", "Linux 5.1",
                    "Unexpected size"};
const Rule ENUM_003{"BTF-ENUM-003", Severity::Error, kAll, "enum name is not a valid identifier", "",
                    "Linux 4.18", "Invalid name"};
const Rule ENUM_004{"BTF-ENUM-004", Severity::Error, kAll, "enumerator without a valid identifier name", "",
                    "Linux 4.18", "Invalid name"};
const Rule ENUM_007{"BTF-ENUM-007", Severity::Warning, kLint, "enumerator value does not fit the enum's size",
                    "A value outside the range of the declared size and signedness is truncated by "
                    "every consumer.",
                    "", ""};
const Rule ENUM_008{"BTF-ENUM-008", Severity::Warning, kLint, "8-byte ENUM (not ENUM64)",
                    "ENUM stores 32-bit values; an 8-byte enum encoded as ENUM has lost the upper "
                    "halves (pahole without ENUM64 support; sched_ext picked wrong DSQ ids).",
                    "", ""};

// ---------------------------------------------------------------- FWD
const Rule FWD_001{"BTF-FWD-001", Severity::Error, kAll, "FWD with vlen != 0", "", "Linux 4.18", "vlen != 0"};
const Rule FWD_002{"BTF-FWD-002", Severity::Error, kAll, "FWD with a non-zero type field", "", "Linux 4.18",
                   "type != 0"};
const Rule FWD_003{"BTF-FWD-003", Severity::Error, kAll, "FWD without a valid identifier name",
                   "A forward declaration must be named.", "Linux 4.18", "Invalid name"};

// ---------------------------------------------------------------- FUNC / FUNC_PROTO
const Rule FUNC_001{"BTF-FUNC-001", Severity::Error, kAll, "FUNC without a valid identifier name", "",
                    "Linux 5.0", "Invalid name"};
const Rule FUNC_002{"BTF-FUNC-002", Severity::Error, kAll, "FUNC linkage (vlen) is not static or global",
                    "Extern (2) functions must be resolved or removed by libbpf before load.",
                    "Linux 5.6", "Invalid func linkage"};
const Rule FUNC_003{"BTF-FUNC-003", Severity::Error, kAll, "FUNC with kind_flag set", "", "Linux 5.0",
                    "Invalid btf_info kind_flag"};
const Rule FUNC_004{"BTF-FUNC-004", Severity::Error, kLoad, "FUNC type is not a FUNC_PROTO", "",
                    "Linux 5.0", "Invalid type_id"};
const Rule FUNC_005{"BTF-FUNC-005", Severity::Error, kLoad, "FUNC parameter without a name",
                    "Every parameter of a FUNC's prototype must be named, except a trailing vararg.",
                    "Linux 5.0", "Invalid arg#N"};
const Rule PROTO_002{"BTF-PROTO-002", Severity::Error, kAll, "FUNC_PROTO with a name or kind_flag",
                     "Prototypes are anonymous with kind_flag 0.", "Linux 5.0",
                     "Invalid name / Invalid btf_info kind_flag"};
const Rule PROTO_003{"BTF-PROTO-003", Severity::Error, kLoad, "bad FUNC_PROTO return type",
                     "The return type is void (0) or an existing type that resolves to a size.",
                     "Linux 5.0", "Invalid return type"};
const Rule PROTO_004{"BTF-PROTO-004", Severity::Error, kLoad, "vararg (type 0) parameter not last or named",
                     "", "Linux 5.0", "Invalid arg#N"};
const Rule PROTO_005{"BTF-PROTO-005", Severity::Error, kLoad, "parameter type missing or without size", "",
                     "Linux 5.0", "Invalid arg#N"};
const Rule PROTO_006{"BTF-PROTO-006", Severity::Error, kLoad, "parameter name offset or identifier invalid",
                     "A named parameter's name_off must be inside the strings and name a C "
                     "identifier. Only the resolve pass checks this, so kernel BTF is not checked.",
                     "Linux 5.0", "Invalid arg#N"};

// ---------------------------------------------------------------- VAR / DATASEC
const Rule VAR_001{"BTF-VAR-001", Severity::Error, kAll, "VAR with vlen or kind_flag set", "", "Linux 5.2",
                   "vlen != 0 / Invalid btf_info kind_flag"};
const Rule VAR_002{"BTF-VAR-002", Severity::Error, kAll, "VAR without a valid identifier name", "",
                   "Linux 5.2", "Invalid name"};
const Rule VAR_003{"BTF-VAR-003", Severity::Error, kAll, "VAR type 0 or above BTF_MAX_TYPE", "", "Linux 5.2",
                   "Invalid type_id"};
const Rule VAR_004{"BTF-VAR-004", Severity::Error, kAll, "VAR linkage is not static or global-allocated",
                   "clang emits extern (2) for __kconfig/__ksym variables; libbpf rewrites them "
                   "before load.",
                   "Linux 5.2", "Linkage not supported"};
const Rule VAR_005{"BTF-VAR-005", Severity::Error, kLoad, "VAR type has no size",
                   "A variable's type must resolve to something with a size (not void, FWD or a "
                   "FUNC_PROTO).",
                   "Linux 5.2", "Invalid type_id"};
const Rule DATASEC_002{"BTF-DATASEC-002", Severity::Error, kAll, "DATASEC size 0",
                       "clang leaves object-file DATASECs at size 0 for libbpf to fill in; such BTF "
                       "must be fixed up before load.",
                       "Linux 5.2", "size == 0"};
const Rule DATASEC_003{"BTF-DATASEC-003", Severity::Error, kAll, "DATASEC with kind_flag set", "",
                       "Linux 5.2", "Invalid btf_info kind_flag"};
const Rule DATASEC_004{"BTF-DATASEC-004", Severity::Error, kAll, "DATASEC name not printable",
                       "Since Linux 6.9 any printable characters are allowed (a C identifier with "
                       "dots before), at most 512 bytes.",
                       "Linux 5.2, relaxed in 6.9", "Invalid name"};
const Rule DATASEC_005{"BTF-DATASEC-005", Severity::Error, kAll, "DATASEC without a name",
                       "An empty section name is refused (6.9-6.11 read past it, fixed in 2024).",
                       "Linux 5.2", "Invalid name"};
const Rule DATASEC_006{"BTF-DATASEC-006", Severity::Error, kAll, "DATASEC entry type 0 or above BTF_MAX_TYPE",
                       "", "Linux 5.2", "Invalid type_id"};
const Rule DATASEC_007{"BTF-DATASEC-007", Severity::Error, kAll, "DATASEC entries unsorted or overlapping",
                       "Each entry must start at or after the end of the previous one.", "Linux 5.2",
                       "Invalid offset"};
const Rule DATASEC_008{"BTF-DATASEC-008", Severity::Error, kAll, "DATASEC entry offset at or past the section size",
                       "", "Linux 5.2", "Invalid offset"};
const Rule DATASEC_009{"BTF-DATASEC-009", Severity::Error, kAll, "DATASEC entry size 0 or past the section end",
                       "", "Linux 5.2", "Invalid size / Invalid offset+size"};
const Rule DATASEC_011{"BTF-DATASEC-011", Severity::Error, kLoad, "DATASEC entry is not a VAR", "",
                       "Linux 5.2", "Not a VAR kind member"};
const Rule DATASEC_012{"BTF-DATASEC-012", Severity::Error, kLoad, "DATASEC entry smaller than its VAR's type", "",
                       "Linux 5.2", "Invalid size"};
const Rule DATASEC_013{"BTF-DATASEC-013", Severity::Warning, kLint, "DATASEC entry larger than its VAR's type",
                       "Accepted by the kernel, but producers emit the exact size; a larger entry "
                       "hides the real extent of the variable.",
                       "", ""};
const Rule DATASEC_015{"BTF-DATASEC-015", Severity::Warning, kLint, "two DATASECs with the same name",
                       "Consumers look sections up by name.", "", ""};

// ---------------------------------------------------------------- FLOAT, DECL_TAG
const Rule FLOAT_001{"BTF-FLOAT-001", Severity::Error, kAll, "FLOAT with vlen != 0", "", "Linux 5.13", "vlen != 0"};
const Rule FLOAT_002{"BTF-FLOAT-002", Severity::Error, kAll, "FLOAT with kind_flag set", "", "Linux 5.13",
                     "Invalid btf_info kind_flag"};
const Rule FLOAT_003{"BTF-FLOAT-003", Severity::Error, kAll, "FLOAT size is not 2, 4, 8, 12 or 16", "",
                     "Linux 5.13", "Invalid type_size"};
const Rule DTAG_002{"BTF-DTAG-002", Severity::Error, kAll, "DECL_TAG with an empty value", "", "Linux 5.16",
                    "Invalid value"};
const Rule DTAG_003{"BTF-DTAG-003", Severity::Error, kAll, "DECL_TAG with vlen != 0", "", "Linux 5.16",
                    "vlen != 0"};
const Rule DTAG_005{"BTF-DTAG-005", Severity::Error, kAll, "DECL_TAG component_idx below -1", "", "Linux 5.16",
                    "Invalid component_idx"};
const Rule DTAG_006{"BTF-DTAG-006", Severity::Error, kLoad, "DECL_TAG target is not a FUNC, struct, union, VAR or TYPEDEF",
                    "", "Linux 5.16", "Invalid type_id"};
const Rule DTAG_007{"BTF-DTAG-007", Severity::Error, kLoad, "DECL_TAG on a VAR or TYPEDEF with a component index",
                    "Variables and typedefs have no components; component_idx must be -1.", "Linux 5.16",
                    "Invalid component_idx"};
const Rule DTAG_008{"BTF-DTAG-008", Severity::Error, kLoad, "DECL_TAG component index out of range",
                    "For a struct/union it must be below the member count, for a FUNC below the "
                    "parameter count of its prototype.",
                    "Linux 5.16", "Invalid component_idx"};

// ---------------------------------------------------------------- special fields
// Only BPF_BTF_LOAD scans structs for the members the BPF runtime manages
// (locks, graph roots and nodes, refcounts, kptrs), as its last step.
const Rule FIELD_003{"BTF-FIELD-003", Severity::Error, kLoad, "struct is scanned for special fields but yields none",
                     "A struct is scanned because a member's type is a BPF special struct (the first "
                     "STRUCT named bpf_spin_lock, bpf_list_head, bpf_list_node, bpf_rb_root, "
                     "bpf_rb_node or bpf_refcount) or a kptr, but no member is recognised: wrong size "
                     "or misaligned. The kernel answers EFAULT.",
                     "Linux 6.2", ""};
const Rule FIELD_004{"BTF-FIELD-004", Severity::Error, kLoad, "bitfield member in a struct with special fields",
                     "Every member of a scanned struct, and of structs embedded in it by value, must "
                     "start on a byte boundary (EINVAL).",
                     "Linux 6.10", ""};
const Rule FIELD_005{"BTF-FIELD-005", Severity::Error, kLoad, "two spin locks at one struct level",
                     "At most one bpf_spin_lock and one bpf_res_spin_lock per struct level (E2BIG). The "
                     "count is by type name, so a union or typedef named bpf_spin_lock counts too.",
                     "Linux 6.2", ""};
const Rule FIELD_006{"BTF-FIELD-006", Severity::Error, kLoad,
                     "a second bpf_spin_lock or bpf_refcount in a processed struct or a struct it embeds",
                     "Linux 7.2 (and 6.12.111/6.12.115 stable) counts the unique fields (bpf_spin_lock, "
                     "bpf_res_spin_lock, and from then on bpf_refcount) over the processed struct and "
                     "the structs embedded in it together, and refuses a second one (E2BIG); kernels "
                     "6.13 to 7.1 count each struct level on its own, allow several bpf_refcount, and "
                     "only WARN.",
                     "Linux 7.2, 6.12 stable", ""};
const Rule FIELD_007{"BTF-FIELD-007", Severity::Error, kLoad, "bpf_spin_lock together with bpf_res_spin_lock",
                     "A struct may hold one kind of BPF lock (EINVAL).", "Linux 6.15", ""};
const Rule FIELD_008{"BTF-FIELD-008", Severity::Error, kLoad, "special fields overlap",
                     "In scan order, each special field must start after the previous one ends "
                     "(EEXIST).",
                     "Linux 6.2", ""};
const Rule FIELD_009{"BTF-FIELD-009", Severity::Error, kLoad, "array of special fields that cannot repeat",
                     "An array of more than one element may hold only kptrs, bpf_list_head and "
                     "bpf_rb_root (EINVAL).",
                     "Linux 6.10", ""};
const Rule FIELD_010{"BTF-FIELD-010", Severity::Error, kLoad, "more than 11 special fields in one struct",
                     "BTF_FIELDS_MAX is 11, counting embedded and array-expanded fields (E2BIG).",
                     "Linux 6.2", ""};
const Rule FIELD_011{"BTF-FIELD-011", Severity::Error, kLoad, "special-field scan nested 32 levels deep",
                     "Structs embedded 32 levels deep, or 32 array dimensions, are refused (E2BIG).",
                     "Linux 6.10", ""};
const Rule FIELD_012{"BTF-FIELD-012", Severity::Error, kLoad, "bpf_list_head or bpf_rb_root without a lock",
                     "A graph root needs a bpf_spin_lock or bpf_res_spin_lock in the same struct (EINVAL).",
                     "Linux 6.2", ""};
const Rule FIELD_013{"BTF-FIELD-013", Severity::Error, kLoad, "list and rbtree node without bpf_refcount",
                     "A struct with both a bpf_list_node and a bpf_rb_node needs a bpf_refcount (EINVAL).",
                     "Linux 6.4", ""};
const Rule FIELD_014{"BTF-FIELD-014", Severity::Error, kLoad, "graph root without exactly one contains: tag",
                     "A bpf_list_head/bpf_rb_root member needs one DECL_TAG \"contains:TYPE:MEMBER\" on "
                     "that member (EINVAL).",
                     "Linux 6.2", ""};
const Rule FIELD_015{"BTF-FIELD-015", Severity::Error, kLoad, "contains: tag malformed or naming no struct",
                     "The tag value is contains:TYPE:MEMBER with a non-empty MEMBER, and TYPE names a "
                     "STRUCT of the same BTF (EINVAL, ENOENT).",
                     "Linux 6.2", ""};
const Rule FIELD_016{"BTF-FIELD-016", Severity::Error, kLoad, "contains: tag names a bad node member",
                     "MEMBER must exist once in TYPE, be a STRUCT bpf_list_node (list) or bpf_rb_node "
                     "(rbtree) and sit at a multiple of 8 bytes (EINVAL, ENOENT).",
                     "Linux 6.2", ""};
const Rule FIELD_017{"BTF-FIELD-017", Severity::Error, kLoad, "graph value type is not itself scanned",
                     "The struct a graph root contains must be scanned too, i.e. its node member uses "
                     "the first STRUCT of that name (EFAULT).",
                     "Linux 6.2", ""};
const Rule FIELD_018{"BTF-FIELD-018", Severity::Error, kLoad, "graph ownership cycle",
                     "A struct that is both a graph root and a node may own only structs that are not "
                     "roots (ELOOP). Linux 7.2 (and 6.12.113 stable) drop this rule for the bound on "
                     "ownership depth, BTF-FIELD-023.",
                     "Linux 6.2", ""};
const Rule FIELD_019{"BTF-FIELD-019", Severity::Error, kLoad, "malformed kptr member",
                     "A pointer tagged kptr, kptr_untrusted or percpu_kptr must point, past modifiers, "
                     "to a STRUCT. Up to 7.1 the tag must come right after the pointer, and a second "
                     "type tag or an unknown tag value there is refused (EINVAL); from 7.2 the tags are "
                     "looked for along the whole modifier chain (btf_type_tag_walk()), unknown ones are "
                     "ignored, and only two different kptr tags are refused.",
                     "Linux 6.12", ""};
const Rule FIELD_023{"BTF-FIELD-023", Severity::Error, kLoad, "ownership chain longer than 8 structs, or cyclic",
                     "Linux 7.2 (and 6.12.113 stable) follow what each scanned struct owns (the value "
                     "struct of a bpf_list_head or bpf_rb_root, the program-defined target of a kptr or "
                     "percpu_kptr) and refuse a cycle or a chain of more than 8 such structs "
                     "(btf_check_ownership_depth(), ELOOP), because freeing an object recurses through "
                     "them. A kptr to a struct the kernel's BTF also has is no edge; without that BTF "
                     "(--kernel-btf) every kptr target is taken to be program-defined.",
                     "Linux 7.2, 6.12 stable", ""};
const Rule FIELD_021{"BTF-FIELD-021", Severity::Warning, kLint, "referenced kptr whose target may need a destructor",
                     "A `kptr` to a struct that also exists in the running kernel's BTF is accepted only "
                     "if that kernel registered a destructor for it (ENOENT otherwise); a struct only "
                     "the program defines is fine. The destructor list is not in any BTF, so elfmeta "
                     "cannot decide.",
                     "Linux 6.12", ""};

const Rule FIELD_022{"BTF-FIELD-022", Severity::Warning, kLint, "special-field scan of a struct costs the kernel a million visits",
                     "BPF_BTF_LOAD's last pass looks for special fields in every struct that has a "
                     "bpf_spin_lock, graph root or node, refcount or kptr member, and recurses into each "
                     "struct member without remembering what it found: a struct member that is used "
                     "three times by the next struct, and so on k levels down, is scanned 3^k times. "
                     "The BTF is valid and the kernel accepts it, but a blob of a kilobyte holds a CPU "
                     "in the syscall for minutes (Linux 6.18: 0.13 s at 800,000 visits, x3 per level). "
                     "elfmeta scans each such struct once and reports the estimate and the chain of "
                     "members that multiplies it from a million visits on.",
                     "Linux 6.11", ""};

// ---------------------------------------------------------------- version gates
// Findings of these rules exist only under a --kernel profile older than the
// release that accepted the feature (validators/btf/kernel_profile.cpp).
const Rule VER_001{"BTF-VER-001", Severity::Error, kAll, "FUNC/FUNC_PROTO or kind_flag for an older kernel",
                   "Kernels before 5.0 know neither the FUNC and FUNC_PROTO kinds nor a kind_flag on "
                   "STRUCT, UNION or FWD (bitfield offsets, union forward declarations). libbpf "
                   "rewrites such types for old kernels; raw BTF must not contain them.",
                   "Linux 5.0 accepts it", "Invalid kind / Invalid btf_info kind_flag"};
const Rule VER_002{"BTF-VER-002", Severity::Error, kAll, "VAR or DATASEC for an older kernel",
                   "Kernels before 5.2 do not know the VAR and DATASEC kinds (global data). pahole "
                   "--skip_encoding_btf_vars leaves them out.",
                   "Linux 5.2 accepts it", "Invalid kind"};
const Rule VER_003{"BTF-VER-003", Severity::Error, kAll, "non-static FUNC linkage for an older kernel",
                   "Kernels before 5.6 require the vlen (linkage) of a FUNC to be 0 (static); libbpf "
                   "rewrites global functions as static for them.",
                   "Linux 5.6 accepts it", "vlen != 0"};
const Rule VER_004{"BTF-VER-004", Severity::Error, kAll, "FLOAT for an older kernel",
                   "Kernels before 5.13 do not know the FLOAT kind. pahole emits it only with "
                   "--btf_gen_floats (feature float); libbpf rewrites it for old kernels.",
                   "Linux 5.13 accepts it", "Invalid kind"};
const Rule VER_005{"BTF-VER-005", Severity::Error, kAll, "DECL_TAG for an older kernel",
                   "Kernels before 5.16 do not know the DECL_TAG kind (pahole "
                   "--skip_encoding_btf_decl_tag leaves it out).",
                   "Linux 5.16 accepts it", "Invalid kind"};
const Rule VER_006{"BTF-VER-006", Severity::Error, kAll, "TYPE_TAG for an older kernel",
                   "Kernels before 5.17 do not know the TYPE_TAG kind (pahole "
                   "--skip_encoding_btf_type_tag leaves it out).",
                   "Linux 5.17 accepts it", "Invalid kind"};
const Rule VER_007{"BTF-VER-007", Severity::Error, kAll, "ENUM64 or signed ENUM for an older kernel",
                   "Kernels before 6.0 know neither the ENUM64 kind nor the kind_flag that marks an "
                   "ENUM signed (pahole --skip_encoding_btf_enum64; libbpf rewrites ENUM64 as a "
                   "UNION and clears the flag).",
                   "Linux 6.0 accepts it", "Invalid kind / Invalid btf_info kind_flag"};
const Rule VER_008{"BTF-VER-008", Severity::Error, kAll, "identifier longer than an older kernel allows",
                   "KSYM_NAME_LEN was 128 before Linux 6.1 and is 512 since; longer names (Rust "
                   "symbols, long C++-ish names) are refused by the older kernels.",
                   "Linux 6.1 accepts up to 512 bytes", "Invalid name"};
const Rule VER_009{"BTF-VER-009", Severity::Error, kAll, "DATASEC name that is not an identifier, for an older kernel",
                   "Before Linux 6.9 a DATASEC name had to be an identifier (letters, digits, '_', "
                   "'.'); since, any printable bytes are accepted (e.g. \"?.struct_ops\", which "
                   "libbpf renames for older kernels).",
                   "Linux 6.9 accepts it", "Invalid name"};
const Rule VER_010{"BTF-VER-010", Severity::Error, kModuleLoad, "distilled base BTF for an older kernel",
                   "A module's .BTF.base (pahole feature distilled_base) is understood only by Linux "
                   "6.11 and later; an older kernel reads the split BTF against its own vmlinux, "
                   "whose ids and strings differ, and drops the module's BTF.",
                   "Linux 6.11 accepts it", "failed to validate module BTF"};
const Rule VER_011{"BTF-VER-011", Severity::Error, kAll, "kind_flag on DECL_TAG or TYPE_TAG for an older kernel",
                   "Since Linux 6.15 a kind_flag marks a tag value as an attribute (pahole feature "
                   "attributes); older kernels refuse any kind_flag on the tag kinds.",
                   "Linux 6.15 accepts it", "Invalid btf_info kind_flag"};
const Rule VER_015{"BTF-VER-015", Severity::Error, kAll, "'.' in a name, for an older kernel",
                   "Before Linux 6.4 only VAR and DATASEC names could contain dots; 6.4 allowed "
                   "them in every name (function names such as \"foo.cold\", produced by GCC), "
                   "and the change was backported to the 5.10, 5.15 and 6.1 series.",
                   "Linux 6.4 (and 5.10.y, 5.15.y, 6.1.y) accept it", "Invalid name"};
const Rule VER_016{"BTF-VER-016", Severity::Error, kAll, "ENUM size other than 4, for an older kernel",
                   "Before Linux 5.4 an ENUM had to be 4 bytes; since, 1, 2, 4 and 8 are accepted.",
                   "Linux 5.4 accepts it", "Expected size:4"};
const Rule VER_017{"BTF-VER-017", Severity::Error, kAll, "INT wider than 64 bits, for an older kernel",
                   "Before Linux 5.1 an INT had at most 64 bits (bit offset included); __int128 "
                   "needs 5.1.",
                   "Linux 5.1 accepts it", "Invalid nr_bits / Invalid btf_info"};
const Rule VER_018{"BTF-VER-018", Severity::Error, kAll, "DATASEC without entries, for an older kernel",
                   "Before Linux 5.12 a DATASEC needed at least one variable (\"vlen == 0\").",
                   "Linux 5.12 accepts it", "vlen == 0"};

// ---------------------------------------------------------------- libbpf
// libbpf's own checks (validators/btf/libbpf_model.cpp), enforced only with
// --libbpf X.Y. Log fragments are libbpf's debug/warning messages.
const Rule LIBBPF_001{"BTF-LIBBPF-001", Severity::Error, kLib, "blob shorter than libbpf's 24-byte header",
                      "libbpf reads a full 24-byte header before anything else.", "libbpf 1.0",
                      "BTF header not found"};
const Rule LIBBPF_002{"BTF-LIBBPF-002", Severity::Error, kLib, "non-native byte order with a header libbpf cannot swap",
                      "libbpf swaps foreign-endian BTF itself, but before 1.8 only with hdr_len exactly 24 "
                      "(1.8: at least 24); ENOTSUP otherwise. A 32-byte (kind-layout) header in the other "
                      "byte order is refused by every libbpf before 1.8.",
                      "libbpf 1.0", "Can't load BTF with non-native endianness due to unsupported header length"};
const Rule LIBBPF_003{"BTF-LIBBPF-003", Severity::Error, kLib, "magic is neither 0xEB9F nor 0x9FEB",
                      "libbpf recognises BTF in either byte order by its magic only.", "libbpf 1.0",
                      "Invalid BTF magic"};
const Rule LIBBPF_004{"BTF-LIBBPF-004", Severity::Error, kLib, "hdr_len larger than the blob", "", "libbpf 1.0",
                      "BTF header len larger than data size"};
const Rule LIBBPF_005{"BTF-LIBBPF-005", Severity::Error, kLib, "string section runs past the end of the blob", "",
                      "libbpf 1.0", "Invalid BTF total size"};
const Rule LIBBPF_006{"BTF-LIBBPF-006", Severity::Error, kLib, "sections not in libbpf's order",
                      "libbpf requires the types to end before the strings start (and, in 1.8, the kind "
                      "layout to sit between them). Gaps are allowed, unlike in the kernel; strings before "
                      "types are not.",
                      "libbpf 1.0", "Invalid BTF data sections layout"};
const Rule LIBBPF_007{"BTF-LIBBPF-007", Severity::Error, kLib, "type section not 4-byte aligned", "", "libbpf 1.0",
                      "BTF type section is not aligned to 4 bytes"};
const Rule LIBBPF_008{"BTF-LIBBPF-008", Severity::Error, kLib, "kind-layout section misaligned or not whole entries",
                      "libbpf 1.8 reads the layout section: layout_off and layout_len must be multiples of 4.",
                      "libbpf 1.8", "BTF layout section is not aligned to 4 bytes / Invalid BTF kind layout section"};
const Rule LIBBPF_009{"BTF-LIBBPF-009", Severity::Error, kLib, "string section empty, unterminated or over 2 GiB",
                      "Base BTF needs a non-empty string section ending in NUL (split BTF may have none).",
                      "libbpf 1.0", "Invalid BTF string section"};
const Rule LIBBPF_010{"BTF-LIBBPF-010", Severity::Error, kLib, "base BTF strings do not start with NUL",
                      "Usually split BTF read without its base.", "libbpf 1.0",
                      "Malformed BTF string section, did you forget to provide base BTF?"};
const Rule LIBBPF_011{"BTF-LIBBPF-011", Severity::Error, kLib, "kind libbpf does not know",
                      "libbpf sizes records from its own table of kinds 1-19; any other kind (0 included) "
                      "stops the parse. libbpf 1.8 sizes unknown kinds from the kind-layout section, in "
                      "native byte order only, and reads 7 kind bits and 24 vlen bits.",
                      "libbpf 1.0", "Unsupported BTF_KIND"};
const Rule LIBBPF_012{"BTF-LIBBPF-012", Severity::Error, kLib, "layout entry of an unknown kind with unusable sizes",
                      "libbpf 1.8 sizes an unknown kind as 12 + info_sz + vlen * elem_sz and needs both sizes to "
                      "be multiples of 4.",
                      "libbpf 1.8", "Unsupported info_sz / Unsupported elem_sz"};
const Rule LIBBPF_013{"BTF-LIBBPF-013", Severity::Error, kLib, "record runs past the type section", "", "libbpf 1.0",
                      "BTF type [N] is malformed"};
const Rule LIBBPF_014{"BTF-LIBBPF-014", Severity::Error, kLib, "bytes after the last whole record",
                      "1 to 11 bytes left in the type section.", "libbpf 1.0", "BTF types data is malformed"};
const Rule LIBBPF_015{"BTF-LIBBPF-015", Severity::Error, kLib, "name offset outside the strings (libbpf 1.3+)",
                      "libbpf's sanity pass checks every name offset of types, members, enumerators and "
                      "parameters; any offset inside the strings passes.",
                      "libbpf 1.3", "invalid type name / invalid field name / invalid enum name / invalid param name"};
const Rule LIBBPF_016{"BTF-LIBBPF-016", Severity::Error, kLib, "referenced type id does not exist (libbpf 1.3+)",
                      "The sanity pass checks that referenced ids exist (not their kind); a FUNC_PROTO's "
                      "return type is not checked.",
                      "libbpf 1.3", "invalid referenced type ID"};
const Rule LIBBPF_017{"BTF-LIBBPF-017", Severity::Error, kLib, "FUNC not pointing to a FUNC_PROTO (libbpf 1.3+)", "",
                      "libbpf 1.3", "referenced type is not FUNC_PROTO"};

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
    &LIBBPF_017,
};
}  // namespace

std::span<const Rule* const> table() { return kTable; }

}  // namespace elfmeta::btf::rules
