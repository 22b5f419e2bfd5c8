// One minimal input per BTF rule that triggers exactly that rule, and a
// valid twin that differs as little as possible and triggers nothing.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "btf/kernel_profile.h"
#include "core/rule.h"
#include "synth/btf_builder.h"

namespace elfmeta::testing {

using Blob = std::vector<uint8_t>;
// Builds a case's trigger (or, with twin, its valid twin) inside a context:
// valid BTF whose type 1 is `int`, to which the case adds or in which it
// changes records. Cases about the header or a split base ignore it.
using CaseMaker = std::function<Blob(bool twin, const synth::BtfBuilder& context)>;

// The smallest context: just `int`.
synth::BtfBuilder rule_case_context();

struct RuleCase {
  RuleCase(std::string_view r, CaseMaker m, Consumer c = kBpfBtfLoad, std::function<Blob()> b = nullptr,
           std::vector<std::string_view> a = {})
      : rule(r), make_in(std::move(m)), consumer(c), base(std::move(b)), also(std::move(a)) {}

  std::string_view rule;
  CaseMaker make_in;
  Blob make(bool twin) const { return make_in(twin, rule_case_context()); }
  Consumer consumer = kBpfBtfLoad;
  std::function<Blob()> base;  // set: the blob is split BTF on this base
  // Rules that cannot be avoided together with `rule`, each with a reason in
  // the case's definition.
  std::vector<std::string_view> also;
  // The kernel whose rules the case is judged by (default: 6.18).
  btf::Release kernel = btf::kDefaultRelease;
  // Set: judged by this libbpf release's own checks (consumer libbpf).
  std::optional<btf::Release> libbpf;
  RuleCase on_libbpf(btf::Release r) && {
    libbpf = r;
    consumer = kLibbpf;
    return std::move(*this);
  }
  // make() returns a whole ELF object (a module), checked as an artifact.
  bool elf = false;

  RuleCase on(btf::Release r) && {
    kernel = r;
    return std::move(*this);
  }
  RuleCase as_elf() && {
    elf = true;
    return std::move(*this);
  }
  // The blobs are megabytes: property tests build them now and then only.
  bool is_large = false;
  RuleCase large() && {
    is_large = true;
    return std::move(*this);
  }
};

const std::vector<RuleCase>& btf_rule_cases();

// What checking a case's trigger (or twin) built in `context` reported.
struct Outcome {
  std::set<std::string> rules;
  size_t errors = 0;
  std::string listing;
};
Outcome run_case(const RuleCase& c, bool twin, const synth::BtfBuilder& context);

}  // namespace elfmeta::testing
