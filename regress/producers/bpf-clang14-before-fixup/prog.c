/* Globals of every section kind, an extern variable (Kconfig-style) and an
 * extern function (a kfunc-like declaration): clang leaves the DATASECs'
 * sizes and offsets 0 and gives the externs linkage 2 (extern), for libbpf
 * to fix up before BPF_BTF_LOAD. */
#include "mini_bpf.h"

char LICENSE[] SEC("license") = "GPL";

int counter = 1;
__u64 zeroed[4];
const volatile __u32 limit = 16;
int in_custom SEC(".data.custom") = 7;
extern unsigned int CONFIG_HZ __attribute__((section(".kconfig"), weak));
extern int bpf_helper_kfunc(int x) __attribute__((section(".ksyms")));

SEC("socket")
int prog(void *ctx) {
  zeroed[1] = counter + in_custom;
  if (CONFIG_HZ > limit) return bpf_helper_kfunc(1);
  return 0;
}
