// Checking the BTF carried by an artifact: where the blob is (raw file,
// .BTF section, .BTF.base distilled base) and which base split BTF needs.
#pragma once

#include <vector>
#include <optional>
#include <span>
#include <string>

#include "btf/verifier.h"
#include "input/artifact.h"

namespace elfmeta::btf {


struct BtfLocation {
  std::span<const uint8_t> data;
  std::string section;  // "" for a raw blob
  std::optional<std::span<const uint8_t>> distilled_base;  // .BTF.base of a 6.11+ module
};

// nullopt when the artifact carries no BTF.
std::optional<BtfLocation> locate_btf(const input::Artifact& a);

// Whether the blob is split BTF that needs a base: a module, or a module's
// blob in /sys/kernel/btf. A raw blob is base BTF (BPF_BTF_LOAD has no base)
// unless --base-btf is given.
bool needs_base(const input::Artifact& a, const BtfLocation& where);

// The kernel whose rules apply to an artifact, and how it was chosen.
struct KernelChoice {
  Release release;
  std::string how;  // "banner", "vermagic", "running kernel", "--kernel", ...
  // "6.1 (banner 6.1.0-56-cloud-amd64)"
  std::string label() const { return release.str() + " (" + how + ")"; }
};

// `release` made a profile: releases past the newest known use its rules,
// releases before BTF existed the oldest ones (`how` says so).
KernelChoice clamp_release(Release release, std::string how);
// The running kernel's release, or the newest known when it cannot be read.
KernelChoice running_kernel();
// The kernel an artifact belongs to: a vmlinux's banner, a module's
// vermagic; anything else (raw blobs, /sys/kernel/btf) is judged as the
// running kernel would.
KernelChoice kernel_of(const input::Artifact& a);

struct ArtifactCheck {
  CheckedBtf distilled_base;  // set for modules with .BTF.base
  CheckedBtf btf;
  bool checked = false;       // false: skipped (a note says why)
  // A BPF object under bpf-object: the fixed-up copy `btf` views (it must
  // live as long as `btf`; a move keeps the heap buffer in place).
  std::vector<uint8_t> fixed_bytes;
};

// `base`: the checked base to read the blob as split BTF on (ignored for a
// vmlinux); null for base BTF. Split BTF without a base is skipped with a note.
ArtifactCheck check_artifact_btf(const input::Artifact& a, const CheckedBtf* base, const CheckOptions& options,
                                 DiagnosticSink& sink);

}  // namespace elfmeta::btf
