// SFRAME-ELF-*: the section header, and PT_GNU_SFRAME in linked files.
#include <elf.h>

#include <algorithm>

#include "core/text.h"
#include "sframe/sframe_checks.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {
namespace {
constexpr uint32_t kShtGnuSframe = 0x6ffffff4;
constexpr uint32_t kPtGnuSframe = 0x6474e554;
}  // namespace

// Dynamic relocation sections (allocated, not tied to one section) with an
// entry inside .sframe.
void check_dynamic_relocations(const SframeTable& t, SframeFindings& f) {
  const input::Artifact& a = *t.artifact;
  const input::Section& s = *t.section;
  if (!a.elf64) return;
  for (const auto& rel : a.sections) {
    if ((rel.type != SHT_RELA && rel.type != SHT_REL) || !(rel.flags & SHF_ALLOC)) continue;
    const uint64_t entry = rel.type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
    const ByteReader r(rel.data, a.endian);
    for (uint64_t at = 0; at + entry <= r.size(); at += entry) {
      const uint64_t offset = r.at<uint64_t>(at);
      if (offset >= s.addr && offset < s.addr + s.size) {
        f.at_section(rules::ELF_005, offset - s.addr, rel.name + " relocates .sframe+" + hex(offset - s.addr));
        break;
      }
    }
  }
}

// Each FDE's range inside a PF_X PT_LOAD.
void check_segments(const SframeTable& t, SframeFindings& f) {
  std::vector<const input::Segment*> text;
  bool loads = false;
  for (const auto& p : t.artifact->segments) {
    loads |= p.type == PT_LOAD;
    if (p.type == PT_LOAD && (p.flags & PF_X)) text.push_back(&p);
  }
  if (!loads) return;
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    if (!t.starts[i].resolved) continue;
    const uint64_t start = t.starts[i].address, end = start + t.fdes[i].size;
    const bool inside = std::any_of(text.begin(), text.end(), [&](const input::Segment* p) {
      return start >= p->vaddr && end >= start && end <= p->vaddr + p->memsz;
    });
    if (!inside)
      f.at_fde(rules::ELF_006, i, t.fdes[i].at, "[" + hex(start) + ", " + hex(end) + ") is in no executable PT_LOAD");
  }
}

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
  if (t.relocatable) return;
  check_dynamic_relocations(t, f);
  if (t.usable) check_segments(t, f);
  if (a.segments.empty() || s.size == 0) return;
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
                     "-byte section (ld, 2.40 to 2.47.50 at least, sizes it as the sum of its inputs)",
                 Severity::Warning);
}

}  // namespace elfmeta::sframe
