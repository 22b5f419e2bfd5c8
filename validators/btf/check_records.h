// Record checks (the kernel's per-record "meta" phase): info bits, names,
// vlen/kind_flag/size rules of each kind, member/entry ordering.
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

// btf_check_all_metas()'s checks of each record (btf_check_meta() and its
// kind's check_meta; parse.cpp walks the records). Reports BTF-TYPE-002,
// BTF-STR-006, -007, BTF-INT-001..006, BTF-REF-001..006, BTF-ARRAY-002..004,
// BTF-AGG-002..007, BTF-ENUM-002..004, BTF-FWD-001..003, BTF-FUNC-001..003,
// BTF-PROTO-002, -006, BTF-VAR-001..004, BTF-DATASEC-002..009,
// BTF-FLOAT-001..003, BTF-DTAG-002, -003, -005, and the rules of kinds the
// target release lacks.
// `screen`: records of the common shapes that are plainly clean skip the
// checks that would prepare their messages (the findings are the same).
void check_records(const Btf& btf, Findings& findings, bool screen = true);

}  // namespace elfmeta::btf
