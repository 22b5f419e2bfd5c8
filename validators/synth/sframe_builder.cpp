#include "synth/sframe_builder.h"

#include <elf.h>

#include <algorithm>
#include <string>

#include "synth/elf_writer.h"

namespace elfmeta::synth {
namespace {

using namespace sframe;

class Out {
 public:
  explicit Out(Endian e) : swap_(e != host_endian()) {}
  template <typename T>
  void put(T v) {
    v = byteswap_if(v, swap_);
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof v);
  }
  template <typename T>
  void put_at(size_t at, T v) {
    v = byteswap_if(v, swap_);
    std::memcpy(bytes.data() + at, &v, sizeof v);
  }
  std::vector<uint8_t> bytes;

 private:
  bool swap_;
};

uint8_t smallest_fre_type(const SframeFdePlan& d) {
  const uint64_t reach = d.pc_type == kPcMask ? std::max<uint64_t>(d.rep_size, 1) : d.size;
  return reach < 256 ? kAddr1 : reach < 65536 ? kAddr2 : kAddr4;
}

// gas's choice of word size: from 2.46 (version 3) the whole signed range of
// a size, FLEX control words (the first of each pair, or a lone 0) unsigned;
// before, -127..127 and -32767..32767.
uint8_t smallest_size_code(const std::vector<int32_t>& words, uint8_t version, bool flex) {
  uint8_t code = 0;
  size_t next_control = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    const int64_t w = words[i];
    uint8_t need;
    if (flex && i == next_control) {
      next_control = i + (w == 0 && i > 0 ? 1 : 2);
      need = (w >= 0 && w <= 0xff) ? 0 : (w >= 0 && w <= 0xffff) ? 1 : 2;
    } else if (version >= 3) {
      need = w == int8_t(w) ? 0 : w == int16_t(w) ? 1 : 2;
    } else {
      need = (w >= -127 && w <= 127) ? 0 : (w >= -32767 && w <= 32767) ? 1 : 2;
    }
    code = std::max(code, need);
  }
  return code;
}

uint8_t default_flags(const SframePlan& p, SframeFile kind) {
  uint8_t flags = kind == SframeFile::Object ? 0 : kFdeSorted;
  if (p.version == 3) flags |= kFuncStartPcrel;
  return flags;
}

void put_fre(Out& o, const SframeFrePlan& r, uint8_t fre_type, uint8_t version, bool flex) {
  const uint32_t n = start_size(fre_type) ? start_size(fre_type) : 4;
  if (n == 1) o.put(static_cast<uint8_t>(r.start));
  else if (n == 2) o.put(static_cast<uint16_t>(r.start));
  else o.put(r.start);
  const uint8_t code = r.size_code.value_or(smallest_size_code(r.words, version, flex));
  const uint8_t info = r.info.value_or(static_cast<uint8_t>(uint8_t(r.base_sp) | (r.words.size() & 0xf) << 1 |
                                                            (code & 3) << 5 | uint8_t(r.mangled_ra) << 7));
  o.put(info);
  const uint32_t ws = word_size(code) ? word_size(code) : 1;
  for (int32_t w : r.words) {
    if (ws == 1) o.put(static_cast<int8_t>(w));
    else if (ws == 2) o.put(static_cast<int16_t>(w));
    else o.put(w);
  }
}

void uleb(std::vector<uint8_t>& out, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    out.push_back(static_cast<uint8_t>(b | (v ? 0x80 : 0)));
  } while (v);
}

void put32(std::vector<uint8_t>& out, uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<uint8_t>(v >> (8 * k)));
}

void set32(std::vector<uint8_t>& out, size_t at, uint32_t v) {
  for (int k = 0; k < 4; ++k) out[at + k] = static_cast<uint8_t>(v >> (8 * k));
}

// One CIE (CFA rsp+8, RA at cfa-8, pc-relative FDE addresses) and an FDE per
// PC-increment function whose rows are its FREs.
std::vector<uint8_t> eh_frame_of(const SframePlan& p, uint64_t eh_addr) {
  std::vector<uint8_t> out;
  const std::string augmentation = p.signal_cie ? "zRS" : "zR";
  put32(out, 0);  // length, set below
  put32(out, 0);  // CIE id
  out.push_back(1);
  out.insert(out.end(), augmentation.begin(), augmentation.end());
  out.push_back(0);
  uleb(out, 1);        // code alignment
  out.push_back(0x78);  // data alignment -8
  uleb(out, 16);       // return address column
  uleb(out, 1);
  out.push_back(0x1b);  // FDE addresses: pcrel sdata4
  out.insert(out.end(), {0x0c, 7, 8, 0x90, 1});  // def_cfa rsp+8; offset rip at cfa-8
  while ((out.size()) % 8) out.push_back(0);
  set32(out, 0, static_cast<uint32_t>(out.size() - 4));
  for (const auto& d : p.fdes) {
    if (d.pc_type != kPcInc) continue;
    const size_t fde = out.size();
    put32(out, 0);
    put32(out, static_cast<uint32_t>(out.size()));  // back to the CIE at 0
    const uint64_t field = eh_addr + out.size();
    put32(out, static_cast<uint32_t>(p.text_addr + d.offset - field));
    put32(out, d.size);
    uleb(out, 0);
    uint32_t at = 0;
    for (const auto& r : d.fres) {
      if (r.start > at) {
        out.push_back(0x04);  // advance_loc4
        put32(out, r.start - at);
        at = r.start;
      }
      if (r.words.empty()) {
        out.insert(out.end(), {0x07, 16});  // undefined rip
        continue;
      }
      if (d.v3_kind == kFlex) {  // (control, offset) pairs: CFA = reg + offset; RA, FP at *(CFA + offset)
        out.insert(out.end(), {0xc0 | 16, 0x0c});
        uleb(out, static_cast<uint32_t>(r.words[0]) >> 3);
        uleb(out, static_cast<uint64_t>(r.words.size() > 1 ? r.words[1] : 0));
        size_t w = 2;
        for (int reg : {16, 6}) {
          if (w >= r.words.size()) break;
          if (r.words[w] == 0) {
            ++w;
            continue;
          }
          if (w + 1 < r.words.size() && r.words[w + 1] < 0) {
            out.push_back(static_cast<uint8_t>(0x80 | reg));
            uleb(out, static_cast<uint64_t>(-r.words[w + 1] / 8));
          }
          w += 2;
        }
        continue;
      }
      out.push_back(0xc0 | 16);  // restore rip: at cfa-8 again after an outermost row
      out.push_back(0x0c);       // def_cfa
      uleb(out, r.base_sp ? 7 : 6);
      uleb(out, static_cast<uint64_t>(r.words[0]));
      if (r.words.size() > 1 && r.words[1] < 0) {
        out.push_back(0x80 | 6);  // offset rbp
        uleb(out, static_cast<uint64_t>(-r.words[1] / 8));
      } else {
        out.push_back(0xc0 | 6);  // restore rbp
      }
    }
    while ((out.size() - fde) % 8) out.push_back(0);
    set32(out, fde, static_cast<uint32_t>(out.size() - fde - 4));
  }
  put32(out, 0);
  return out;
}

}  // namespace

SframeBytes encode_sframe(const SframePlan& p, SframeFile kind) {
  SframeBytes out;
  const bool v3 = p.version == 3;
  const uint32_t stride = fde_size(p.version) ? fde_size(p.version) : 20;
  // The FRE sub-section first: its offsets go into the FDEs.
  Out fres(p.endian);
  std::vector<uint32_t> fre_off;
  std::vector<uint8_t> infos;
  uint32_t total_fres = 0;
  for (const auto& d : p.fdes) {
    const uint8_t fre_type = d.fre_type.value_or(smallest_fre_type(d));
    const uint8_t info = d.info.value_or(static_cast<uint8_t>((fre_type & 0xf) | (d.pc_type & 1) << 4 |
                                                              uint8_t(d.pauth_key_b) << 5 | uint8_t(v3 && d.signal) << 7));
    infos.push_back(info);
    fre_off.push_back(static_cast<uint32_t>(fres.bytes.size()));
    if (v3) {
      fres.put(static_cast<uint16_t>(d.num_fres.value_or(static_cast<uint32_t>(d.fres.size()))));
      fres.put(info);
      fres.put(d.info2.value_or(d.v3_kind));
      fres.put(d.rep_size);
    }
    for (const auto& r : d.fres) put_fre(fres, r, fre_type, p.version, v3 && d.v3_kind == kFlex);
    total_fres += static_cast<uint32_t>(d.fres.size());
  }
  Out o(p.endian);
  o.put(kMagic);
  o.put(p.version);
  o.put(p.flags.value_or(default_flags(p, kind)));
  o.put(p.abi);
  o.put(p.fixed_fp);
  o.put(p.fixed_ra.value_or(static_cast<int8_t>(p.abi == kAmd64Le ? -8 : 0)));
  o.put(p.auxhdr_len);
  const uint32_t n = static_cast<uint32_t>(p.fdes.size());
  o.put(p.num_fdes.value_or(n));
  o.put(p.num_fres.value_or(total_fres));
  o.put(p.fre_len.value_or(static_cast<uint32_t>(fres.bytes.size())));
  o.put(p.fdeoff.value_or(0));
  o.put(p.freoff.value_or(n * stride));
  o.bytes.resize(o.bytes.size() + p.auxhdr_len, 0);
  const uint64_t fdes_at = o.bytes.size() + p.fdeoff.value_or(0);
  o.bytes.resize(fdes_at, 0);
  const uint64_t section_addr = kind == SframeFile::Linked ? p.sframe_addr : 0;
  const uint64_t text_addr = p.text_addr;
  // The flag decides in version 3 too (the spec); every v3 producer sets it.
  const bool pcrel = p.version >= 2 && (p.flags.value_or(default_flags(p, kind)) & kFuncStartPcrel);
  for (size_t i = 0; i < p.fdes.size(); ++i) {
    const auto& d = p.fdes[i];
    const uint64_t at = o.bytes.size();
    out.fde_at.push_back(at);
    int64_t start = 0;
    // Unsigned: a mutated offset may put the function anywhere, and the
    // field holds the difference modulo 2^64 as a linker would write it.
    if (kind != SframeFile::Object)
      start = static_cast<int64_t>((text_addr + d.offset) - (section_addr + (pcrel ? at : 0)));
    if (v3) o.put(start);
    else o.put(static_cast<int32_t>(start));
    o.put(d.size);
    const uint32_t off = d.fre_off.value_or(fre_off[i]);
    o.put(off);
    if (!v3) {
      o.put(d.num_fres.value_or(static_cast<uint32_t>(d.fres.size())));
      o.put(infos[i]);
      if (p.version == 2) {
        o.put(d.rep_size);
        o.put(d.padding);
      }
    }
  }
  const uint64_t fre_base = uint64_t(kHeaderSize) + p.auxhdr_len + p.freoff.value_or(n * stride);
  if (o.bytes.size() < fre_base) o.bytes.resize(fre_base, 0);
  for (size_t i = 0; i < p.fdes.size(); ++i) out.block_at.push_back(fre_base + fre_off[i]);
  o.bytes.resize(fre_base);
  o.bytes.insert(o.bytes.end(), fres.bytes.begin(), fres.bytes.end());
  o.bytes.insert(o.bytes.end(), p.tail.begin(), p.tail.end());
  out.bytes = std::move(o.bytes);
  return out;
}

std::vector<uint8_t> sframe_elf(const SframePlan& p, SframeFile kind) {
  const uint16_t machine = p.abi == kAmd64Le ? EM_X86_64 : p.abi == kS390xBe ? EM_S390 : EM_AARCH64;
  const bool linked = kind == SframeFile::Linked;
  ElfWriter w(linked ? ET_DYN : ET_REL, machine);
  uint64_t text_size = 16;
  for (const auto& d : p.fdes) text_size = std::max<uint64_t>(text_size, d.offset + d.size);
  ElfSectionSpec text{p.code_section, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, linked ? p.text_addr : 0, 16, 0,
                      std::vector<uint8_t>(text_size, 0xcc)};
  const uint32_t text_index = w.add_section(std::move(text));
  const SframeBytes s = encode_sframe(p, kind);
  const uint32_t sframe_index =
      w.add_section({".sframe", SHT_PROGBITS, SHF_ALLOC, linked ? p.sframe_addr : 0, 8, 0, s.bytes});
  for (size_t i = 0; i < p.fdes.size(); ++i)
    w.add_symbol("fn" + std::to_string(i), (linked ? p.text_addr : 0) + p.fdes[i].offset, p.fdes[i].size, STT_FUNC,
                 STB_GLOBAL, text_index);
  if (kind == SframeFile::Object) {
    const bool v3 = p.version == 3, arm = machine == EM_AARCH64;
    const uint32_t type = arm ? (v3 ? 260 : 261) : (v3 ? 24 : 2);  // PREL64/PREL32, PC64/PC32
    const uint32_t sym = w.section_symbol(text_index);
    for (size_t i = 0; i < p.fdes.size(); ++i)
      w.add_rela(sframe_index, s.fde_at[i], type, sym, static_cast<int64_t>(p.fdes[i].offset));
  } else if (linked) {
    if (!p.dynamic_relocations.empty()) {
      std::vector<uint8_t> rela;
      for (uint64_t off : p.dynamic_relocations) {
        Elf64_Rela r{};
        r.r_offset = p.sframe_addr + off;
        r.r_info = ELF64_R_INFO(0, 8);  // R_X86_64_RELATIVE
        const auto* b = reinterpret_cast<const uint8_t*>(&r);
        rela.insert(rela.end(), b, b + sizeof r);
      }
      w.add_section({".rela.dyn", SHT_RELA, SHF_ALLOC, p.sframe_addr + 0x4000, 8, sizeof(Elf64_Rela), rela});
    }
    if (p.eh_frame && p.abi == kAmd64Le) {
      const uint64_t eh_addr = p.sframe_addr + 0x2000;
      w.add_section({".eh_frame", SHT_PROGBITS, SHF_ALLOC, eh_addr, 8, 0, eh_frame_of(p, eh_addr)});
    }
    w.add_segment(PT_LOAD, PF_R | PF_X, text_index);
    w.add_segment(PT_LOAD, PF_R, sframe_index);
    w.add_segment(0x6474e554, PF_R, sframe_index);  // PT_GNU_SFRAME
  }
  return w.write();
}

namespace {
SframeFrePlan row(uint32_t start, bool base_sp, std::vector<int32_t> words) {
  SframeFrePlan r;
  r.start = start;
  r.base_sp = base_sp;
  r.words = std::move(words);
  return r;
}
}  // namespace

SframePlan typical_sframe(uint8_t version, uint8_t abi, size_t count) {
  SframePlan p;
  p.version = version;
  p.abi = abi;
  const bool amd64 = abi == kAmd64Le;
  for (size_t i = 0; i < count; ++i) {
    SframeFdePlan d;
    d.offset = i * 32;
    d.size = 24;
    if (amd64)  // push %rbp; mov %rsp,%rbp; ...; pop %rbp
      d.fres = {row(0, true, {8}), row(1, true, {16, -16}), row(4, false, {16, -16}), row(20, true, {8})};
    else  // stp x29, x30, [sp, #-16]!; ...; ldp
      d.fres = {row(0, true, {0}), row(4, true, {16, -8, -16}), row(20, true, {0})};
    p.fdes.push_back(d);
  }
  return p;
}

}  // namespace elfmeta::synth
