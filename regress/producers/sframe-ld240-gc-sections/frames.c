// Functions whose frames gas describes in SFrame: leaf, alloca, VLA,
// over-aligned locals (stack realignment), noreturn and cold paths.
#include <alloca.h>
#include <stdlib.h>
#include <string.h>

int leaf(int x) { return x * 3 + 1; }

int with_alloca(int n) {
  char* p = alloca(n + 1);
  memset(p, 'a', n);
  p[n] = 0;
  return (int)strlen(p);
}

int with_vla(int n) {
  int v[n + 1];
  for (int i = 0; i <= n; ++i) v[i] = i;
  return v[n / 2];
}

int realigned(int n) {
  _Alignas(64) char buf[64];
  memset(buf, n, sizeof buf);
  return buf[n & 63];
}

__attribute__((noreturn, noinline)) void die(int code) { exit(code); }

__attribute__((cold, noinline)) int rarely(int x) { return x ? x - 1 : 0; }

int branchy(int x) {
  if (__builtin_expect(x < 0, 0)) return rarely(-x);
  if (x > 1000) die(3);
  return leaf(x) + with_vla(x % 7);
}

// Realignment with a variable-size allocation: GCC keeps the CFA through a
// DRAP register and describes it with a DWARF expression, which SFrame v1
// cannot say; gas 2.40 leaves the function out (SFRAME-ELF-007).
__attribute__((noinline)) int drap(int n) {
  _Alignas(64) char buf[64];
  char* p = alloca(n + 1);
  memset(buf, n, sizeof buf);
  memset(p, buf[n & 63], n + 1);
  return p[n / 2];
}
