// Entry point of the ORC verifier: read the tables of an artifact (vmlinux,
// module, objtool-processed object), then the rule families in order.
#pragma once

#include <optional>
#include <string>

#include "core/diagnostic.h"
#include "core/release.h"
#include "input/artifact.h"
#include "input/symbols.h"
#include "orc/orc_format.h"

namespace elfmeta::orc {

struct OrcOptions {
  // The kernel whose layout applies when there is no .orc_header (default:
  // the artifact's banner or vermagic, then the entries themselves).
  std::optional<Release> kernel;
  // Symbols of a linked image (e.g. decoded kallsyms); objects and modules,
  // and images with a .symtab, bring their own.
  const input::SymbolIndex* symbols = nullptr;
  // Compare with the DWARF CFI of the same code when there is any.
  bool cfi = true;
  // Check a kernel image's symbols on a second thread.
  bool concurrent = true;
};

struct OrcCheck {
  bool present = false;  // the artifact has ORC tables
  size_t entries = 0;
  Layout layout = Layout::G4;
  // False when the layout could not be determined (ORC-SEC-008/012): the
  // entry, order-of-ties, symbol and CFI checks did not run; a note says so.
  bool entries_checked = true;
  std::string layout_source;
  size_t errors = 0;
  bool symbols_checked = false;
  bool cfi_checked = false;
};

OrcCheck check_orc(const input::Artifact& a, const OrcOptions& options, DiagnosticSink& sink);

}  // namespace elfmeta::orc
