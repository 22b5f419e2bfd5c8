#include "input/compressed_dwarf.h"

#include <elf.h>

#include <algorithm>
#include <cstddef>

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
    const ByteReader r(a.content.subspan(s.file_offset, s.size), a.endian);
    std::optional<uint64_t> claimed;
    if (gnu) {  // "ZLIB", then the size as a big-endian 64-bit number
      const ByteReader big(a.content.subspan(s.file_offset, s.size), Endian::Big);
      if (r.contains(0, 12) && std::string_view(reinterpret_cast<const char*>(a.content.data() + s.file_offset), 4) == "ZLIB")
        claimed = big.u64(4);
    } else {
      claimed = a.elf64 ? r.u64(offsetof(Elf64_Chdr, ch_size)) : std::optional<uint64_t>(r.u32(offsetof(Elf32_Chdr, ch_size)));
    }
    if (!claimed) return s.name + ": its compression header cannot be read";
    const uint64_t limit =
        std::max(kDwarfExpansionFloor, s.size > UINT64_MAX / kMaxDwarfExpansion ? UINT64_MAX : s.size * kMaxDwarfExpansion);
    if (*claimed > limit)
      return s.name + ": " + size_text(s.size) + " compressed, claiming " + size_text(*claimed) + ", over " +
             std::to_string(kMaxDwarfExpansion) + " times its size";
  }
  return "";
}

}  // namespace elfmeta::input
