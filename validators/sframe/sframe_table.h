// An artifact's .sframe read into a model: the header, every FDE with the
// function start it resolves to (through the relocation in an object, from
// the section or the field address when linked), and the FREs of each FDE.
// Reading reports what breaks the layout (bounds, record sizes, encodings);
// the checks of the contents are separate passes over the model. The FREs
// are decoded once, while reading: each is screened against the FRE rules
// there (a yes/no, nothing formatted), and check_fres walks again only the
// blocks the screen marked, to report in its place in the check's order.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "core/byte_reader.h"
#include "input/artifact.h"
#include "sframe/sframe_findings.h"
#include "sframe/sframe_format.h"

namespace elfmeta::sframe {

struct FunctionStart {
  uint64_t address = 0;  // linked: virtual address; object: offset in `section`; raw: section-relative
  uint32_t section = 0;  // object: the ELF index of the code section
  bool resolved = false;
};

// An FDE's FREs as they lie in the section: read and checked for bounds
// and encodings by read_sframe, decoded again when a pass walks them (a
// section holds hundreds of thousands; none is kept).
struct FreRange {
  uint64_t begin = 0, end = 0;   // the block's bytes in the section ([begin, end), v3 record included)
  uint64_t first = 0;            // where the first FRE starts
  uint32_t count = 0;            // the FREs that can be read (all, unless one was unreadable)
  bool complete = false;         // every FRE of the FDE can be read
  bool findings = false;         // an FRE rule fails on one of them (FreRules::screen): check_fres reports it
};

struct SframeTable {
  const input::Artifact* artifact = nullptr;
  const input::Section* section = nullptr;  // null for a raw section
  ByteReader bytes;
  Header header;
  bool usable = false;       // the header was read: the rest of the model is meaningful
  bool relocatable = false;  // ET_REL: starts come from relocations
  uint64_t addr = 0;         // the section's address (0 for objects and raw sections)

  std::vector<Fde> fdes;
  std::vector<FunctionStart> starts;  // per FDE
  std::vector<FreRange> blocks;       // per FDE
  size_t fre_count = 0;               // readable FREs of all FDEs

  // FRE k of FDE i (walks the block: for tests and single lookups).
  Fre fre(size_t i, size_t k) const;

  uint64_t fre_base() const { return header.end() + header.freoff; }
  // The order of two starts: addresses in an ELF file, but signed offsets
  // from the section in a raw one (a linked file's code lies before its
  // .sframe: negative), which readers sort and search as signed values.
  uint64_t order_of(uint64_t start) const { return section ? start : start ^ (uint64_t(1) << 63); }
  // FDE starts count from the field itself (else from the section): the
  // flag decides in version 3 as in version 2 (every producer sets it in
  // version 3; SFRAME-HDR-019 reports a version 3 section without it).
  bool pc_relative() const { return header.version >= 2 && (header.flags & kFuncStartPcrel); }
};

// The FREs of one FDE in order, decoded one at a time.
class FreCursor {
 public:
  FreCursor(const SframeTable& t, size_t fde);
  bool done() const { return k_ >= count_; }
  const Fre& operator*() const { return fre_; }
  const Fre* operator->() const { return &fre_; }
  size_t index() const { return k_; }
  void next();

 private:
  void decode();
  const ByteReader& r_;
  uint32_t addr_size_;
  uint64_t at_;
  size_t k_ = 0, count_;
  Fre fre_;
};

// Decodes the FRE at `at` (bounds already checked by read_sframe: no check
// here); returns where the next one starts. Inline: it runs for every FRE.
inline uint64_t decode_fre(const ByteReader& r, uint64_t at, uint32_t addr_size, Fre& out) {
  out.at = at;
  out.start = addr_size == 1 ? r.at<uint8_t>(at) : addr_size == 2 ? r.at<uint16_t>(at) : r.at<uint32_t>(at);
  out.info = r.at<uint8_t>(at + addr_size);
  const uint32_t n = out.count();
  uint64_t p = at + addr_size + 1;
  switch (out.size_code()) {
    case 0:
      for (uint32_t w = 0; w < n; ++w, p += 1) out.words[w] = r.at<int8_t>(p);
      break;
    case 1:
      for (uint32_t w = 0; w < n; ++w, p += 2) out.words[w] = r.at<int16_t>(p);
      break;
    default:  // 2; 3 never reaches here (SFRAME-FRE-002 ends the block)
      for (uint32_t w = 0; w < n; ++w, p += 4) out.words[w] = r.at<int32_t>(p);
      break;
  }
  return p;
}

// nullopt when the artifact has no SFrame at all. `concurrent`: a large
// section's FREs are read on two threads (the findings are the same), and
// `beside` runs on the second one before its share; otherwise (or when the
// section is small) `beside` runs after reading, on this thread, and not at
// all when there is no SFrame.
std::optional<SframeTable> read_sframe(const input::Artifact& a, SframeFindings& f, bool concurrent = true,
                                       const std::function<void()>& beside = {});

}  // namespace elfmeta::sframe
