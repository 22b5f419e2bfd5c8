/* The main of the SQLite executables of the SFrame corpus
   (tools/sid-sframe-data): enough calls into the amalgamation that the
   linker keeps it, and a PLT to describe. */
#include <stdio.h>

#include "sqlite3.h"

static int row(void *count, int columns, char **values, char **names) {
  (void)columns;
  (void)names;
  ++*(int *)count;
  return values[0] == NULL;
}

int main(int argc, char **argv) {
  sqlite3 *db = NULL;
  char *error = NULL;
  int rows = 0;
  if (sqlite3_open(argc > 1 ? argv[1] : ":memory:", &db) != SQLITE_OK) return 1;
  int rc = sqlite3_exec(db,
                        "create table t(a integer primary key, b text);"
                        "insert into t(b) values ('one'), ('two'), ('three');"
                        "select b from t order by a desc;",
                        row, &rows, &error);
  if (rc != SQLITE_OK) fprintf(stderr, "sqlite: %s\n", error ? error : "error");
  sqlite3_free(error);
  sqlite3_close(db);
  printf("%d rows\n", rows);
  return rc != SQLITE_OK;
}
