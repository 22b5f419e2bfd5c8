#include "synth/elf_writer.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace elfmeta::synth {
namespace {

template <typename T>
void append(std::vector<uint8_t>& out, const T& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

}  // namespace

uint32_t ElfWriter::add_section(ElfSectionSpec s) {
  sections_.push_back(std::move(s));
  return static_cast<uint32_t>(sections_.size());
}

uint32_t ElfWriter::add_symbol(const std::string& name, uint64_t value, uint64_t size, uint8_t type, uint8_t bind,
                               uint32_t section) {
  symbols_.push_back({name, value, size, type, bind, section});
  return static_cast<uint32_t>(symbols_.size());  // provisional: remapped when written
}

uint32_t ElfWriter::section_symbol(uint32_t section) {
  for (size_t i = 0; i < symbols_.size(); ++i)
    if (symbols_[i].type == STT_SECTION && symbols_[i].section == section) return static_cast<uint32_t>(i + 1);
  return add_symbol("", 0, 0, STT_SECTION, STB_LOCAL, section);
}

void ElfWriter::add_rela(uint32_t target, uint64_t offset, uint32_t type, uint32_t symbol, int64_t addend) {
  relas_.push_back({target, offset, type, symbol, addend});
}

void ElfWriter::add_segment(uint32_t type, uint32_t flags, uint32_t section, uint64_t size) {
  segments_.push_back({type, flags, section, size});
}

std::vector<uint8_t> ElfWriter::write() const {
  std::vector<ElfSectionSpec> all = sections_;
  // Symbols: locals first; provisional index i+1 -> final index.
  std::vector<uint32_t> order(symbols_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(), [&](uint32_t i) { return symbols_[i].bind == STB_LOCAL; });
  std::vector<uint32_t> final_index(symbols_.size() + 1, 0);
  for (uint32_t k = 0; k < order.size(); ++k) final_index[order[k] + 1] = k + 1;
  if (!symbols_.empty() || !relas_.empty()) {
    std::vector<uint8_t> symtab(sizeof(Elf64_Sym), 0), strtab(1, 0);
    uint32_t locals = 1;
    for (uint32_t k : order) {
      const Sym& s = symbols_[k];
      Elf64_Sym e{};
      e.st_name = static_cast<Elf64_Word>(strtab.size());
      strtab.insert(strtab.end(), s.name.begin(), s.name.end());
      strtab.push_back(0);
      e.st_info = static_cast<unsigned char>(s.bind << 4 | s.type);
      e.st_shndx = static_cast<Elf64_Section>(s.section);
      e.st_value = s.value;
      e.st_size = s.size;
      append(symtab, e);
      locals += s.bind == STB_LOCAL;
    }
    const uint32_t symtab_index = static_cast<uint32_t>(all.size() + 1);
    all.push_back({".symtab", SHT_SYMTAB, 0, 0, 8, sizeof(Elf64_Sym), symtab, 0, symtab_index + 1, locals});
    all.push_back({".strtab", SHT_STRTAB, 0, 0, 1, 0, strtab, 0, 0, 0});
    std::map<uint32_t, std::vector<uint8_t>> rela_data;
    for (const Rela& r : relas_) {
      Elf64_Rela e{};
      e.r_offset = r.offset;
      e.r_info = ELF64_R_INFO(r.symbol < final_index.size() ? final_index[r.symbol] : r.symbol, r.type);
      e.r_addend = r.addend;
      append(rela_data[r.target], e);
    }
    for (auto& [target, data] : rela_data)
      all.push_back({".rela" + sections_[target - 1].name, SHT_RELA, SHF_INFO_LINK, 0, 8, sizeof(Elf64_Rela),
                     std::move(data), 0, symtab_index, target});
  }
  // Layout: header, program headers, section data, .shstrtab, section headers.
  std::vector<uint8_t> out(sizeof(Elf64_Ehdr) + segments_.size() * sizeof(Elf64_Phdr), 0);
  std::string shstrtab(1, '\0');
  std::vector<Elf64_Shdr> headers(1);
  for (const auto& s : all) {
    Elf64_Shdr h{};
    h.sh_name = static_cast<Elf64_Word>(shstrtab.size());
    shstrtab += s.name + '\0';
    h.sh_type = s.type;
    h.sh_flags = s.flags;
    h.sh_addr = s.addr;
    const uint64_t align = std::max<uint64_t>(s.align, 1);
    while (out.size() % std::min<uint64_t>(align, 8)) out.push_back(0);
    h.sh_offset = out.size();
    h.sh_size = s.type == SHT_NOBITS ? s.nobits_size : s.data.size();
    if (s.type != SHT_NOBITS) out.insert(out.end(), s.data.begin(), s.data.end());
    h.sh_link = s.link;
    h.sh_info = s.info;
    h.sh_addralign = align;
    h.sh_entsize = s.entsize;
    headers.push_back(h);
  }
  Elf64_Shdr names{};
  names.sh_name = static_cast<Elf64_Word>(shstrtab.size());
  shstrtab += std::string(".shstrtab") + '\0';
  names.sh_type = SHT_STRTAB;
  names.sh_offset = out.size();
  names.sh_size = shstrtab.size();
  names.sh_addralign = 1;
  out.insert(out.end(), shstrtab.begin(), shstrtab.end());
  headers.push_back(names);
  while (out.size() % 8) out.push_back(0);

  for (size_t k = 0; k < segments_.size(); ++k) {
    const Seg& g = segments_[k];
    const Elf64_Shdr& h = headers.at(g.section);
    Elf64_Phdr ph{};
    ph.p_type = g.type;
    ph.p_flags = g.flags;
    ph.p_offset = h.sh_offset;
    ph.p_vaddr = ph.p_paddr = h.sh_addr;
    ph.p_filesz = ph.p_memsz = g.size ? g.size : h.sh_size;
    ph.p_align = std::max<uint64_t>(h.sh_addralign, 1);
    std::memcpy(out.data() + sizeof(Elf64_Ehdr) + k * sizeof(Elf64_Phdr), &ph, sizeof ph);
  }
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = type_;
  eh.e_machine = machine_;
  eh.e_version = EV_CURRENT;
  eh.e_shoff = out.size();
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  if (!segments_.empty()) {
    eh.e_phoff = sizeof(Elf64_Ehdr);
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_phnum = static_cast<Elf64_Half>(segments_.size());
  }
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = static_cast<Elf64_Half>(headers.size());
  eh.e_shstrndx = static_cast<Elf64_Half>(headers.size() - 1);
  std::memcpy(out.data(), &eh, sizeof eh);
  for (const auto& h : headers) append(out, h);
  return out;
}

}  // namespace elfmeta::synth
