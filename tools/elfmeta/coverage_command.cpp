// elfmeta coverage: how far BTF + kallsyms + ORC/SFrame stand in for DWARF,
// per artifact and summed per package (validators/coverage/, docs/coverage.md).
// The inputs are opened, streamed and paired (modules with their image, the
// running kernel with /proc/kallsyms) by the check run; its on_checked hook
// takes each artifact's figures while the artifact is at hand.
#include <iostream>
#include <map>
#include <mutex>

#include "check_run.h"
#include "cli.h"
#include "coverage/coverage.h"

namespace elfmeta::cli {
namespace {

nlohmann::json entry(const std::string& path, const std::string& name, const coverage::Coverage& c) {
  nlohmann::json j = coverage::to_json(c);
  j["path"] = path;
  j["name"] = name;
  return j;
}

}  // namespace

int run_coverage(Args args) {
  std::string format = "text";
  std::vector<std::string> rest;
  while (!args.done()) {
    std::string v;
    if (args.option("--format", v)) {
      if (v != "text" && v != "json") throw UsageError("coverage: --format is text or json, not '" + v + "'");
      format = v;
    } else {
      rest.push_back(args.next());
    }
  }
  Args check_args(rest);
  CheckSettings s = parse_check_settings(check_args, "coverage", {"--Werror"});
  // Coverage reads BTF, symbols and the unwind tables itself: the rule
  // checks beyond BTF's own (which gives the parsed blob and its base) are
  // not needed.
  s.xc_on = s.orc_on = s.sframe_on = false;
  std::mutex mu;
  std::map<uint64_t, coverage::Coverage> figures;  // by InputResult::order
  s.on_checked = [&](const InputResult& r, const input::SymbolIndex* symbols) {
    coverage::Coverage c = coverage::coverage_of({*r.artifact, r.check.btf.btf.get(), symbols});
    std::lock_guard lock(mu);
    figures[r.order] = c;
  };
  PhaseClock clock;
  std::string error;
  auto run = run_checks(s, clock, error);
  if (!run) {
    std::cerr << "elfmeta: " << error << "\n";
    return 2;
  }
  bool unreadable = false, context_error = false;
  std::vector<coverage::Coverage> package_totals(run->packages.size());
  coverage::Coverage total;
  nlohmann::json artifacts = nlohmann::json::array();
  std::vector<coverage::Row> rows;
  int last_package = -1;
  const auto close_package = [&] {
    if (last_package < 0) return;
    const PackageContext& p = run->packages[last_package];
    rows.push_back({"total of " + p.name, package_totals[last_package], true});
  };
  for (const auto& r : run->results) {
    if (!r.open_error.empty()) {
      std::cerr << "elfmeta: " << r.open_error << "\n";
      unreadable = true;
      continue;
    }
    // Symbols or a base of another kernel (XC-CTX) were not used: the
    // figures lack them, and the run says so and fails.
    for (const auto& d : r.diagnostics)
      if (d.rule && d.rule->id.starts_with("XC-CTX-")) {
        std::cerr << "elfmeta: " << r.name << ": " << d.message << " [" << d.rule->id << "]\n";
        context_error = true;
      }
    auto it = figures.find(r.order);
    if (!r.checked || it == figures.end()) continue;
    if (r.package != last_package) {
      close_package();
      last_package = r.package;
    }
    const coverage::Coverage& c = it->second;
    total += c;
    if (r.package >= 0) package_totals[r.package] += c;
    nlohmann::json j = entry(r.path, r.name, c);
    j["kind"] = r.kind;
    if (r.package >= 0) j["package"] = run->packages[r.package].path;
    artifacts.push_back(std::move(j));
    rows.push_back({r.path, c, r.package < 0});
  }
  close_package();
  if (format == "json") {
    nlohmann::json out;
    out["elfmeta_coverage"] = 1;
    out["kernel"] = kernels_used(run->results);
    out["artifacts"] = std::move(artifacts);
    out["packages"] = nlohmann::json::array();
    for (size_t i = 0; i < run->packages.size(); ++i)
      out["packages"].push_back(entry(run->packages[i].path, run->packages[i].name, package_totals[i]));
    out["total"] = coverage::to_json(total);
    std::cout << out.dump(1) << "\n";
  } else {
    if (rows.size() > 1) rows.push_back({"total", total, true});
    coverage::write_table(std::cout, rows);
  }
  clock.lap("writing");
  if (s.timing) clock.write(std::cerr, s.jobs);
  return unreadable ? 2 : context_error ? 1 : 0;
}

}  // namespace elfmeta::cli
