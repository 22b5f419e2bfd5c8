// elfmeta stats: the counts of what the inputs hold and what the checks
// found, as one JSON document (a baseline for elfmeta diff).
#include <fstream>
#include <iostream>

#include "check_run.h"
#include "cli.h"
#include "core/listing_limit.h"
#include "stats/stats.h"

namespace elfmeta::cli {

int run_stats(Args args) {
  std::string out_path;
  std::vector<std::string> rest;
  while (!args.done()) {
    std::string v;
    if (args.option("-o", v) || args.option("--output", v))
      out_path = v;
    else
      rest.push_back(args.next());
  }
  Args check_args(rest);
  CheckSettings s = parse_check_settings(check_args, "stats", {"--format", "--Werror"});
  s.want_stats = true;
  // Every finding, listed or not, in the counts and the finding keys (diff compares them).
  set_listing_limit(no_listing_limit);
  PhaseClock clock;
  std::string error;
  auto run = run_checks(s, clock, error);
  if (!run) {
    std::cerr << "elfmeta: " << error << "\n";
    return 2;
  }
  bool unreadable = false;
  for (const auto& r : run->results)
    if (!r.open_error.empty()) {
      std::cerr << "elfmeta: " << r.open_error << "\n";
      unreadable = true;
    }
  const std::string json = stats::to_json(stats_of(*run, s.inputs));
  if (out_path.empty()) {
    std::cout << json;
  } else {
    std::ofstream out(out_path);
    out << json;
    if (!out) {
      std::cerr << "elfmeta: cannot write " << out_path << "\n";
      return 2;
    }
  }
  clock.lap("writing");
  if (s.timing) clock.write(std::cerr, s.jobs);
  return unreadable ? 2 : 0;
}

}  // namespace elfmeta::cli
