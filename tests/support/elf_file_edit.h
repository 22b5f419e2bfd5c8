// Editing a real ELF file's bytes in a test: where a section's header and
// bytes are (found by elfmeta's own reader), and, in an ELF64 little-endian
// file, a section replaced by a compressed one (SHF_COMPRESSED) holding any
// payload, which is how the tests make compression bombs out of real
// producers' files.
#pragma once

#include <elf.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "core/byte_reader.h"
#include "input/artifact.h"

namespace elfmeta::testing {

inline std::vector<uint8_t> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Where section `name` is: its header (in the section header table) and its
// bytes (offset and size in the file). All 0, and a test failure, when the
// file has no such section.
struct SectionPlace {
  uint64_t header = 0, offset = 0, size = 0;
};

inline SectionPlace section_place(const std::vector<uint8_t>& bytes, const std::string& name) {
  auto opened = input::open_bytes("t", bytes);
  const input::Artifact* a = opened.artifact.get();
  const input::Section* s = a ? a->section(name) : nullptr;
  EXPECT_TRUE(s) << name;
  if (!s) return {};
  const ByteReader r(bytes, a->endian);
  const std::optional<uint64_t> shoff = a->elf64 ? r.u64(offsetof(Elf64_Ehdr, e_shoff))
                                                 : std::optional<uint64_t>(r.u32(offsetof(Elf32_Ehdr, e_shoff)));
  const uint64_t entsize = a->elf64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
  return {shoff ? *shoff + s->index * entsize : 0, s->file_offset, s->size};
}

// The section at `place` made SHF_COMPRESSED: a zlib Elf64_Chdr claiming
// `claimed` bytes, then `payload`, appended to the file, the section's
// header pointed at them. False when `place` is no section's. (Places are
// found before any section is compressed: a file with a bomb in it is not
// opened again to find the next.)
inline bool compress_section(std::vector<uint8_t>& bytes, const SectionPlace& place, uint64_t claimed,
                             const std::vector<uint8_t>& payload) {
  if (place.header == 0 || place.header + sizeof(Elf64_Shdr) > bytes.size()) return false;
  const Elf64_Chdr claim{ELFCOMPRESS_ZLIB, 0, claimed, 1};
  const uint64_t offset = (bytes.size() + 7) & ~uint64_t(7);
  bytes.resize(offset);
  bytes.insert(bytes.end(), reinterpret_cast<const uint8_t*>(&claim), reinterpret_cast<const uint8_t*>(&claim + 1));
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  Elf64_Shdr header;
  std::memcpy(&header, bytes.data() + place.header, sizeof header);
  header.sh_flags |= SHF_COMPRESSED;
  header.sh_offset = offset;
  header.sh_size = sizeof claim + payload.size();
  header.sh_addralign = 8;
  std::memcpy(bytes.data() + place.header, &header, sizeof header);
  return true;
}

}  // namespace elfmeta::testing
