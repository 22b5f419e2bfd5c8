// libbpf 1.1's btf__new (Debian's libbpf-dev) on any bytes, and a walk of
// what it accepted: crashes here are findings about libbpf.
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/btf_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct btf* btf = btf__new(data, static_cast<__u32>(size));
  if (!btf || libbpf_get_error(btf)) return 0;
  const __u32 n = btf__type_cnt(btf);
  for (__u32 id = 1; id < n; ++id) {
    // libbpf 1.1 accepts headers whose length is not a multiple of 4 and
    // then hands out misaligned records (regress/known-bugs): read by bytes.
    const struct btf_type* t = btf__type_by_id(btf, id);
    __u32 name_off = 0;
    if (t) std::memcpy(&name_off, t, sizeof name_off);
    if (t) btf__name_by_offset(btf, name_off);
  }
  btf__free(btf);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf, elfmeta::fuzz::cross_over_btf)
