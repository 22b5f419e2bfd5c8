// elfmeta check: run the checks over every input (check_run.h) and print
// the findings in input order, a summary, and for many artifacts a table.
#include <algorithm>
#include <iostream>
#include <optional>

#include "btf/libbpf_model.h"
#include "check_run.h"
#include "cli.h"
#include "core/findings.h"
#include "core/listing_limit.h"
#include "core/report.h"
#include "core/summary_table.h"
#include "core/text_report.h"
#include "input/kernel_release.h"
#include "input/reported_input.h"

namespace elfmeta::cli {
namespace {

unsigned parse_jobs(const std::string& v) {
  try {
    const int n = std::stoi(v);
    if (n >= 1 && n <= 256) return static_cast<unsigned>(n);
  } catch (...) {
  }
  throw UsageError("-j needs a number from 1 to 256, not '" + v + "'");
}

// A positive count ("1000").
uint64_t parse_count(const std::string& v, const char* option) {
  try {
    size_t used = 0;
    const unsigned long long n = std::stoull(v, &used);
    if (used == v.size() && n > 0) return n;
  } catch (...) {
  }
  throw UsageError(std::string(option) + " takes a positive number, not '" + v + "'");
}

// A size: bytes, or with K, M or G (binary units: "512M", "8G").
uint64_t parse_size(const std::string& v, const char* option) {
  try {
    size_t used = 0;
    const unsigned long long n = std::stoull(v, &used);
    const std::string unit = v.substr(used);
    const int shift = unit.empty() || unit == "B" ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : -1;
    if (n > 0 && shift >= 0 && n <= (~0ull >> shift)) return n << shift;
  } catch (...) {
  }
  throw UsageError(std::string(option) + " takes a size such as 512M or 8G, not '" + v + "'");
}

// --kernel X.Y, --kernel running, or a bare --kernel (the running kernel; the
// next argument is then an input, unless it reads as a release).
btf::KernelChoice parse_kernel(Args& args) {
  std::string v;
  const std::string arg = args.next();
  if (arg.starts_with("--kernel=")) {
    v = arg.substr(9);
  } else if (!args.done() && (args.peek() == "running" || btf::parse_release(args.peek()))) {
    v = args.next();
  } else {
    return btf::running_kernel();
  }
  if (v == "running") return btf::running_kernel();
  const auto r = btf::parse_release(v);
  if (!r) throw UsageError("--kernel takes a release such as 6.1, or running, not '" + v + "'");
  if (*r < btf::kOldestRelease || *r > btf::kNewestRelease)
    throw UsageError("--kernel " + v + ": profiles exist for " + btf::kOldestRelease.str() + " to " +
                     btf::kNewestRelease.str());
  return {*r, "--kernel"};
}

CheckSettings parse_settings(Args& args, std::string_view command, std::initializer_list<std::string_view> refused) {
  CheckSettings s;
  std::string v;
  while (!args.done()) {
    const std::string_view name = std::string_view(args.peek()).substr(0, args.peek().find('='));
    if (std::find(refused.begin(), refused.end(), name) != refused.end())
      throw UsageError(std::string(command) + ": " + std::string(name) + " is not an option of " + std::string(command));
    if (args.option("--only", v)) {
      s.btf_on = s.orc_on = s.sframe_on = s.xc_on = false;
      size_t pos = 0;
      while (pos <= v.size()) {
        const size_t comma = v.find(',', pos);
        const std::string part = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (part == "sframe")
          s.sframe_on = true;
        else if (part == "btf")
          s.btf_on = true;
        else if (part == "orc")
          s.orc_on = true;
        else if (part == "xc")
          s.btf_on = s.xc_on = true;
        else
          throw UsageError("--only takes btf, xc (BTF and its cross-checks), orc or sframe, not '" + part + "'");
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
    } else if (args.option("--kallsyms", v)) {
      s.kallsyms = v;
    } else if (args.peek() == "--kernel" || args.peek().starts_with("--kernel=")) {
      s.kernel = parse_kernel(args);
    } else if (args.option("--consumer", v)) {
      if (v == "bpf-load")
        s.btf.consumer = kBpfBtfLoad;
      else if (v == "module-load")
        s.btf.consumer = kModuleLoad;
      else if (v == "bpf-object")
        s.btf.consumer = kBpfObject;
      else if (v == "libsframe")
        s.sframe_consumer = kLibsframe;
      else if (v == "kernel")
        s.sframe_consumer = kSframeKernel;
      else
        throw UsageError("--consumer takes bpf-load, module-load, bpf-object (BTF), libsframe or kernel (SFrame), not '" + v + "'");
    } else if (args.option("--libbpf", v)) {
      const auto r = btf::parse_release(v);
      if (!r || *r < btf::kOldestLibbpf || *r > btf::kNewestLibbpf)
        throw UsageError("--libbpf takes a libbpf release from " + btf::kOldestLibbpf.str() + " to " +
                         btf::kNewestLibbpf.str() + ", not '" + v + "'");
      s.btf.consumer = kLibbpf;
      s.btf.libbpf = *r;
    } else if (args.option("--as", v)) {
      if (v == "btf")
        s.as = input::Format::Btf;
      else if (v == "sframe")
        s.as = input::Format::Sframe;
      else if (v == "auto")
        s.as = input::Format::Auto;
      else
        throw UsageError("--as takes btf or sframe (the input is that format's raw blob, whatever its bytes) or auto, not '" + v + "'");
    } else if (args.option("--max-expansion", v)) {
      s.limits.max_expansion = parse_count(v, "--max-expansion");
    } else if (args.option("--max-artifact-size", v)) {
      s.limits.max_artifact_bytes = parse_size(v, "--max-artifact-size");
    } else if (args.option("--max-decompressed", v)) {
      s.limits.max_total_bytes = parse_size(v, "--max-decompressed");
    } else if (args.option("--base-btf", v)) {
      s.base_paths.push_back(v);
    } else if (args.option("--format", v)) {
      if (v != "text" && v != "json" && v != "sarif" && v != "junit")
        throw UsageError("--format takes text, json, sarif or junit, not '" + v + "'");
      s.format = v;
    } else if (args.flag("--verbose") || args.flag("-v")) {
      s.verbose = true;
    } else if (args.flag("--quiet") || args.flag("-q")) {
      s.quiet = true;
    } else if (args.flag("--timing")) {
      s.timing = true;
    } else if (args.flag("--Werror")) {
      s.werror = true;
    } else if (args.option("-j", v) || args.option("--jobs", v)) {
      s.jobs = parse_jobs(v);
    } else if (args.peek().size() > 2 && args.peek()[0] == '-' && args.peek()[1] == 'j') {
      s.jobs = parse_jobs(args.next().substr(2));
    } else if (args.peek().size() > 1 && args.peek()[0] == '-') {
      throw UsageError(std::string(command) + ": unknown option '" + args.peek() + "'");
    } else {
      s.inputs.push_back(args.next());
    }
  }
  if (s.inputs.empty()) throw UsageError(std::string(command) + " needs at least one INPUT");
  return s;
}

}  // namespace

CheckSettings parse_check_settings(Args& args, std::string_view command, std::initializer_list<std::string_view> refused) {
  return parse_settings(args, command, refused);
}

int run_check(Args args) {
  CheckSettings s = parse_settings(args, "check", {});
  // The text report lists a few findings of each rule and keeps a hostile
  // input's output readable; JSON, SARIF and JUnit carry every finding.
  set_listing_limit(s.format == "text" ? Findings::kPerRuleLimit : no_listing_limit);
  PhaseClock clock;
  std::string error;
  std::optional<CheckRun> run = run_checks(s, clock, error);
  if (!run) {
    std::cerr << "elfmeta: " << error << "\n";
    return 2;
  }
  const std::vector<InputResult>& results = run->results;
  const size_t opened_count = run->opened;
  RunSummary summary;
  summary.inputs = results.size();
  summary.packages = run->packages.size();
  summary.kernel = kernels_used(results);
  summary.consumer = consumer_used(s);
  summary.btf = false;
  for (const auto& r : results) {
    summary.btf |= r.has_btf;
    summary.orc |= r.has_orc;
    summary.sframe |= r.has_sframe;
  }
  if (s.sframe_consumer != kNoConsumer) summary.sframe_consumer = consumer_name(static_cast<Consumer>(s.sframe_consumer));
  summary.btf_not_checked = run->btf_not_checked;
  std::vector<ReportedInput> reported;  // SARIF, JUnit and text are whole documents: written once, at the end
  for (auto& r : results) {
    if (!r.open_error.empty()) {
      std::cerr << "elfmeta: " << r.open_error << "\n";
      ++summary.unreadable;
      reported.push_back(input::unreadable_input(r.open_error));
      continue;
    }
    if (s.format == "json")
      for (const auto& d : r.diagnostics) write_json(std::cout, d);
    summary.add(r.diagnostics);
    ReportedInput in = r.checked ? r.reported : ReportedInput{};
    if (!r.checked) in.path = r.path, in.name = r.name;  // refused by a limit: its finding says why
    in.diagnostics = r.diagnostics;
    reported.push_back(std::move(in));
  }
  if (s.format == "json")
    write_json_summary(std::cout, summary);
  else if (s.format == "sarif")
    write_sarif(std::cout, reported, summary, {ELFMETA_VERSION, ELFMETA_HOMEPAGE, ""});
  else if (s.format == "junit")
    write_junit(std::cout, reported, summary, s.werror);
  else
    write_text_report(std::cout, reported, summary, {s.verbose, s.quiet});
  if (s.format == "text" && opened_count > 1 && !s.quiet) {
    SummaryTable table;
    for (const auto& r : results)
      if (r.checked) table.add(r.kind, r.diagnostics);
    std::cout << "\n";
    write_summary_table(std::cout, table);
  }
  std::cout.flush();
  clock.lap("reporting");
  if (s.timing) clock.write(std::cerr, s.jobs);
  if (summary.unreadable) return 2;
  // Checks that did not run for want of an input fail a --Werror run as warnings do.
  if (summary.errors || (s.werror && (summary.warnings || summary.btf_not_checked))) return 1;
  return 0;
}

}  // namespace elfmeta::cli
