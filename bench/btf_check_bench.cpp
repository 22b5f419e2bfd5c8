// Speed of elfmeta's full kernel-equivalent BTF check on a whole vmlinux BTF,
// against libbpf's btf__new (which only checks layout) and the kernel's own
// BPF_BTF_LOAD, all on the same bytes in one process; prints the ratios.
// BM_Pass_* time each pass of the check alone, on one thread, to show
// where the time goes (docs/btf.md, Speed).
//
//   bench/btf_check_bench [--btf FILE] [--pairs N] [google benchmark flags]
// FILE defaults to /sys/kernel/btf/vmlinux. The ratio to btf__new is also
// measured in N pairs (default 400; 0: not) of one check and one btf__new
// right after it: our VMs' speed drifts by a fifth within seconds, which
// the separate benchmark runs take into their ratio, a pair hardly.
#include <benchmark/benchmark.h>
#include <bpf/btf.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "btf/artifact_check.h"
#include "btf/check_records.h"
#include "btf/parse.h"
#include "btf/resolve.h"
#include "btf/special_fields.h"
#include "btf/type_tags.h"
#include "btf/verifier.h"
#include "input/artifact.h"
#include "oracle/kernel_btf_oracle.h"
#include "ratio_reporter.h"

namespace {

std::vector<uint8_t> g_blob;

void BM_ReadBytesOnce(benchmark::State& state) {
  for (auto _ : state) {
    uint64_t sum = 0;
    const uint64_t* p = reinterpret_cast<const uint64_t*>(g_blob.data());
    for (size_t i = 0; i < g_blob.size() / 8; ++i) sum += p[i];
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(g_blob.size()));
}

void BM_ElfmetaKernelCheck(benchmark::State& state) {
  elfmeta::NullSink sink;
  elfmeta::btf::CheckOptions options;
  options.lints = state.range(0);
  for (auto _ : state) {
    auto checked = elfmeta::btf::check_btf(g_blob, nullptr, options, "vmlinux", "", sink);
    if (checked.errors) state.SkipWithError("the blob has errors");
    benchmark::DoNotOptimize(checked);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(g_blob.size()));
}

void BM_LibbpfBtfNew(benchmark::State& state) {
  for (auto _ : state) {
    struct btf* btf = btf__new(g_blob.data(), static_cast<uint32_t>(g_blob.size()));
    if (!btf) state.SkipWithError("btf__new failed");
    benchmark::DoNotOptimize(btf);
    btf__free(btf);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(g_blob.size()));
}

void BM_KernelBtfLoad(benchmark::State& state) {
  if (!elfmeta::oracle::kernel_btf_oracle_available()) {
    state.SkipWithError("BPF_BTF_LOAD not permitted here");
    return;
  }
  for (auto _ : state) {
    auto v = elfmeta::oracle::kernel_btf_load(g_blob, false);
    if (!v.accepted) state.SkipWithError("the kernel rejected the blob");
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(g_blob.size()));
}

void BM_Pass_Parse(benchmark::State& state) {
  elfmeta::NullSink sink;
  const elfmeta::btf::CheckContext context;
  const elfmeta::btf::ParseOptions options;
  for (auto _ : state) {
    elfmeta::btf::Findings findings(context, sink);
    auto btf = elfmeta::btf::parse(g_blob, options, findings);
    benchmark::DoNotOptimize(btf);
  }
}

// Runs `pass(btf, findings)` on the parsed blob.
template <typename Pass>
void time_pass(benchmark::State& state, Pass pass) {
  elfmeta::NullSink sink;
  const elfmeta::btf::CheckContext context;
  elfmeta::btf::Findings findings(context, sink);
  auto btf = elfmeta::btf::parse(g_blob, {}, findings);
  if (!btf || !btf->types_complete()) {
    state.SkipWithError("the blob does not parse");
    return;
  }
  findings.set_btf(&*btf);
  for (auto _ : state) pass(*btf, findings);
}

void BM_Pass_Records(benchmark::State& state) {
  time_pass(state, [](const auto& btf, auto& findings) { elfmeta::btf::check_records(btf, findings); });
}
void BM_Pass_Reference(benchmark::State& state) {
  time_pass(state, [](const auto& btf, auto& findings) {
    elfmeta::btf::ResolveState resolved;
    elfmeta::btf::resolve_types(btf, nullptr, resolved, findings);
    benchmark::DoNotOptimize(resolved);
  });
}
void BM_Pass_TypeTags(benchmark::State& state) {
  time_pass(state, [](const auto& btf, auto& findings) { elfmeta::btf::check_type_tags(btf, findings, false); });
}
void BM_Pass_SpecialFields(benchmark::State& state) {
  time_pass(state, [](const auto& btf, auto& findings) { elfmeta::btf::check_special_fields(btf, nullptr, findings); });
}

struct PairedRatio {
  double p25, median, p75;
};

// Our check and btf__new in turns, timed apart: the quartiles of the ratio
// of each pair. Before btf__new, the check's second thread is given time to
// stop polling for more work (it would share the core with btf__new on a
// host that runs our two vCPUs as one core's two threads).
PairedRatio paired_ratio(int pairs) {
  using Clock = std::chrono::steady_clock;
  auto spin_for = [](std::chrono::microseconds d) {
    for (const auto until = Clock::now() + d; Clock::now() < until;) {
    }
  };
  elfmeta::NullSink sink;
  elfmeta::btf::CheckOptions options;
  options.lints = false;
  std::vector<double> ratios;
  for (int i = -pairs / 10; i < pairs; ++i) {  // the first tenth warms up
    const auto t0 = Clock::now();
    auto checked = elfmeta::btf::check_btf(g_blob, nullptr, options, "vmlinux", "", sink);
    const auto t_checked = Clock::now();
    spin_for(std::chrono::microseconds(500));
    const auto t1 = Clock::now();
    struct btf* btf = btf__new(g_blob.data(), static_cast<uint32_t>(g_blob.size()));
    const auto t2 = Clock::now();
    btf__free(btf);
    benchmark::DoNotOptimize(checked);
    if (i >= 0) ratios.push_back(std::chrono::duration<double>(t_checked - t0) / std::chrono::duration<double>(t2 - t1));
  }
  std::sort(ratios.begin(), ratios.end());
  auto at = [&](double q) { return ratios[static_cast<size_t>(q * double(ratios.size() - 1))]; };
  return {at(0.25), at(0.5), at(0.75)};
}

}  // namespace

BENCHMARK(BM_Pass_Parse)->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);
BENCHMARK(BM_Pass_Records)->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);
BENCHMARK(BM_Pass_Reference)->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);
BENCHMARK(BM_Pass_TypeTags)->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);
BENCHMARK(BM_Pass_SpecialFields)->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);
BENCHMARK(BM_ReadBytesOnce)->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);
BENCHMARK(BM_ElfmetaKernelCheck)->Arg(0)->Arg(1)->ArgName("lints")->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);
BENCHMARK(BM_LibbpfBtfNew)->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);
BENCHMARK(BM_KernelBtfLoad)->Unit(benchmark::kMillisecond)->MinTime(1.0)->Apply(elfmeta::bench::repeated);

int main(int argc, char** argv) {
  std::string path = "/sys/kernel/btf/vmlinux";
  int pairs = 400;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--btf") && i + 1 < argc)
      path = argv[++i];
    else if (!std::strcmp(argv[i], "--pairs") && i + 1 < argc)
      pairs = std::atoi(argv[++i]);
    else
      args.push_back(argv[i]);
  }
  auto opened = elfmeta::input::open_input(path);
  if (!opened.artifact) {
    std::cerr << "btf_check_bench: " << opened.error << "\n";
    return 2;
  }
  auto where = elfmeta::btf::locate_btf(*opened.artifact);
  if (!where) {
    std::cerr << "btf_check_bench: " << path << " has no BTF\n";
    return 2;
  }
  g_blob.assign(where->data.begin(), where->data.end());
  std::cout << "input: " << path << " (" << g_blob.size() << " bytes of BTF)\n";

  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  elfmeta::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  auto t = [&](const std::string& name) { return reporter.time(name); };
  const double ours = t("BM_ElfmetaKernelCheck/lints:0"), libbpf = t("BM_LibbpfBtfNew"), kernel = t("BM_KernelBtfLoad");
  std::printf("\nelfmeta full kernel-equivalent check: %.3f ms\n", ours);
  if (libbpf > 0) std::printf("ratio elfmeta / libbpf btf__new:     %.2fx (target <= 1.5x)\n", ours / libbpf);
  if (pairs > 0) {
    const PairedRatio r = paired_ratio(pairs);
    std::printf("ratio elfmeta / libbpf btf__new, in %d pairs: median %.2fx (quartiles %.2fx, %.2fx)\n", pairs, r.median,
                r.p25, r.p75);
  }
  if (kernel > 0) std::printf("ratio elfmeta / kernel BPF_BTF_LOAD: %.3fx (target <= 0.1x)\n", ours / kernel);
  if (t("BM_ReadBytesOnce") > 0) std::printf("ratio elfmeta / reading the bytes:   %.1fx\n", ours / t("BM_ReadBytesOnce"));
  return 0;
}
