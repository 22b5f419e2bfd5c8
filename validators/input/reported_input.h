// An input as the CI reports (SARIF, JUnit) describe it.
#pragma once

#include <span>
#include <string>

#include "core/report.h"
#include "input/artifact.h"

namespace elfmeta::input {

// `kernel` is the profile the input was judged by.
ReportedInput reported_input(const Artifact& a, std::string kernel, std::span<const Diagnostic> diagnostics);
// An input that could not be opened: `error` is open_input's one line.
ReportedInput unreadable_input(std::string error);

}  // namespace elfmeta::input
