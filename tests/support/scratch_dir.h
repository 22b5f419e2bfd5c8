// One scratch directory per test process, removed when the process exits:
// ctest runs every test in a process of its own, and files left loose in
// /tmp by each of them add up to thousands on a CI machine.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace elfmeta::testing {

// `sub`, when given, is a directory inside the scratch directory (created).
inline std::filesystem::path scratch_dir(const std::string& sub = {}) {
  struct Dir {
    pid_t owner = ::getpid();
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("elfmeta-test-" + std::to_string(owner));
    Dir() { std::filesystem::create_directories(path); }
    ~Dir() {
      if (::getpid() != owner) return;  // a forked child that exits must not take its parent's files
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  if (sub.empty()) return dir.path;
  const std::filesystem::path p = dir.path / sub;
  std::filesystem::create_directories(p);
  return p;
}

}  // namespace elfmeta::testing
