#include "orc/orc_table.h"

#include <elf.h>

#include <algorithm>
#include <cstring>

#include "core/byte_reader.h"
#include "core/second_core.h"
#include "core/text.h"
#include "input/kernel_release.h"
#include "input/relocations.h"
#include "orc/layout_inference.h"
#include "orc/orc_rules.h"

namespace elfmeta::orc {
namespace {

class Reader {
 public:
  Reader(const input::Artifact& a, std::optional<Release> kernel, bool concurrent, OrcFindings& f)
      : a_(a), kernel_(kernel), concurrent_(concurrent), f_(f) {}

  std::optional<OrcTable> run() {
    t_.artifact = &a_;
    t_.ip = a_.section(".orc_unwind_ip");
    t_.unwind = a_.section(".orc_unwind");
    t_.header = a_.section(".orc_header");
    t_.lookup = a_.section(".orc_lookup");
    if (!t_.ip && !t_.unwind) return std::nullopt;
    t_.relocatable = a_.elf_type == ET_REL;
    for (const auto& s : a_.sections)
      if ((s.flags & SHF_EXECINSTR) && s.type != SHT_NOBITS) t_.code.push_back(&s);
    std::sort(t_.code.begin(), t_.code.end(), [](const input::Section* x, const input::Section* y) {
      return x->addr != y->addr ? x->addr < y->addr : x->index < y->index;
    });
    if (!t_.ip || !t_.unwind) {
      f_.at_section(rules::SEC_001, t_.ip ? ".orc_unwind_ip" : ".orc_unwind", std::nullopt,
                    std::string(t_.ip ? ".orc_unwind" : ".orc_unwind_ip") + " is missing");
      return t_;
    }
    check_section_attributes();
    const size_t count = check_sizes();
    choose_layout(count);
    decode_entries(count);
    if (t_.relocatable)
      resolve_relocated(count);
    else
      resolve_self_relative(count);
    return std::move(t_);
  }

 private:
  void find_release() {
    if (kernel_) {
      t_.release = kernel_;
      release_source_ = "--kernel " + kernel_->str();
      return;
    }
    std::optional<std::string> text;
    std::string how;
    if (a_.is_vmlinux()) {
      text = input::kernel_image_release(a_);
      how = "banner";
    } else if (a_.is_kernel_module()) {
      text = input::module_vermagic_release(a_);
      how = "vermagic";
    }
    if (text)
      if (auto r = parse_release(*text)) {
        t_.release = r;
        release_source_ = how + " " + *text;
      }
  }

  void check_section_attributes() {
    for (const input::Section* s : {t_.ip, t_.unwind}) {
      const uint64_t entsize = s == t_.ip ? kIpSize : kEntrySize;
      if (t_.relocatable) {
        std::string why;
        if (s->type != SHT_PROGBITS) why = "type " + std::to_string(s->type) + ", not SHT_PROGBITS";
        else if (!(s->flags & SHF_ALLOC)) why = "not SHF_ALLOC";
        else if (s->flags & (SHF_WRITE | SHF_EXECINSTR)) why = "writable or executable";
        else if (s->entsize != 0 && s->entsize != entsize) why = "sh_entsize " + std::to_string(s->entsize);
        if (!why.empty()) f_.at_section(rules::SEC_003, s->name, std::nullopt, why);
      } else if (s->addr % (s == t_.ip ? 4 : 2)) {
        f_.at_section(rules::SEC_011, s->name, std::nullopt, "address " + hex(s->addr) + " is not " +
                                                                 (s == t_.ip ? "4" : "2") + "-byte aligned");
      }
    }
  }

  size_t check_sizes() {
    const uint64_t ip_size = t_.ip->data.size(), unwind_size = t_.unwind->data.size();
    if (ip_size % kIpSize)
      f_.at_section(rules::SEC_002, ".orc_unwind_ip", std::nullopt,
                    std::to_string(ip_size) + " bytes is not a whole number of 4-byte slots");
    if (unwind_size % kEntrySize)
      f_.at_section(rules::SEC_002, ".orc_unwind", std::nullopt,
                    std::to_string(unwind_size) + " bytes is not a whole number of 6-byte entries");
    const uint64_t ips = ip_size / kIpSize, entries = unwind_size / kEntrySize;
    if (ips != entries)
      f_.at_section(rules::SEC_002, ".orc_unwind", std::nullopt,
                    std::to_string(entries) + " entries for " + std::to_string(ips) + " addresses");
    if (!t_.relocatable && a_.is_vmlinux() && std::min(ips, entries) == 0)
      f_.at_section(rules::SEC_002, ".orc_unwind", std::nullopt, "a kernel image with no ORC entries");
    return static_cast<size_t>(std::min(ips, entries));
  }

  // ORC-SEC-008, ORC-SEC-012. The .orc_header's fingerprint first; without
  // a header the kernel release (looked up only here: the banner is a scan
  // of .rodata); then the entries. An unknown or unusable header says the
  // layout is none the release would name, so only the entries are asked.
  void choose_layout(size_t count) {
    const uint8_t* entries = t_.unwind->data.data();
    if (t_.header) {
      const auto& h = *t_.header;
      std::string problem;
      if (h.data.size() != kHeaderSize) problem = std::to_string(h.data.size()) + " bytes, not 20";
      else if (!(h.flags & SHF_ALLOC)) problem = "not SHF_ALLOC";
      else if (!t_.relocatable && h.addr % 4) problem = "address " + hex(h.addr) + " is not 4-byte aligned";
      else if (const auto known = layout_for_fingerprint(h.data)) {
        t_.layout = *known;
        t_.layout_source = ".orc_header";
        return;
      } else {
        problem = "unknown layout fingerprint " + hex_bytes(h.data);
      }
      const LayoutGuess guess = infer_layout(entries, count);
      apply(guess);
      f_.at_section(rules::SEC_008, ".orc_header", std::nullopt,
                    problem + (guess.layout ? "; the entries are checked as " + std::string(layout_name(*guess.layout))
                                            : "; the entries are not checked") +
                        ": " + guess.how);
      return;
    }
    find_release();
    if (t_.release)
      if (const auto by_release = layout_for_release(*t_.release)) {
        t_.layout = *by_release;
        t_.layout_source = release_source_;
        return;
      }
    const LayoutGuess guess = infer_layout(entries, count);
    apply(guess);
    if (!guess.layout)
      f_.at_section(rules::SEC_012, ".orc_unwind", std::nullopt,
                    "no .orc_header and no kernel release (pass --kernel X.Y); " + guess.how);
  }

  void apply(const LayoutGuess& guess) {
    t_.layout_known = guess.layout.has_value();
    if (guess.layout) t_.layout = *guess.layout;
    t_.layout_source = "entries: " + guess.how;
  }

  void decode_entries(size_t count) { t_.entries = Entries(t_.unwind->data.data(), count, t_.layout); }

  // Objects and modules: slot i is filled by a relocation at offset 4*i.
  void resolve_relocated(size_t count) {
    for (const auto& rs : input::relocations_for(a_, *t_.unwind))
      f_.at_section(rules::SEC_004, rs.rela->name, std::nullopt, "relocates .orc_unwind, which holds no addresses");
    t_.sites.store(count);
    const auto sets = input::relocations_for(a_, *t_.ip);
    if (sets.empty()) {
      if (count) f_.at_section(rules::SEC_004, ".orc_unwind_ip", std::nullopt, "no .rela.orc_unwind_ip: no slot is relocated");
      return;
    }
    if (sets.size() > 1)
      f_.at_section(rules::SEC_004, sets[1].rela->name, std::nullopt, "a second relocation section for .orc_unwind_ip");
    const auto& rs = sets.front();
    const std::string& rname = rs.rela->name;
    if (!rs.is_rela) f_.at_section(rules::SEC_004, rname, std::nullopt, "SHT_REL, not SHT_RELA");
    if (!rs.symtab) f_.at_section(rules::SEC_004, rname, std::nullopt, "sh_link " + std::to_string(rs.rela->link) + " is not a symbol table");
    std::vector<uint32_t> per_slot(count, 0);
    for (const auto& r : rs.relocations) {
      const uint64_t at = r.at;
      if (r.offset % kIpSize || r.offset / kIpSize >= count) {
        f_.at_section(rules::SEC_004, rname, at, "relocation at .orc_unwind_ip+" + hex(r.offset) + " is not on a slot");
        continue;
      }
      const size_t slot = static_cast<size_t>(r.offset / kIpSize);
      if (++per_slot[slot] > 1) {
        f_.at_section(rules::SEC_004, rname, at, "a second relocation for slot " + std::to_string(slot));
        t_.sites.stored(slot).resolved = false;
        continue;
      }
      if (r.type != input::kR_X86_64_PC32)
        f_.at_section(rules::SEC_005, rname, at, "slot " + std::to_string(slot) + ": " + input::x86_64_relocation_name(r.type));
      uint32_t stored;
      std::memcpy(&stored, t_.ip->data.data() + r.offset, 4);
      if (stored != 0) f_.at_section(rules::SEC_007, ".orc_unwind_ip", r.offset, "slot " + std::to_string(slot) + " holds " + hex(stored));
      if (!rs.symtab) continue;
      const auto sym = input::elf_symbol(a_, *rs.symtab, r.symbol);
      const input::Section* target = sym ? a_.section_at(sym->section) : nullptr;
      const bool symbol_ok = sym && (sym->type == STT_SECTION || sym->type == STT_FUNC || sym->type == STT_NOTYPE);
      // Symbol value plus addend wraps like the linker's arithmetic does
      // (hostile values must not overflow a signed sum).
      const int64_t offset = sym ? static_cast<int64_t>(sym->value + static_cast<uint64_t>(r.addend)) : 0;
      if (!sym || !target || !(target->flags & SHF_EXECINSTR) || !symbol_ok || offset < 0 ||
          static_cast<uint64_t>(offset) > target->size) {
        std::string what = !sym ? "symbol " + std::to_string(r.symbol) + " does not exist"
                           : !target ? "symbol '" + sym->name + "' is not defined in a section"
                           : !symbol_ok ? "symbol '" + sym->name + "' is neither a section nor a function"
                                        : target->name + "+" + hex(static_cast<uint64_t>(offset)) +
                                              ((target->flags & SHF_EXECINSTR) ? " is past the section's end"
                                                                               : " is not code");
        f_.at_section(rules::SEC_006, rname, at, "slot " + std::to_string(slot) + ": " + what);
        continue;
      }
      t_.sites.stored(slot) = {static_cast<uint64_t>(offset), target->index, true};
    }
    size_t missing = 0, first = 0;
    for (size_t i = 0; i < count; ++i)
      if (per_slot[i] == 0 && !missing++) first = i;
    if (missing)
      f_.at_section(rules::SEC_004, ".orc_unwind_ip", uint64_t(first) * kIpSize,
                    std::to_string(missing) + " slot(s) without a relocation, the first is slot " + std::to_string(first));
  }

  // What one pass over slots [from, to) of a linked image finds.
  struct SlotScan {
    bool ascending = true;
    std::vector<uint32_t> ties, unresolved;
  };

  // Linked images: slot i holds the address minus the slot's own address.
  SlotScan scan_slots(size_t from, size_t to) const {
    const uint8_t* const p = t_.ip->data.data();
    const uint64_t base = t_.ip->addr;
    auto address_at = [p, base](size_t i) {
      int32_t rel;
      std::memcpy(&rel, p + i * kIpSize, 4);
      return base + i * kIpSize + static_cast<uint64_t>(static_cast<int64_t>(rel));
    };
    SlotScan out;
    if (from >= to) return out;
    // Entries are mostly sorted: in the same code section as the last one.
    OrcTable::CodeBounds code = t_.code_bounds_at(address_at(from));
    // Slot 0 has no neighbour below; any other's is compared.
    size_t i = from;
    uint64_t previous = address_at(i ? i - 1 : 0);
    if (i == 0) {
      if (!code.in_code) out.unresolved.push_back(0);
      ++i;
    }
    bool descends = false;
    for (; i < to; ++i) {
      const uint64_t address = address_at(i);
      if (!code.holds(address)) [[unlikely]]
        code = t_.code_bounds_at(address);
      if (!code.in_code) [[unlikely]]
        out.unresolved.push_back(static_cast<uint32_t>(i));
      if (address <= previous) [[unlikely]] {
        descends |= address != previous;
        if (address == previous) out.ties.push_back(static_cast<uint32_t>(i));
      }
      previous = address;
    }
    out.ascending = !descends;
    return out;
  }

  // A kernel image's slots in two halves, one on a second thread.
  void resolve_self_relative(size_t count) {
    SlotScan scan;
    if (concurrent_ && count >= kConcurrentEntries) {
      SlotScan upper;
      run_beside([&] { upper = scan_slots(count / 2, count); }, [&] { scan = scan_slots(0, count / 2); });
      scan.ascending &= upper.ascending;
      scan.ties.insert(scan.ties.end(), upper.ties.begin(), upper.ties.end());
      scan.unresolved.insert(scan.unresolved.end(), upper.unresolved.begin(), upper.unresolved.end());
    } else {
      scan = scan_slots(0, count);
    }
    t_.ascending = scan.ascending;
    t_.ties = std::move(scan.ties);
    t_.sites.compute(t_.ip->data.data(), t_.ip->addr, count, std::move(scan.unresolved));
  }

  const input::Artifact& a_;
  std::optional<Release> kernel_;
  const bool concurrent_;
  OrcFindings& f_;
  OrcTable t_;
  std::string release_source_;
};

}  // namespace

const input::Section* OrcTable::code_section(uint32_t index) const {
  for (const auto* s : code)
    if (s->index == index) return s;
  return nullptr;
}

const input::Section* OrcTable::code_at(uint64_t address) const {
  // The last section starting at or below the address; a section's end
  // belongs to it (terminators sit there).
  auto it = std::upper_bound(code.begin(), code.end(), address,
                             [](uint64_t a, const input::Section* s) { return a < s->addr; });
  while (it != code.begin()) {
    --it;
    if (address - (*it)->addr <= (*it)->size) return *it;
    if ((*it)->addr < address) break;
  }
  return nullptr;
}

std::optional<OrcTable> read_orc(const input::Artifact& a, std::optional<Release> kernel, OrcFindings& f,
                                 bool concurrent) {
  if (a.kind != input::ArtifactKind::Elf) return std::nullopt;
  return Reader(a, kernel, concurrent, f).run();
}

}  // namespace elfmeta::orc
