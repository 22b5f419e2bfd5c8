// Runs the elfmeta CLI (ELFMETA_CLI, defined by CMake for the test binaries)
// as a shell would, and returns its exit status, stdout and stderr.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/scratch_dir.h"

namespace elfmeta::testing {

struct CliRun {
  int status = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `args` as after "elfmeta " on a command line; run in `cwd` when given (so
// that relative paths in the output are predictable).
inline CliRun run_cli(const std::string& args, const std::filesystem::path& cwd = {}) {
  namespace fs = std::filesystem;
  const fs::path dir = scratch_dir("cli-run");
  std::string cmd = std::string(ELFMETA_CLI) + " " + args + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  if (!cwd.empty()) cmd = "cd '" + cwd.string() + "' && " + cmd;
  CliRun r;
  const int raw = std::system(cmd.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  return r;
}

}  // namespace elfmeta::testing
