/* Weak definitions that strong.c overrides, as the kernel's __weak defaults
 * (bpf_*_proto in kernel/bpf/core.c, hv_nested in drivers/hv/hv_common.c,
 * init_uts_ns in init/version.c). This unit's DWARF locates them at the
 * symbol, that is at the strong definition's address once linked. */
int __attribute__((weak)) counter;
const long __attribute__((weak)) limits[4] = {1, 2, 3, 4};
int read_counter(void) { return counter + (int)limits[0]; }
