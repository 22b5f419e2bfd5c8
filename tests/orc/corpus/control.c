/* Control flow objtool must follow: switches (compiled without jump
 * tables), loops, cold paths split into .text.unlikely, and code after
 * calls that do not return. */
__attribute__((noinline)) static long step(long x) { return x ^ (x >> 3); }

__attribute__((noinline)) long classify(long x) {
  switch (x & 15) {
    case 0: return step(x) + 1;
    case 1: return step(x) * 2;
    case 2: return step(x) - 7;
    case 3: return x << 2;
    case 5: return step(step(x));
    case 8: return -x;
    case 13: return x / 3;
    default: return 0;
  }
}

__attribute__((noinline, cold)) long slow_path(long x) {
  long s = 0;
  for (long i = 0; i < x; ++i) s += step(i);
  return s;
}

__attribute__((noinline)) long maybe_slow(long x) {
  if (__builtin_expect(x > 1000000, 0)) return slow_path(x);
  return classify(x);
}

__attribute__((noinline)) long checked(long x) {
  if (x < 0) __builtin_trap();
  return maybe_slow(x) + classify(x + 1);
}

long loops(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < i; ++j) s += checked(i * j);
  return s;
}
