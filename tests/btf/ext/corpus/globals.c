/* Data in custom sections, a function-local static, a subprogram called
 * from two programs and a global function shared by them, a loop, and a
 * 16-byte ld_imm64 in every map and global access. */
#include "mini_bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

int in_custom SEC(".data.custom") = 1;
int more_custom[4] SEC(".data.custom") = {1, 2, 3, 4};
const volatile __u64 config_words[2] SEC(".rodata.cfg") = {5, 6};
static volatile __u32 private_bss[16];
__u32 shared_array[8];

static __noinline __u32 mix(__u32 a, __u32 b) {
  static __u32 calls;
  calls++;
  return (a * 2654435761u) ^ b ^ calls;
}

__noinline int sum_custom(int n) {
  int s = 0;
  for (int i = 0; i < 4 && i < n; i++) s += more_custom[i];
  return s + in_custom;
}

SEC("socket")
int filter_one(void *skb) {
  private_bss[3] = mix(1, 2);
  shared_array[1] = sum_custom(3);
  return config_words[0] > 4;
}

SEC("socket")
int filter_two(void *skb) {
  shared_array[2] = mix(3, (__u32)config_words[1]);
  return sum_custom(4) + private_bss[3];
}
