// An artifact's ORC tables read into a model: the sections, the entry layout
// and where it came from, the decoded entries, and the code address each
// entry applies to (relocated in objects and modules, self-relative in
// linked images). Reading reports what breaks the section rules.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/release.h"
#include "input/artifact.h"
#include "orc/orc_findings.h"
#include "orc/orc_format.h"

namespace elfmeta::orc {

struct Site {
  uint64_t address = 0;   // linked image: virtual address; object: offset in `section`
  uint32_t section = 0;   // ELF index of the code section it lies in (0: none)
  bool resolved = false;  // false: no usable relocation, or outside the code
};

// The entries, decoded from .orc_unwind when read (a kernel image has
// hundreds of thousands; the checks look at most of them once).
class Entries {
 public:
  Entries() = default;
  Entries(const uint8_t* raw, size_t count, Layout layout) : raw_(raw), count_(count), layout_(layout) {}
  Entry operator[](size_t i) const { return decode(raw_ + i * kEntrySize, layout_); }
  size_t size() const { return count_; }
  const uint8_t* raw(size_t i) const { return raw_ + i * kEntrySize; }

 private:
  const uint8_t* raw_ = nullptr;
  size_t count_ = 0;
  Layout layout_ = Layout::G4;
};

// The sites: stored for objects and modules (from relocations), computed
// from the self-relative slots for linked files.
class Sites {
 public:
  Site operator[](size_t i) const {
    if (!slots_) return stored_[i];
    return {address(i), 0, !std::binary_search(unresolved_.begin(), unresolved_.end(), static_cast<uint32_t>(i))};
  }
  // The address alone: what the order, lookup and coverage passes read.
  uint64_t address(size_t i) const {
    if (!slots_) return stored_[i].address;
    int32_t rel;
    __builtin_memcpy(&rel, slots_ + i * kIpSize, 4);
    return ip_addr_ + i * kIpSize + static_cast<uint64_t>(static_cast<int64_t>(rel));
  }
  size_t size() const { return slots_ ? count_ : stored_.size(); }
  // The addresses of computed sites, as values a hot loop keeps in registers.
  struct SlotView {
    const uint8_t* slots;
    uint64_t base;
    uint64_t address(size_t i) const {
      int32_t rel;
      __builtin_memcpy(&rel, slots + i * kIpSize, 4);
      return base + i * kIpSize + static_cast<uint64_t>(static_cast<int64_t>(rel));
    }
  };
  SlotView slot_view() const { return {slots_, ip_addr_}; }
  // Computed sites: the entries whose address is outside the code, sorted.
  const std::vector<uint32_t>& unresolved() const { return unresolved_; }
  bool computed() const { return slots_ != nullptr; }

  void store(size_t count) { stored_.assign(count, Site{}); }
  Site& stored(size_t i) { return stored_[i]; }
  void compute(const uint8_t* slots, uint64_t ip_addr, size_t count, std::vector<uint32_t> unresolved) {
    slots_ = slots;
    ip_addr_ = ip_addr;
    count_ = count;
    unresolved_ = std::move(unresolved);
  }

 private:
  std::vector<Site> stored_;
  const uint8_t* slots_ = nullptr;
  uint64_t ip_addr_ = 0;
  size_t count_ = 0;
  std::vector<uint32_t> unresolved_;  // sorted: entries outside the code
};

struct OrcTable {
  const input::Artifact* artifact = nullptr;
  const input::Section* ip = nullptr;      // .orc_unwind_ip
  const input::Section* unwind = nullptr;  // .orc_unwind
  const input::Section* header = nullptr;  // .orc_header
  const input::Section* lookup = nullptr;  // .orc_lookup
  bool relocatable = false;                // ET_REL: an object or a module
  Layout layout = Layout::G4;
  // False when neither the header, nor the release, nor the entries tell
  // the layout: nothing that decodes an entry is checked.
  bool layout_known = true;
  std::string layout_source;               // ".orc_header", "banner 6.1.0-56-...", "--kernel 6.1", ...
  std::optional<Release> release;          // the kernel's, when known (--kernel, banner, vermagic)
  Entries entries;
  Sites sites;
  std::vector<const input::Section*> code;  // SHF_EXECINSTR sections, by address then index
  // Linked images, from the one pass that computes the addresses: whether
  // they never go down, and the entries at their predecessor's address.
  bool ascending = false;
  std::vector<uint32_t> ties;

  size_t size() const { return entries.size(); }
  const input::Section* code_section(uint32_t index) const;
  // The code section holding `address` (or ending exactly there), for linked images.
  const input::Section* code_at(uint64_t address) const;
  // The same as bounds, for a walk over mostly sorted addresses that asks
  // again only when it leaves them.
  struct CodeBounds {
    uint64_t lo = 0, span = 0;  // the section, or outside the code the one address
    bool in_code = false;
    bool holds(uint64_t address) const { return address - lo <= span; }  // below lo wraps above any span
  };
  CodeBounds code_bounds_at(uint64_t address) const {
    const input::Section* s = code_at(address);
    return s ? CodeBounds{s->addr, s->size, true} : CodeBounds{address, 0, false};
  }
};

// nullopt when the artifact carries no ORC at all. The layout: the
// .orc_header's fingerprint; without a header `kernel`, the release to take
// it from (else the artifact's banner or vermagic); else, and when the
// fingerprint is unknown, the entries themselves (layout_inference.h). `concurrent`: a kernel
// image's table is read on two threads (the model is the same).
std::optional<OrcTable> read_orc(const input::Artifact& a, std::optional<Release> kernel, OrcFindings& f,
                                 bool concurrent = true);

// From this many entries (a kernel image; its modules have a few thousand)
// the passes over the table share the work with a second thread.
inline constexpr size_t kConcurrentEntries = 65536;

}  // namespace elfmeta::orc
