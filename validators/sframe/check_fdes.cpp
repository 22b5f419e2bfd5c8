// SFRAME-FDE-*: each FDE's encoding, and the function ranges together.
#include <elf.h>

#include <algorithm>

#include "core/text.h"
#include "sframe/sframe_checks.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {
namespace {

bool aarch64(uint8_t abi) { return abi == kAarch64Be || abi == kAarch64Le; }

void check_encoding(const SframeTable& t, size_t i, SframeFindings& f) {
  const Fde& d = t.fdes[i];
  const uint8_t version = t.header.version;
  if (version == 3) {
    if ((d.info2 & 0x1f) > kFlex) f.at_fde(rules::FDE_003, i, d.at, "FDE kind " + std::to_string(d.info2 & 0x1f));
    if (d.info2 & 0xe0) f.at_fde(rules::FDE_004, i, d.at, "info2 " + hex(d.info2) + ": bits 5-7 set");
  }
  const uint8_t unused = version == 3 ? 0x40 : 0xc0;
  if (d.info & unused) f.at_fde(rules::FDE_004, i, d.at, "info " + hex(d.info) + ": unused bits set");
  if (d.pauth_key_b() && !aarch64(t.header.abi))
    f.at_fde(rules::FDE_004, i, d.at, "pauth key B on " + std::string(abi_name(t.header.abi)));
  if (d.padding) f.at_fde(rules::FDE_004, i, d.at + 18, "padding " + hex(d.padding));
  if (version >= 2) {
    if (d.pc_type() == kPcMask && d.rep_size == 0)
      f.at_fde(rules::FDE_005, i, d.at, "PC-mask FDE with rep_size 0");
    else if (d.pc_type() == kPcInc && d.rep_size != 0)
      f.at_fde(rules::FDE_005, i, d.at, "PC-increment FDE with rep_size " + std::to_string(d.rep_size),
               Severity::Warning);
  }
  if (d.pc_type() == kPcInc && d.fre_type() <= kAddr4) {
    const uint8_t smallest = d.size < 256 ? kAddr1 : d.size < 65536 ? kAddr2 : kAddr4;
    if (d.fre_type() > smallest)
      f.at_fde(rules::FDE_013, i, d.at, std::to_string(start_size(d.fre_type())) + "-byte FRE starts in a " +
                                            std::to_string(d.size) + "-byte function");
  }
  if (d.num_fres == 0 && (version != 3 || t.blocks[i].end > t.blocks[i].begin))  // v3: the record was read
    f.at_fde(rules::FDE_010, i, d.at, "no FREs");
}

// [start, start + size) inside one executable section.
void check_range(const SframeTable& t, size_t i, SframeFindings& f) {
  const FunctionStart& s = t.starts[i];
  const Fde& d = t.fdes[i];
  if (!s.resolved || t.artifact->kind != input::ArtifactKind::Elf) return;
  const uint64_t end = s.address + d.size;
  if (end < s.address) {
    f.at_fde(rules::FDE_007, i, d.at, "range " + hex(s.address) + " + " + hex(d.size) + " wraps");
    return;
  }
  if (t.relocatable) {
    const input::Section* code = t.artifact->section_at(s.section);
    if (code && end > code->size)
      f.at_fde(rules::FDE_007, i, d.at, code->name + "+" + hex(s.address) + " + " + hex(d.size) + " ends past the section's " +
                                            hex(code->size) + " bytes");
    return;
  }
  for (const auto& code : t.artifact->sections)
    if ((code.flags & SHF_EXECINSTR) && (code.flags & SHF_ALLOC) && s.address >= code.addr &&
        end <= code.addr + code.size)
      return;
  f.at_fde(rules::FDE_007, i, d.at, "[" + hex(s.address) + ", " + hex(end) + ") is not inside an executable section");
}

void check_order(const SframeTable& t, SframeFindings& f) {
  if (!(t.header.flags & kFdeSorted) || t.relocatable) return;
  for (size_t i = 1; i < t.fdes.size(); ++i) {
    const uint64_t prev = t.starts[i - 1].address, cur = t.starts[i].address;
    if (cur < prev)
      f.at_fde(rules::FDE_008, i, t.fdes[i].at, "starts at " + hex(cur) + ", FDE " + std::to_string(i - 1) + " at " + hex(prev));
    else if (cur == prev)
      f.at_fde(rules::FDE_008, i, t.fdes[i].at,
               "starts at " + hex(cur) + " like FDE " + std::to_string(i - 1) + ": the kernel needs strictly increasing starts",
               std::nullopt, kSframeKernel);
  }
}

void check_overlap(const SframeTable& t, SframeFindings& f) {
  std::vector<size_t> order;
  for (size_t i = 0; i < t.fdes.size(); ++i)
    if (t.starts[i].resolved) order.push_back(i);
  auto key = [&](size_t i) { return std::pair{t.starts[i].section, t.starts[i].address}; };
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return key(x) < key(y); });
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t i = order[k];
    if (t.fdes[i].size == 0) {
      f.at_fde(rules::FDE_009, i, t.fdes[i].at, "function of size 0", Severity::Warning);
      continue;
    }
    if (k + 1 == order.size()) break;
    const size_t j = order[k + 1];
    if (t.starts[j].section == t.starts[i].section && t.starts[j].address < t.starts[i].address + t.fdes[i].size &&
        t.fdes[j].size)
      f.at_fde(rules::FDE_009, j, t.fdes[j].at, "starts at " + hex(t.starts[j].address) + " inside FDE " +
                                                     std::to_string(i) + " [" + hex(t.starts[i].address) + ", " +
                                                     hex(t.starts[i].address + t.fdes[i].size) + ")");
  }
}

}  // namespace

void check_fdes(const SframeTable& t, SframeFindings& f) {
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    check_encoding(t, i, f);
    check_range(t, i, f);
  }
  check_order(t, f);
  check_overlap(t, f);
}

}  // namespace elfmeta::sframe
