/* A module-like unit encoded as split BTF on prog's (distilled_base: pahole
 * also writes .BTF.base, the base types it refers to, for relocation). */
enum wide { WIDE_LOW = 1, WIDE_HIGH = 0x100000000ULL };
struct sample {
  float f;
  double d;
  int *up;
  enum wide w;
  int tagged;
};
struct mod_state {
  struct sample *s;
  unsigned long hits;
};
__attribute__((section(".data..percpu"))) struct mod_state mod_percpu;
int mod_entry(struct mod_state *m) { return (int)m->hits + (int)m->s->w; }
