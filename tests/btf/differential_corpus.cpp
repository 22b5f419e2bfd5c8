#include "tests/btf/differential_corpus.h"

#include <sstream>

#include "core/report.h"
#include "input/artifact.h"
#include "synth/btf_generator.h"
#include "tests/btf/release_shapes.h"
#include "tests/btf/rule_cases.h"

namespace elfmeta::testing {

std::vector<Sample> differential_corpus(const CorpusSpec& spec) {
  synth::Rng rng(spec.seed);
  std::vector<std::pair<std::string, synth::BtfBuilder>> originals;
  for (size_t i = 0; i < spec.graphs; ++i) {
    synth::GraphOptions options;
    options.shuffle = i % 2;
    options.kernel = i % 4 < 2 ? spec.kernel : btf::kNewestRelease;
    originals.emplace_back(std::string("random graph for ") + (i % 4 < 2 ? "the target" : "the newest") +
                               (options.shuffle ? " (shuffled ids)" : ""),
                           synth::random_type_graph(rng, options));
  }
  for (size_t i = 0; i < spec.special_field_graphs; ++i) originals.emplace_back("special fields", synth::special_fields_graph(rng));
  size_t sampled = 0;
  for (int tries = 0; spec.vmlinux && sampled < spec.vmlinux_samples && tries < 20000; ++tries)
    if (auto sub = synth::sample_subgraph(*spec.vmlinux, rng, 400)) {
      originals.emplace_back("vmlinux subgraph", std::move(*sub));
      ++sampled;
    }
  std::vector<Sample> samples;
  for (const auto& [source, b] : originals) {
    samples.push_back({source, b.build()});
    for (int k = 0; k < 4; ++k) {
      const auto m = static_cast<synth::Mutation>(rng() % synth::kMutationCount);
      samples.push_back({source + " + " + std::string(synth::mutation_name(m)), synth::mutate(b, rng, m)});
    }
  }
  if (spec.rule_cases)
    for (const RuleCase& c : btf_rule_cases()) {
      if (c.base || c.elf || c.consumer != kBpfBtfLoad) continue;
      // Its trigger is the load it warns about: a million struct visits,
      // seconds of a CPU in the kernel (a minute in a VM without KVM). The
      // kernel's verdict on the shape is shown at a depth it scans quickly
      // (SpecialFields.ThreeWayNestingTheKernelAccepts).
      if (c.rule == "BTF-FIELD-022") continue;
      samples.push_back({"rule case " + std::string(c.rule), c.make(false)});
      samples.push_back({"rule case twin " + std::string(c.rule), c.make(true)});
    }
  if (spec.release_shapes)
    for (Sample& s : release_shapes()) samples.push_back(std::move(s));
  return samples;
}

Verdict verdict_of(const std::vector<uint8_t>& blob, btf::CheckOptions options) {
  options.lints = false;
  options.assume_host_order = true;
  DiagnosticList list;
  Verdict v;
  v.accepts = btf::check_btf(blob, nullptr, options, "blob", "", list).errors == 0;
  v.reason = "accepted";
  for (const auto& d : list.items()) {
    if (d.rule && d.rule->id == "BTF-FIELD-021") v.undecidable = true;
    if (d.severity == Severity::Error && v.reason == "accepted") {
      std::ostringstream s;
      write_text(s, d);
      v.reason = s.str().substr(0, s.str().find('\n'));
    }
  }
  return v;
}

const btf::CheckedBtf& running_kernel_btf() {
  static const input::OpenResult vmlinux = input::open_input("/sys/kernel/btf/vmlinux");
  static const btf::CheckedBtf checked = [] {
    if (!vmlinux.artifact) return btf::CheckedBtf{};
    NullSink ignored;
    return btf::check_btf(vmlinux.artifact->raw, nullptr, {}, "vmlinux", "", ignored);
  }();
  return checked;
}

std::string source_family(const std::string& source) {
  if (source.starts_with("rule case")) return "rule cases";
  if (source.starts_with("release shape")) return "release shapes";
  return source.substr(0, source.find(" + "));
}

}  // namespace elfmeta::testing
