#include <alloca.h>
#include <string.h>
__attribute__((noinline)) int leaf(int a, int b) { return a * b + 3; }
__attribute__((noinline)) int use_alloca(int n) {
  char *p = alloca(n);
  memset(p, 1, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s + leaf(n, s);
}
