// XC-CONV: conventions of the producers that consumers rely on without the
// kernel checking them (spec btf.md §3.4). XC-CONV-006 (BPF objects) is in
// the BPF object table.
#include <vector>

#include "btf/xc/xc_rules.h"

namespace elfmeta::btf::xc::rules {

const Rule CONV_001{"XC-CONV-001", Severity::Note, kNoConsumer, "named types are not sorted by name",
                    "Kernels with the sorted-BTF fast path look names up by binary search from the first "
                    "named type when vmlinux BTF is sorted (anonymous types first, then by name), and detect "
                    "sortedness of other BTF before using it. Reported as information for kernel images "
                    "(vmlinux, /sys/kernel/btf/vmlinux): where the order first breaks.",
                    "", ""};
const Rule CONV_002{"XC-CONV-002", Severity::Warning, kNoConsumer,
                    "INT is not a C base type of its size",
                    "Kernel BTF holds exactly the C base types (char ... __int128, _Bool, GCC's sizetype "
                    "and ssizetype). libbpf infers the pointer size from an INT named like long; an INT "
                    "whose size disagrees with its name (long of 4 bytes in 64-bit BTF) misleads it.",
                    "", ""};
const Rule CONV_003{"XC-CONV-003", Severity::Warning, kNoConsumer,
                    "array index type is not int or __ARRAY_SIZE_TYPE__",
                    "pahole uses int (or GCC's sizetype) and clang __ARRAY_SIZE_TYPE__ as the index type "
                    "of every ARRAY; the kernel only requires an integer. Another type suggests a "
                    "hand-made or damaged blob.",
                    "", ""};
const Rule CONV_004{"XC-CONV-004", Severity::Warning, kNoConsumer,
                    "DATASEC names no section of the image, or two DATASECs have one name",
                    "Kernel BTF has one DATASEC per data section it describes (.data..percpu, and with "
                    "the global_var feature .data, .bss, ...); the name is the ELF section's. A name the "
                    "image has no section of, or two DATASECs of one section, break lookups by section "
                    "name (bpf_core and bpftool find the DATASEC by name).",
                    "", ""};
const Rule CONV_005{"XC-CONV-005", Severity::Warning, kNoConsumer, "struct kind_flag set without a bitfield",
                    "pahole and clang set kind_flag on a STRUCT/UNION only when a member is a bitfield; the "
                    "kernel accepts kind_flag on any aggregate, but a consumer that takes kind_flag for "
                    "'has bitfields' (bpftool's C dump) then decodes the member offsets needlessly.",
                    "", ""};

std::span<const Rule* const> convention_table() {
  static const std::vector<const Rule*> table{&CONV_001, &CONV_002, &CONV_003, &CONV_004, &CONV_005};
  return table;
}

}  // namespace elfmeta::btf::xc::rules
