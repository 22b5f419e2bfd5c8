// The findings of one rule on a blob checked as a libbpf release reads it,
// for the tests of the rules that model what libbpf's tools do with BTF
// libbpf accepted (BTF-LIBBPF-018, BTF-LIBBPF-019).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "btf/verifier.h"
#include "core/diagnostic.h"

namespace elfmeta::testing {

// Every diagnostic of a blob checked as a libbpf release reads it (notes too).
inline DiagnosticList libbpf_check(std::span<const uint8_t> blob, btf::Release libbpf = {1, 7}) {
  DiagnosticList list;
  btf::CheckOptions options;
  options.consumer = kLibbpf;
  options.libbpf = libbpf;
  btf::check_btf(blob, nullptr, options, "case", ".BTF", list);
  return list;
}

inline std::vector<Diagnostic> libbpf_rule_findings(std::span<const uint8_t> blob, std::string_view rule,
                                                    btf::Release libbpf = {1, 7}) {
  const DiagnosticList list = libbpf_check(blob, libbpf);
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : list.items())
    if (d.rule && d.rule->id == rule) out.push_back(d);
  return out;
}

}  // namespace elfmeta::testing
