// elfmeta report: the run as one self-contained HTML page (summary, findings
// per rule and per artifact, charts; against a stats baseline when given).
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>

#include "check_run.h"
#include "cli.h"
#include "core/listing_limit.h"
#include "stats/html_report.h"

namespace elfmeta::cli {
namespace {

// Where rule links point: $ELFMETA_HOMEPAGE, else the build's
// ELFMETA_HOMEPAGE unless it is the default that resolves nowhere; "" (the
// rules' text embedded in the page) when neither.
std::string rule_docs_base() {
  std::string home;
  if (const char* env = std::getenv("ELFMETA_HOMEPAGE"); env && *env)
    home = env;
  else if (!std::string_view(ELFMETA_HOMEPAGE).ends_with(".invalid"))
    home = ELFMETA_HOMEPAGE;
  while (!home.empty() && home.back() == '/') home.pop_back();
  return home.empty() ? "" : home + "/docs/rules/";
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

stats::HtmlReport report_of(const CheckRun& run, const CheckSettings& s) {
  stats::HtmlReport r;
  r.tool_version = ELFMETA_VERSION;
  r.date = utc_now();
  r.rule_docs = rule_docs_base();
  r.inputs = s.inputs;
  r.kernel = kernels_used(run.results);
  r.consumer = consumer_used(s);
  for (const auto& res : run.results) {
    if (!res.open_error.empty())
      r.unreadable.push_back(res.open_error);
    else
      r.artifacts.push_back({res.name, res.checked ? res.kind : "refused", res.diagnostics});
  }
  r.stats = stats_of(run, s.inputs);
  return r;
}

}  // namespace

int run_report(Args args) {
  std::string out_path, baseline_path, v;
  std::vector<std::string> rest;
  while (!args.done()) {
    if (args.option("-o", v) || args.option("--output", v))
      out_path = v;
    else if (args.option("--baseline", v))
      baseline_path = v;
    else
      rest.push_back(args.next());
  }
  if (out_path.empty()) throw UsageError("report needs -o FILE.html");
  Args check_args(rest);
  CheckSettings s = parse_check_settings(check_args, "report", {"--format", "--Werror"});
  s.want_stats = true;
  // Every finding, listed or not, in the counts and the finding keys (the page lists its own share).
  set_listing_limit(no_listing_limit);
  std::string error;
  std::optional<stats::Stats> baseline;
  if (!baseline_path.empty() && !(baseline = stats::read_stats_file(baseline_path, error))) {
    std::cerr << "elfmeta: --baseline " << error << "\n";
    return 2;
  }
  PhaseClock clock;
  auto run = run_checks(s, clock, error);
  if (!run) {
    std::cerr << "elfmeta: " << error << "\n";
    return 2;
  }
  stats::HtmlReport report = report_of(*run, s);
  report.baseline = std::move(baseline);
  report.baseline_label = baseline_path;
  for (const auto& line : report.unreadable) std::cerr << "elfmeta: " << line << "\n";
  std::ofstream out(out_path, std::ios::binary);
  stats::write_html_report(out, report);
  out.close();
  if (!out) {
    std::cerr << "elfmeta: cannot write " << out_path << "\n";
    return 2;
  }
  clock.lap("reporting");
  if (s.timing) clock.write(std::cerr, s.jobs);
  return report.unreadable.empty() ? 0 : 2;
}

}  // namespace elfmeta::cli
