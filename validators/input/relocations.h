// Relocations of relocatable ELF files (.o, .ko): the SHT_RELA section that
// applies to a given section, and the symbols it refers to. Formats whose
// tables are relocated (ORC's .orc_unwind_ip, SFrame's FDE start addresses)
// read their targets through here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "input/artifact.h"
#include "input/symbol_name.h"

namespace elfmeta::input {

struct Relocation {
  uint64_t offset = 0;   // r_offset: where in the target section
  uint32_t type = 0;     // ELF64_R_TYPE
  uint32_t symbol = 0;   // ELF64_R_SYM
  int64_t addend = 0;
  uint64_t at = 0;       // offset of this entry in the relocation section
};

struct ElfSymbolRef {
  SymbolName name;  // a view into the string table: valid while the artifact is
  uint64_t value = 0;
  uint32_t section = 0;  // st_shndx
  uint8_t type = 0;      // STT_*
  uint8_t bind = 0;      // STB_*
};

struct RelocationSection {
  const Section* rela = nullptr;    // the SHT_RELA (or SHT_REL) section
  const Section* symtab = nullptr;  // its sh_link, when that is a symbol table
  bool is_rela = true;
  std::vector<Relocation> relocations;
};

// The relocation sections whose sh_info is `target` (usually one). Entries
// that do not fit their section are left out; a malformed section yields an
// empty list.
std::vector<RelocationSection> relocations_for(const Artifact& a, const Section& target);

// Symbol `index` of `symtab` (an SHT_SYMTAB/SHT_DYNSYM section), or nullopt
// when out of range.
std::optional<ElfSymbolRef> elf_symbol(const Artifact& a, const Section& symtab, uint32_t index);

// x86-64 relocation types elfmeta names in messages.
inline constexpr uint32_t kR_X86_64_64 = 1, kR_X86_64_PC32 = 2, kR_X86_64_PLT32 = 4, kR_X86_64_32S = 11;
std::string x86_64_relocation_name(uint32_t type);

}  // namespace elfmeta::input
