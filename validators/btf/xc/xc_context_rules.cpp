// XC-CTX: the context a check is given (--kallsyms, --base-btf) against the
// input it is given for: symbols or a base of another kernel make every
// check that reads them report the difference between two kernels.
#include <vector>

#include "btf/xc/xc_rules.h"

namespace elfmeta::btf::xc::rules {

const Rule CTX_001{"XC-CTX-001", Severity::Error, kNoConsumer, "kallsyms are not of the image they are checked with",
                   "The symbol checks (XC-SYM, the BTF id sets, ORC-SYM, the ORC boundary symbols) compare an "
                   "image with its symbols; with the /proc/kallsyms or System.map of another kernel (another "
                   "release, another build or config of one release) every function lies elsewhere and every "
                   "comparison fails: tens of thousands of findings that describe the difference between two "
                   "kernels, not a defect. It happens when --kallsyms /proc/kallsyms is given for an image that "
                   "is not the running kernel, or a System.map of another build. The evidence, in this order: the "
                   "image's own symbols (its symtab, else the kallsyms tables compiled into it) put well-known "
                   "functions (start_kernel, schedule, do_exit, vfs_read, kfree, ... : those of the 20 present "
                   "once on both sides, at least 4) at one distance from where the file puts them, as KASLR "
                   "shifts the whole image by one offset (fewer than half at one distance: another kernel); "
                   "else the releases, where both are known (the image's banner or the running kernel's for "
                   "/sys/kernel/btf/vmlinux; the running kernel's for /proc/kallsyms, the file name's for "
                   "System.map-RELEASE): different releases are different kernels; else the BTF's FUNC names: "
                   "more than a quarter of them (of at least 100) with no text symbol of the name or a clone of "
                   "it (the running 6.18's BTF misses 1.5% of its /proc/kallsyms). One finding; the symbol "
                   "checks are not run (a note lists them) and the run fails.",
                   "any kernel with kallsyms", "",
                   "A vmlinux whose symtab has start_kernel, schedule, do_exit and vfs_read 0x100 apart, checked "
                   "with kallsyms that have them at unrelated addresses."};
const Rule CTX_002{"XC-CTX-002", Severity::Error, kNoConsumer, "split BTF checked on a base it was not built on",
                   "A module's split BTF continues the vmlinux BTF it was built with: its type ids start at the "
                   "base's type count and its string offsets at the base's string length. On another base "
                   "(--base-btf of another kernel, a module given beside another kernel's image) its "
                   "references land on the wrong base types and its names in the middle of strings: a flood "
                   "of findings, or on an unlucky base a silent pass. The kernel refuses such a module at load "
                   "(vermagic) or its BTF (\"failed to validate module BTF\"). The evidence: every name the "
                   "split BTF gives at or past the base's string length must start a string of its own string "
                   "section, and none may lie past it (fewer than half on a string start, any past it, or none "
                   "into its own strings: another base; the highest name offset less the start of its last "
                   "string gives the length of the base it was built on); where it has no names of its own, its "
                   "FUNCs must have a FUNC_PROTO for a type on this base (fewer than half: another base); where "
                   "it has no FUNCs either, the module's vermagic release against the base's (an image's banner, the running kernel's for /sys/kernel/btf/vmlinux). "
                   "One finding per base for all the modules checked on it; their split BTF is counted as not "
                   "checked.",
                   "Linux 5.11 (module split BTF)", "",
                   "A module's split BTF (STRUCT mod_s { int a; }, FUNC mod_f) built on a base whose one INT is "
                   "named 'int', checked on a base whose INT is named 'long int'."};

std::span<const Rule* const> context_table() {
  static const std::vector<const Rule*> table{&CTX_001, &CTX_002};
  return table;
}

}  // namespace elfmeta::btf::xc::rules
