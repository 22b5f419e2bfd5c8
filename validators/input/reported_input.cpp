#include "input/reported_input.h"

namespace elfmeta::input {

namespace {

// A finding's offset is inside its section of the checked bytes, which are
// the file's own only when nothing was decompressed on the way.
std::map<std::string, uint64_t, std::less<>> section_file_offsets(const Artifact& a) {
  std::map<std::string, uint64_t, std::less<>> offsets;
  if (!a.origin.empty() || a.kind != ArtifactKind::Elf) return offsets;
  for (const auto& s : a.sections) offsets.emplace(s.name, s.file_offset);
  return offsets;
}

}  // namespace

ReportedInput reported_input(const Artifact& a, std::string kernel, std::span<const Diagnostic> diagnostics) {
  ReportedInput r;
  r.path = a.path;
  r.name = a.name;
  r.kernel = std::move(kernel);
  r.diagnostics = diagnostics;
  r.section_file_offsets = section_file_offsets(a);
  r.raw_file = a.origin.empty() && a.kind != ArtifactKind::Elf;
  return r;
}

ReportedInput unreadable_input(std::string error) {
  ReportedInput r;
  r.error = std::move(error);
  return r;
}

}  // namespace elfmeta::input
