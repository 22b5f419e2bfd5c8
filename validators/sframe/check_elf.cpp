// SFRAME-ELF-*: the section header, and PT_GNU_SFRAME in linked files.
#include <elf.h>

#include "core/text.h"
#include "sframe/sframe_checks.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {
namespace {
constexpr uint32_t kShtGnuSframe = 0x6ffffff4;
constexpr uint32_t kPtGnuSframe = 0x6474e554;
}  // namespace

void check_elf(const SframeTable& t, SframeFindings& f) {
  if (!t.section) return;
  const input::Artifact& a = *t.artifact;
  const input::Section& s = *t.section;
  size_t copies = 0;
  for (const auto& other : a.sections) copies += other.name == ".sframe";
  if (copies > 1) f.at_section(rules::ELF_001, std::nullopt, std::to_string(copies) + " sections named .sframe");
  if (s.type != SHT_PROGBITS && s.type != kShtGnuSframe) f.at_section(rules::ELF_001, std::nullopt, "section type " + hex(s.type));
  if ((s.flags & ~uint64_t(SHF_INFO_LINK)) != SHF_ALLOC)
    f.at_section(rules::ELF_001, std::nullopt, "section flags " + hex(s.flags) + ", not SHF_ALLOC alone");
  if (s.addralign < 4) f.at_section(rules::ELF_001, std::nullopt, "aligned to " + std::to_string(s.addralign));
  if (t.relocatable || a.segments.empty() || s.size == 0) return;
  const input::Segment* seg = nullptr;
  for (const auto& p : a.segments)
    if (p.type == kPtGnuSframe) seg = &p;
  if (!seg) {
    f.at_section(rules::ELF_002, std::nullopt, "no PT_GNU_SFRAME segment");
    return;
  }
  if (seg->vaddr != s.addr || seg->offset != s.file_offset || seg->filesz != seg->memsz || seg->filesz < s.size)
    f.at_section(rules::ELF_002, std::nullopt,
                 "PT_GNU_SFRAME at " + hex(seg->vaddr) + " (offset " + hex(seg->offset) + ", " + hex(seg->filesz) +
                     "/" + hex(seg->memsz) + " bytes), the section at " + hex(s.addr) + " (offset " + hex(s.file_offset) +
                     ", " + hex(s.size) + " bytes)");
  else if (seg->filesz != s.size)
    f.at_section(rules::ELF_002, std::nullopt,
                 "PT_GNU_SFRAME of " + hex(seg->filesz) + " bytes for a " + hex(s.size) +
                     "-byte section (ld 2.40 sizes it as the sum of its inputs)",
                 Severity::Warning);
}

}  // namespace elfmeta::sframe
