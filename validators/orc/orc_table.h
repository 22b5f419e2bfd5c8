// An artifact's ORC tables read into a model: the sections, the entry layout
// and where it came from, the decoded entries, and the code address each
// entry applies to (relocated in objects and modules, self-relative in
// linked images). Reading reports what breaks the section rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/release.h"
#include "input/artifact.h"
#include "orc/orc_findings.h"
#include "orc/orc_format.h"

namespace elfmeta::orc {

struct Site {
  uint64_t address = 0;   // linked image: virtual address; object: offset in `section`
  uint32_t section = 0;   // ELF index of the code section it lies in (0: none)
  bool resolved = false;  // false: no usable relocation, or outside the code
};

struct OrcTable {
  const input::Artifact* artifact = nullptr;
  const input::Section* ip = nullptr;      // .orc_unwind_ip
  const input::Section* unwind = nullptr;  // .orc_unwind
  const input::Section* header = nullptr;  // .orc_header
  const input::Section* lookup = nullptr;  // .orc_lookup
  bool relocatable = false;                // ET_REL: an object or a module
  Layout layout = Layout::V2;
  std::string layout_source;               // ".orc_header", "banner 6.1.0-56-...", "--kernel 6.1", ...
  std::optional<Release> release;          // the kernel's, when known (--kernel, banner, vermagic)
  std::vector<Entry> entries;
  std::vector<Site> sites;
  std::vector<const input::Section*> code;  // SHF_EXECINSTR sections, by address then index

  size_t size() const { return entries.size(); }
  const input::Section* code_section(uint32_t index) const;
  // The code section holding `address` (or ending exactly there), for linked images.
  const input::Section* code_at(uint64_t address) const;
};

// nullopt when the artifact carries no ORC at all. `kernel`: the release to
// take the layout from when there is no .orc_header (else the artifact's
// banner or vermagic, else the entries themselves).
std::optional<OrcTable> read_orc(const input::Artifact& a, std::optional<Release> kernel, OrcFindings& f);

}  // namespace elfmeta::orc
