// Inputs for the coverage tests: built BTF in a kernel-shaped image
// (synth::xc_image: .text, .data..percpu at 0, .data) with kallsyms text or
// symbols given one by one.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "btf/verifier.h"
#include "coverage/coverage.h"
#include "input/artifact.h"
#include "input/symbols.h"
#include "synth/xc_image.h"

namespace elfmeta::testing {

struct CoverageRun {
  std::unique_ptr<input::Artifact> artifact;
  btf::CheckedBtf checked;
  std::optional<input::SymbolIndex> symbols;
  coverage::CoverageInput in() const { return {*artifact, checked.btf.get(), symbols ? &*symbols : nullptr}; }
};

// `image`: an ELF file (xc_image) carrying .BTF.
inline std::unique_ptr<CoverageRun> open_image(std::vector<uint8_t> image) {
  auto run = std::make_unique<CoverageRun>();
  auto opened = input::open_bytes("vmlinux", std::move(image));
  EXPECT_TRUE(opened.artifact) << opened.error;
  if (!opened.artifact) return run;
  run->artifact = std::move(opened.artifact);
  if (const input::Section* s = run->artifact->section(".BTF")) {
    NullSink discard;
    run->checked = btf::check_btf(s->data, nullptr, {}, "vmlinux", ".BTF", discard);
    EXPECT_TRUE(run->checked.btf);
  }
  return run;
}

// The image of `btf` with the symbols of a kallsyms text.
inline std::unique_ptr<CoverageRun> with_kallsyms(const std::vector<uint8_t>& btf, const std::string& kallsyms) {
  auto run = open_image(synth::xc_image(btf, {}));
  std::string why;
  run->symbols = input::symbols_from_kallsyms_text(kallsyms, "kallsyms", why);
  EXPECT_TRUE(run->symbols) << why;
  return run;
}

}  // namespace elfmeta::testing
