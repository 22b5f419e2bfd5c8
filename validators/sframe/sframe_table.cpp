#include "sframe/sframe_table.h"

#include <elf.h>

#include <algorithm>
#include <functional>

#include "core/second_core.h"
#include "core/text.h"
#include "input/relocations.h"
#include "sframe/fre_rules.h"
#include "sframe/sframe_abi.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {
namespace {

constexpr uint32_t kShtGnuSframe = 0x6ffffff4;  // SHT_GNU_SFRAME (binutils 2.45)
constexpr uint32_t kPtGnuSframe = 0x6474e554;

// From this many FDEs the FREs are read on two cores (a large program's
// section; below, a thread costs more than it saves).
constexpr size_t kConcurrentFdes = 4096;

// Reading FREs on the second core reports nothing: where a finding would be
// reported it stops, and the first core reads that block and the rest again,
// in order, so that the findings are those of one sequential read.
enum class Reporting : bool { Report, Quiet };

class Reader {
 public:
  Reader(const input::Artifact& a, SframeFindings& f, bool concurrent, const std::function<void()>& beside)
      : a_(a), f_(f), concurrent_(concurrent), beside_(beside) {}

  // Whether `beside` ran on the second thread (else the caller runs it).
  bool ran_beside() const { return beside_ran_; }

  std::optional<SframeTable> run() {
    std::span<const uint8_t> data;
    if (a_.kind == input::ArtifactKind::RawSframe) {
      data = a_.raw;
    } else if (a_.kind == input::ArtifactKind::Elf) {
      t_.section = a_.section(".sframe");
      // By its type where it has another name (binutils' own tests rename
      // it; readelf and objdump take --sframe=NAME).
      for (size_t k = 0; !t_.section && k < a_.sections.size(); ++k)
        if (a_.sections[k].type == kShtGnuSframe) t_.section = &a_.sections[k];
      if (!t_.section) return std::nullopt;
      data = t_.section->data;
      // ld --discard-sframe (2.46+) leaves an empty .sframe and no
      // PT_GNU_SFRAME: nothing reads it (readelf says "no debugging data").
      // An empty section that a segment or a link would read is still
      // SFRAME-HDR-002 (gas 2.45's empty .sframe in crt objects broke mold).
      if (data.empty() && a_.elf_type != ET_REL &&
          std::none_of(a_.segments.begin(), a_.segments.end(), [](const input::Segment& p) { return p.type == kPtGnuSframe; })) {
        f_.note("an empty " + t_.section->name + " and no PT_GNU_SFRAME: no SFrame (what ld --discard-sframe leaves)");
        return std::nullopt;
      }
      t_.relocatable = a_.elf_type == ET_REL;
      t_.addr = t_.relocatable ? 0 : t_.section->addr;
    } else {
      return std::nullopt;
    }
    t_.artifact = &a_;
    if (!read_header(data)) return std::move(t_);
    t_.usable = true;
    read_fdes();
    read_fres();
    resolve_starts();
    return std::move(t_);
  }

 private:
  bool read_header(std::span<const uint8_t> data) {
    if (data.size() < 2 || !((data[0] == 0xe2 && data[1] == 0xde) || (data[0] == 0xde && data[1] == 0xe2))) {
      f_.at_section(rules::HDR_002, 0, data.size() < 2 ? "section of " + std::to_string(data.size()) + " bytes"
                                                       : "starts with " + hex_bytes(data.subspan(0, 2)));
      return false;
    }
    const Endian endian = data[0] == 0xe2 ? Endian::Little : Endian::Big;
    t_.bytes = ByteReader(data, endian);
    if (data.size() < kHeaderSize) {
      f_.at_section(rules::HDR_001, 0, std::to_string(data.size()) + " bytes, the header needs 28");
      return false;
    }
    t_.header = decode_header(t_.bytes);
    const Header& h = t_.header;
    if (data.size() < h.end()) {
      f_.at_section(rules::HDR_001, 7, std::to_string(data.size()) + " bytes, the header with " +
                                           std::to_string(h.auxhdr_len) + " bytes of auxiliary header needs " +
                                           std::to_string(h.end()));
      return false;
    }
    if (!fde_size(h.version)) {
      f_.at_section(rules::HDR_004, 2, "version " + std::to_string(h.version) + " (known: 1, 2, 3)");
      return false;
    }
    return true;
  }

  void read_fdes() {
    const Header& h = t_.header;
    const uint64_t size = t_.bytes.size(), stride = fde_size(h.version);
    const uint64_t begin = h.end() + h.fdeoff, end = begin + uint64_t(h.num_fdes) * stride;  // no overflow in u64
    if (h.fdeoff > h.freoff || end > h.end() + h.freoff || end > size) {
      f_.at_section(rules::HDR_010, 20,
                    "fdeoff " + std::to_string(h.fdeoff) + ", " + std::to_string(h.num_fdes) + " FDEs of " +
                        std::to_string(stride) + " bytes end at " + std::to_string(end) + "; freoff " +
                        std::to_string(h.freoff) + ", section " + std::to_string(size) + " bytes");
      return;  // the records cannot be told apart from the FREs: reading them would report noise
    }
    if (end < h.end() + h.freoff)  // legal, never produced; libsframe 2.40 then decodes the wrong bytes
      f_.at_section(rules::HDR_010, 20,
                    "the FDE array ends at " + std::to_string(end) + ", " + std::to_string(h.end() + h.freoff - end) +
                        " bytes before the FREs at freoff " + std::to_string(h.freoff) +
                        ": libsframe 2.40 ignores freoff and reads the FREs right after the FDEs",
                    f_.consumer() & kLibsframe ? Severity::Error : Severity::Warning, kLibsframe);
    const uint64_t readable = std::min<uint64_t>(h.num_fdes, (size - begin) / stride);
    t_.fdes.reserve(static_cast<size_t>(readable));
    const ByteReader& r = t_.bytes;
    for (uint64_t i = 0; i < readable; ++i) {
      Fde d;
      d.at = begin + i * stride;
      if (h.version == 3) {
        d.start = r.at<int64_t>(d.at);
        d.size = r.at<uint32_t>(d.at + 8);
        d.fre_off = r.at<uint32_t>(d.at + 12);
      } else {
        d.start = r.at<int32_t>(d.at);
        d.size = r.at<uint32_t>(d.at + 4);
        d.fre_off = r.at<uint32_t>(d.at + 8);
        d.num_fres = r.at<uint32_t>(d.at + 12);
        d.info = r.at<uint8_t>(d.at + 16);
        if (h.version == 2) {
          d.rep_size = r.at<uint8_t>(d.at + 17);
          d.padding = r.at<uint16_t>(d.at + 18);
        }
      }
      t_.fdes.push_back(d);
    }
  }

  // The FRE sub-section as far as it lies in the section.
  uint64_t fre_end() const {
    return std::min<uint64_t>(t_.fre_base() + t_.header.fre_len, t_.bytes.size());
  }

  void read_fres() {
    const Header& h = t_.header;
    const uint64_t base = t_.fre_base(), declared_end = base + h.fre_len;
    if (declared_end > t_.bytes.size())
      f_.at_section(rules::HDR_011, 16,
                    "FREs from " + std::to_string(base) + " for " + std::to_string(h.fre_len) + " bytes, the section has " +
                        std::to_string(t_.bytes.size()));
    const uint64_t end = fre_end();
    const size_t n = t_.fdes.size();
    t_.blocks.resize(n);
    // FRE k and k - 1 of the block being read, one pair per thread (not
    // per block: a Fre is 80 bytes that would be zeroed 20,000 times).
    Fre scratch[2];
    size_t from = 0;
    if (concurrent_ && n >= kConcurrentFdes) {
      // The second thread also runs `beside` (the symbols, about a fifth of
      // the FREs' time): it takes the last 40% of the FDEs.
      const size_t half = n - n * 2 / 5;
      beside_ran_ = true;
      size_t stopped = n, other_count = 0;
      run_beside(
          [&] {
            if (beside_) beside_();
            Fre scratch[2];
            for (size_t i = half; i < n; ++i) {
              if (!read_block<Reporting::Quiet>(i, base, end, scratch)) {
                stopped = i;
                return;
              }
              other_count += t_.blocks[i].count;
            }
          },
          [&] {
            for (size_t i = 0; i < half; ++i) {
              read_block<Reporting::Report>(i, base, end, scratch);
              t_.fre_count += t_.blocks[i].count;
            }
          });
      t_.fre_count += other_count;
      from = stopped;
    }
    for (size_t i = from; i < n; ++i) {
      read_block<Reporting::Report>(i, base, end, scratch);
      t_.fre_count += t_.blocks[i].count;
    }
  }

  // False when reading quietly reached a finding (the block is incomplete).
  template <Reporting mode>
  bool read_block(size_t i, uint64_t base, uint64_t end, Fre (&scratch)[2]) {
    constexpr bool quiet = mode == Reporting::Quiet;
    Fde& d = t_.fdes[i];
    FreRange& b = t_.blocks[i];
    uint64_t at = base + d.fre_off;
    b.begin = at;
    b.end = at;
    const ByteReader& r = t_.bytes;
    if (t_.header.version == 3) {
      if (at + kV3AttrSize > end) {
        if (quiet) return false;
        f_.at_fde(rules::FDE_001, i, d.at + 12, "attribute record at FRE offset " + std::to_string(d.fre_off) +
                                                     " is outside the " + std::to_string(t_.header.fre_len) +
                                                     "-byte FRE sub-section");
        return true;
      }
      d.num_fres = r.at<uint16_t>(at);
      d.info = r.at<uint8_t>(at + 2);
      d.info2 = r.at<uint8_t>(at + 3);
      d.rep_size = r.at<uint8_t>(at + 4);
      at += kV3AttrSize;
      b.end = at;
    }
    b.first = at;
    const uint32_t addr_size = start_size(d.fre_type());
    if (!addr_size) {
      if (quiet) return false;
      f_.at_fde(rules::FDE_002, i, d.at, "FRE type " + std::to_string(d.fre_type()) + " (info " + hex(d.info) + ")");
      return true;
    }
    if (at > end && d.num_fres) {
      if (quiet) return false;
      f_.at_fde(rules::FDE_011, i, d.at, "FREs at offset " + std::to_string(d.fre_off) + " of a " +
                                              std::to_string(t_.header.fre_len) + "-byte FRE sub-section");
      return true;
    }
    return read_fre_list<mode>(i, at, end, addr_size, b, scratch);
  }

  // FDE i's FREs from `at`: each checked for bounds and encoding (an error
  // ends the block), then decoded once and screened against the FRE rules.
  // Counts are kept in locals and stored at the end: the loop runs for
  // every FRE of the section.
  template <Reporting mode>
  bool read_fre_list(size_t i, uint64_t at, uint64_t end, uint32_t addr_size, FreRange& b, Fre (&fres)[2]) {
    constexpr bool quiet = mode == Reporting::Quiet;
    const ByteReader r = t_.bytes;  // a copy, like the count: kept in registers
    const uint32_t n = t_.fdes[i].num_fres;
    FreRules rules(t_.header, t_.fdes[i], f_.consumer());
    bool findings = false;
    uint32_t k = 0;
    enum class Ended { Complete, Broken, Stopped };
    const Ended ended = [&] {
      for (; k < n; ++k) {
        if (at + addr_size + 1 > end) {
          if (quiet) return Ended::Stopped;
          overrun(i, k, at, end);
          return Ended::Broken;
        }
        const uint8_t info = r.at<uint8_t>(at + addr_size);
        const uint32_t ws = word_size(info >> 5 & 3);
        if (!ws) {
          if (quiet) return Ended::Stopped;
          f_.at_fre(rules::FRE_002, i, k, at + addr_size, "info " + hex(info) + ": size code 3");
          return Ended::Broken;
        }
        const uint64_t next = at + addr_size + 1 + uint64_t(info >> 1 & 0xf) * ws;
        if (next > end) {
          if (quiet) return Ended::Stopped;
          overrun(i, k, at, end);
          return Ended::Broken;
        }
        Fre& fre = fres[k & 1];
        decode_fre(r, at, addr_size, fre);  // in bounds: just checked
        findings |= rules.screen(k, fre, k ? &fres[(k - 1) & 1] : nullptr);
        at = next;
      }
      return Ended::Complete;
    }();
    b.count = k;
    b.end = at;
    b.complete = ended == Ended::Complete;
    b.findings = findings;
    return ended != Ended::Stopped;
  }

  void overrun(size_t i, uint32_t k, uint64_t at, uint64_t end) {
    const bool first = k == 0 && t_.header.version != 3;
    const Rule& rule = first ? rules::FDE_011 : rules::FRE_001;
    const std::string what = "FRE " + std::to_string(k) + " of " + std::to_string(t_.fdes[i].num_fres) + " at " +
                             std::to_string(at) + " runs past the FRE sub-section's end at " + std::to_string(end);
    if (first)
      f_.at_fde(rule, i, t_.fdes[i].at, what);
    else
      f_.at_fre(rule, i, k, at, what);
  }

  void resolve_starts() {
    t_.starts.resize(t_.fdes.size());
    if (t_.relocatable) {
      resolve_relocated();
      return;
    }
    for (size_t i = 0; i < t_.fdes.size(); ++i) {
      const Fde& d = t_.fdes[i];
      // v3 and the PCREL flag: from the field; v1/v2 before 2.45: from the section.
      const uint64_t from = t_.addr + (t_.pc_relative() ? d.at : 0);
      t_.starts[i] = {from + static_cast<uint64_t>(d.start), 0, true};
    }
  }

  // ET_REL: FDE i's start field is patched by one PC-relative relocation
  // against the code (ld uses the i-th relocation for the i-th FDE).
  void resolve_relocated() {
    const auto sets = input::relocations_for(a_, *t_.section);
    // gas never sets FDE_SORTED in an object; ld -r does, and keeps the
    // relocations of its inputs where they were (SFRAME-ELF-004).
    const Rule& rule = t_.header.flags & kFdeSorted ? rules::ELF_004 : rules::ELF_003;
    const std::string by = t_.header.flags & kFdeSorted ? " (ld -r output)" : "";
    // The relocation types of the file's machine (sframe_abi.h); a machine
    // without an SFrame ABI has none to expect (HDR-006 reports the ABI).
    const auto abis = abis_of_machine(a_.machine);
    const std::optional<StartRelocations> types =
        abis.empty() ? std::nullopt : std::optional<StartRelocations>(abis.front().relocations);
    const uint32_t want = types ? types->for_version(t_.header.version) : 0;
    if (sets.empty()) {
      if (!t_.fdes.empty())
        f_.at_section(rule, std::nullopt, "no .rela.sframe: no FDE start is relocated");
      return;
    }
    const auto& rs = sets.front();
    std::vector<uint32_t> per_fde(t_.fdes.size(), 0);
    const uint64_t first = t_.header.end() + t_.header.fdeoff, stride = fde_size(t_.header.version);
    auto fde_at = [&](uint64_t offset) -> std::optional<size_t> {
      if (offset < first || (offset - first) % stride || (offset - first) / stride >= t_.fdes.size()) return std::nullopt;
      return static_cast<size_t>((offset - first) / stride);
    };
    for (const auto& r : rs.relocations) {
      // ld -r leaves R_*_NONE with no symbol (r_info 0) where it dropped a
      // function's FDE; ld skips those when it reads the relocations (PR
      // ld/33401).
      if (types && r.type == types->none && r.symbol == 0) continue;
      const std::optional<size_t> i = fde_at(r.offset);
      if (!i) {
        f_.at_section(rule, r.offset, "relocation at .sframe+" + hex(r.offset) + " is not on an FDE start field" + by);
        continue;
      }
      if (++per_fde[*i] > 1) {
        f_.at_fde(rule, *i, r.offset, "a second relocation for this FDE's start");
        t_.starts[*i].resolved = false;
        continue;
      }
      if (types && r.type != want)
        f_.at_fde(rule, *i, r.offset, "relocation type " + std::to_string(r.type) + ", not " + std::to_string(want));
      if (t_.fdes[*i].start != 0)
        f_.at_fde(rule, *i, r.offset, "start field holds " + std::to_string(t_.fdes[*i].start) + " under its relocation");
      const auto sym = rs.symtab ? input::elf_symbol(a_, *rs.symtab, r.symbol) : std::nullopt;
      const input::Section* target = sym ? a_.section_at(sym->section) : nullptr;
      if (!sym || !target || !(target->flags & SHF_EXECINSTR)) {
        f_.at_fde(rule, *i, r.offset, "relocation target is not in an executable section");
        continue;
      }
      t_.starts[*i] = {sym->value + static_cast<uint64_t>(r.addend), target->index, true};
    }
    for (size_t i = 0; i < per_fde.size(); ++i)
      if (!per_fde[i]) f_.at_fde(rule, i, t_.fdes[i].at, "no relocation for this FDE's start" + by);
  }

  const input::Artifact& a_;
  SframeFindings& f_;
  const bool concurrent_;
  const std::function<void()>& beside_;
  bool beside_ran_ = false;
  SframeTable t_;
};

}  // namespace

std::optional<SframeTable> read_sframe(const input::Artifact& a, SframeFindings& f, bool concurrent,
                                       const std::function<void()>& beside) {
  Reader reader(a, f, concurrent, beside);
  auto table = reader.run();
  if (beside && table && !reader.ran_beside()) beside();
  return table;
}

FreCursor::FreCursor(const SframeTable& t, size_t fde)
    : r_(t.bytes), addr_size_(start_size(t.fdes[fde].fre_type())), at_(t.blocks[fde].first), count_(t.blocks[fde].count) {
  if (!done()) decode();
}

void FreCursor::decode() { at_ = decode_fre(r_, at_, addr_size_, fre_); }

void FreCursor::next() {
  if (++k_ < count_) decode();
}

Fre SframeTable::fre(size_t i, size_t k) const {
  FreCursor c(*this, i);
  while (c.index() < k && !c.done()) c.next();
  return *c;
}

}  // namespace elfmeta::sframe
