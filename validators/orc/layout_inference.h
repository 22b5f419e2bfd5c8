// The layout of an ORC table whose .orc_header is unknown or unusable, or
// that has neither a header nor a kernel release: judged from the entries
// alone, and only when that is safe. A guess that is wrong turns every entry
// into a finding; so a layout is named only when exactly one released
// generation decodes the table plausibly (or all that do decode it the same
// way), and otherwise none is, and the entries go unchecked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "orc/orc_layouts.h"

namespace elfmeta::orc {

struct LayoutGuess {
  std::optional<Layout> layout;  // nullopt: the entries do not tell
  std::string how;               // the evidence, for messages: "G4: 3 of 9 frames are call sp+8, ..."
};

// A layout is plausible for a table when its entry state (`call sp+8
// bp:(und)`) starts functions, at least one frame in fifty, and at most one
// entry in ten (or one) is implausible in it (is_plausible(): reserved bits,
// undefined types, bases its unwinder refuses, payloads objtool never
// writes). Among plausible layouts the one with the fewest implausible
// entries wins; a tie is resolved only if the tied layouts decode every
// entry alike. Generations known only by fingerprint are not candidates.
LayoutGuess infer_layout(const uint8_t* entries, size_t count);

}  // namespace elfmeta::orc
