// Where the time of checking a whole kernel package goes, next to bpftool.
//
// Runs `elfmeta check --timing -j N PACKAGE.deb` (reading the package,
// opening and decompressing its image and modules, checking BTF, ORC and the
// cross-checks) and prints its phases; then `bpftool btf dump file MODULE -B
// VMLINUX_BTF` over the same modules, N at a time, on the bytes already
// extracted (so bpftool is not charged for reading the package), and prints
// the ratio. Target (issue 8): the whole package in under 10 s on 2 cores.
//
//   bench/package_check_bench [--elfmeta PATH] [--jobs N] [PACKAGE.deb]
// PACKAGE defaults to the Debian 6.12 cloud package of tools/fetch-test-data.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "input/artifact.h"
#include "input/kernel_package.h"

namespace fs = std::filesystem;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string default_package() {
  const char* data = std::getenv("ELFMETA_TEST_DATA");
  const char* home = std::getenv("HOME");
  const fs::path dir = data ? fs::path(data) / "debs" : fs::path(home ? home : "/root") / ".cache/elfmeta/debs";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().starts_with("linux-image-6.12.")) return e.path().string();
  return "";
}

// The elfmeta binary next to this benchmark (build/bench/.. /elfmeta).
std::string default_elfmeta() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return (self.parent_path().parent_path() / "elfmeta").string();
}

bool write_file(const fs::path& p, std::span<const uint8_t> bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

int run_quietly(const std::vector<std::string>& argv) {
  std::fflush(nullptr);  // the child must not write our buffered output again
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string package, elfmeta = default_elfmeta();
  unsigned jobs = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--elfmeta" && i + 1 < argc)
      elfmeta = argv[++i];
    else if (a == "--jobs" && i + 1 < argc)
      jobs = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    else
      package = a;
  }
  if (package.empty()) package = default_package();
  if (package.empty()) {
    std::cerr << "package_check_bench: no package given and none in the test-data cache (tools/fetch-test-data)\n";
    return 2;
  }
  std::cout << "package: " << package << std::endl;

  // 1. elfmeta on the package, phase by phase (its --timing line).
  const std::string cmd = elfmeta + " check --timing -j " + std::to_string(jobs) + " '" + package + "' 2>&1 >/dev/null";
  const auto t0 = std::chrono::steady_clock::now();
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return 2;
  std::string timing;
  char line[4096];
  while (std::fgets(line, sizeof line, p))
    if (std::string_view(line).starts_with("elfmeta: timing")) timing = line;
  const int rc = pclose(p);
  const double ours = seconds_since(t0);
  if (timing.empty()) {
    std::cerr << "package_check_bench: " << elfmeta << " printed no timing (exit " << rc << ")\n";
    return 2;
  }
  std::cout << timing << std::flush;

  // 2. bpftool over the same modules: extract once (not timed), then time
  // one `bpftool btf dump` per module with the image's BTF as base.
  if (run_quietly({"bpftool", "version"}) != 0) {
    std::printf("elfmeta, whole package: %.2f s with %u jobs (target < 10 s); bpftool not installed\n", ours, jobs);
    return 0;
  }
  std::string error;
  auto pkg = elfmeta::input::read_kernel_package(package, error);
  if (!pkg || pkg->images.empty()) {
    std::cerr << "package_check_bench: " << (pkg ? "no image in the package" : error) << "\n";
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() / ("elfmeta-package-bench-" + std::to_string(getpid()));
  fs::create_directories(dir);
  auto image = elfmeta::input::open_bytes("vmlinuz", std::move(pkg->images.front().bytes));
  const auto* btf = image.artifact ? image.artifact->section(".BTF") : nullptr;
  if (!btf) {
    std::cerr << "package_check_bench: the image has no .BTF\n";
    return 2;
  }
  write_file(dir / "vmlinux.btf", btf->data);
  std::vector<std::string> modules;
  for (size_t i = 0; i < pkg->modules.size(); ++i) {
    auto m = elfmeta::input::open_bytes(pkg->modules[i].path, std::move(pkg->modules[i].bytes));
    if (!m.artifact || !m.artifact->section(".BTF")) continue;
    const fs::path out = dir / (std::to_string(i) + ".ko");
    write_file(out, m.artifact->content);
    modules.push_back(out.string());
  }
  std::atomic<size_t> next{0}, failed{0};
  const auto t1 = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < jobs; ++w)
    workers.emplace_back([&] {
      for (size_t i; (i = next++) < modules.size();)
        if (run_quietly({"bpftool", "btf", "dump", "file", modules[i], "-B", (dir / "vmlinux.btf").string()}) != 0)
          ++failed;
    });
  for (auto& t : workers) t.join();
  const double bpftool = seconds_since(t1);
  fs::remove_all(dir);

  std::printf("elfmeta, whole package (read, decompress, check BTF + ORC + cross-checks of 1 image and %zu modules): %.2f s with %u jobs (target < 10 s)\n",
              pkg->modules.size(), ours, jobs);
  std::printf("bpftool btf dump of the %zu modules with BTF (already extracted), %u at a time: %.2f s%s\n", modules.size(),
              jobs, bpftool, failed ? (" (" + std::to_string(failed.load()) + " failed)").c_str() : "");
  std::printf("ratio elfmeta / bpftool: %.2fx\n", ours / bpftool);
  return 0;
}
