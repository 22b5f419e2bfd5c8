/* What libsframe 3 (sid's libsframe-dev, binutils 2.46+) reads in SFrame
   sections, one fact a line, for tests/sframe/sid/libsframe3_differential_test.cpp.
   Compiled and run inside the sid toolchain root: sid's libsframe needs sid's
   glibc.

     libsframe3-driver LIST    LIST: one section a line, "FILE [PC...]": the
                               raw section bytes and section-relative PCs to
                               look up with sframe_find_fre

   For each section:
     section FILE
     refused ERRNUM                                 (sframe_decode failed)
     header VERSION FLAGS ABI FIXED_FP FIXED_RA NUM_FDES
     fde I START SIZE NUM_FRES INFO INFO2 REP_SIZE  (or "fde I error")
     fre I K START INFO N W0..WN-1 cfa C fp F ra R undef U mangled M
                                                    (C, F, R: a value or "-" for an error)
     find PC START INFO                             (or "find PC none")
     crashed SIGNAL                                 (libsframe crashed on it)

   Each section is read in a child process: a crash on a hostile section is
   reported, and the next sections are still read.  */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sframe-api.h>

static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  *size = n;
  return buf;
}

static void value(const char *name, int32_t v, int err) {
  if (err)
    printf(" %s -", name);
  else
    printf(" %s %" PRId32, name, v);
}

static void one_section(char *line) {
  char *save = NULL;
  const char *path = strtok_r(line, " \t\n", &save);
  if (!path) return;
  printf("section %s\n", path);
  fflush(stdout);  /* before libsframe reads it: a crash is still placed */
  size_t size = 0;
  char *buf = slurp(path, &size);
  if (!buf) {
    printf("unreadable\n");
    return;
  }
  int err = 0;
  sframe_decoder_ctx *d = sframe_decode(buf, size, &err);
  if (!d) {
    printf("refused %d\n", err);
    free(buf);
    return;
  }
  const uint8_t version = sframe_decoder_get_version(d);
  const uint32_t n = sframe_decoder_get_num_fidx(d);
  printf("header %u %u %u %d %d %" PRIu32 "\n", version, sframe_decoder_get_flags(d), sframe_decoder_get_abi_arch(d),
         sframe_decoder_get_fixed_fp_offset(d), sframe_decoder_get_fixed_ra_offset(d), n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t nfres = 0, fsize = 0;
    int64_t start = 0;
    unsigned char info = 0, info2 = 0;
    uint8_t rep = 0;
    int rc;
    if (version >= SFRAME_VERSION_3) {
      rc = sframe_decoder_get_funcdesc_v3(d, i, &nfres, &fsize, &start, &info, &info2, &rep);
    } else {
      int32_t start32 = 0;
      rc = sframe_decoder_get_funcdesc_v2(d, i, &nfres, &fsize, &start32, &info, &rep);
      start = start32;
    }
    if (rc != 0) {
      printf("fde %" PRIu32 " error\n", i);
      continue;
    }
    printf("fde %" PRIu32 " %" PRId64 " %" PRIu32 " %" PRIu32 " %u %u %u\n", i, start, fsize, nfres, info, info2, rep);
    const uint32_t fde_type = version >= SFRAME_VERSION_3 ? (info2 & SFRAME_V3_FDE_TYPE_MASK) : SFRAME_FDE_TYPE_DEFAULT;
    for (uint32_t k = 0; k < nfres; ++k) {
      sframe_frame_row_entry fre;
      if (sframe_decoder_get_fre(d, i, k, &fre) != 0) {
        printf("fre %" PRIu32 " %" PRIu32 " error\n", i, k);
        continue;
      }
      const unsigned words = SFRAME_V1_FRE_OFFSET_COUNT(fre.fre_info);
      printf("fre %" PRIu32 " %" PRIu32 " %" PRIu32 " %u %u", i, k, fre.fre_start_addr, fre.fre_info, words);
      for (unsigned w = 0; w < words; ++w) {
        int e = 0;
        const uint32_t u = sframe_get_fre_udata(&fre, (int)w, &e);
        printf(e ? " -" : " %" PRIu32, u);
      }
      int ec = 0, ef = 0, er = 0, eu = 0, em = 0;
      const int32_t cfa = sframe_fre_get_cfa_offset(d, &fre, fde_type, &ec);
      const int32_t fp = sframe_fre_get_fp_offset(d, &fre, fde_type, &ef);
      const int32_t ra = sframe_fre_get_ra_offset(d, &fre, fde_type, &er);
      const int undef = sframe_fre_get_ra_undefined_p(d, &fre, &eu);
      const int mangled = sframe_fre_get_ra_mangled_p(d, &fre, &em);
      value("cfa", cfa, ec);
      value("fp", fp, ef);
      value("ra", ra, er);
      printf(" undef %d mangled %d\n", eu ? -1 : undef, em ? -1 : mangled);
    }
  }
  for (const char *tok; (tok = strtok_r(NULL, " \t\n", &save));) {
    const int64_t pc = strtoll(tok, NULL, 0);
    sframe_frame_row_entry fre;
    if (sframe_find_fre(d, pc, &fre) == 0)
      printf("find %" PRId64 " %" PRIu32 " %u\n", pc, fre.fre_start_addr, fre.fre_info);
    else
      printf("find %" PRId64 " none\n", pc);
  }
  sframe_decoder_free(&d);
  free(buf);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: libsframe3-driver LIST\n");
    return 2;
  }
  FILE *list = fopen(argv[1], "r");
  if (!list) return 2;
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, list) > 0) {
    fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
      one_section(line);
      fflush(stdout);
      _exit(0);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) < 0) return 1;
    if (WIFSIGNALED(status)) printf("crashed %d\n", WTERMSIG(status));
  }
  free(line);
  fclose(list);
  return 0;
}
