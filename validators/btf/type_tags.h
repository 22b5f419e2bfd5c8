// The type-tag ordering pass, which the kernel runs on user, vmlinux and
// module BTF alike: in every chain of typedefs/qualifiers/tags, TYPE_TAGs
// must come first, and no chain may be longer than 32 or cyclic.
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

// btf_check_type_tags() (5.19 to 7.1), btf_check_modifier_chain_length()
// (7.2). Reports BTF-REF-008, BTF-REF-009, BTF-REF-012.
// `report_missing`: report a chain that reaches a nonexistent id (BTF-REF-012).
// The kernel only meets such a chain in kernel BTF, where no resolve pass ran.
void check_type_tags(const Btf& btf, Findings& findings, bool report_missing);

}  // namespace elfmeta::btf
