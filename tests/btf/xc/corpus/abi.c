// Functions whose code is or is not entered with the ABI of their source
// prototype (XC-SYM-004), for tests/btf/xc/dwarf_test.cpp.
extern int sink(int);

// Its middle parameter is dead and it is called with constants only: at -O2
// GCC makes drop_middle.constprop.0.isra.0, clang drops `dead` and passes
// `c` in rsi under the original name.
static __attribute__((noinline)) int drop_middle(int a, int dead, int c) {
  sink(a);
  sink(c);
  return a * c;
}
int use_drop_middle(int x) { return drop_middle(x, 1, 2) + drop_middle(x + 1, 3, 4); }

// Every parameter used, a double before the integers: entered as declared
// (the double in xmm0 takes no integer register).
static __attribute__((noinline)) long mix(double f, long a, long b) { return (long)f * a + b; }
long use_mix(double f, long a, long b) { return mix(f, a, b) + mix(f + 1, b, a); }

// Called from outside: its ABI cannot change.
int keeps_abi(int a, long b, int *p) { return a + (int)b + *p; }
