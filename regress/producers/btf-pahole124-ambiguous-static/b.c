// Static functions named like ones of a.c.
__attribute__((noinline)) static long helper(long x, long y) { return x * y + 5; }
__attribute__((noinline)) static int same(int x) { return x - 9; }
int entry_b(long x) { return (int)helper(x, x + 1) + same((int)x); }
