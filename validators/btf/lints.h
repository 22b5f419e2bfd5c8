// Warnings about BTF that the kernel accepts but producers should not emit.
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

void lint(const Btf& btf, Findings& findings);

}  // namespace elfmeta::btf
