// One run of the checks over the inputs of a command line: every input
// opened by content (a kernel package expanded into its image and modules),
// every artifact checked with what the settings enable, in parallel, kernel
// images first so that modules are checked on top of them. check, stats and
// diff start from here and differ in what they write.
#pragma once

#include <chrono>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "btf/artifact_check.h"
#include "core/diagnostic.h"
#include "input/artifact.h"
#include "input/symbols.h"
#include "orc/verifier.h"
#include "sframe/verifier.h"
#include "stats/stats.h"

namespace elfmeta::cli {

struct CheckSettings {
  bool btf_on = true, orc_on = true, sframe_on = true;
  bool xc_on = true;  // BTF cross-checks (symbols, dedup, conventions)
  uint32_t sframe_consumer = kNoConsumer;
  // Symbols of kernel images: "auto" (the image's symtab, else its kallsyms
  // tables), "none", or a /proc/kallsyms or System.map file.
  std::string kallsyms = "auto";
  std::optional<input::SymbolIndex> kallsyms_file;  // loaded once from --kallsyms FILE
  btf::CheckOptions btf;
  // --kernel: one release for every input; unset: each input's own.
  std::optional<btf::KernelChoice> kernel;
  std::string format = "text";
  bool werror = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());  // -j: all cores unless told
  bool timing = false;  // --timing: where the time went, on stderr
  std::vector<std::string> base_paths;
  std::vector<std::string> inputs;
  // --as btf|sframe: every input file is that format's raw blob.
  input::Format as = input::Format::Auto;
};

struct PackageContext {
  std::string path;
  std::optional<input::SymbolIndex> system_map;  // when it is a real one
  std::vector<Diagnostic> notes;                 // what the package says about itself
};

struct InputResult {
  int package = -1;
  std::unique_ptr<input::Artifact> artifact;
  std::string open_error;
  std::vector<Diagnostic> diagnostics;
  btf::ArtifactCheck check;
  orc::OrcCheck orc;
  sframe::SframeCheck sframe;
  btf::KernelChoice kernel;
};

// Wall time per phase of a run, for --timing.
class PhaseClock {
 public:
  void lap(std::string phase) {
    const auto now = std::chrono::steady_clock::now();
    laps_.emplace_back(std::move(phase), std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }
  void write(std::ostream& out, unsigned jobs) const {
    double total = 0;
    for (const auto& [phase, seconds] : laps_) total += seconds;
    out << "elfmeta: timing with " << jobs << (jobs == 1 ? " job" : " jobs") << ":";
    for (const auto& [phase, seconds] : laps_) out << " " << phase << " " << format_seconds(seconds) << ";";
    out << " total " << format_seconds(total) << "\n";
  }

 private:
  static std::string format_seconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", s);
    return buf;
  }
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::vector<std::pair<std::string, double>> laps_;
};

class BaseCache;
class BaseIndexes;

struct CheckRun {
  std::vector<InputResult> results;  // in command-line order, packages expanded
  std::vector<PackageContext> packages;
  size_t opened = 0;  // results with an artifact
  // The base blobs that split BTF in the results continues.
  std::shared_ptr<BaseCache> bases;
  std::shared_ptr<BaseIndexes> base_indexes;
};

// nullopt with `error` (one line) when the settings cannot be used: an
// unreadable --kallsyms or --base-btf file. Inputs that cannot be read are
// results with an open_error. Loads --kallsyms into `s`.
std::optional<CheckRun> run_checks(CheckSettings& s, PhaseClock& clock, std::string& error);

class Args;
// The options of `elfmeta check` and its inputs (check_command.cpp), as
// `command` takes them: stats, diff and report take the same but `refused`,
// the output options they have no use for (a usage error, not ignored).
CheckSettings parse_check_settings(Args& args, std::string_view command,
                                   std::initializer_list<std::string_view> refused);

// "6.18 (running kernel)", or for inputs of several kernels
// "6.1 (banner 6.1.0-56-cloud-amd64), 6.18 (running kernel) for 2 inputs".
std::string kernels_used(const std::vector<InputResult>& results);

// How the closing table groups artifacts.
std::string artifact_kind(const input::Artifact& a);

// "bpf-load", "libbpf 1.1": the consumer the summary names.
std::string consumer_used(const CheckSettings& s);

// The counts of a run (stats_command.cpp): what stats writes, diff compares
// and report charts against a baseline.
stats::Stats stats_of(const CheckRun& run, const std::vector<std::string>& inputs);

}  // namespace elfmeta::cli
