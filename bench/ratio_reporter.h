// A console reporter that also keeps each benchmark's real time per
// iteration, so that a benchmark program can print ratios at the end.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <string>

namespace elfmeta::bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs)
      if (!r.error_occurred && r.run_type == Run::RT_Iteration) times_[r.benchmark_name()] = r.GetAdjustedRealTime();
  }
  // The time of `name` (or of its first argument variant), in its unit; 0 if it did not run.
  double time(const std::string& name) const {
    for (const auto& [run, t] : times_)
      if (run == name || run.rfind(name + "/", 0) == 0) return t;
    return 0.0;
  }

 private:
  std::map<std::string, double> times_;
};

}  // namespace elfmeta::bench
