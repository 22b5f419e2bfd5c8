// The BTF rule table (IDs from ../shared/spec/btf.md §2, plus BTF-FWD-*,
// BTF-FLOAT-* and BTF-REF-012 which the catalogue describes without an ID).
#pragma once

#include <span>

#include "core/rule.h"

namespace elfmeta::btf::rules {

std::span<const Rule* const> table();

// Header and section layout.
extern const Rule HDR_001, HDR_002, HDR_003, HDR_004, HDR_005, HDR_006, HDR_007, HDR_008, HDR_009,
    HDR_010, HDR_011, HDR_012, HDR_013, HDR_014, HDR_015, HDR_016, HDR_017;
extern const Rule LAYOUT_001, LAYOUT_003, LAYOUT_006, LAYOUT_007;
// Strings.
extern const Rule STR_001, STR_002, STR_003, STR_004, STR_006, STR_007, STR_008, STR_011;
// Common record rules.
extern const Rule TYPE_001, TYPE_002, TYPE_003, TYPE_004, TYPE_007, TYPE_009, TYPE_010,
    TYPE_012;
// Per kind.
extern const Rule INT_001, INT_002, INT_003, INT_004, INT_005, INT_006, INT_008, INT_009;
extern const Rule REF_001, REF_002, REF_003, REF_004, REF_005, REF_006, REF_007, REF_008, REF_009,
    REF_012;
extern const Rule ARRAY_002, ARRAY_003, ARRAY_004, ARRAY_005, ARRAY_006, ARRAY_007, ARRAY_008;
extern const Rule AGG_002, AGG_003, AGG_004, AGG_005, AGG_006, AGG_007, AGG_008, AGG_009, AGG_010,
    AGG_011, AGG_012, AGG_013, AGG_014, AGG_015, AGG_016, AGG_017;
extern const Rule ENUM_002, ENUM_003, ENUM_004, ENUM_007, ENUM_008;
extern const Rule FWD_001, FWD_002, FWD_003;
extern const Rule FUNC_001, FUNC_002, FUNC_003, FUNC_004, FUNC_005;
extern const Rule PROTO_002, PROTO_003, PROTO_004, PROTO_005, PROTO_006;
extern const Rule VAR_001, VAR_002, VAR_003, VAR_004, VAR_005;
extern const Rule DATASEC_002, DATASEC_003, DATASEC_004, DATASEC_005, DATASEC_006, DATASEC_007,
    DATASEC_008, DATASEC_009, DATASEC_011, DATASEC_012, DATASEC_013, DATASEC_015;
extern const Rule FLOAT_001, FLOAT_002, FLOAT_003;
extern const Rule DTAG_002, DTAG_003, DTAG_005, DTAG_006, DTAG_007, DTAG_008;
// Special fields (struct members the BPF runtime manages), user BTF only.
extern const Rule FIELD_003, FIELD_004, FIELD_005, FIELD_006, FIELD_007, FIELD_008, FIELD_009, FIELD_010,
    FIELD_011, FIELD_012, FIELD_013, FIELD_014, FIELD_015, FIELD_016, FIELD_017, FIELD_018,
    FIELD_019, FIELD_021, FIELD_022, FIELD_023;
// Features older kernels reject (kernel profiles).
extern const Rule VER_001, VER_002, VER_003, VER_004, VER_005, VER_006, VER_007, VER_008, VER_009,
    VER_010, VER_011, VER_015, VER_016, VER_017, VER_018;
// libbpf's own checks (--libbpf).
extern const Rule LIBBPF_001, LIBBPF_002, LIBBPF_003, LIBBPF_004, LIBBPF_005, LIBBPF_006, LIBBPF_007,
    LIBBPF_008, LIBBPF_009, LIBBPF_010, LIBBPF_011, LIBBPF_012, LIBBPF_013, LIBBPF_014, LIBBPF_015,
    LIBBPF_016, LIBBPF_017;
// What libbpf's tools do with BTF libbpf accepts (--libbpf).
extern const Rule LIBBPF_018, LIBBPF_019, LIBBPF_020;

}  // namespace elfmeta::btf::rules
