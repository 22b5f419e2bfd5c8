// XC-SYM: BTF names and DATASEC offsets against the symbols of the code and
// data they describe (spec btf.md §3.1). XC-SYM-009/011 (BPF objects) are in
// the BPF object table.
#include <vector>

#include "btf/xc/xc_rules.h"

namespace elfmeta::btf::xc::rules {

const Rule SYM_001{"XC-SYM-001", Severity::Warning, kNoConsumer, "FUNC has no text symbol of its name",
                   "fentry/fexit programs and kprobes attach to a BTF function by looking its name up in "
                   "kallsyms; without a text symbol of exactly that name the attach fails (\"cannot find "
                   "address\"). The message says which of three cases it is: only compiler clones exist "
                   "(NAME.part.N, .cold; the kernel strips only .llvm. suffixes; a FUNC with only .isra or .constprop "
                   "clones is XC-SYM-004, whose prototype is then in doubt too), the "
                   "name looks like built-in module exit code (.exit.text lies outside the kallsyms text "
                   "ranges), or the function is absent (inlined everywhere or discarded: the producer "
                   "encoded a function that has no code).",
                   "pahole 1.16", "",
                   "FUNC gone (int(void)) with kallsyms that have no text symbol gone (only other and "
                   "cloned.part.0)."};
const Rule SYM_002{"XC-SYM-002", Severity::Warning, kNoConsumer, "FUNC name has several text symbols",
                   "Static functions of one name in several files (binfmt_elf.c and compat_binfmt_elf.c) "
                   "have several addresses; a tracer attaching by BTF name gets the first one only, and "
                   "which of them the FUNC record describes is not recorded. pahole 1.24 encodes such "
                   "names; newer pahole leaves them out.",
                   "pahole 1.16", "",
                   "FUNC load_elf_binary with two text symbols load_elf_binary at different addresses."};
const Rule SYM_003{"XC-SYM-003", Severity::Warning, kNoConsumer,
                   "several FUNC records of one name with different prototypes",
                   "Same-named static functions with different signatures each got a FUNC; resolve_btfids "
                   "and kfunc lookup by name pick one arbitrarily, and which record belongs to which "
                   "address is unknowable. pahole 1.25+ drops them (consistent_func).",
                   "pahole 1.16", "",
                   "Two FUNC records parse_header, one of int(void) and one of int(int a, int b), and one text "
                   "symbol parse_header."};
const Rule SYM_004{"XC-SYM-004", Severity::Warning, kNoConsumer,
                   "FUNC prototype does not describe the ABI of the function's code",
                   "A FUNC's prototype tells fentry/fexit programs, kprobes with BTF arguments and "
                   "debuggers which register holds which argument. When the compiler changed a local "
                   "function's interface (GCC's .isra and .constprop clones drop, replace or reorder "
                   "parameters and drop return values; clang's dead-argument elimination does the same "
                   "under the original name), the source prototype describes other registers: a tracer "
                   "reads the wrong values. Reported for a FUNC whose only text symbols are .isra or "
                   ".constprop clones (no symbol of the name to attach to, and a clone ABI the prototype "
                   "may not describe), for one whose DWARF subprogram says DW_AT_calling_convention "
                   "DW_CC_nocall, and, on x86-64, for one where every out-of-line copy in the DWARF "
                   "receives an integer or pointer parameter in another register than the SysV ABI "
                   "gives its position (where a location list says so at the entry address, or a single "
                   "location from clang; GCC writes a single location for a parameter's home after the "
                   "prologue when it does not track variables, which says nothing about the entry). pahole 1.25+ (--btf_gen_optimized) leaves out the clones whose "
                   "signature it sees changed and encodes the others under the function's name (593 in "
                   "a 6.18 build): a FUNC with only clones is a doubt, the DWARF evidence is proof. Not "
                   "seen without DWARF locations: a dropped return value or last parameter.",
                   "pahole 1.16", "",
                   "drop_middle(int a, int b, int c) built by clang -O2, which drops the unused b so c arrives in "
                   "rsi, with pahole 1.24's BTF of the source prototype."};
const Rule SYM_005{"XC-SYM-005", Severity::Error, kNoConsumer,
                   "percpu VAR offset differs from its symbol, or its size runs into the next symbol",
                   "The offset of a VAR in DATASEC .data..percpu must equal its symbol's address minus "
                   "__per_cpu_start (zero-based absolute symbols on x86-64 up to 6.14). bpf_this_cpu_ptr "
                   "on a typed __ksym uses the kallsyms address while bpftool and drgn use the BTF offset: "
                   "a mismatch makes them read a different variable. The kernel does not check it.",
                   "Linux 5.7 (percpu VARs in vmlinux BTF)", "",
                   "Percpu DATASEC with VAR a (int[2]) at offset 0x14 while kallsyms have the percpu symbol a at "
                   "0x10."};
const Rule SYM_006{"XC-SYM-006", Severity::Warning, kNoConsumer, "DATASEC size larger than its section",
                   "A DATASEC describes an ELF section; its size may end at the last VAR (pahole 1.24) or "
                   "equal the section's (newer pahole), but it cannot be larger than the section.",
                   "pahole 1.18", "",
                   "Percpu DATASEC of size 0x200 while __per_cpu_start..__per_cpu_end spans 0x100."};
const Rule SYM_007{"XC-SYM-007", Severity::Warning, kNoConsumer, "percpu symbol without a VAR",
                   "Every percpu variable should have a VAR so that BPF programs and debuggers can find "
                   "it by name. Expected exceptions are reported as notes: the variable at offset 0 "
                   "(DEFINE_PER_CPU_FIRST, which older pahole takes for 'no address') and linker-script "
                   "aliases of a variable that has a VAR (const_pcpu_hot on 6.12).",
                   "pahole 1.18", "",
                   "Percpu symbol b at 0x20 in kallsyms with no VAR b in the percpu DATASEC."};
const Rule SYM_008{"XC-SYM-008", Severity::Warning, kNoConsumer,
                   "global-variable VAR offset differs from its symbol",
                   "With pahole's global_var feature every data section has a DATASEC; a VAR's offset "
                   "must equal its symbol's address minus the section's address (the symbol value in a "
                   "relocatable object), or a debugger reading globals by BTF reads the wrong bytes.",
                   "pahole 1.28", "",
                   "An image with .data at 0x2000 and symbol counter at 0x2004, whose DATASEC .data has VAR "
                   "counter at offset 0."};
const Rule SYM_010{"XC-SYM-010", Severity::Warning, kNoConsumer, "bpf_kfunc FUNC without a text symbol or a kfunc set",
                   "A FUNC tagged bpf_kfunc is called by BPF programs through its kallsyms address; "
                   "without a text symbol of its name the call cannot be resolved when a program is "
                   "loaded. And a kfunc is callable only when a BTF_SET8 of .BTF_ids registers it: "
                   "where the artifact's symbols show its kfunc sets, a tagged FUNC in none of them is "
                   "reported too.",
                   "Linux 6.5 (bpf_kfunc tags)", "",
                   "FUNC bpf_obj_new_impl tagged bpf_kfunc (DECL_TAG) with no text symbol of its name and in no "
                   "kfunc set."};
const Rule SYM_012{"XC-SYM-012", Severity::Warning, kNoConsumer,
                   "address declaration tag does not name a symbol of its function",
                   "A DECL_TAG \"addr=0x...\" on a FUNC (proposed so that tracers can tell same-named "
                   "static functions apart) must give the address of a text symbol of the FUNC's name; "
                   "otherwise a tracer attaches to the wrong code.",
                   "proposal (2025)", "",
                   "FUNC init_once with DECL_TAG addr=0xffffffff81000200 where its two symbols are at ...000000 "
                   "and ...000400."};

const Rule SYM_013{"XC-SYM-013", Severity::Warning, kNoConsumer,
                   "BTF id set entry unresolved, not the FUNC its symbol names, or out of order",
                   "resolve_btfids writes the BTF id of each function named in a BTF_SET8 (kfunc sets) or "
                   "BTF_SET of .BTF_ids, and sorts the sets: the kernel finds kfuncs and their flags by "
                   "binary search. An id of 0 is a function resolve_btfids did not find (it warns "
                   "\"unresolved symbol\"; the kfunc cannot be called); an id that is not the FUNC the "
                   "entry's __BTF_ID__func__ symbol names registers the wrong function; an unsorted set "
                   "hides entries from the search. Checked where the symbols show the sets (module and "
                   "object symtabs; an image's kallsyms tables with KALLSYMS_ALL).",
                   "resolve_btfids", "",
                   "A module's BTF_SET8 kfuncs listing kf_a and kf_gone, whose entry for kf_gone is 0 "
                   "(resolve_btfids found no FUNC)."};

std::span<const Rule* const> symbol_table() {
  static const std::vector<const Rule*> table{&SYM_001, &SYM_002, &SYM_003, &SYM_004, &SYM_005, &SYM_006,
                                              &SYM_007, &SYM_008, &SYM_010, &SYM_012, &SYM_013};
  return table;
}

}  // namespace elfmeta::btf::xc::rules
