// A console reporter that also keeps each benchmark's real time per
// iteration, so that a benchmark program can print ratios at the end.
//
// The machines these run on are shared: a ratio of two single samples swings
// with whatever else runs. Benchmarks registered through repeated() run
// several times and report the fastest repetition ("min"), the one least
// disturbed, and that is the time the ratios use:
//   BENCHMARK(BM_X)->Apply(elfmeta::bench::repeated);
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace elfmeta::bench {

inline void repeated(benchmark::internal::Benchmark* b) {
  b->Repetitions(5)
      ->ComputeStatistics("min", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); })
      ->DisplayAggregatesOnly(true);
}

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      if (r.error_occurred) continue;
      if (r.run_type == Run::RT_Iteration)
        times_.emplace(r.run_name.str(), r.GetAdjustedRealTime());  // a benchmark without repetitions
      else if (r.aggregate_name == "min")
        times_[r.run_name.str()] = r.GetAdjustedRealTime();
    }
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
