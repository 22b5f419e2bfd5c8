// BTF-vs-DWARF corpus (tests/btf/xc/dwarf_test.cpp): layouts that are easy
// to get wrong. Built with gcc -g -O2 and encoded with pahole -J.
#include <stddef.h>
#include <stdint.h>

struct bits {
  unsigned int a : 3;
  unsigned int b : 5;
  signed int c : 7;
  unsigned long long wide : 40;
  unsigned char flag : 1;
  unsigned int : 0;
  int after;
  unsigned short tail : 9;
};

struct __attribute__((packed)) packed {
  char c;
  int i;
  long long ll;
  unsigned int bf : 13;
};

struct aligned {
  char c;
  int i __attribute__((aligned(16)));
  long long ll;
} __attribute__((aligned(32)));

struct anon_members {
  int kind;
  union {
    int i;
    float f;
    struct {
      short lo, hi;
    };
  };
  struct {
    unsigned int x : 4, y : 4;
    char name[7];
  } named;
  struct {
    long first;
    long second;
  };
};

struct flex {
  unsigned int len;
  unsigned char data[];
};

struct zero_len {
  int n;
  long items[0];
};

union variant {
  uint8_t u8;
  uint16_t u16;
  uint64_t u64;
  double d;
  struct bits b;
};

enum u8_enum { U8_A = 1, U8_B = 255 };
enum small_signed { NEG_ONE = -1, ZERO = 0, ONE = 1 };
enum big_unsigned { BIG = 0xfffffffffULL, BIGGER = 0xffffffffffffffffULL };
enum big_signed { VERY_NEG = -0x7fffffffffffffffLL - 1, POS = 5 };
enum __attribute__((packed)) packed_enum { PE_A, PE_B = 200 };
enum __attribute__((packed)) packed_signed { PS_A = -3, PS_B = 100 };
enum __attribute__((packed)) packed_short { PSH_A = 1000 };

typedef struct bits bits_t;
typedef bits_t *bits_ptr_t;
typedef int (*callback_t)(const char *name, void *ctx, unsigned long flags);
typedef void (*handler_table_t[4])(int);
typedef const volatile unsigned int cv_uint;
typedef enum big_signed big_signed_t;

struct matrices {
  int grid[3][4][5];
  char names[2][16];
  const char *const table[8];
  callback_t cb;
  handler_table_t handlers;
  int (*unary)(int);
  void (*(*higher)(int))(void);
  volatile cv_uint *cvp;
  int *restrict rp;
  enum u8_enum e8;
  enum packed_signed ps;
  big_signed_t bs;
  struct flex *fx;
};

// GCC writes an upper bound in the smallest unsigned form that holds it:
// 255 is DW_FORM_data1 0xff and 65535 DW_FORM_data2 0xffff, not -1.
struct big_arrays {
  char bytes[256];
  unsigned short halves[65536];
  int words[255][2];
};

struct self_ref {
  struct self_ref *next, **prev;
  struct opaque *hidden;
  union variant v;
  bits_ptr_t bp;
};

// One global object per type so that every type reaches the DWARF.
struct bits g_bits;
struct packed g_packed;
struct aligned g_aligned;
struct anon_members g_anon;
struct zero_len *g_zero_len;
struct big_arrays *g_big_arrays;
union variant g_variant;
enum u8_enum g_u8;
enum small_signed g_small;
enum big_unsigned g_big_unsigned;
enum big_signed g_big_signed;
enum packed_enum g_packed_enum;
enum packed_short g_packed_short;
struct matrices g_matrices;
struct self_ref g_self_ref;
cv_uint g_cv = 3;
const int g_const_array[2][3] = {{1, 2, 3}, {4, 5, 6}};

static int helper(int x) { return x * 3 + g_bits.a; }

__attribute__((noinline)) int same_name(int x) { return helper(x) + g_anon.kind; }

__attribute__((noinline)) long sum_flex(const struct flex *f, size_t n, struct bits b) {
  long s = b.c;
  for (size_t i = 0; i < n && i < f->len; ++i) s += f->data[i];
  return s;
}

__attribute__((noinline)) void *pick(union variant *v, enum big_signed which, callback_t cb, ...) {
  if (which == POS) return v;
  return cb ? (void *)cb : NULL;
}

__attribute__((noinline)) struct aligned make_aligned(int i) {
  struct aligned a = {0};
  a.i = i;
  return a;
}

__attribute__((noinline)) void no_args(void) { g_packed.i++; }

__attribute__((noinline)) const volatile unsigned int *qualified(volatile int *restrict p, const char *const s) {
  *p += s[0];
  return &g_cv;
}
