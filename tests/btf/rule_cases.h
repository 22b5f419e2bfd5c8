// One minimal input per BTF rule that triggers exactly that rule, and a
// valid twin that differs as little as possible and triggers nothing.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "btf/kernel_profile.h"
#include "core/rule.h"

namespace elfmeta::testing {

using Blob = std::vector<uint8_t>;

struct RuleCase {
  RuleCase(std::string_view r, std::function<Blob(bool)> m, Consumer c = kBpfBtfLoad, std::function<Blob()> b = nullptr,
           std::vector<std::string_view> a = {})
      : rule(r), make(std::move(m)), consumer(c), base(std::move(b)), also(std::move(a)) {}

  std::string_view rule;
  std::function<Blob(bool twin)> make;
  Consumer consumer = kBpfBtfLoad;
  std::function<Blob()> base;  // set: the blob is split BTF on this base
  // Rules that cannot be avoided together with `rule`, each with a reason in
  // the case's definition.
  std::vector<std::string_view> also;
  // The kernel whose rules the case is judged by (default: 6.18).
  btf::Release kernel = btf::kDefaultRelease;
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
};

const std::vector<RuleCase>& btf_rule_cases();

}  // namespace elfmeta::testing
