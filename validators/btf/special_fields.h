// The special-field pass of BPF_BTF_LOAD: structs that embed BPF runtime
// objects (locks, list/rbtree roots and nodes, refcounts, kptrs) follow
// layout rules the kernel checks last, after every other pass succeeded.
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

// btf_parse_struct_metas() and btf_check_and_fixup_fields() (the last steps
// of btf_parse()). Base BTF whose record checks passed. It may run beside the reference pass
// (its findings are dropped when that pass fails): special_fields.cpp lists
// what it assumes and what it checks itself. Reports BTF-FIELD-003 to -019,
// -021 and -022 (the kernel's cost of the scan).
// `kernel_btf`: the target kernel's vmlinux BTF if known; a referenced kptr
// to a struct absent from it is a program-local object and needs nothing.
void check_special_fields(const Btf& btf, const Btf* kernel_btf, Findings& findings);

}  // namespace elfmeta::btf
