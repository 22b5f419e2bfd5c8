// Runs the BTF cross-checks on a built blob, as a raw blob with kallsyms
// text or inside an ELF file, for the tests of each family.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "btf/verifier.h"
#include "btf/xc/cross_check.h"
#include "core/report.h"
#include "input/artifact.h"
#include "input/symbols.h"

namespace elfmeta::testing {

struct XcRun {
  std::unique_ptr<input::Artifact> artifact;
  std::vector<uint8_t> base_bytes;
  btf::CheckedBtf base, checked;
  std::optional<input::SymbolIndex> symbols;
  DiagnosticList list;
  btf::xc::CrossCheckStats stats;

  size_t count(std::string_view rule, std::optional<Severity> severity = std::nullopt) const {
    return list.count(rule, severity);
  }
  // The rules with warnings or errors, "XC-SYM-001 XC-SYM-005" (sorted,
  // once each); notes are counted with count().
  std::string rules() const {
    std::set<std::string> ids;
    for (const auto& d : list.items())
      if (d.rule && d.severity != Severity::Note) ids.emplace(d.rule->id);
    std::string out;
    for (const auto& id : ids) out += (out.empty() ? "" : " ") + id;
    return out;
  }
  std::string text() const {
    std::ostringstream out;
    for (const auto& d : list.items()) write_text(out, d);
    return out.str();
  }
};

// `bytes`: a raw BTF blob or an ELF file carrying .BTF; `kallsyms`: symbols
// as /proc/kallsyms lines ("" for the ELF's own symtab); `base`: base BTF of
// a split blob.
inline std::unique_ptr<XcRun> run_cross_check(std::vector<uint8_t> bytes, const std::string& kallsyms = "",
                                              std::vector<uint8_t> base = {}) {
  auto run = std::make_unique<XcRun>();
  auto opened = input::open_bytes("vmlinux", std::move(bytes));
  EXPECT_TRUE(opened.artifact) << opened.error;
  if (!opened.artifact) return run;
  run->artifact = std::move(opened.artifact);
  std::span<const uint8_t> data = run->artifact->raw;
  if (const input::Section* s = run->artifact->section(".BTF")) data = s->data;
  NullSink discard;
  const std::string name = run->artifact->name;
  run->base_bytes = std::move(base);
  if (!run->base_bytes.empty()) run->base = btf::check_btf(run->base_bytes, nullptr, {}, name, ".BTF", discard);
  run->checked = btf::check_btf(data, run->base.btf ? &run->base : nullptr, {}, name, ".BTF", discard);
  EXPECT_TRUE(run->checked.btf);
  if (!run->checked.btf) return run;
  std::string why;
  if (!kallsyms.empty())
    run->symbols = input::symbols_from_kallsyms_text(kallsyms, "kallsyms", why);
  else
    run->symbols = input::symbols_from_symtab(*run->artifact);
  Findings findings(name, run->list);
  run->stats = btf::xc::cross_check({*run->artifact, *run->checked.btf, run->symbols ? &*run->symbols : nullptr},
                                    findings);
  return run;
}

}  // namespace elfmeta::testing
