// The input layouts of the fuzz targets that take more than one buffer, for
// the seed generator and the tests that feed targets the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "input/artifact.h"

namespace elfmeta::synth {

// A u16 little-endian length, `head`, then `rest` (fuzz_btf_split: base then
// split blob; fuzz_orc: .orc_unwind_ip then the layout byte and .orc_unwind).
inline std::vector<uint8_t> length_prefixed(const std::vector<uint8_t>& head, const std::vector<uint8_t>& rest) {
  std::vector<uint8_t> out{static_cast<uint8_t>(head.size()), static_cast<uint8_t>(head.size() >> 8)};
  out.insert(out.end(), head.begin(), head.end());
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

// The bytes of section `name` of an ELF file built by a builder; empty when absent.
inline std::vector<uint8_t> section_of(const std::vector<uint8_t>& elf, const std::string& name) {
  auto opened = input::open_bytes("seed", elf);
  const input::Section* s = opened.artifact ? opened.artifact->section(name) : nullptr;
  return s ? std::vector<uint8_t>(s->data.begin(), s->data.end()) : std::vector<uint8_t>{};
}

}  // namespace elfmeta::synth
