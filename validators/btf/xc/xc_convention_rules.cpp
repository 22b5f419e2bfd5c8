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
                    "", "",
                    "vmlinux BTF with INT int (type 1) before INT char (type 2): not sorted by name."};
const Rule CONV_002{"XC-CONV-002", Severity::Warning, kNoConsumer,
                    "INT is not a C base type of its size",
                    "Kernel BTF holds exactly the C base types (char ... __int128, _Bool, GCC's sizetype "
                    "and ssizetype). libbpf infers the pointer size from an INT named like long; an INT "
                    "whose size disagrees with its name (long of 4 bytes in 64-bit BTF) misleads it.",
                    "", "",
                    "vmlinux BTF with INT long int of 4 bytes (64-bit BTF) and INT u8, not a C base type name."};
const Rule CONV_003{"XC-CONV-003", Severity::Warning, kNoConsumer,
                    "array index type is not int or __ARRAY_SIZE_TYPE__",
                    "pahole uses int (or GCC's sizetype) and clang __ARRAY_SIZE_TYPE__ as the index type "
                    "of every ARRAY; the kernel only requires an integer. Another type suggests a "
                    "hand-made or damaged blob.",
                    "", "",
                    "ARRAY int[4] whose index type is INT char."};
const Rule CONV_004{"XC-CONV-004", Severity::Warning, kNoConsumer,
                    "DATASEC names no section of the image, or two DATASECs have one name",
                    "Kernel BTF has one DATASEC per data section it describes (.data..percpu, and with "
                    "the global_var feature .data, .bss, ...); the name is the ELF section's. A name the "
                    "image has no section of, or two DATASECs of one section, break lookups by section "
                    "name (bpf_core and bpftool find the DATASEC by name).",
                    "", "",
                    "vmlinux BTF with two DATASECs .data and one DATASEC .nowhere, a section the image lacks."};
const Rule CONV_005{"XC-CONV-005", Severity::Warning, kNoConsumer, "struct kind_flag set without a bitfield",
                    "pahole and clang set kind_flag on a STRUCT/UNION only when a member is a bitfield; the "
                    "kernel accepts kind_flag on any aggregate, but a consumer that takes kind_flag for "
                    "'has bitfields' (bpftool's C dump) then decodes the member offsets needlessly.",
                    "", "",
                    "STRUCT plain size 8 with kind_flag 1 { int a at bit 0, int b at bit 32 }: no bitfield."};

const Rule CONV_007{"XC-CONV-007", Severity::Warning, kNoConsumer,
                    "GCC-built kernel BTF carries user/rcu/percpu TYPE_TAGs",
                    "The kernel turns the btf_type_tag annotations (__user, __rcu, __percpu) into TYPE_TAG "
                    "records only when it is built with clang; a kernel image or module built with GCC "
                    "(the compiler named by its .comment or its linux_banner) has none, and tools that "
                    "know the compiler (bpftrace) rely on that. Such tags in GCC-built BTF come from "
                    "another producer than the build says. The attribute-style tag of GCC 15 "
                    "(address_space(1), kind_flag 1) is not one of these and is not reported.",
                    "", "",
                    "A GCC 12-built vmlinux (its .comment names GCC) whose BTF has PTR -> TYPE_TAG user -> int."};
const Rule CONV_009{"XC-CONV-009", Severity::Warning, kNoConsumer,
                    "byte order or pointer size differs between BTF and what it belongs to",
                    "Split BTF must have its base's byte order and pointer size, and BTF inside an ELF "
                    "file the file's byte order: libbpf reads a split blob with its base's ids and "
                    "strings, and infers the pointer size from an INT named like long. The kernel only "
                    "loads host-order BTF; a blob in the other order beside a host-order base or file "
                    "was written for another machine. (.BTF.ext in the other order is BTF-EXT-002.)",
                    "", "",
                    "Split BTF in big-endian byte order on a little-endian base of long int."};

std::span<const Rule* const> convention_table() {
  static const std::vector<const Rule*> table{&CONV_001, &CONV_002, &CONV_003, &CONV_004,
                                              &CONV_005, &CONV_007, &CONV_009};
  return table;
}

}  // namespace elfmeta::btf::xc::rules
