// The SFrame inputs libsframe 2.40 is given: those elfmeta finds no error in
// for libsframe (its known crashes on hostile headers, ../shared/spec/
// sframe.md §3.4, are elfmeta findings and kept out); a crash on the rest is
// a new libsframe bug.
#pragma once

#include <optional>
#include <vector>

#include "core/diagnostic.h"
#include "input/artifact.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"

namespace elfmeta::fuzz {

struct GuardedSframe {
  std::unique_ptr<input::Artifact> artifact;
  std::optional<sframe::SframeTable> table;
};

inline std::optional<GuardedSframe> sframe_for_libsframe(const uint8_t* data, size_t size) {
  GuardedSframe g;
  g.artifact = std::make_unique<input::Artifact>();
  g.artifact->kind = input::ArtifactKind::RawSframe;
  auto bytes = std::make_shared<std::vector<uint8_t>>(data, data + size);
  g.artifact->raw = g.artifact->content = *bytes;
  g.artifact->storage.push_back(bytes);
  DiagnosticList list;
  if (sframe::check_sframe(*g.artifact, {kLibsframe, false}, list).errors) return std::nullopt;
  sframe::SframeFindings f("fuzz", list, kLibsframe);
  g.table = sframe::read_sframe(*g.artifact, f);
  if (!g.table || !g.table->usable || g.table->header.version != 1) return std::nullopt;
  return g;
}

}  // namespace elfmeta::fuzz
