// elfmeta-measure: runs a command under CPU and address-space limits and
// writes what it used, as "STATUS SIGNAL MAX_RSS_KB CPU_SECONDS", to a file.
//
//   elfmeta-measure OUT CPU_LIMIT_S MEMORY_LIMIT_MB COMMAND ARGS...
//
// A process of its own, so that the peak memory is the command's: a child
// forked from a large test process inherits that process's pages, and their
// count stays in its peak even after the exec.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: elfmeta-measure OUT CPU_LIMIT_S MEMORY_LIMIT_MB COMMAND ARGS...\n");
    return 2;
  }
  const rlim_t cpu = std::strtoul(argv[2], nullptr, 10), memory = rlim_t(std::strtoul(argv[3], nullptr, 10)) << 20;
  const pid_t pid = fork();
  if (pid == 0) {
    const rlimit c{cpu, cpu}, m{memory, memory};
    setrlimit(RLIMIT_CPU, &c);
    setrlimit(RLIMIT_AS, &m);
    execv(argv[4], argv + 4);
    _exit(127);
  }
  int raw = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &raw, 0, &usage) < 0) return 2;
  FILE* out = std::fopen(argv[1], "w");
  if (!out) return 2;
  std::fprintf(out, "%d %d %ld %.3f\n", WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, WIFSIGNALED(raw) ? WTERMSIG(raw) : 0,
               usage.ru_maxrss,
               double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                   double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6);
  std::fclose(out);
  return 0;
}
