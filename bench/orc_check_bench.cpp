// Speed of elfmeta's full ORC check (every rule, the symbol checks on the
// symbols decoded from the image's kallsyms) of a whole kernel image, next to
// a floor loop that only reads the two tables and checks that neighbouring
// addresses are sorted; prints ns/entry and the ratio (target: within 3x).
//
//   bench/orc_check_bench [--image VMLINUZ] [google benchmark flags]
// VMLINUZ defaults to the Debian 6.12 image of tools/fetch-test-data.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "input/artifact.h"
#include "input/symbols.h"
#include "orc/verifier.h"
#include "ratio_reporter.h"

namespace {

std::unique_ptr<elfmeta::input::Artifact> g_image;
std::optional<elfmeta::input::SymbolIndex> g_symbols;
size_t g_entries = 0;

void BM_OrcFloor(benchmark::State& state) {
  const auto* ip = g_image->section(".orc_unwind_ip");
  const auto* unwind = g_image->section(".orc_unwind");
  const size_t n = ip->data.size() / 4;
  for (auto _ : state) {
    uint64_t previous = 0, bits = 0;
    size_t unsorted = 0;
    for (size_t i = 0; i < n; ++i) {
      int32_t rel;
      std::memcpy(&rel, ip->data.data() + i * 4, 4);
      const uint64_t address = ip->addr + i * 4 + static_cast<uint64_t>(static_cast<int64_t>(rel));
      unsorted += address < previous;
      previous = address;
      uint16_t word;
      std::memcpy(&word, unwind->data.data() + i * 6 + 4, 2);
      bits |= word;
    }
    benchmark::DoNotOptimize(unsorted);
    benchmark::DoNotOptimize(bits);
  }
  state.counters["ns/entry"] = benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_OrcFullCheck(benchmark::State& state) {
  elfmeta::orc::OrcOptions options;
  options.symbols = &*g_symbols;
  for (auto _ : state) {
    elfmeta::NullSink sink;
    const auto result = elfmeta::orc::check_orc(*g_image, options, sink);
    if (result.errors) state.SkipWithError("the image has ORC errors");
    benchmark::DoNotOptimize(result);
  }
  state.counters["ns/entry"] = benchmark::Counter(double(g_entries), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_OrcFloor)->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);
BENCHMARK(BM_OrcFullCheck)->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::string path;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--image") && i + 1 < argc)
      path = argv[++i];
    else
      args.push_back(argv[i]);
  }
  if (path.empty()) {
    const char* data = std::getenv("ELFMETA_TEST_DATA");
    const char* home = std::getenv("HOME");
    const fs::path boot = fs::path(data ? data : std::string(home ? home : "") + "/.cache/elfmeta") / "debian-6.12" / "boot";
    if (fs::exists(boot))
      for (const auto& e : fs::directory_iterator(boot))
        if (e.path().filename().string().starts_with("vmlinuz-")) path = e.path().string();
  }
  if (path.empty()) {
    std::cerr << "orc_check_bench: no image: pass --image VMLINUZ or run tools/fetch-test-data\n";
    return 2;
  }
  auto opened = elfmeta::input::open_input(path);
  if (!opened.artifact || !opened.artifact->section(".orc_unwind_ip")) {
    std::cerr << "orc_check_bench: " << (opened.artifact ? path + " has no ORC" : opened.error) << "\n";
    return 2;
  }
  g_image = std::move(opened.artifact);
  std::string why;
  g_symbols = elfmeta::input::symbols_from_image_kallsyms(*g_image, why);
  if (!g_symbols) {
    std::cerr << "orc_check_bench: " << path << ": no symbols (" << why << ")\n";
    return 2;
  }
  g_entries = g_image->section(".orc_unwind_ip")->data.size() / 4;
  std::cout << "input: " << path << " (" << g_entries << " ORC entries, " << g_symbols->size() << " symbols)\n";

  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  elfmeta::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  const double floor_ms = reporter.time("BM_OrcFloor"), full_ms = reporter.time("BM_OrcFullCheck");
  if (floor_ms > 0 && full_ms > 0) {
    std::printf("\nfloor (read both tables, neighbours sorted): %.2f ns/entry\n", floor_ms * 1e6 / double(g_entries));
    std::printf("full ORC check, symbols included:           %.2f ns/entry\n", full_ms * 1e6 / double(g_entries));
    std::printf("ratio full / floor: %.2fx (target <= 3x)\n", full_ms / floor_ms);
  }
  return 0;
}
