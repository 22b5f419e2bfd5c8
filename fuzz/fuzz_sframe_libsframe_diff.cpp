// elfmeta's SFrame v1 reader against libsframe 2.40: where both accept a
// section, every FDE (start, size, FRE count, info) and every FRE (start,
// info, CFA offset) must be equal; a difference aborts with both values.
#include <sframe-api.h>

#include <cstdio>
#include <cstdlib>

#include "sframe_guard.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/sframe_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  const auto g = fuzz::sframe_for_libsframe(data, size);
  if (!g) return 0;
  const sframe::SframeTable& t = *g->table;
  int err = 0;
  sframe_decoder_ctx* d = sframe_decode(reinterpret_cast<const char*>(data), size, &err);
  if (!d) {
    std::fprintf(stderr, "libsframe refuses (error %d) a section elfmeta accepts for it\n", err);
    std::abort();
  }
  const unsigned n = sframe_decoder_get_num_fidx(d);
  if (n != t.fdes.size()) {
    std::fprintf(stderr, "FDEs: libsframe %u, elfmeta %zu\n", n, t.fdes.size());
    std::abort();
  }
  for (unsigned i = 0; i < n; ++i) {
    uint32_t nfres = 0, fsize = 0;
    int32_t start = 0;
    unsigned char info = 0;
    if (sframe_decoder_get_funcdesc(d, i, &nfres, &fsize, &start, &info) != 0) std::abort();
    const auto& f = t.fdes[i];
    if (start != static_cast<int32_t>(f.start) || fsize != f.size || nfres != f.num_fres || info != f.info) {
      std::fprintf(stderr, "FDE %u: libsframe start %d size %u fres %u info %u; elfmeta %lld %u %u %u\n", i, start, fsize,
                   nfres, info, static_cast<long long>(f.start), f.size, f.num_fres, f.info);
      std::abort();
    }
    sframe::FreCursor c(t, i);
    for (uint32_t k = 0; k < nfres; ++k, c.next()) {
      sframe_frame_row_entry fre;
      if (sframe_decoder_get_fre(d, i, k, &fre) != 0 || c.done()) std::abort();
      int e = 0;
      const int32_t cfa = sframe_fre_get_cfa_offset(d, &fre, &e);
      if (fre.fre_start_addr != c->start || fre.fre_info != c->info || (!e && cfa != c->words[0])) {
        std::fprintf(stderr, "FDE %u FRE %u: libsframe start %u info %u cfa %d; elfmeta %u %u %d\n", i, k,
                     fre.fre_start_addr, fre.fre_info, cfa, c->start, c->info, c->words[0]);
        std::abort();
      }
    }
  }
  sframe_decoder_free(&d);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_sframe, elfmeta::fuzz::cross_over_sframe)
