// The object-file cross-checks of BPF objects (spec btf.md §3.1 XC-SYM-009,
// XC-SYM-011, §3.4 XC-CONV-006). Their own table: the other XC-SYM rules
// live in btf/xc/.
#include "btf/ext/btf_ext_rules.h"

namespace elfmeta::btf::ext::rules {

const Rule XC_SYM_009{"XC-SYM-009", Severity::Warning, kNoConsumer,
                      "FUNC or VAR linkage differs from the binding of its symbol",
                      "In a BPF object a FUNC or VAR of linkage global (1) has an STB_GLOBAL or STB_WEAK "
                      "symbol, static (0) an STB_LOCAL one, extern (2) an undefined one. libbpf decides "
                      "from the BTF linkage whether a subprogram is verified as global or static and the "
                      "BPF static linker resolves symbols by it. In a kernel image or module a percpu VAR "
                      "of linkage 1 has a global symbol (an upper-case kallsyms or nm letter) and one of "
                      "linkage 0 a local one; absolute percpu symbols (x86-64 kallsyms before 6.15, all "
                      "'A') do not tell their binding and are not compared. FUNC linkage in vmlinux is "
                      "always 0 and not compared.",
                      "", "",
                      "clang's BPF object of progs.c whose static FUNC bump is given global linkage."};
const Rule XC_SYM_011{"XC-SYM-011", Severity::Error, kBpfObject | kLibbpf,
                      "a DATASEC or VAR of a BPF object does not match its ELF section or symbol",
                      "libbpf fixes the object's DATASECs before loading: a DATASEC of size 0 takes the "
                      "size of the ELF section of its name, and the global VARs in it the values of their "
                      "symbols; static VARs keep their offset; .kconfig and .ksyms are laid out by libbpf. "
                      "It fails (ENOENT) when the section is missing or empty or a global VAR has no "
                      "symbol, and when an extern VAR is outside .kconfig/.ksyms. Those are errors; a "
                      "static VAR whose offset is not its symbol's value, a non-zero DATASEC size that is "
                      "not the section's, or a static VAR of linkage other than 0 are warnings (libbpf "
                      "keeps them, and the data is then described at the wrong place).",
                      "libbpf", "",
                      "clang's BPF object of progs.c whose VAR global_counter (in .data) is renamed threshold, a "
                      "symbol of .rodata."};
const Rule XC_CONV_006{"XC-CONV-006", Severity::Note, kNoConsumer,
                       "BPF object BTF in its pre-fix-up form, judged as BPF_BTF_LOAD would load it raw",
                       "clang leaves DATASEC sizes and VAR offsets 0 and gives extern VARs and FUNCs "
                       "linkage 2 (.kconfig, .ksyms); libbpf fixes them before it loads the BTF. Legal "
                       "object BTF, illegal kernel-load BTF: under bpf-load the kernel's findings are "
                       "reported as they are; check with --consumer bpf-object to judge the BTF libbpf "
                       "would load.",
                       "", "",
                       "clang's BPF object of progs.c as written, before libbpf's fix-up: its DATASECs have size 0 "
                       "and its VARs offset 0."};

namespace {
constexpr const Rule* kTable[] = {&XC_SYM_009, &XC_SYM_011, &XC_CONV_006};
}  // namespace

std::span<const Rule* const> bpf_object_table() { return kTable; }

}  // namespace elfmeta::btf::ext::rules
