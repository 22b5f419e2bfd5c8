// Renders a page in headless Chromium (Debian's chromium package, installed
// by tools/install-deps) and returns the DOM after its scripts ran, so that
// tests can check what the page's JavaScript drew. Without chromium the
// verdict says so and the test skips.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/ci_formats.h"

namespace elfmeta::testing {

struct RenderedPage {
  bool ran = false;  // false: chromium is missing or failed, `output` says why
  std::string dom;   // the serialised DOM after the scripts ran
  std::string output;
};

inline RenderedPage render_in_chromium(const std::filesystem::path& page) {
  if (run_command("command -v chromium").first != 0)
    return {false, "", "chromium is not installed (tools/install-deps installs it): browser test skipped"};
  // --no-sandbox: CI runs as root; --virtual-time-budget lets the page's
  // scripts finish before the DOM is dumped; a profile of its own keeps
  // parallel tests apart. Chromium's own log goes to a file, not the DOM.
  const auto dir = scratch_dir("chromium");
  const std::string command = "{ timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run "
                              "--virtual-time-budget=2000 --user-data-dir=" + (dir / "profile").string() +
                              " --dump-dom 'file://" + std::filesystem::absolute(page).string() + "' 2>" +
                              (dir / "log").string() + "; }";
  auto [status, dom] = run_command(command);
  if (status != 0) {
    std::ifstream log(dir / "log");
    std::stringstream text;
    text << log.rdbuf();
    return {false, "", "chromium exited with " + std::to_string(status) + ": " + text.str()};
  }
  return {true, std::move(dom), ""};
}

}  // namespace elfmeta::testing
