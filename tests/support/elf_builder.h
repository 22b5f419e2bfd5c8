// A minimal ELF64 little-endian file with the given sections, for tests of
// the input layer (no compiler or binutils needed at test time).
#pragma once

#include <elf.h>

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
  std::vector<uint8_t> out(sizeof(Elf64_Ehdr), 0);
  std::string shstrtab(1, '\0');
  std::vector<Elf64_Shdr> headers(1);  // the null section
  for (const auto& s : sections) {
    Elf64_Shdr h{};
    h.sh_name = static_cast<Elf64_Word>(shstrtab.size());
    shstrtab += s.name + '\0';
    h.sh_type = s.type;
    h.sh_offset = out.size();
    h.sh_size = s.data.size();
    h.sh_addralign = 1;
    out.insert(out.end(), s.data.begin(), s.data.end());
    headers.push_back(h);
  }
  Elf64_Shdr strtab{};
  strtab.sh_name = static_cast<Elf64_Word>(shstrtab.size());
  shstrtab += std::string(".shstrtab") + '\0';
  strtab.sh_type = SHT_STRTAB;
  strtab.sh_offset = out.size();
  strtab.sh_size = shstrtab.size();
  strtab.sh_addralign = 1;
  out.insert(out.end(), shstrtab.begin(), shstrtab.end());
  headers.push_back(strtab);
  while (out.size() % 8) out.push_back(0);

  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = elf_type;
  eh.e_machine = EM_X86_64;
  eh.e_version = EV_CURRENT;
  eh.e_shoff = out.size();
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = static_cast<Elf64_Half>(headers.size());
  eh.e_shstrndx = static_cast<Elf64_Half>(headers.size() - 1);
  std::memcpy(out.data(), &eh, sizeof eh);
  for (const auto& h : headers) {
    const size_t at = out.size();
    out.resize(at + sizeof h);
    std::memcpy(out.data() + at, &h, sizeof h);
  }
  return out;
}

}  // namespace elfmeta::testing
