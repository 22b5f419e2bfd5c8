// SFRAME-HDR-*: the header against the ELF file and against the records.
#include <elf.h>

#include <algorithm>

#include "core/text.h"
#include "sframe/sframe_abi.h"
#include "sframe/sframe_checks.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {
namespace {

uint8_t defined_flags(uint8_t version) {
  switch (version) {
    case 1: return kFdeSorted | kFramePointer;
    case 2: return kFdeSorted | kFramePointer | kFuncStartPcrel;
    default: return kFdeSorted | kFuncStartPcrel;
  }
}

void check_identity(const SframeTable& t, uint32_t consumer, SframeFindings& f) {
  const Header& h = t.header;
  const AbiFacts* abi = abi_facts(h.abi);
  const bool big = t.bytes.endian() == Endian::Big;
  const input::Artifact& a = *t.artifact;
  if (a.kind == input::ArtifactKind::Elf && (a.endian == Endian::Big) != big)
    f.at_section(rules::HDR_003, 0, std::string("magic in ") + (big ? "big" : "little") + "-endian order in a " +
                                        (a.endian == Endian::Big ? "big" : "little") + "-endian ELF file");
  else if (abi && (abi->endian == Endian::Big) != big)
    f.at_section(rules::HDR_003, 4, std::string("magic in ") + (big ? "big" : "little") + "-endian order, ABI " +
                                        std::string(abi_name(h.abi)));
  if (consumer & kLibsframe && h.version != 1)
    f.at_section(rules::HDR_004, 2, "version " + std::to_string(h.version) + ": libsframe 2.40 reads version 1 only",
                 std::nullopt, kLibsframe);
  if (consumer & kSframeKernel && h.version != 3)
    f.at_section(rules::HDR_004, 2, "version " + std::to_string(h.version) + ": the kernel reads version 3 only",
                 std::nullopt, kSframeKernel);
  if (h.flags & ~defined_flags(h.version))
    f.at_section(rules::HDR_005, 3, "flags " + hex(h.flags) + " in version " + std::to_string(h.version));
  // A machine without an SFrame ABI leaves HDR-006 nothing to compare.
  const auto machine_abis = a.kind == input::ArtifactKind::Elf ? abis_of_machine(a.machine) : std::span<const AbiFacts>{};
  if (!abi)
    f.at_section(rules::HDR_006, 4, "abi_arch " + std::to_string(h.abi) + " (known: 1-4); the rules that depend on the "
                                        "ABI are skipped");
  else if (!machine_abis.empty() && std::none_of(machine_abis.begin(), machine_abis.end(),
                                                 [&](const AbiFacts& m) { return m.id == h.abi; }))
    f.at_section(rules::HDR_006, 4, "abi_arch " + std::string(abi->name) + " in an ELF file for machine " +
                                        std::to_string(a.machine) + " (" + std::string(machine_abis.front().name) + ")");
  if (abi && h.fixed_ra != abi->fixed_ra)
    f.at_section(rules::HDR_007, 6, "fixed RA offset " + std::to_string(h.fixed_ra) + " for " + std::string(abi->name) +
                                        ", which uses " + std::to_string(abi->fixed_ra));
  if (h.fixed_fp != 0) f.at_section(rules::HDR_008, 5, "fixed FP offset " + std::to_string(h.fixed_fp));
  if (h.auxhdr_len != 0) f.at_section(rules::HDR_009, 7, std::to_string(h.auxhdr_len) + " bytes of auxiliary header");
  const uint64_t stride = fde_size(h.version);
  if (uint64_t(h.num_fdes) * stride + h.fdeoff > 0xffffffffu || uint64_t(h.freoff) + h.fre_len > 0xffffffffu)
    f.at_section(rules::HDR_016, 8, std::to_string(h.num_fdes) + " FDEs of " + std::to_string(stride) + " bytes from " +
                                        std::to_string(h.fdeoff) + ", FREs " + std::to_string(h.fre_len) + " bytes from " +
                                        std::to_string(h.freoff) + ": past 4 GiB");
  if (h.version < 3 && (h.flags & kFramePointer)) f.at_section(rules::HDR_020, 3, "flags " + hex(h.flags));
  if (h.version == 3 && !(h.flags & kFuncStartPcrel))
    f.at_section(rules::HDR_019, 3, "flags " + hex(h.flags));
  if (h.num_fdes == 0 || h.num_fres == 0)
    f.at_section(rules::HDR_015, 8, std::to_string(h.num_fdes) + " FDEs, " + std::to_string(h.num_fres) + " FREs");
  if (a.kind == input::ArtifactKind::Elf) {
    const bool sorted = h.flags & kFdeSorted;
    if (t.relocatable && sorted) f.at_section(rules::HDR_018, 3, "FDE_SORTED set in a relocatable object");
    if (!t.relocatable && !sorted && h.num_fdes > 1) f.at_section(rules::HDR_017, 3, "FDE_SORTED clear in a linked file");
  }
}

void check_counts(const SframeTable& t, SframeFindings& f) {
  const Header& h = t.header;
  if (t.fdes.size() != h.num_fdes) return;  // HDR-010 said why
  uint64_t fres = 0, bytes = 0;
  bool complete = true;
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    fres += t.fdes[i].num_fres;
    complete &= t.blocks[i].complete;
    bytes += t.blocks[i].end - t.blocks[i].begin;
  }
  // libsframe 2.40 byte-swaps a foreign-endian section by walking every
  // FDE's FREs, and refuses the section unless the walk visits num_fres
  // FREs and ends at fre_len (its native-order path checks neither).
  const bool swapped_by_libsframe = (f.consumer() & kLibsframe) && t.bytes.endian() != host_endian();
  const auto severity = swapped_by_libsframe ? std::optional<Severity>(Severity::Error) : std::nullopt;
  const auto enforced = swapped_by_libsframe ? std::optional<uint32_t>(kLibsframe) : std::nullopt;
  if (h.version != 3 || complete)  // v3 counts live in the records, read only with them
    if (fres != h.num_fres)
      f.at_section(rules::HDR_013, 12, "num_fres " + std::to_string(h.num_fres) + ", the FDEs hold " + std::to_string(fres),
                   severity, enforced);
  if (!complete) return;
  if (bytes != h.fre_len)
    f.at_section(rules::HDR_014, 16, "fre_len " + std::to_string(h.fre_len) + ", the FRE blocks take " + std::to_string(bytes),
                 severity, enforced);
  // Blocks overlap where a byte of the FRE sub-section belongs to two of
  // them: one bit per byte, in FDE order (no sort of 20,000 blocks).
  const uint64_t base = t.fre_base();
  // Sized by the bytes the blocks cover (inside the section), not by
  // fre_len: a claimed 0xffffffff wrapped to an empty bitmap in 32 bits, and
  // would be a 512 MB one in 64. An FDE with no FREs covers no byte: its
  // offset was never read and may lie anywhere up to 4 GiB (a 115 MB
  // bitmap from a 2 KB input, found by fuzz_sframe_libsframe_diff).
  uint64_t extent = 0;
  for (const FreRange& b : t.blocks)
    if (b.end > b.begin) extent = std::max(extent, b.end - base);
  // Complete blocks were read inside the section; the bitmap never reaches past it.
  extent = std::min<uint64_t>(extent, t.bytes.size() - std::min<uint64_t>(base, t.bytes.size()));
  std::vector<uint64_t> taken((extent + 63) / 64, 0);
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    const FreRange& b = t.blocks[i];
    bool overlap = false;
    for (uint64_t lo = b.begin - base, hi = std::min(b.end - base, extent); lo < hi;) {
      const uint64_t from = lo % 64, n = std::min<uint64_t>(64 - from, hi - lo);
      const uint64_t mask = (n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1) << from;
      overlap |= (taken[lo / 64] & mask) != 0;
      taken[lo / 64] |= mask;
      lo += n;
    }
    if (!overlap) continue;
    size_t other = 0;
    while (other < i && !(t.blocks[other].begin < b.end && b.begin < t.blocks[other].end)) ++other;
    f.at_fde(rules::HDR_014, i, t.fdes[i].at,
             "FRE block [" + std::to_string(b.begin) + ", " + std::to_string(b.end) + ") overlaps FDE " + std::to_string(other) +
                 "'s [" + std::to_string(t.blocks[other].begin) + ", " + std::to_string(t.blocks[other].end) + ")");
  }
}

void check_tail(const SframeTable& t, SframeFindings& f) {
  const uint64_t end = t.fre_base() + t.header.fre_len;
  if (end >= t.bytes.size()) return;
  const auto tail = t.bytes.bytes().subspan(static_cast<size_t>(end));
  // Another section's header after this one's content: concatenated by a
  // linker that does not know SFrame.
  // libsframe 2.40 refuses every byte past the FREs of a section it
  // byte-swaps, a concatenated section's included.
  const bool libsframe = f.consumer() & kLibsframe;
  const bool swapped_by_libsframe = libsframe && t.bytes.endian() != host_endian();
  const uint8_t m0 = t.bytes.bytes()[0], m1 = t.bytes.bytes()[1];
  for (uint64_t at = (end + 3) & ~uint64_t(3); at + kHeaderSize <= t.bytes.size(); at += 4) {
    const auto p = t.bytes.bytes().subspan(static_cast<size_t>(at));
    if (p[0] == m0 && p[1] == m1 && p[2] >= 1 && p[2] <= 3) {
      f.at_section(rules::ELF_010, at, "another SFrame header at " + std::to_string(at) + ", after this one's " +
                                           std::to_string(end) + " bytes");
      if (!swapped_by_libsframe) return;
      break;
    }
  }
  const auto nonzero = std::find_if(tail.begin(), tail.end(), [](uint8_t b) { return b != 0; });
  if (nonzero != tail.end()) {
    f.at_section(rules::HDR_012, end + static_cast<uint64_t>(nonzero - tail.begin()),
                 std::to_string(tail.size()) + " bytes after the FREs, not all zero",
                 swapped_by_libsframe ? Severity::Error : Severity::Warning);
  } else if (swapped_by_libsframe) {
    // libsframe 2.40 byte-swaps a foreign section through a path that
    // refuses any bytes past the FREs, zeros included.
    f.at_section(rules::HDR_012, end,
                 std::to_string(tail.size()) + " zero bytes after the FREs of a byte-swapped section: libsframe 2.40 "
                                               "refuses them (its native-order path accepts them)",
                 Severity::Error);
  }
}

}  // namespace

void check_header(const SframeTable& t, uint32_t consumer, SframeFindings& f) {
  check_identity(t, consumer, f);
  check_counts(t, f);
  check_tail(t, f);
}

}  // namespace elfmeta::sframe
