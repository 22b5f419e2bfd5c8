/* Something for each --btf_features value of pahole 1.32 to encode: floats,
 * a 64-bit enum, btf_decl_tag/btf_type_tag annotations, a per-CPU variable
 * and other globals (one static), static functions gcc -O2 clones (.isra,
 * .constprop) and one whose name feat_b.c reuses with another prototype,
 * and kfuncs in a kernel-style .BTF_ids set8 (decl_tag_kfuncs; attributes:
 * bpf_fastcall and arena address_space(1) tags). */
#define __tag(x) __attribute__((btf_decl_tag(x)))
#define __user __attribute__((btf_type_tag("user")))

enum wide { WIDE_LOW = 1, WIDE_HIGH = 0x100000000ULL };

struct sample {
  float f;
  double d;
  int __user *up;
  enum wide w;
  int tagged __tag("member_tag");
};

__attribute__((section(".data..percpu"))) struct sample percpu_sample;
struct sample global_sample __tag("var_tag");
static long table[16];
int counter = 1;

/* -O2: 'unused' is dropped (scale.isra.0) and k is constant (.constprop). */
static __attribute__((noinline)) int scale(struct sample *s, int unused, int k) {
  return (int)(s->f * k) + s->tagged;
}

static __attribute__((noinline)) int helper(int a) { return a * 3 + (int)table[a & 15]; }

int demo_kfunc(struct sample *s, int k) { return scale(s, 0, 7) + helper(k) + counter; }
void *demo_arena_alloc(void *where, unsigned long size) { return (char *)where + size; }

/* What the kernel's BTF_SET8_START/BTF_ID_FLAGS/BTF_SET8_END write:
 * a set8 header (count, flags=BTF_SET8_KFUNCS) and an (id, flags) pair per
 * kfunc; ids are 0 until resolve_btfids. Flags: KF_FASTCALL (1 << 12);
 * KF_ARENA_RET | KF_ARENA_ARG1 (1 << 13 | 1 << 14). */
__asm__(".pushsection .BTF_ids,\"a\"\n"
        ".balign 4\n"
        ".local __BTF_ID__set8__demo_kfuncs\n"
        "__BTF_ID__set8__demo_kfuncs:\n"
        ".long 2, 1\n"
        ".local __BTF_ID__func__demo_kfunc__1\n"
        "__BTF_ID__func__demo_kfunc__1:\n"
        ".long 0, 0x1000\n"
        ".local __BTF_ID__func__demo_arena_alloc__2\n"
        "__BTF_ID__func__demo_arena_alloc__2:\n"
        ".long 0, 0x6000\n"
        ".size __BTF_ID__set8__demo_kfuncs, . - __BTF_ID__set8__demo_kfuncs\n"
        ".popsection\n");
