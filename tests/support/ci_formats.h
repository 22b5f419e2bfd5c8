// Checks of the CI documents by tools outside elfmeta: the official SARIF
// 2.1.0 schema (tests/data/sarif/, validated by python3-jsonschema) and an
// XML parser (xmllint, libxml2-utils). Both are installed by
// tools/install-deps; without them a test skips and says why.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/scratch_dir.h"

namespace elfmeta::testing {

struct ToolVerdict {
  bool ran = false;     // false: the tool is missing, `output` says which
  bool passed = false;
  std::string output;
};

inline std::filesystem::path scratch_file(const std::string& name, const std::string& text) {
  const auto p = scratch_dir() / ("ci-" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

// Runs a shell command; its status and what it printed (stdout and stderr).
inline std::pair<int, std::string> run_command(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) output.append(buf, n);
  const int raw = ::pclose(pipe);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, output};
}

inline ToolVerdict validate_against_sarif_schema(const std::string& sarif) {
  const std::string dir = std::string(ELFMETA_SOURCE_DIR) + "/tests";
  const auto log = scratch_file("log.sarif", sarif);
  // Debian's interpreter first: python3-jsonschema installs there, while
  // python3 on PATH may be another one.
  for (const char* python : {"/usr/bin/python3", "python3"}) {
    const auto [status, output] = run_command(std::string(python) + " " + dir + "/support/validate_sarif.py " + dir +
                                              "/data/sarif/sarif-schema-2.1.0.json " + log.string());
    if (status == 0 || status == 1) return {true, status == 0, output};
  }
  return {false, false, "python3-jsonschema is not installed (tools/install-deps installs it): SARIF schema check skipped"};
}

inline ToolVerdict check_xml_well_formed(const std::string& xml) {
  const auto file = scratch_file("junit.xml", xml);
  if (run_command("command -v xmllint").first != 0)
    return {false, false, "xmllint is not installed (libxml2-utils; tools/install-deps installs it): XML check skipped"};
  const auto [status, output] = run_command("xmllint --noout " + file.string());
  return {true, status == 0, output};
}

// Every match of the first group of `pattern`, in order.
inline std::vector<std::string> all_matches(const std::string& text, const std::string& pattern) {
  std::vector<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

inline std::vector<std::string> sarif_fingerprints(const std::string& sarif) {
  return all_matches(sarif, "\"elfmetaFinding/v1\": \"([0-9a-f]+)\"");
}

}  // namespace elfmeta::testing
