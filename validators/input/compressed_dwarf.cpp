#include "input/compressed_dwarf.h"

#include <elf.h>

#include <cstddef>
#include <optional>
#include <span>

#include "core/byte_reader.h"
#include "input/input_limits.h"

namespace elfmeta::input {

bool is_dwarf_section(std::string_view name) { return name.starts_with(".debug_") || name.starts_with(".zdebug"); }

std::string oversized_compressed_dwarf(const Artifact& a) {
  if (a.kind != ArtifactKind::Elf) return "";
  for (const Section& s : a.sections) {
    const bool gnu = s.name.starts_with(".zdebug");
    if (s.type == SHT_NOBITS || !is_dwarf_section(s.name) || (!gnu && !(s.flags & SHF_COMPRESSED))) continue;
    if (s.file_offset > a.content.size() || s.size > a.content.size() - s.file_offset)
      return s.name + " lies past the end of the file";
    const std::span<const uint8_t> bytes = a.content.subspan(s.file_offset, s.size);
    std::optional<uint64_t> claimed;
    if (gnu) {  // "ZLIB", then the size as a big-endian 64-bit number
      const ByteReader big(bytes, Endian::Big);
      if (big.u32(0) == 0x5a4c4942u) claimed = big.u64(4);  // "ZLIB"
    } else {
      const ByteReader r(bytes, a.endian);
      claimed = a.elf64 ? r.u64(offsetof(Elf64_Chdr, ch_size)) : std::optional<uint64_t>(r.u32(offsetof(Elf32_Chdr, ch_size)));
    }
    if (!claimed) return s.name + ": its compression header cannot be read";
    const uint64_t limit = expansion_allowance(s.size, kMaxDwarfExpansion, kDwarfExpansionFloor);
    if (*claimed > limit)
      return s.name + ": " + size_text(s.size) + " compressed, claiming " + size_text(*claimed) + ", over " +
             std::to_string(kMaxDwarfExpansion) + " times its size";
  }
  return "";
}

}  // namespace elfmeta::input
