// Second translation unit of the BTF-vs-DWARF corpus: a static function and
// a struct whose names are also used by layouts.c, with other layouts.
#include <stddef.h>

struct local_only {
  short s;
  char tag[3];
};

// Same tag as in layouts.c is not allowed to differ in one program, but a
// static function with the same name is.
static __attribute__((noinline)) int helper2(struct local_only *l) { return l->s + l->tag[1]; }

static __attribute__((noinline)) int same_static(int x) { return x + 1; }

typedef unsigned long word_t;

struct local_only g_local;

int other_entry(int x) { return same_static(x) + helper2(&g_local) + (int)sizeof(word_t); }

// Per-CPU variables: pahole 1.24 encodes VARs only for .data..percpu.
struct counters {
  unsigned long hits, misses;
  int last[4];
};
__attribute__((section(".data..percpu"))) struct counters pcpu_counters;
__attribute__((section(".data..percpu"))) int pcpu_depth[2][3];
__attribute__((section(".data..percpu"))) const char *pcpu_name;

enum { ANON_A = 7, ANON_B = 9 } g_anon_enum;

// A function GCC clones with a changed ABI (.isra / .constprop) at -O2.
static __attribute__((noinline)) int clone_me(struct counters *c, int unused, int k) {
  return (int)c->hits + k;
}
int use_clone(int k) { return clone_me(&pcpu_counters, 0, k) + clone_me(&pcpu_counters, 0, k + 1); }
