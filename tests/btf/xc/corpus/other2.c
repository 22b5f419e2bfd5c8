// Third translation unit: the same static function name as other.c, with a
// different prototype, and a struct tag reused with another layout.
struct local_only {
  long wide;
};

static __attribute__((noinline)) long same_static(long x, long y) { return x * y; }

struct local_only g_local2;

long other2_entry(long x) { return same_static(x, g_local2.wide); }
