#include "fuzz/mutators/sframe_mutator.h"

#include <algorithm>
#include <cstring>

#include "core/byte_reader.h"
#include "sframe/sframe_format.h"
#include "synth/sframe_builder.h"

namespace elfmeta::fuzz {
namespace {

using namespace sframe;
using synth::SframeFdePlan;
using synth::SframeFrePlan;
using synth::SframePlan;

// More records than this are left to byte mutation: decoding stays cheap.
constexpr uint32_t kMaxFdes = 4096, kMaxFres = 65536;

class Decoder {
 public:
  explicit Decoder(std::span<const uint8_t> s) : s_(s) {}

  // The plan that encodes back to these bytes (up to padding the builder
  // does not keep: an auxiliary header's contents, bytes between FRE
  // blocks); nullopt when the records do not fit the section.
  std::optional<SframePlan> run() {
    if (s_.size() < kHeaderSize) return std::nullopt;
    const bool little = s_[0] == 0xe2 && s_[1] == 0xde, big = s_[0] == 0xde && s_[1] == 0xe2;
    if (!little && !big) return std::nullopt;
    r_ = ByteReader(s_, little ? Endian::Little : Endian::Big);
    const Header h = decode_header(r_);
    p_.endian = r_.endian();
    p_.version = h.version;
    p_.flags = h.flags;
    p_.abi = h.abi;
    p_.fixed_fp = h.fixed_fp;
    p_.fixed_ra = h.fixed_ra;
    p_.auxhdr_len = h.auxhdr_len;
    p_.text_addr = 0;  // raw: start fields are addresses from the section
    const uint32_t stride = fde_size(p_.version);
    const uint32_t num_fdes = h.num_fdes, fre_len = h.fre_len, fdeoff = h.fdeoff, freoff = h.freoff;
    const uint64_t end = h.end();
    if (!stride || num_fdes > kMaxFdes || !r_.contains(end + fdeoff, uint64_t(num_fdes) * stride) ||
        !r_.contains(end + freoff, fre_len))
      return std::nullopt;
    if (fdeoff) p_.fdeoff = fdeoff;
    fre_base_ = end + freoff;
    fre_end_ = fre_base_ + fre_len;
    for (uint32_t i = 0; i < num_fdes; ++i)
      if (!read_fde(end + fdeoff + uint64_t(i) * stride)) return std::nullopt;
    p_.tail.assign(s_.begin() + static_cast<ptrdiff_t>(fre_end_), s_.end());
    return p_;
  }

 private:
  bool read_fde(uint64_t at) {
    SframeFdePlan d;
    const bool v3 = p_.version == 3;
    const int64_t start = v3 ? r_.at<int64_t>(at) : r_.at<int32_t>(at);
    const uint64_t o = v3 ? 8 : 4;
    d.size = r_.at<uint32_t>(at + o);
    const uint32_t fre_off = r_.at<uint32_t>(at + o + 4);
    uint32_t num_fres = 0;
    uint8_t info = 0;
    uint64_t fres_at = fre_base_ + fre_off;
    if (v3) {
      if (fres_at + kV3AttrSize > fre_end_) return false;
      num_fres = r_.at<uint16_t>(fres_at);
      info = r_.at<uint8_t>(fres_at + 2);
      d.info2 = r_.at<uint8_t>(fres_at + 3);
      d.v3_kind = *d.info2 & 0x1f;
      d.rep_size = r_.at<uint8_t>(fres_at + 4);
      fres_at += kV3AttrSize;
    } else {
      num_fres = r_.at<uint32_t>(at + o + 8);
      info = r_.at<uint8_t>(at + o + 12);
      if (p_.version == 2) {
        d.rep_size = r_.at<uint8_t>(at + o + 13);
        d.padding = r_.at<uint16_t>(at + o + 14);
      }
    }
    // Start fields become offsets from the (raw) section's address 0, as
    // the builder computes them back.
    const bool pcrel = v3 || (*p_.flags & kFuncStartPcrel);
    d.offset = static_cast<uint64_t>(start) + (pcrel ? at : 0);
    d.pc_type = info >> 4 & 1;
    d.pauth_key_b = info >> 5 & 1;
    d.signal = v3 && (info >> 7 & 1);
    d.fre_type = info & 0xf;
    if (info != built_info(d, v3)) d.info = info;
    if (num_fres > kMaxFres || !start_size(*d.fre_type)) return false;
    d.fres.clear();
    for (uint32_t k = 0; k < num_fres; ++k)
      if (!read_fre(fres_at, *d.fre_type, d)) return false;
    p_.fdes.push_back(std::move(d));
    return true;
  }

  bool read_fre(uint64_t& at, uint8_t fre_type, SframeFdePlan& d) {
    const uint32_t n = start_size(fre_type);
    if (at + n + 1 > fre_end_) return false;
    SframeFrePlan f;
    f.start = n == 1 ? r_.at<uint8_t>(at) : n == 2 ? r_.at<uint16_t>(at) : r_.at<uint32_t>(at);
    const uint8_t info = r_.at<uint8_t>(at + n);
    at += n + 1;
    const uint8_t code = info >> 5 & 3;
    const uint32_t ws = word_size(code), count = info >> 1 & 0xf;
    if (!ws || at + uint64_t(ws) * count > fre_end_) return false;
    f.base_sp = info & 1;
    f.mangled_ra = info >> 7 & 1;
    f.size_code = code;
    f.words.clear();
    for (uint32_t w = 0; w < count; ++w, at += ws)
      f.words.push_back(ws == 1 ? r_.at<int8_t>(at) : ws == 2 ? r_.at<int16_t>(at) : r_.at<int32_t>(at));
    d.fres.push_back(std::move(f));
    return true;
  }

  static uint8_t built_info(const SframeFdePlan& d, bool v3) {
    return static_cast<uint8_t>((*d.fre_type & 0xf) | (d.pc_type & 1) << 4 | uint8_t(d.pauth_key_b) << 5 |
                                uint8_t(v3 && d.signal) << 7);
  }

  std::span<const uint8_t> s_;
  ByteReader r_;
  SframePlan p_;
  uint64_t fre_base_ = 0, fre_end_ = 0;
};

std::optional<SframePlan> decode(std::span<const uint8_t> section) { return Decoder(section).run(); }
std::vector<uint8_t> encode(const SframePlan& p) { return synth::encode_sframe(p, synth::SframeFile::Raw).bytes; }

constexpr uint32_t kCounts[] = {0, 1, 2, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0xffffffff};
constexpr int32_t kWords[] = {0, 1, -1, 8, -8, 16, -16, 127, 128, -128, -129, 32767, 32768, -32768, -32769,
                              0x7fffffff, int32_t(0x80000000)};

class SframeMutator {
 public:
  SframeMutator(SframePlan& p, Rng& rng) : p_(p), rng_(rng) {}

  bool run() {
    for (int attempt = 0; attempt < 8; ++attempt)
      if (apply(pick(rng_, 16))) return true;
    return false;
  }

 private:
  bool apply(uint32_t which) {
    switch (which) {
      case 0: case 1: return change_fde();
      case 2: return add_or_remove_fde();
      case 3: return swap_fdes();
      case 4: case 5: return change_fre_start();
      case 6: case 7: return change_fre_words();
      case 8: return change_fre_info();
      case 9: return add_or_remove_fre();
      case 10: case 11: return change_header();
      case 12: return change_header_counts();
      case 13: return change_version();
      case 14: return flip_byte_order();
      case 15: return change_tail();
    }
    return false;
  }

  SframeFdePlan* any_fde() { return p_.fdes.empty() ? nullptr : &p_.fdes[pick(rng_, p_.fdes.size())]; }
  SframeFrePlan* any_fre(SframeFdePlan& d) { return d.fres.empty() ? nullptr : &d.fres[pick(rng_, d.fres.size())]; }

  bool change_fde() {
    SframeFdePlan* d = any_fde();
    if (!d) return false;
    switch (pick(rng_, 9)) {
      case 0: {  // start: overlapping or behind a neighbour, far away
        const SframeFdePlan& other = p_.fdes[pick(rng_, p_.fdes.size())];
        d->offset = pick_of(rng_, {other.offset, other.offset + other.size, other.offset + 1, d->offset - 1,
                                   d->offset + 0x7fffffff, uint64_t(0)});
        break;
      }
      case 1: d->size = pick_of(rng_, {0u, 1u, d->fres.empty() ? 0u : d->fres.back().start, d->size + 1,
                                       d->size - 1, 0xffffffffu, 0x10000u, 0x100u}); break;
      case 2: d->num_fres = pick_of(rng_, kCounts); break;
      case 3: d->fre_type = static_cast<uint8_t>(pick_of(rng_, {0, 1, 2, 3, 15})); d->info.reset(); break;
      case 4: d->pc_type ^= 1; d->info.reset(); break;
      case 5: d->info = static_cast<uint8_t>(rng_()); break;
      case 6: d->rep_size = static_cast<uint8_t>(pick_of(rng_, {0, 1, 4, 16, 255})); break;
      case 7:
        if (p_.version == 3) d->info2 = static_cast<uint8_t>(pick_of(rng_, {0, 1, 2, 31, 0x20, 0xff}));
        else d->padding = static_cast<uint16_t>(pick_of(rng_, {1, 0xffff}));
        break;
      default: d->fre_off = pick_of(rng_, {0u, 1u, 0xffffffffu, d->fre_off.value_or(0) + 1}); break;
    }
    if (chance(rng_, 4)) d->signal = !d->signal, d->pauth_key_b = !d->pauth_key_b;
    return true;
  }

  bool add_or_remove_fde() {
    if (!p_.fdes.empty() && chance(rng_, 2)) {
      p_.fdes.erase(p_.fdes.begin() + pick(rng_, p_.fdes.size()));
    } else if (!p_.fdes.empty() && chance(rng_, 2)) {  // a duplicate: same start, or right after
      const size_t i = pick(rng_, p_.fdes.size());
      SframeFdePlan d = p_.fdes[i];
      if (chance(rng_, 2)) d.offset += d.size;
      p_.fdes.insert(p_.fdes.begin() + static_cast<ptrdiff_t>(i + 1), std::move(d));
    } else {
      SframeFdePlan d;
      d.offset = p_.fdes.empty() ? 0 : p_.fdes.back().offset + p_.fdes.back().size;
      p_.fdes.push_back(std::move(d));
    }
    return true;
  }
  bool swap_fdes() {
    if (p_.fdes.size() < 2) return false;
    std::swap(p_.fdes[pick(rng_, p_.fdes.size())], p_.fdes[pick(rng_, p_.fdes.size())]);
    return true;
  }

  // FRE start offsets out of order, equal, at or past the function's end,
  // too wide for the FRE type.
  bool change_fre_start() {
    SframeFdePlan* d = any_fde();
    if (!d || d->fres.empty()) return false;
    const size_t k = pick(rng_, d->fres.size());
    uint32_t& start = d->fres[k].start;
    switch (pick(rng_, 5)) {
      case 0: if (d->fres.size() > 1) std::swap(start, d->fres[pick(rng_, d->fres.size())].start); break;
      case 1: start = k ? d->fres[k - 1].start : 0; break;
      case 2: start = pick_of(rng_, {d->size, d->size - 1, d->size + 1}); break;
      case 3: start = pick_of(rng_, {0xffu, 0x100u, 0xffffu, 0x10000u, 0xffffffffu}); break;
      default: start += chance(rng_, 2) ? 1 : uint32_t(-1);
    }
    return true;
  }

  // Offset counts (none, CFA only, too many for the ABI) and values that
  // need a wider size than the FRE says.
  bool change_fre_words() {
    SframeFdePlan* d = any_fde();
    SframeFrePlan* f = d ? any_fre(*d) : nullptr;
    if (!f) return false;
    switch (pick(rng_, 4)) {
      case 0: f->words.resize(pick_of(rng_, {0u, 1u, 2u, 3u, 4u, 5u, 15u}), -8); break;
      case 1: if (!f->words.empty()) f->words[pick(rng_, f->words.size())] = pick_of(rng_, kWords); break;
      case 2: f->size_code = static_cast<uint8_t>(pick(rng_, 4)); break;
      default: f->size_code.reset(); if (!f->words.empty()) f->words[0] = pick_of(rng_, kWords);
    }
    f->info.reset();
    return true;
  }
  bool change_fre_info() {
    SframeFdePlan* d = any_fde();
    SframeFrePlan* f = d ? any_fre(*d) : nullptr;
    if (!f) return false;
    switch (pick(rng_, 3)) {
      case 0: f->base_sp = !f->base_sp; break;
      case 1: f->mangled_ra = !f->mangled_ra; break;
      default: f->info = static_cast<uint8_t>(rng_());
    }
    return true;
  }
  bool add_or_remove_fre() {
    SframeFdePlan* d = any_fde();
    if (!d) return false;
    if (!d->fres.empty() && chance(rng_, 2)) {
      d->fres.erase(d->fres.begin() + pick(rng_, d->fres.size()));
    } else {
      const size_t k = pick(rng_, d->fres.size() + 1);
      SframeFrePlan f = d->fres.empty() ? SframeFrePlan{} : d->fres[std::min(k, d->fres.size() - 1)];
      if (chance(rng_, 2)) f.start += 1 + pick(rng_, 8);
      d->fres.insert(d->fres.begin() + static_cast<ptrdiff_t>(k), std::move(f));
    }
    d->num_fres.reset();
    return true;
  }

  bool change_header() {
    switch (pick(rng_, 6)) {
      case 0: p_.flags = static_cast<uint8_t>(*p_.flags ^ (1u << pick(rng_, 8))); break;
      case 1: p_.abi = static_cast<uint8_t>(pick_of(rng_, {0, 1, 2, 3, 4, 5, 255})); break;
      case 2: p_.fixed_fp = static_cast<int8_t>(pick_of(rng_, {0, 8, -8, -16, 127, -128})); break;
      case 3: p_.fixed_ra = static_cast<int8_t>(pick_of(rng_, {0, 8, -8, -16, 127, -128})); break;
      case 4: p_.auxhdr_len = static_cast<uint8_t>(pick_of(rng_, {0, 1, 4, 8, 255})); break;
      default: p_.fdeoff = pick_of(rng_, {0u, 1u, 4u, 17u}); break;
    }
    return true;
  }
  // Header counts and offsets that disagree with the records: written over
  // the encoded header, since the builder would lay the FREs out at a huge
  // FRE offset rather than claim it.
  bool change_header_counts() {
    const uint32_t n = static_cast<uint32_t>(p_.fdes.size());
    switch (pick(rng_, 4)) {
      case 0: patches_.push_back({8, pick_of(rng_, {n + 1, n ? n - 1 : 0xffffffffu, 0u, 0xffffffffu, 0x10000u})}); break;
      case 1: patches_.push_back({12, pick_of(rng_, kCounts)}); break;
      case 2: patches_.push_back({16, pick_of(rng_, kCounts)}); break;
      default: patches_.push_back({24, pick_of(rng_, {0u, 1u, n * fde_size(p_.version) + 1, 0xffffffffu, 0x7fffffffu})});
    }
    return true;
  }
  bool change_version() {
    p_.version = static_cast<uint8_t>(pick_of(rng_, {0, 1, 2, 3, 4, 255}));
    return true;
  }
  bool flip_byte_order() {
    p_.endian = p_.endian == Endian::Little ? Endian::Big : Endian::Little;
    return true;
  }
  bool change_tail() {
    if (!p_.tail.empty() && chance(rng_, 2)) p_.tail.clear();
    else p_.tail.resize(p_.tail.size() + pick_of(rng_, {1u, 3u, 4u, 16u}), static_cast<uint8_t>(chance(rng_, 2) ? 0 : rng_()));
    return true;
  }

  SframePlan& p_;
  Rng& rng_;

 public:
  struct HeaderPatch {
    uint32_t offset, value;  // a u32 header field, in the section's byte order
  };
  std::vector<HeaderPatch> patches_;
};

std::vector<uint8_t> encode_with(const SframePlan& p, const std::vector<SframeMutator::HeaderPatch>& patches) {
  auto bytes = encode(p);
  const bool swap = p.endian != host_endian();
  for (const auto& h : patches) {
    const uint32_t v = byteswap_if(h.value, swap);
    if (h.offset + 4 <= bytes.size()) std::memcpy(bytes.data() + h.offset, &v, 4);
  }
  return bytes;
}

// Whole FDEs of another section of the same version: their FREs come too.
void graft_fdes(SframePlan& to, const SframePlan& from, Rng& rng) {
  const size_t first = pick(rng, from.fdes.size());
  const size_t count = std::min<size_t>(from.fdes.size() - first, 1 + pick(rng, 4));
  const size_t at = pick(rng, to.fdes.size() + 1);
  to.fdes.insert(to.fdes.begin() + static_cast<ptrdiff_t>(at), from.fdes.begin() + static_cast<ptrdiff_t>(first),
                 from.fdes.begin() + static_cast<ptrdiff_t>(first + count));
}

std::optional<std::vector<uint8_t>> with_mode(uint8_t mode, std::optional<std::vector<uint8_t>> section) {
  if (!section) return std::nullopt;
  section->insert(section->begin(), mode);
  return section;
}

}  // namespace

std::optional<std::vector<uint8_t>> mutate_sframe(std::span<const uint8_t> section, Rng& rng) {
  auto p = decode(section);
  if (!p) return std::nullopt;
  SframeMutator m(*p, rng);
  if (!m.run()) return std::nullopt;
  return encode_with(*p, m.patches_);
}

std::optional<std::vector<uint8_t>> mutate_sframe_with_mode(std::span<const uint8_t> input, Rng& rng) {
  if (input.empty()) return std::nullopt;
  // Sometimes the other mode: the same section raw and in a linked file.
  const uint8_t mode = chance(rng, 16) ? input[0] ^ 1 : input[0];
  return with_mode(mode, mutate_sframe(input.subspan(1), rng));
}

std::optional<std::vector<uint8_t>> cross_over_sframe(std::span<const uint8_t> a, std::span<const uint8_t> b, Rng& rng) {
  auto x = decode(a);
  const auto y = decode(b);
  if (!x || !y || y->fdes.empty() || x->version != y->version) return std::nullopt;
  graft_fdes(*x, *y, rng);
  return encode(*x);
}

std::optional<std::vector<uint8_t>> cross_over_sframe_with_mode(std::span<const uint8_t> a, std::span<const uint8_t> b,
                                                                Rng& rng) {
  if (a.empty() || b.empty()) return std::nullopt;
  return with_mode(a[0], cross_over_sframe(a.subspan(1), b.subspan(1), rng));
}

}  // namespace elfmeta::fuzz
