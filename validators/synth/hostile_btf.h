// BTF shapes that once crashed, hung or exhausted elfmeta (issue 27), built
// from their description: the regression tests, the fuzz seeds and the
// regress/ reproducers all come from here.
#pragma once

#include <cstdint>
#include <vector>

#include "synth/btf_builder.h"

namespace elfmeta::synth {

// An array of 2,147,483,649 structs of two kptrs inside a struct that the
// special-field scan visits: 2 fields x (nelems - 1 + 1) wraps to 2 in 32
// bits. `spin_lock_trigger`: the outer struct is scanned for its
// bpf_spin_lock member instead of its own kptr. Padded with PTR records to
// `types` types so that `elfmeta check` takes its two-thread path.
BtfBuilder kptr_array_repeat_wrap(bool spin_lock_trigger, uint32_t types = 4200);

// The same wrap inside valid BTF (found while studying Linux 7.2): STRUCT
// outer { struct bpf_spin_lock l; e arr[477218589]; } where e (8 bytes) is
// nine kptrs all at offset 0. The array is 3.8 GB, within u32; 9 fields x
// 477,218,589 elements wraps to 5. Kernels with the 32-bit test (6.18.x to
// 7.0.x) copy about 4 billion fields into an 11-entry stack array and crash;
// fixed kernels (6.12.96+, 7.1+) refuse it with E2BIG. NEVER load it into
// the running kernel.
BtfBuilder kptr_array_repeat_wrap_valid();

// STRUCT top { struct bpf_spin_lock l; s0 s; } where each of s0..s(depth-2)
// has three members of the next, all at offset 0, and s(depth-1) is a leaf
// { int }: valid BTF whose special-field scan visits about 1.5 * 3^(depth-1)
// structs in the kernel.
BtfBuilder nested_three_way(uint32_t depth);

// FUNC f of a FUNC_PROTO with `params` parameters that all point back to it
// (a valid function-pointer cycle). `direct`: each parameter is the
// FUNC_PROTO itself, not a PTR to it (invalid BTF, but `diff` reads any blob
// that parses).
BtfBuilder self_referential_proto(uint32_t params, bool direct = false);

}  // namespace elfmeta::synth
