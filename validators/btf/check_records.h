// Record checks (the kernel's per-record "meta" phase): info bits, names,
// vlen/kind_flag/size rules of each kind, member/entry ordering.
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

void check_records(const Btf& btf, Findings& findings);

}  // namespace elfmeta::btf
