// The special-field pass of BPF_BTF_LOAD: structs that embed BPF runtime
// objects (locks, list/rbtree roots and nodes, refcounts, kptrs) follow
// layout rules the kernel checks last, after every other pass succeeded.
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

// Run only on base BTF that passed every other kernel check: the scan
// follows references without guarding against cycles, as the kernel does.
// `kernel_btf`: the target kernel's vmlinux BTF if known; a referenced kptr
// to a struct absent from it is a program-local object and needs nothing.
void check_special_fields(const Btf& btf, const Btf* kernel_btf, Findings& findings);

}  // namespace elfmeta::btf
