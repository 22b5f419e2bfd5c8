/* A second unit: another static 'helper' (consistent_func drops the name),
 * main calling everything so that nothing is dropped. */
struct sample;
extern int counter;
int demo_kfunc(struct sample *s, int k);
void *demo_arena_alloc(void *where, unsigned long size);
extern struct sample global_sample;

static __attribute__((noinline)) long helper(long a, long b) { return a * b + counter; }

int main(int argc, char **argv) {
  (void)argv;
  return demo_kfunc(&global_sample, argc) + (int)helper(argc, 5) + (demo_arena_alloc(argv, 1) != 0);
}
