#include "input/relocations.h"

#include <elf.h>

#include <cstring>

#include "core/byte_reader.h"

namespace elfmeta::input {

std::vector<RelocationSection> relocations_for(const Artifact& a, const Section& target) {
  std::vector<RelocationSection> out;
  if (a.kind != ArtifactKind::Elf) return out;
  for (const Section& s : a.sections) {
    if ((s.type != SHT_RELA && s.type != SHT_REL) || s.info != target.index) continue;
    RelocationSection rs;
    rs.rela = &s;
    rs.is_rela = s.type == SHT_RELA;
    if (const Section* link = a.section_at(s.link); link && (link->type == SHT_SYMTAB || link->type == SHT_DYNSYM))
      rs.symtab = link;
    const ByteReader r(s.data, a.endian);
    const uint64_t entry = a.elf64 ? (rs.is_rela ? 24 : 16) : (rs.is_rela ? 12 : 8);
    for (uint64_t off = 0; off + entry <= r.size(); off += entry) {
      Relocation rel;
      rel.at = off;
      if (a.elf64) {
        rel.offset = *r.u64(off);
        const uint64_t info = *r.u64(off + 8);
        rel.type = static_cast<uint32_t>(info & 0xffffffff);
        rel.symbol = static_cast<uint32_t>(info >> 32);
        if (rs.is_rela) rel.addend = static_cast<int64_t>(*r.u64(off + 16));
      } else {
        rel.offset = *r.u32(off);
        const uint32_t info = *r.u32(off + 4);
        rel.type = info & 0xff;
        rel.symbol = info >> 8;
        if (rs.is_rela) rel.addend = static_cast<int32_t>(*r.u32(off + 8));
      }
      rs.relocations.push_back(rel);
    }
    out.push_back(std::move(rs));
  }
  return out;
}

std::optional<ElfSymbolRef> elf_symbol(const Artifact& a, const Section& symtab, uint32_t index) {
  const ByteReader r(symtab.data, a.endian);
  const uint64_t size = a.elf64 ? 24 : 16;
  const uint64_t off = uint64_t(index) * size;
  if (!r.contains(off, size)) return std::nullopt;
  ElfSymbolRef sym;
  uint32_t name = *r.u32(off);
  uint8_t info;
  if (a.elf64) {
    info = *r.u8(off + 4);
    sym.section = *r.u16(off + 6);
    sym.value = *r.u64(off + 8);
  } else {
    sym.value = *r.u32(off + 4);
    info = *r.u8(off + 12);
    sym.section = *r.u16(off + 14);
  }
  sym.type = info & 0xf;
  sym.bind = info >> 4;
  if (const Section* strtab = a.section_at(symtab.link); strtab && name < strtab->data.size())
    sym.name = bounded_symbol_name(reinterpret_cast<const char*>(strtab->data.data()) + name,
                                   strtab->data.size() - name);
  return sym;
}

std::string x86_64_relocation_name(uint32_t type) {
  switch (type) {
    case kR_X86_64_64: return "R_X86_64_64";
    case kR_X86_64_PC32: return "R_X86_64_PC32";
    case kR_X86_64_PLT32: return "R_X86_64_PLT32";
    case kR_X86_64_32S: return "R_X86_64_32S";
    default: return "relocation type " + std::to_string(type);
  }
}

}  // namespace elfmeta::input
