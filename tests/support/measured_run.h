// Runs the elfmeta CLI under resource limits and reports what the process
// used: its exit status (or the signal that ended it), its output, its peak
// resident memory and its CPU time. For the hostile-input tests: a hang or a
// blow-up ends the process (RLIMIT_CPU, RLIMIT_AS) and fails the test,
// instead of holding CI. The figures are asserted as limits, never timed.
// The command runs under elfmeta-measure (measure_main.cpp), whose peak
// memory is the command's own, not the test process's.
#pragma once

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace elfmeta::testing {

struct MeasuredRun {
  int status = -1;  // exit status; -1 when a signal ended it
  int signal = 0;   // the signal that ended it (SIGXCPU: the CPU limit)
  std::string out, err;
  long max_rss_mb = 0;
  double cpu_seconds = 0;
};

inline std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// `args` as separate words after "elfmeta".
inline MeasuredRun run_cli_measured(const std::vector<std::string>& args, unsigned cpu_limit_s = 60,
                                    unsigned long memory_limit_mb = 4096) {
  namespace fs = std::filesystem;
  const fs::path dir = scratch_dir("measured-run");
  const std::string out = (dir / "out").string(), err = (dir / "err").string(), usage = (dir / "usage").string();
  std::string cmd = std::string(ELFMETA_MEASURE) + " " + usage + " " + std::to_string(cpu_limit_s) + " " +
                    std::to_string(memory_limit_mb) + " " + ELFMETA_CLI;
  for (const auto& a : args) cmd += " " + shell_quoted(a);
  cmd += " >" + out + " 2>" + err;
  MeasuredRun r;
  if (std::system(cmd.c_str()) != 0) return r;
  std::istringstream u(slurp(usage));
  long rss_kb = 0;
  u >> r.status >> r.signal >> rss_kb >> r.cpu_seconds;
  r.max_rss_mb = rss_kb / 1024;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

}  // namespace elfmeta::testing
