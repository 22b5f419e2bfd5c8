/* Several programs in several sections, a static subprogram, a global
 * function, global and static variables in .data/.bss/.rodata, a .kconfig
 * extern, maps. */
#include "mini_bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
  __uint(type, MAP_TYPE_ARRAY);
  __uint(max_entries, 4);
  __type(key, __u32);
  __type(value, __u64);
} counters SEC(".maps");

struct {
  __uint(type, MAP_TYPE_HASH);
  __uint(max_entries, 128);
  __type(key, __u32);
  __type(value, __u32);
} seen SEC(".maps");

int global_counter = 7;           /* .data */
__u64 global_zero;                /* .bss */
static int static_counter = 3;    /* .data, static */
static __u64 static_zero;         /* .bss, static */
const volatile int threshold = 42; /* .rodata */
const volatile char tag[8] = "elfmeta";
extern int LINUX_KERNEL_VERSION __kconfig;
extern _Bool CONFIG_BPF_SYSCALL __kconfig __weak;

static __noinline int bump(__u32 key, int by) {
  __u64 *v = map_lookup_elem(&counters, &key);
  if (!v) return 0;
  *v += by;
  static_zero += by;
  return (int)*v;
}

__noinline int global_helper(int x) {
  if (x > threshold) return x - threshold;
  return x + static_counter;
}

SEC("tracepoint/syscalls/sys_enter_read")
int on_read(void *ctx) {
  int r = bump(0, 1);
  global_counter += global_helper(r);
  return 0;
}

SEC("tracepoint/syscalls/sys_enter_write")
int on_write(void *ctx) {
  __u32 key = 1;
  __u32 *s = map_lookup_elem(&seen, &key);
  if (s) (*s)++;
  global_zero += bump(1, 2) + LINUX_KERNEL_VERSION;
  if (CONFIG_BPF_SYSCALL) global_zero++;
  return tag[0];
}

SEC("xdp")
int two_in_xdp(void *ctx) {
  return bump(2, global_helper(3)) > 10 ? 1 : 2;
}
