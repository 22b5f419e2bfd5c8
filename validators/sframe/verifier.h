// The whole SFrame check of one artifact: read the section, then every
// family of rules.
#pragma once

#include "core/diagnostic.h"
#include "input/artifact.h"

#include <vector>

namespace elfmeta::sframe {

struct SframeOptions {
  // kLibsframe, kSframeKernel, or kNoConsumer for every rule: findings of
  // rules the consumer does not enforce become warnings, and the version
  // it reads is checked.
  uint32_t consumer = kNoConsumer;
  // Compare linked files with their DWARF CFI (SFRAME-CFI-*).
  bool cfi = true;
  // Read the symbols and a large section's FREs on more than one thread.
  bool concurrent = true;
};

struct SframeCheck {
  bool present = false;
  uint8_t version = 0;
  size_t fdes = 0, fres = 0;
  bool cfi_checked = false;
  size_t errors = 0, findings = 0;
};

SframeCheck check_sframe(const input::Artifact& a, const SframeOptions& options, DiagnosticSink& sink);

// SFRAME-ELF-008, over the inputs of one run: a linked file without .sframe
// (but with .eh_frame) checked together with objects that have one lost it
// in the link (ld --gc-sections before PR ld/32769). Reports into `sink`
// for `output`; false when the rule does not apply.
bool check_lost_in_link(const input::Artifact& output, const std::vector<const input::Artifact*>& inputs,
                        DiagnosticSink& sink);

}  // namespace elfmeta::sframe
