// XC-DW: BTF against the DWARF it was made from (spec btf.md §3.2). What
// dwarves' btfdiff finds by diffing pahole's two text renderings, checked
// structurally, type by type. XC-DW-007 of the spec (information BTF cannot
// express is not a mismatch) is not a rule that fires: it is the list of
// tolerances every rule below applies, given in each explanation.
#include "btf/xc/xc_dwarf_rules.h"
#include "btf/xc/xc_rules.h"

namespace elfmeta::btf::xc::rules {

#define ELFMETA_XC_DW_TOLERANCES                                                                                  \
  " Not mismatches (spec XC-DW-007): alignment attributes and `packed` (BTF has only the offsets and sizes they " \
  "produce, which are compared), static and C++ members, types of C++, Rust and other non-C compile units "       \
  "(skipped), `_Atomic` (BTF has no atomic qualifier), a forward declaration in BTF where DWARF has the "        \
  "definition, and qualifiers on an array type, which C moves to its elements."

const Rule DW_001{"XC-DW-001", Severity::Warning, kNoConsumer,
                  "struct, union or typedef differs from its DWARF description",
                  "Every named STRUCT and UNION must equal a DWARF definition of the same name and kind: byte "
                  "size, member count, member names, bit offsets, bitfield sizes, and each member's type "
                  "by identity (qualifiers, pointers, base types by name and size, structs, unions, enums "
                  "and typedefs by kind and name; anonymous aggregates member by member). A TYPEDEF's "
                  "target is compared the same way. When several compile units define a name differently "
                  "(a static type in two files), the BTF type must equal one of them. A difference means "
                  "the encoder (pahole) misread the DWARF or the BTF was rewritten afterwards: BPF "
                  "programs relocated against this BTF (CO-RE) read the wrong bytes."
                  ELFMETA_XC_DW_TOLERANCES,
                  "pahole 1.16 (btfdiff)", "",
                  "gcc's object of layouts.c with pahole's BTF, STRUCT packed's size raised by 1 in the BTF."};
const Rule DW_002{"XC-DW-002", Severity::Warning, kNoConsumer, "enum differs from its DWARF description",
                  "An ENUM or ENUM64 must have the DWARF enumeration's byte size, its enumerators in order "
                  "with the same names and values, and a kind_flag (signed) that matches the signedness of "
                  "the DWARF underlying type (DW_AT_encoding or DW_AT_type; negative values when neither "
                  "is given). Anonymous enums are found by their first enumerator. Values are compared at "
                  "the width BTF stores: 32 bits for ENUM, 64 for ENUM64; a value that does not fit is a "
                  "mismatch." ELFMETA_XC_DW_TOLERANCES,
                  "pahole 1.24 (signedness, ENUM64)", "",
                  "gcc's object of layouts.c with pahole's BTF, enum small_signed's enumerator ONE changed from 1 "
                  "to 2 in the BTF."};
const Rule DW_003{"XC-DW-003", Severity::Warning, kNoConsumer,
                  "array dimensions differ from the DWARF description",
                  "BTF writes a multi-dimensional array as nested ARRAYs or, as pahole does, as one ARRAY "
                  "of the flattened count: the product of the element counts must equal the product of "
                  "the DWARF subranges. A flexible array member (no DWARF bound) or a zero-length array "
                  "must have nelems 0. Reported for the type that holds the array (a struct member, a "
                  "typedef target, a parameter, a variable) when the types agree except for the counts."
                  ELFMETA_XC_DW_TOLERANCES,
                  "pahole 1.16 (btfdiff --flat_arrays)", "",
                  "gcc's object of layouts.c with pahole's BTF, struct matrices' int[3][4][5] (flattened to 60 "
                  "elements) given 59."};
const Rule DW_004{"XC-DW-004", Severity::Warning, kNoConsumer,
                  "function prototype differs from the DWARF subprogram",
                  "A FUNC's FUNC_PROTO must have the DWARF subprogram's return type, parameter count, "
                  "parameter names and parameter types (variadic functions end with a void parameter). "
                  "When static functions of the same name exist in several compile units, the FUNC must "
                  "equal one of them. Functions whose DWARF says they are not called with the normal "
                  "calling convention (DW_AT_calling_convention DW_CC_nocall: the compiler changed their "
                  "ABI) are not compared here; their FUNC is reported under XC-SYM-004."
                  ELFMETA_XC_DW_TOLERANCES,
                  "pahole 1.16", "",
                  "gcc's object of layouts.c with pahole's BTF, sum_flex's parameter n (size_t) given type long "
                  "int."};
const Rule DW_005{"XC-DW-005", Severity::Warning, kNoConsumer, "variable type differs from the DWARF variable",
                  "A VAR (pahole encodes the per-CPU variables of .data..percpu) must have the type of the "
                  "DWARF variable definition of the same name in a compile unit's scope."
                  ELFMETA_XC_DW_TOLERANCES,
                  "pahole 1.18 (per-CPU VARs)", "",
                  "gcc's object of other.c with pahole's BTF, percpu VAR pcpu_counters given the type STRUCT "
                  "local_only."};
const Rule DW_006{"XC-DW-006", Severity::Warning, kNoConsumer,
                  "type tags differ from the DWARF btf_type_tag annotations",
                  "A pointer whose DWARF carries btf_type_tag annotations (clang's "
                  "__attribute__((btf_type_tag)), the kernel's __user, __rcu, __percpu) must point at "
                  "TYPE_TAGs with the same tags, directly under the PTR (BTF-REF-008); the verifier "
                  "relies on them to tell user from kernel memory. Reported when two types agree except "
                  "for their tags." ELFMETA_XC_DW_TOLERANCES,
                  "pahole 1.23", "",
                  "clang's object of type_tags.c with pahole's BTF, member up (int __user *) pointing at int past "
                  "its TYPE_TAG user."};

#undef ELFMETA_XC_DW_TOLERANCES

std::span<const Rule* const> dwarf_table() {
  static const Rule* const table[] = {&DW_001, &DW_002, &DW_003, &DW_004, &DW_005, &DW_006};
  return table;
}

}  // namespace elfmeta::btf::xc::rules
