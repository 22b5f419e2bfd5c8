/* The three calls libsframe's test programs make of DejaGnu's dejagnu.h
   (pass, fail, totals), for tests/sframe/sid/binutils_suites_test.cpp: a
   failed check prints a "FAIL: " line and makes the program exit non-zero. */
#ifndef ELFMETA_DEJAGNU_STUB_H
#define ELFMETA_DEJAGNU_STUB_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int elfmeta_passed, elfmeta_failed;

static void elfmeta_report(void) {
  printf("elfmeta: %d passed, %d failed\n", elfmeta_passed, elfmeta_failed);
  fflush(stdout);
  if (elfmeta_failed) _Exit(1);
}

static inline void elfmeta_note(const char *what, const char *fmt, va_list ap) {
  static int registered;
  if (!registered) registered = !atexit(elfmeta_report);
  printf("%s: ", what);
  vprintf(fmt, ap);
  putchar('\n');
}

static inline void pass(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ++elfmeta_passed;
  elfmeta_note("PASS", fmt, ap);
  va_end(ap);
}

static inline void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ++elfmeta_failed;
  elfmeta_note("FAIL", fmt, ap);
  va_end(ap);
}

static inline void totals(void) { elfmeta_report(); }

#endif
