// Runs the elfmeta CLI under resource limits and reports what the process
// used: its exit status (or the signal that ended it), its output, its peak
// resident memory and its CPU time. For the hostile-input tests: a hang or a
// blow-up ends the process (RLIMIT_CPU, RLIMIT_AS) and fails the test,
// instead of holding CI. The figures are asserted as limits, never timed.
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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

// `args` as separate words after "elfmeta".
inline MeasuredRun run_cli_measured(const std::vector<std::string>& args, unsigned cpu_limit_s = 60,
                                    unsigned long memory_limit_mb = 4096) {
  namespace fs = std::filesystem;
  const fs::path dir = scratch_dir("measured-run");
  const std::string out = (dir / "out").string(), err = (dir / "err").string();
  MeasuredRun r;
  const pid_t pid = ::fork();
  if (pid == 0) {
    const rlimit cpu{cpu_limit_s, cpu_limit_s}, as{memory_limit_mb << 20, memory_limit_mb << 20};
    ::setrlimit(RLIMIT_CPU, &cpu);
    ::setrlimit(RLIMIT_AS, &as);
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(o, 1);
    ::dup2(e, 2);
    std::vector<char*> argv{const_cast<char*>(ELFMETA_CLI)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(ELFMETA_CLI, argv.data());
    ::_exit(127);
  }
  int raw = 0;
  rusage usage{};
  ::wait4(pid, &raw, 0, &usage);
  if (WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
  if (WIFSIGNALED(raw)) r.signal = WTERMSIG(raw);
  r.max_rss_mb = usage.ru_maxrss / 1024;
  r.cpu_seconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

}  // namespace elfmeta::testing
