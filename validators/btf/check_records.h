// Record checks (the kernel's per-record "meta" phase): info bits, names,
// vlen/kind_flag/size rules of each kind, member/entry ordering.
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

// `screen`: records of the common shapes that are plainly clean skip the
// checks that would prepare their messages (the findings are the same).
void check_records(const Btf& btf, Findings& findings, bool screen = true);

}  // namespace elfmeta::btf
