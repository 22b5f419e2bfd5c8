// Rewriting one section of an ELF file, for oracles that load modified
// objects (a module whose .BTF was mutated).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace elfmeta::synth {

// `elf` with the contents of section `name` replaced by `data`: the new
// bytes go at the end of the file (8-byte aligned) and the section header is
// pointed at them; nothing else moves. nullopt when the file is not ELF or
// has no such section.
std::optional<std::vector<uint8_t>> replace_section(std::span<const uint8_t> elf, const std::string& name,
                                                    std::span<const uint8_t> data);

}  // namespace elfmeta::synth
