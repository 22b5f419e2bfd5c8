/* Linked into libsframe's find and encode test programs with
   -Wl,--wrap=sframe_encoder_write: every section they encode is also written
   to $ELFMETA_SFRAME_OUT/PROGRAM-N.sframe, so that elfmeta checks what
   libsframe 3's own encoder wrote. */
#include <stdio.h>
#include <stdlib.h>

#include <sframe-api.h>

char *__real_sframe_encoder_write(sframe_encoder_ctx *ectx, size_t *encoded_size, bool sort, int *errp);

char *__wrap_sframe_encoder_write(sframe_encoder_ctx *ectx, size_t *encoded_size, bool sort, int *errp) {
  static int n;
  char *buf = __real_sframe_encoder_write(ectx, encoded_size, sort, errp);
  const char *dir = getenv("ELFMETA_SFRAME_OUT");
  const char *program = getenv("ELFMETA_SFRAME_PROGRAM");
  if (buf && dir && program) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%d.sframe", dir, program, n++);
    FILE *f = fopen(path, "wb");
    if (f) {
      fwrite(buf, 1, *encoded_size, f);
      fclose(f);
    }
  }
  return buf;
}
