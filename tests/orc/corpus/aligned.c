/* Over-aligned locals make gcc realign the stack; with many arguments on
 * the stack it may use the DRAP form (CFA from r10 or r13). */
struct big { double v[16]; };

__attribute__((noinline)) double aligned_local(int n) {
  double buf[8] __attribute__((aligned(64)));
  for (int i = 0; i < 8; ++i) buf[i] = n * i;
  double s = 0;
  for (int i = 0; i < 8; ++i) s += buf[i];
  return s;
}

__attribute__((noinline)) double realign_with_args(long a, long b, long c, long d, long e, long f, long g, long h,
                                                   struct big x) {
  double buf[4] __attribute__((aligned(32)));
  buf[0] = a + b + c;
  buf[1] = d + e + f;
  buf[2] = g + h;
  buf[3] = x.v[3];
  return buf[0] + buf[1] + buf[2] + buf[3] + aligned_local((int)a);
}

double aligned_entry(long n) {
  struct big x = {{0}};
  x.v[3] = (double)n;
  return realign_with_args(n, 1, 2, 3, 4, 5, 6, 7, x);
}
