// BPF objects (clang -target bpf -g -c): the .BTF libbpf would load after
// its fix-up, and the cross-checks of the object's .BTF against its ELF
// sections and symbols (XC-SYM-009, XC-SYM-011, XC-CONV-006).
#pragma once

#include <cstdint>
#include <vector>

#include "btf/btf.h"
#include "core/findings.h"
#include "input/artifact.h"

namespace elfmeta::btf::ext {

// A relocatable ELF object for the BPF machine (EM_BPF).
bool is_bpf_object(const input::Artifact& a);

// Cross-checks the object's raw (pre-fix-up) BTF with its ELF and returns
// the blob libbpf would hand to BPF_BTF_LOAD, in host byte order: DATASEC
// sizes from the ELF sections, global VAR offsets from their symbols,
// .kconfig and .ksyms laid out, extern linkage made global, entries sorted
// by offset. Where libbpf's fix-up would fail the finding is an XC-SYM-011
// error and that DATASEC is left as it is. Empty when the types could not
// be parsed to their end.
std::vector<uint8_t> check_object_btf(const input::Artifact& a, const Btf& raw, elfmeta::Findings& f);

// One XC-CONV-006 note when the raw BTF is in clang's pre-fix-up form (for
// consumers that judge it raw).
void note_object_form(const input::Artifact& a, const Btf& raw, elfmeta::Findings& f);

}  // namespace elfmeta::btf::ext
