// elfmeta's SFrame version 2 and 3 reader against libsframe 3, the reader of
// binutils 2.46+ (the one of sid's readelf, objdump and ld). libsframe is
// compiled here from the binutils source tools/sid-sframe-data fetches (the
// sid root's version) with the fuzz build's instrumentation, so that the
// campaign sees libsframe's own edges and its memory errors: sid's
// libsframe.so.3 cannot be loaded into this process (it needs sid's glibc),
// and a child process per input would cost the fuzzer a hundred times its
// speed. Where elfmeta finds no error in a section and libsframe accepts
// it, every FDE (start, size, FRE count, info bytes, block
// size) and FRE (start, info, data words, CFA offset decoded, the FP and RA
// offsets of default FDEs with the fixed offsets and s390x's padding) must
// agree; a difference aborts with both values. Inputs elfmeta finds an
// error in are not given to libsframe (fuzz_libsframe's guard likewise).
#include <sframe-api.h>

#include <cstdio>
#include <cstdlib>
#include <optional>

#include "core/diagnostic.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/sframe_mutator.h"
#include "input/artifact.h"
#include "sframe/fre_state.h"
#include "sframe/sframe_abi.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"

namespace {

using namespace elfmeta;

[[noreturn]] void differ(const char* what, long long theirs, long long ours, unsigned i, unsigned k) {
  std::fprintf(stderr, "FDE %u FRE %u: %s: libsframe 3 %lld, elfmeta %lld\n", i, k, what, theirs, ours);
  std::abort();
}

uint32_t udata(const sframe::Fre& f, size_t w) {
  const uint32_t size = sframe::word_size(f.size_code());
  return size >= 4 ? uint32_t(f.words[w]) : uint32_t(f.words[w]) & ((1u << (8 * size)) - 1);
}

// libsframe's FP or RA offset of a default FRE, as elfmeta reads it: a
// slot's offset, a version 2 s390x register word as stored, s390x's RA
// padding as 0; nullopt where libsframe reports none.
std::optional<int64_t> default_offset(const sframe::AbiFacts& abi, const sframe::Fre& f, const sframe::Location& l, bool ra) {
  switch (l.kind) {
    case sframe::Location::kAtCfa: return l.offset;
    case sframe::Location::kInRegister: return int64_t(int32_t(l.reg)) * 2 + 1;
    case sframe::Location::kOther: return l.offset;
    default: break;
  }
  if (ra && abi.ra_padding && f.count() >= 2) return 0;
  return std::nullopt;
}

void compare_fre(const sframe_decoder_ctx* d, const sframe::Header& h, bool flex, uint32_t fde_type, unsigned i, unsigned k,
                 const sframe::Fre& ours, const sframe_frame_row_entry& fre) {
  if (fre.fre_start_addr != ours.start) differ("start", fre.fre_start_addr, ours.start, i, k);
  if (fre.fre_info != ours.info) differ("info", fre.fre_info, ours.info, i, k);
  if (ours.count() > 6) return;  // libsframe's getters refuse more (SFRAME-FRE-003)
  for (unsigned w = 0; w < ours.count(); ++w) {
    int e = 0;
    const uint32_t u = sframe_get_fre_udata(&fre, int(w), &e);
    if (e || u != udata(ours, w)) differ("data word", e ? -1 : u, udata(ours, w), i, k);
  }
  const sframe::AbiFacts* abi = sframe::abi_facts(h.abi);
  const auto s = sframe::state_of(h, flex, ours);
  if (!abi || !s || s->outermost) return;
  int ec = 0, ef = 0, er = 0;
  const int32_t cfa = sframe_fre_get_cfa_offset(d, &fre, fde_type, &ec);
  if (ec || cfa != s->cfa_offset) differ("CFA offset", ec ? -1 : cfa, s->cfa_offset, i, k);
  const int32_t fp = sframe_fre_get_fp_offset(d, &fre, fde_type, &ef);
  const int32_t ra = sframe_fre_get_ra_offset(d, &fre, fde_type, &er);
  std::optional<int64_t> want_fp, want_ra;
  if (flex) {
    // FLEX: libsframe gives the FP rule's offset word; its RA getter reads
    // word 3 whatever word 2 says, so RA is compared only where it is a pair.
    const sframe::FlexWords fw = sframe::read_flex(ours);
    want_fp = fw.fp.present ? std::optional<int64_t>(fw.fp.offset) : (h.fixed_fp ? std::optional<int64_t>(h.fixed_fp) : std::nullopt);
    if (!fw.ra.present) er = -2;
    want_ra = fw.ra.present ? std::optional<int64_t>(fw.ra.offset) : std::nullopt;
  } else {
    want_fp = default_offset(*abi, ours, s->fp, false);
    want_ra = default_offset(*abi, ours, s->ra, true);
  }
  if (want_fp.has_value() == bool(ef) || (want_fp && *want_fp != fp)) differ("FP offset", ef ? -1 : fp, want_fp.value_or(-1), i, k);
  if (er != -2 && (want_ra.has_value() == bool(er) || (want_ra && *want_ra != ra)))
    differ("RA offset", er ? -1 : ra, want_ra.value_or(-1), i, k);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto artifact = std::make_unique<input::Artifact>();
  artifact->kind = input::ArtifactKind::RawSframe;
  auto bytes = std::make_shared<std::vector<uint8_t>>(data, data + size);
  artifact->raw = artifact->content = *bytes;
  artifact->storage.push_back(bytes);
  // Only sections elfmeta finds no error in reach libsframe: its crashes on
  // hostile input are elfmeta findings (regress/known-bugs/libsframe-3), and
  // a crash on the rest is a new libsframe bug or a rule elfmeta lacks.
  DiagnosticList list;
  if (sframe::check_sframe(*artifact, {kNoConsumer, false}, list).errors) return 0;
  sframe::SframeFindings f("fuzz", list, kNoConsumer);
  const auto t = sframe::read_sframe(*artifact, f);
  if (!t || !t->usable || t->header.version < 2 || t->fdes.size() != t->header.num_fdes) return 0;
  int err = 0;
  sframe_decoder_ctx* d = sframe_decode(reinterpret_cast<const char*>(data), size, &err);
  if (!d) return 0;
  const unsigned n = sframe_decoder_get_num_fidx(d);
  if (n != t->fdes.size()) differ("FDE count", n, t->fdes.size(), 0, 0);
  const sframe::Header& h = t->header;
  for (unsigned i = 0; i < n; ++i) {
    uint32_t nfres = 0, fsize = 0;
    int64_t start = 0;
    unsigned char info = 0, info2 = 0;
    uint8_t rep = 0;
    int rc;
    if (h.version >= 3) {
      rc = sframe_decoder_get_funcdesc_v3(d, i, &nfres, &fsize, &start, &info, &info2, &rep);
    } else {
      int32_t start32 = 0;
      rc = sframe_decoder_get_funcdesc_v2(d, i, &nfres, &fsize, &start32, &info, &rep);
      start = start32;
    }
    if (rc != 0) differ("FDE unreadable", rc, 0, i, 0);
    const sframe::Fde& fd = t->fdes[i];
    if (start != (h.version >= 3 ? fd.start : int64_t(int32_t(fd.start)))) differ("FDE start", start, fd.start, i, 0);
    if (fsize != fd.size) differ("FDE size", fsize, fd.size, i, 0);
    if (nfres != fd.num_fres) differ("FRE count", nfres, fd.num_fres, i, 0);
    if (info != fd.info) differ("FDE info", info, fd.info, i, 0);
    if (h.version >= 3 && info2 != fd.info2) differ("FDE info2", info2, fd.info2, i, 0);
    if (rep != fd.rep_size) differ("block size", rep, fd.rep_size, i, 0);
    const bool flex = h.version >= 3 && (fd.info2 & 0x1f) == sframe::kFlex;
    const uint32_t fde_type = h.version >= 3 ? (info2 & 0x1f) : 0;
    sframe::FreCursor c(*t, i);
    for (uint32_t k = 0; k < nfres && !c.done(); ++k, c.next()) {
      sframe_frame_row_entry fre;
      if (sframe_decoder_get_fre(d, i, k, &fre) != 0) continue;  // libsframe refuses this FRE (> 6 words)
      compare_fre(d, h, flex, fde_type, i, k, *c, fre);
    }
  }
  sframe_decoder_free(&d);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_sframe, elfmeta::fuzz::cross_over_sframe)
