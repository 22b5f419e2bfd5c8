// libbpf's own BTF checks (btf__new / btf__parse_raw: header, sections,
// strings, record sizes, and since 1.3 the sanity pass), per libbpf release
// 1.0 to 1.8. They are lighter than the kernel's and different: libbpf
// allows gaps and ignores version and flags, but refuses kinds it does not
// know and, before 1.8, non-native BTF with a header longer than 24 bytes.
// Findings use the BTF-LIBBPF-* rules, which only the libbpf consumer
// enforces.
#pragma once

#include <span>

#include "btf/btf.h"
#include "btf/findings.h"
#include "btf/kernel_profile.h"

namespace elfmeta::btf {

inline constexpr Release kOldestLibbpf{1, 0}, kNewestLibbpf{1, 8};

// `base`: the parsed base of split BTF, or null.
void check_libbpf(std::span<const uint8_t> data, const Btf* base, Release libbpf, Findings& f);

}  // namespace elfmeta::btf
