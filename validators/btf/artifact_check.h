// Checking the BTF carried by an artifact: where the blob is (raw file,
// .BTF section, .BTF.base distilled base) and which base split BTF needs.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "btf/verifier.h"
#include "input/artifact.h"

namespace elfmeta::btf {

// The kernel release whose rules apply when none is asked for.
inline constexpr std::string_view kDefaultKernelRelease = "6.18";

struct BtfLocation {
  std::span<const uint8_t> data;
  std::string section;  // "" for a raw blob
  std::optional<std::span<const uint8_t>> distilled_base;  // .BTF.base of a 6.11+ module
};

// nullopt when the artifact carries no BTF.
std::optional<BtfLocation> locate_btf(const input::Artifact& a);

// Whether the blob is split BTF that needs a base (a module, a sysfs module
// blob, or a raw blob whose string section does not start with NUL).
bool needs_base(const input::Artifact& a, const BtfLocation& where);

struct ArtifactCheck {
  CheckedBtf distilled_base;  // set for modules with .BTF.base
  CheckedBtf btf;
  bool checked = false;       // false: skipped (a note says why)
};

// `base`: the checked base to read the blob as split BTF on (ignored for a
// vmlinux); null for base BTF. Split BTF without a base is skipped with a note.
ArtifactCheck check_artifact_btf(const input::Artifact& a, const CheckedBtf* base, const CheckOptions& options,
                                 DiagnosticSink& sink);

}  // namespace elfmeta::btf
