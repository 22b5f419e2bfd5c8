// Two static functions named like ones of b.c: same prototype (same), and a different one (helper).
__attribute__((noinline)) static int helper(int x) { return x * 3 + 1; }
__attribute__((noinline)) static int same(int x) { return x + 7; }
int entry_a(int x) { return helper(x) + same(x); }
