// libsframe 2.40 (binutils-dev): sframe_decode, every FDE and FRE, and
// sframe_find_fre at every function's start and middle, on the sections
// elfmeta accepts for it (sframe_guard.h).
#include <sframe-api.h>

#include "sframe_guard.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/sframe_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto g = elfmeta::fuzz::sframe_for_libsframe(data, size);
  if (!g) return 0;
  int err = 0;
  sframe_decoder_ctx* d = sframe_decode(reinterpret_cast<const char*>(data), size, &err);
  if (!d) return 0;
  const unsigned n = sframe_decoder_get_num_fidx(d);
  for (unsigned i = 0; i < n; ++i) {
    uint32_t nfres = 0, fsize = 0;
    int32_t start = 0;
    unsigned char info = 0;
    if (sframe_decoder_get_funcdesc(d, i, &nfres, &fsize, &start, &info) != 0) continue;
    for (uint32_t k = 0; k < nfres; ++k) {
      sframe_frame_row_entry fre;
      if (sframe_decoder_get_fre(d, i, k, &fre) != 0) continue;
      int e = 0;
      sframe_fre_get_base_reg_id(&fre, &e);
      sframe_fre_get_cfa_offset(d, &fre, &e);
      sframe_fre_get_fp_offset(d, &fre, &e);
    }
    sframe_frame_row_entry fre;
    sframe_find_fre(d, start, &fre);
    // The middle of the function, wrapping as addresses do (a size near
    // 4 GiB overflowed the signed sum).
    sframe_find_fre(d, static_cast<int32_t>(static_cast<uint32_t>(start) + fsize / 2), &fre);
  }
  sframe_decoder_free(&d);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_sframe, elfmeta::fuzz::cross_over_sframe)
