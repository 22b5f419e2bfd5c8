/* A minimal stand-in for libbpf's bpf_helpers.h and bpf_core_read.h, written
 * for elfmeta's BPF object corpus (tests/btf/ext). Only what the corpus uses:
 * section and map macros, two helpers, and the CO-RE builtins. */
#ifndef ELFMETA_MINI_BPF_H
#define ELFMETA_MINI_BPF_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef int __s32;
typedef long long __s64;

#define SEC(name) __attribute__((section(name), used))
#define __always_inline inline __attribute__((always_inline))
#define __noinline __attribute__((noinline))
#define __weak __attribute__((weak))
#define __kconfig __attribute__((section(".kconfig")))
#define __ksym __attribute__((section(".ksyms")))

#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name

enum { MAP_TYPE_ARRAY = 2, MAP_TYPE_HASH = 1 };

static void *(*map_lookup_elem)(void *map, const void *key) = (void *)1;
static long (*probe_read_kernel)(void *dst, __u32 size, const void *src) = (void *)113;

#define core_field_exists(field) __builtin_preserve_field_info(field, 2)
#define core_field_size(field) __builtin_preserve_field_info(field, 1)
#define core_field_lshift(field) __builtin_preserve_field_info(field, 4)
#define core_field_rshift(field) __builtin_preserve_field_info(field, 5)
#define core_field_offset(field) __builtin_preserve_field_info(field, 0)
#define core_type_exists(type) __builtin_preserve_type_info(*(typeof(type) *)0, 0)
#define core_type_size(type) __builtin_preserve_type_info(*(typeof(type) *)0, 1)
#define core_type_id_local(type) __builtin_btf_type_id(*(typeof(type) *)0, 0)
#define core_type_id_kernel(type) __builtin_btf_type_id(*(typeof(type) *)0, 1)
#define core_enum_value_exists(type, val) __builtin_preserve_enum_value(*(typeof(type) *)val, 0)
#define core_enum_value(type, val) __builtin_preserve_enum_value(*(typeof(type) *)val, 1)

#endif
