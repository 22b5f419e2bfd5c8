// The sid toolchain root (tools/toolchain-root) and what tools/sid-sframe-data
// fetches and builds with it, from the tests. Each is made once per process
// when a test first asks (instant once cached under ~/.cache/elfmeta); a
// test that needs one and cannot have it skips with the tool's one-line
// reason, and fails under CI=true (tools/install-deps installs debootstrap
// and npm, so only a broken step is left). The versions the root holds are
// printed once per process, so that every test log says which producers it
// judged.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>

#include "tests/support/require.h"

namespace elfmeta::testing {

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct CommandResult {
  int status = -1;  // the exit status; -1 when killed or not run
  std::string output;  // stdout and stderr together
};

inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* p = ::popen(("(" + command + ") 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  for (size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, got);
  const int raw = ::pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

inline std::filesystem::path source_dir() { return ELFMETA_SOURCE_DIR; }

// One `name: path` step of a tool, made once per process.
class SidData {
 public:
  struct Item {
    bool available = false;
    std::string why;      // the tool's one line when not available
    std::string versions;  // the toolchain root: what it holds
    std::map<std::string, std::string> paths;  // tools/sid-sframe-data: name -> path
  };

  // The root: `tools/toolchain-root ensure`.
  static const Item& root() {
    static Item item;
    static std::once_flag once;
    std::call_once(once, [] {
      const CommandResult r = run_command(shell_quote((source_dir() / "tools" / "toolchain-root").string()) + " ensure");
      item.available = r.status == 0;
      if (item.available) {
        item.versions = r.output;
        std::printf("sid toolchain root (tools/toolchain-root versions):\n%s", r.output.c_str());
      } else {
        item.why = last_line(r.output);
      }
    });
    return item;
  }

  // `tools/sid-sframe-data STEP` (sources, corpus), after the root.
  static const Item& data(const std::string& step) {
    static std::map<std::string, Item> items;
    static std::mutex m;
    std::lock_guard<std::mutex> lock(m);
    auto it = items.find(step);
    if (it != items.end()) return it->second;
    Item& item = items[step];
    const Item& r = root();
    if (!r.available) {
      item.why = r.why;
      return item;
    }
    const CommandResult c =
        run_command(shell_quote((source_dir() / "tools" / "sid-sframe-data").string()) + " " + step);
    item.available = c.status == 0;
    if (!item.available) {
      item.why = last_line(c.output);
      return item;
    }
    size_t at = 0;
    while (at < c.output.size()) {
      size_t end = c.output.find('\n', at);
      if (end == std::string::npos) end = c.output.size();
      const std::string line = c.output.substr(at, end - at);
      const size_t colon = line.find(": ");
      if (colon != std::string::npos) {
        std::string value = line.substr(colon + 2);
        value = value.substr(0, value.find(' '));
        item.paths[line.substr(0, colon)] = value;
      }
      at = end + 1;
    }
    std::printf("tools/sid-sframe-data %s:\n%s", step.c_str(), c.output.c_str());
    return item;
  }

  // COMMAND (sh -c) inside the root, in `dir` (bound at its own path), with
  // the other folders given bound at theirs.
  static CommandResult run(const std::string& command, const std::filesystem::path& dir,
                           const std::vector<std::filesystem::path>& binds = {}) {
    std::string cmd = "cd " + shell_quote(dir.string()) + " && " +
                      shell_quote((source_dir() / "tools" / "toolchain-root").string()) + " run";
    for (const auto& b : binds) cmd += " --bind " + shell_quote(b.string());
    cmd += " -- sh -c " + shell_quote(command);
    return run_command(cmd);
  }

 private:
  static std::string last_line(std::string s) {
    while (!s.empty() && s.back() == '\n') s.pop_back();
    const size_t nl = s.rfind('\n');
    return nl == std::string::npos ? s : s.substr(nl + 1);
  }
};

}  // namespace elfmeta::testing

// Skips (fails under CI=true) unless the sid toolchain root can be had.
#define ELFMETA_REQUIRE_TOOLCHAIN_ROOT()                                                                  \
  ELFMETA_REQUIRE_INSTALLED(::elfmeta::testing::SidData::root().available,                               \
                            "the sid toolchain root: " + ::elfmeta::testing::SidData::root().why)

// The same for a step of tools/sid-sframe-data; `item` names the result.
#define ELFMETA_REQUIRE_SID_DATA(item, step)                                                              \
  const auto& item = ::elfmeta::testing::SidData::data(step);                                            \
  ELFMETA_REQUIRE_INSTALLED(item.available, "tools/sid-sframe-data " step ": " + item.why)
