// One run of the checks over the inputs of a command line: every input
// opened by content and checked with what the settings enable, in parallel,
// kernel images first so that modules are checked on top of them. check,
// stats, diff and report start from here and differ in what they write.
//
// Kernel packages (.deb) and unpacked kernel trees (a directory) stream: a
// package is read once, file after file; its image is checked as soon as it
// is read and kept as the base of the modules; each module is checked on a
// worker and its bytes released once its checks are done, keeping only what
// the reports need (diagnostics, counts). Memory is bounded by a few
// artifacts, however many modules a package holds. The packages of one
// kernel are checked as one: a linux-modules package given with its
// linux-binary package, in either order, is checked on that image.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
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
#include "core/report.h"
#include "input/artifact.h"
#include "input/input_limits.h"
#include "input/kernel_package.h"
#include "input/symbols.h"
#include "orc/verifier.h"
#include "sframe/verifier.h"
#include "stats/stats.h"

namespace elfmeta::cli {

struct InputResult;

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
  // Text: --verbose lists every warning and the notes; --quiet prints the summary alone.
  bool verbose = false, quiet = false;
  bool werror = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());  // -j: all cores unless told
  bool timing = false;  // --timing: where the time went, on stderr
  std::vector<std::string> base_paths;
  std::vector<std::string> inputs;
  // --as btf|sframe: every input file is that format's raw blob.
  input::Format as = input::Format::Auto;
  // --max-expansion, --max-artifact-size, --max-decompressed (input_limits.h).
  input::InputLimits limits;
  // stats, diff, report: the counts of each artifact, taken as it is checked.
  bool want_stats = false;
  // diff: every artifact and its checked BTF stay to the end (the type diff
  // reads them); memory then grows with the package.
  bool keep_artifacts = false;
  // Called for every checked artifact, on the worker that checked it, while
  // its bytes, checks and symbols (null: none) are at hand: coverage's hook.
  // Symbols are read for it even when no check needs them.
  std::function<void(const InputResult&, const input::SymbolIndex*)> on_checked;
};

struct PackageContext {
  std::string path;
  std::string name;                              // the file name, for notes
  input::KernelPackageId id;                     // kind and kernel release
  std::optional<input::SymbolIndex> system_map;  // when it is a real one
  std::vector<Diagnostic> notes;                 // what the package says about itself
};

struct InputResult {
  int package = -1;  // index into CheckRun::packages; -1 for an input of its own
  std::string path;  // as given, or "PACKAGE:path inside it"
  // The artifact and its checks. Released once the checks are done, for the
  // members of packages and trees (unless keep_artifacts) and where nothing
  // was opened; the rest of this record is what the reports need.
  std::unique_ptr<input::Artifact> artifact;
  btf::ArtifactCheck check;
  orc::OrcCheck orc;
  sframe::SframeCheck sframe;
  std::string open_error;  // the input could not be read (exit 2); then nothing else is set
  bool checked = false;    // opened and checked; false also for an input a limit refused (a finding says so)
  std::string name;        // the artifact name its diagnostics carry
  std::string kind;        // artifact_kind() of a checked artifact
  std::vector<Diagnostic> diagnostics;
  // The formats the artifact has and the run checked, for the summary.
  bool has_btf = false, has_orc = false, has_sframe = false;
  btf::KernelChoice kernel;
  ReportedInput reported;  // for SARIF and JUnit; its diagnostics are attached when written
  uint64_t order = 0;      // command-line order, packages expanded in archive order
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
  size_t opened = 0;  // results that were checked
  // Checks that did not run for want of context, counted per artifact: the
  // split BTF of modules whose image was not given. The packages' notes
  // say which package is needed.
  size_t btf_not_checked = 0;
  stats::Stats stats;  // with want_stats
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
// "6.1 (banner 6.1.0-56-cloud-amd64), 6.18 (running kernel) for 2 artifacts".
std::string kernels_used(const std::vector<InputResult>& results);

// How the closing table groups artifacts.
std::string artifact_kind(const input::Artifact& a);

// "bpf-load", "libbpf 1.1": the consumer the summary names.
std::string consumer_used(const CheckSettings& s);

// The counts of a run (stats_command.cpp): what stats writes, diff compares
// and report charts against a baseline. Needs want_stats.
stats::Stats stats_of(const CheckRun& run, const std::vector<std::string>& inputs);

}  // namespace elfmeta::cli
