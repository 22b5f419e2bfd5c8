// The native build of note_info.h (see there).
typedef struct {
  int signo;
  int code;
} native_data_t;

#define NOTE_FN native_note
#include "note_info.h"

struct note_info g_native_note;

struct note_info *native_note(struct note_info *info) {
  info->count += g_native_note.data.code;
  return info;
}
