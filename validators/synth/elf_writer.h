// Writes little-endian ELF64 files section by section, with a symbol table
// and RELA relocations, for tests, generators and fuzzers that need objects,
// modules or linked images without a compiler.
#pragma once

#include <elf.h>

#include <cstdint>
#include <string>
#include <vector>

namespace elfmeta::synth {

struct ElfSectionSpec {
  std::string name;
  uint32_t type = SHT_PROGBITS;
  uint64_t flags = 0;
  uint64_t addr = 0;
  uint64_t align = 1;
  uint64_t entsize = 0;
  std::vector<uint8_t> data;
  uint64_t nobits_size = 0;  // sh_size of an SHT_NOBITS section
  uint32_t link = 0, info = 0;
};

class ElfWriter {
 public:
  explicit ElfWriter(uint16_t elf_type = ET_REL, uint16_t machine = EM_X86_64) : type_(elf_type), machine_(machine) {}

  // Returns the section's ELF index (the null section is 0).
  uint32_t add_section(ElfSectionSpec s);
  ElfSectionSpec& section(uint32_t index) { return sections_[index - 1]; }
  uint32_t section_count() const { return static_cast<uint32_t>(sections_.size()); }

  // Symbols go into .symtab/.strtab, written with the file (locals first, as
  // ELF requires); indexes are final once all symbols are added.
  uint32_t add_symbol(const std::string& name, uint64_t value, uint64_t size, uint8_t type, uint8_t bind,
                      uint32_t section);
  uint32_t section_symbol(uint32_t section);  // the STT_SECTION symbol of a section (added once)

  // A RELA relocation against `target`; the .rela<name> section is written
  // with the file.
  void add_rela(uint32_t target, uint64_t offset, uint32_t type, uint32_t symbol, int64_t addend);

  // A program header covering section `section` (offset, address and size
  // taken from it when written); `size` overrides the size when non-zero.
  void add_segment(uint32_t type, uint32_t flags, uint32_t section, uint64_t size = 0);

  std::vector<uint8_t> write() const;

 private:
  struct Sym {
    std::string name;
    uint64_t value, size;
    uint8_t type, bind;
    uint32_t section;
  };
  struct Rela {
    uint32_t target;
    uint64_t offset;
    uint32_t type, symbol;
    int64_t addend;
  };
  uint16_t type_, machine_;
  std::vector<ElfSectionSpec> sections_;
  std::vector<Sym> symbols_;  // in insertion order; written locals first
  std::vector<Rela> relas_;
  struct Seg {
    uint32_t type, flags, section;
    uint64_t size;
  };
  std::vector<Seg> segments_;
};

}  // namespace elfmeta::synth
