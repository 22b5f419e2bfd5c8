// What libbpf's btf_dump (bpftool's `btf dump ... format c`) does with BTF
// libbpf accepted: how high its shared declaration stack grows. A stack past
// its first 16 entries is reallocated under a view btf_dump still reads
// (regress/known-bugs/libbpf-1.7/dump-nested-anonymous-decl-stack).
#pragma once

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

// btf_dump's first allocation of its declaration stack, in entries.
inline constexpr uint32_t kBtfDumpFirstStack = 16;

// Reports BTF-LIBBPF-018 at each named struct or union, and each typedef,
// whose emission takes the stack past kBtfDumpFirstStack entries.
void check_btf_dump_stack(const Btf& btf, Findings& f);

}  // namespace elfmeta::btf
