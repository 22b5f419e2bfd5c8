// Speed of elfmeta's full kernel-equivalent BTF check on a whole vmlinux BTF,
// against libbpf's btf__new (which only checks layout) and the kernel's own
// BPF_BTF_LOAD, all on the same bytes in one process; prints the ratios.
// BM_Pass_* time each pass of the check alone, on one thread (the parse
// also on two), to show where the time goes (docs/btf.md, Speed).
//
//   bench/btf_check_bench [--btf FILE] [google benchmark flags]
// FILE defaults to /sys/kernel/btf/vmlinux.
#include <benchmark/benchmark.h>
#include <bpf/btf.h>

#include <cstdio>
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
  elfmeta::btf::ParseOptions options;
  options.concurrent = state.range(0);
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

}  // namespace

BENCHMARK(BM_Pass_Parse)->Arg(0)->Arg(1)->ArgName("two_threads")->Unit(benchmark::kMillisecond)->Apply(elfmeta::bench::repeated);
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
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--btf") && i + 1 < argc)
      path = argv[++i];
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
  if (kernel > 0) std::printf("ratio elfmeta / kernel BPF_BTF_LOAD: %.3fx (target <= 0.1x)\n", ours / kernel);
  if (t("BM_ReadBytesOnce") > 0) std::printf("ratio elfmeta / reading the bytes:   %.1fx\n", ours / t("BM_ReadBytesOnce"));
  return 0;
}
