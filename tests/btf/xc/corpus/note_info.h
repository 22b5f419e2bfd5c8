// BTF-vs-DWARF corpus: one declaration, two structs. note_compat.c includes
// this header after redefining its member type, as the kernel's
// fs/compat_binfmt_elf.c includes fs/binfmt_elf.c after
// `#define siginfo_t compat_siginfo_t`: both units declare struct note_info
// at the same file and line with the same size, and pahole keeps both.
#ifndef NOTE_DATA_T
#define NOTE_DATA_T native_data_t
#endif

struct note_info {
  int count;
  NOTE_DATA_T data;
};

struct note_info *NOTE_FN(struct note_info *info);
