// The compat build of note_info.h: another member type, the same size.
typedef struct {
  int signo;
  short code;
  short pad;
} compat_data_t;

#define NOTE_DATA_T compat_data_t
#define NOTE_FN compat_note
#include "note_info.h"

struct note_info g_compat_note;

struct note_info *compat_note(struct note_info *info) {
  info->count += g_compat_note.data.pad;
  return info;
}
