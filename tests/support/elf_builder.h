// A minimal ELF64 little-endian file with the given sections, for tests of
// the input layer (no compiler or binutils needed at test time).
#pragma once

#include <elf.h>

#include "synth/elf_writer.h"

#include <cstring>
#include <string>
#include <vector>

namespace elfmeta::testing {

struct ElfSection {
  std::string name;
  std::vector<uint8_t> data;
  uint32_t type = SHT_PROGBITS;
};

inline std::vector<uint8_t> make_elf(const std::vector<ElfSection>& sections, uint16_t elf_type = ET_EXEC) {
  synth::ElfWriter w(elf_type);
  for (const auto& s : sections) w.add_section({s.name, s.type, 0, 0, 1, 0, s.data});
  return w.write();
}

}  // namespace elfmeta::testing
