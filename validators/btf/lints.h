// Warnings about BTF that the kernel accepts but producers should not emit.
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

// No kernel counterpart. Reports BTF-STR-008, BTF-STR-011, BTF-INT-008,
// BTF-INT-009, BTF-AGG-017, BTF-ENUM-007, BTF-ENUM-008, BTF-DATASEC-013,
// BTF-DATASEC-015.
void lint(const Btf& btf, Findings& findings);

}  // namespace elfmeta::btf
