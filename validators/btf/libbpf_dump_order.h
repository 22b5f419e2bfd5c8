// What libbpf's btf_dump (bpftool's `btf dump ... format c`) does with BTF
// libbpf accepted: whether ordering the types for C ends, and ends well. The
// ordering recurses along references and marks only structs, unions (and
// what it has finished), so a cycle of other references never ends
// (regress/known-bugs/libbpf-1.7/dump-pointer-cycle); a struct reached again
// where C cannot declare it ahead is an "unsatisfiable type cycle"
// (regress/known-bugs/libbpf-1.8).
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

// Reports BTF-LIBBPF-019 once per type that closes a cycle of pointers,
// modifiers, typedefs, arrays and prototypes (return and parameter types),
// and BTF-LIBBPF-020 once per set of types joined by a cycle of the
// ordering that holds a struct or union, each with a cycle.
void check_btf_dump_order(const Btf& btf, Findings& f);

}  // namespace elfmeta::btf
