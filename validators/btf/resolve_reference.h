// The reference resolve pass: the kernel's btf_check_all_types() and its
// resolve state machine (kernel/bpf/btf.c), in the kernel's order and with
// the kernel's function names, written to be read beside that file. The fast
// pass (resolve.cpp) must give the same findings and the same ResolveState;
// tests/btf/resolve_reference_test.cpp and fuzz_btf compare the two.
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"
#include "btf/resolve.h"

namespace elfmeta::btf {

// Resolves every own type of `btf` and checks every FUNC_PROTO, id after id,
// as btf_check_all_types() does. Unlike the kernel it goes on past a
// failure: the types on the failed path are Poisoned and the types that
// reach them later fail silently. `base_state` is the base's ResolveState for
// split BTF. Types already flagged by the record checks count as failed.
// Reports BTF-TYPE-007, -009, -010, -012, BTF-REF-007, BTF-VAR-005,
// BTF-ARRAY-005..008, BTF-AGG-008..016, BTF-FUNC-004, -005,
// BTF-PROTO-003..005, BTF-DTAG-006..008, BTF-DATASEC-011, -012.
void resolve_types_reference(const Btf& btf, const ResolveState* base_state, ResolveState& state,
                             Findings& findings);

}  // namespace elfmeta::btf
