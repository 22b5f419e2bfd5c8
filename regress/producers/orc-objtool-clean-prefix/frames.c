/* Stack frames of every size and shape gcc and clang produce: leaf
 * functions, frames with locals, frame pointers from variable-length arrays
 * and alloca, many arguments, recursion, tail calls. */
struct pair { long a, b; };

__attribute__((noinline)) long leaf(long x) { return x * 3 + 1; }

__attribute__((noinline)) long big_frame(long n) {
  volatile char buf[256];
  for (long i = 0; i < 256; ++i) buf[i] = (char)(i * n);
  long s = 0;
  for (long i = 0; i < 256; i += 7) s += buf[i];
  return s;
}

__attribute__((noinline)) long vla(int n) {
  volatile long a[n];
  for (int i = 0; i < n; ++i) a[i] = leaf(i);
  long s = 0;
  for (int i = 0; i < n; ++i) s += a[i];
  return s;
}

__attribute__((noinline)) long with_alloca(int n) {
  volatile char* p = __builtin_alloca(n + 16);
  p[0] = 1;
  return big_frame(p[0]) + n;
}

__attribute__((noinline)) long many_args(long a, long b, long c, long d, long e, long f, long g, long h, long i) {
  return leaf(a) + b * c + d * e + f * g + h * i;
}

__attribute__((noinline)) struct pair by_value(long x) {
  struct pair p = {x, leaf(x)};
  return p;
}

__attribute__((noinline)) long recurse(long n) { return n <= 1 ? 1 : n * recurse(n - 1) + leaf(n); }

__attribute__((noinline)) long tail(long n) { return leaf(n + 1); }

long frames_entry(long n) {
  struct pair p = by_value(n);
  return big_frame(n) + vla((int)(n & 15) + 1) + with_alloca((int)(n & 31)) + many_args(n, 2, 3, 4, 5, 6, 7, 8, 9) +
         p.a + p.b + recurse(n & 7) + tail(n);
}
