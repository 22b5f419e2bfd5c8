/* CO-RE relocations of every kind clang 14 emits: field offsets (with
 * __builtin_preserve_access_index), field existence, size, signedness and
 * bitfield shifts, type existence/size/ids, enum value existence/value
 * (type_matches, kind 12, needs clang 15). */
#include "mini_bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct task_struct___local {
  int pid;
  int tgid;
  unsigned int flags : 3;
  unsigned int state : 5;
  struct {
    long a;
    long b[4];
  } nested;
} __attribute__((preserve_access_index));

struct maybe_missing {
  int x;
};

enum task_state { TASK_RUNNING = 0, TASK_DEAD = 64 };

__u64 out[8];

SEC("kprobe/do_exit")
int probe_exit(struct task_struct___local *t) {
  __u64 flags;
  out[0] = t->pid;
  out[1] = t->nested.b[2];
  if (core_field_exists(t->tgid)) out[2] = t->tgid;
  out[3] = core_field_size(t->nested) + __builtin_preserve_field_info(t->pid, 3);
  flags = *(__u64 *)((char *)t + core_field_offset(t->flags));
  flags <<= core_field_lshift(t->flags);
  flags >>= core_field_rshift(t->flags);
  out[4] = flags;
  out[5] = core_type_exists(struct maybe_missing) + core_type_size(struct maybe_missing);
  out[6] = core_type_id_kernel(struct maybe_missing) + core_type_id_local(struct task_struct___local);
  if (core_enum_value_exists(enum task_state, TASK_DEAD)) out[7] = core_enum_value(enum task_state, TASK_DEAD);
  return 0;
}

SEC("kprobe/do_fork")
int probe_fork(struct task_struct___local *t) {
  return t->state;
}
