/* Stands in for the config.h of a configured binutils tree when
   tests/sframe/sid/binutils_suites_test.cpp compiles libsframe's test
   programs against sid's installed libsframe: they need nothing from it. */
