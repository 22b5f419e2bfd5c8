// An artifact's .sframe read into a model: the header, every FDE with the
// function start it resolves to (through the relocation in an object, from
// the section or the field address when linked), and the FREs of each FDE.
// Reading reports what breaks the layout (bounds, record sizes, encodings);
// the checks of the contents are separate passes over the model.
#pragma once

#include <optional>
#include <vector>

#include "core/byte_reader.h"
#include "input/artifact.h"
#include "sframe/sframe_findings.h"
#include "sframe/sframe_format.h"

namespace elfmeta::sframe {

struct FunctionStart {
  bool resolved = false;
  uint64_t address = 0;  // linked: virtual address; object: offset in `section`; raw: section-relative
  uint32_t section = 0;  // object: the ELF index of the code section
};

struct FreRange {
  uint32_t first = 0, count = 0;  // into SframeTable::fres: the FREs read (all, unless one was unreadable)
  uint64_t begin = 0, end = 0;    // the block's bytes in the section ([begin, end), v3 record included)
  bool complete = false;          // every FRE of the FDE was read
};

struct SframeTable {
  const input::Artifact* artifact = nullptr;
  const input::Section* section = nullptr;  // null for a raw section
  ByteReader bytes;
  Header header;
  bool usable = false;       // the header was read: the rest of the model is meaningful
  bool relocatable = false;  // ET_REL: starts come from relocations
  uint64_t addr = 0;         // the section's address (0 for objects and raw sections)

  std::vector<Fde> fdes;
  std::vector<FunctionStart> starts;  // per FDE
  std::vector<FreRange> blocks;       // per FDE
  std::vector<Fre> fres;

  uint64_t fre_base() const { return header.end() + header.freoff; }
  bool pc_relative() const { return header.version == 3 || (header.flags & kFuncStartPcrel); }
};

// nullopt when the artifact has no SFrame at all.
std::optional<SframeTable> read_sframe(const input::Artifact& a, SframeFindings& f);

}  // namespace elfmeta::sframe
