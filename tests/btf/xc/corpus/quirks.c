// BTF-vs-DWARF corpus: types at the edge of what BTF can say. Built with
// gcc -g -O2 and pahole -J; docs/btf-dwarf.md says what pahole 1.24 does
// with each and tests/btf/xc/dwarf_test.cpp asserts it.
#include <stdbool.h>

enum color { RED, GREEN = 5, BLUE };

struct edge {
  bool flag : 1;
  enum color c : 3;  // an enum bitfield
  _Bool b2;
  long double ld;
  _Complex double cd;  // BTF has no complex: an INT of the same name and size
  __int128 big;
  unsigned __int128 ubig;
  int vec __attribute__((vector_size(16)));  // DWARF: an array with DW_AT_GNU_vector
  char zero[0];
  struct {
    int inner_x;
  } arr_of_anon[2];
  enum { E_X = 1, E_Y } anon_enum_member;
  float f;
  unsigned long long ull : 63;
} __attribute__((aligned(64)));

struct __attribute__((packed)) pbits {
  unsigned char a : 1;
  unsigned int b : 31;
  unsigned long long c : 33;
};

typedef struct {
  int q;
} anon_typedef_t;
typedef union {
  int u;
  char c[4];
} anon_union_t;

struct edge g_edge;
struct pbits g_pbits;
anon_typedef_t g_at;
anon_union_t g_au;

// An old-style definition (DW_AT_prototyped absent).
int knr(a, b) int a; char b; { return a + b; }

// A pointer to a variable-length array: BTF has a 0-element array.
int vla(int n, int m, int arr[n][m]) { return arr[n - 1][m - 1]; }

// GCC drops the unused argument of the .constprop clone; pahole 1.24 does
// not encode the clone.
static __attribute__((noinline)) int unused_arg(int a, int b) { return a * 7; }
int call_unused(int x) { return unused_arg(x, 4) + unused_arg(x + 1, 5); }

__attribute__((noinline)) struct edge *ret_ptr(anon_typedef_t t, anon_union_t u) { return t.q + u.u ? &g_edge : 0; }

// A type local to a function body: found by the second index pass.
int local_type(int x) {
  struct local_pair {
    int first;
    long second;
  } pair = {x, x * 2L};
  volatile struct local_pair *vp = &pair;
  return (int)(vp->first + vp->second);
}
