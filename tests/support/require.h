// What a test may skip for. On a developer's machine a test whose tool is
// missing skips and says why. Under CI=true (.ci/run: a fresh bookworm root
// after tools/install-deps) the same test fails instead: install-deps
// promises the tool, so its absence is a missing install step, not a reason
// to pass. Skips that remain under CI are for what no install step provides
// (root, the running kernel's own verdict, figures of one particular build),
// and tools/run-tests lists them with their reasons at the end of the run.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

namespace elfmeta::testing {

inline bool under_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string_view(ci) == "true";
}

}  // namespace elfmeta::testing

// Skips (fails under CI=true) unless `present`; `why` says what is missing
// and which package tools/install-deps installs it from.
#define ELFMETA_REQUIRE_INSTALLED(present, why)                                            \
  do {                                                                                     \
    if (!(present)) {                                                                      \
      if (::elfmeta::testing::under_ci())                                                  \
        FAIL() << why << " [CI=true: tools/install-deps should have provided it]";         \
      else                                                                                 \
        GTEST_SKIP() << why;                                                               \
    }                                                                                      \
  } while (0)
