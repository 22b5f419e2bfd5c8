#include "synth/elf_patch.h"

#include <gelf.h>
#include <libelf.h>

#include <cstring>

namespace elfmeta::synth {
namespace {

void store(uint8_t* at, uint64_t value, size_t width, bool big_endian) {
  for (size_t i = 0; i < width; ++i) {
    const size_t shift = 8 * (big_endian ? width - 1 - i : i);
    at[i] = static_cast<uint8_t>(value >> shift);
  }
}

// The index of section `name` and the file offset of its header.
std::optional<std::pair<size_t, uint64_t>> find_section_header(std::vector<uint8_t>& bytes, const std::string& name) {
  if (elf_version(EV_CURRENT) == EV_NONE) return std::nullopt;
  Elf* elf = elf_memory(reinterpret_cast<char*>(bytes.data()), bytes.size());
  if (!elf) return std::nullopt;
  std::optional<std::pair<size_t, uint64_t>> found;
  GElf_Ehdr eh;
  size_t shstrndx = 0;
  if (elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) && elf_getshdrstrndx(elf, &shstrndx) == 0) {
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh)) continue;
      const char* n = elf_strptr(elf, shstrndx, sh.sh_name);
      if (n && name == n) {
        const size_t index = elf_ndxscn(scn);
        const uint64_t at = eh.e_shoff + uint64_t(index) * eh.e_shentsize;
        if (at + eh.e_shentsize <= bytes.size()) found = {index, at};
        break;
      }
    }
  }
  elf_end(elf);
  return found;
}

}  // namespace

std::optional<std::vector<uint8_t>> replace_section(std::span<const uint8_t> elf, const std::string& name,
                                                    std::span<const uint8_t> data) {
  if (elf.size() < EI_NIDENT || std::memcmp(elf.data(), ELFMAG, SELFMAG) != 0) return std::nullopt;
  std::vector<uint8_t> out(elf.begin(), elf.end());
  const auto header = find_section_header(out, name);
  if (!header) return std::nullopt;
  const bool is64 = out[EI_CLASS] == ELFCLASS64, big = out[EI_DATA] == ELFDATA2MSB;
  const uint64_t offset = (out.size() + 7) & ~uint64_t(7);
  out.resize(offset, 0);
  out.insert(out.end(), data.begin(), data.end());
  uint8_t* shdr = out.data() + header->second;
  if (is64) {
    store(shdr + offsetof(Elf64_Shdr, sh_offset), offset, 8, big);
    store(shdr + offsetof(Elf64_Shdr, sh_size), data.size(), 8, big);
  } else {
    store(shdr + offsetof(Elf32_Shdr, sh_offset), offset, 4, big);
    store(shdr + offsetof(Elf32_Shdr, sh_size), data.size(), 4, big);
  }
  return out;
}

}  // namespace elfmeta::synth
