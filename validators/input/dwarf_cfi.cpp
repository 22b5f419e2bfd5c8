#include "input/dwarf_cfi.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <libelf.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "core/byte_reader.h"
#include "input/compressed_dwarf.h"
#include "input/relocations.h"

namespace elfmeta::input {
namespace {

CfaRule cfa_of(Dwarf_Frame* frame) {
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  CfaRule c;
  if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1) return c;
  if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
    c.simple = true;
    c.reg = ops[0].atom - DW_OP_breg0;
    c.offset = static_cast<int64_t>(ops[0].number);
  } else if (ops[0].atom == DW_OP_bregx) {  // libdw's form for def_cfa
    c.simple = true;
    c.reg = static_cast<int>(ops[0].number);
    c.offset = static_cast<int64_t>(ops[0].number2);
  }
  return c;
}

CfaRule cfa_expression(Dwarf_Frame* frame) {
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  CfaRule c = cfa_of(frame);
  if (c.simple || dwarf_frame_cfa(frame, &ops, &nops) != 0) return c;
  for (size_t k = 0; k < nops && k < 64; ++k) c.expression.emplace_back(ops[k].atom, static_cast<int64_t>(ops[k].number));
  return c;
}

SavedRule saved_of(Dwarf_Frame* frame, int reg) {
  Dwarf_Op mem[3];
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  SavedRule r;
  if (dwarf_frame_register(frame, reg, mem, &ops, &nops) != 0) return r;
  if (nops == 0) {
    r.kind = ops ? SavedRule::kUndefined : SavedRule::kSameValue;
    return r;
  }
  if (nops == 1 && ops[0].atom == DW_OP_regx) {  // libdw's form of DW_CFA_register
    r.kind = SavedRule::kInRegister;
    r.reg = static_cast<int>(ops[0].number);
    return r;
  }
  if (ops[0].atom != DW_OP_call_frame_cfa) return r;
  if (nops == 1) {
    r.kind = SavedRule::kAtCfa;
  } else if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
    r.kind = SavedRule::kAtCfa;
    r.offset = static_cast<int64_t>(ops[1].number);
  } else if (nops == 3 && ops[1].atom == DW_OP_consts && ops[2].atom == DW_OP_plus) {
    r.kind = SavedRule::kAtCfa;
    r.offset = static_cast<int64_t>(ops[1].number);
  }
  return r;
}


// --- Objects: .eh_frame's pc_begin fields through .rela.eh_frame ---

constexpr uint8_t kPcrel = 0x10, kSigned = 0x08, kOmit = 0xff;

// Bytes of a pointer encoding's fixed-size format (DW_EH_PE_*, low four
// bits); 0 for variable sizes (uleb128, sleb128) and unknown formats.
uint32_t format_size(uint8_t encoding, bool elf64) {
  switch (encoding & 0x0f) {
    case 0x00: return elf64 ? 8 : 4;  // absptr
    case 0x02: case 0x0a: return 2;
    case 0x03: case 0x0b: return 4;
    case 0x04: case 0x0c: return 8;
    default: return 0;
  }
}

// The same for an FDE's pc_begin, which this reader relocates only when
// absolute or PC-relative, direct, and of a fixed size.
uint32_t pc_begin_size(uint8_t encoding, bool elf64) {
  if (encoding == kOmit || (encoding & 0x80) || ((encoding & 0x70) != 0 && (encoding & 0x70) != kPcrel)) return 0;
  return format_size(encoding, elf64);
}

// A LEB128 value's end (its bytes are skipped, not needed): nullopt past `end`.
std::optional<uint64_t> skip_leb(const ByteReader& r, uint64_t at, uint64_t end) {
  for (uint64_t p = at; p < end && p < at + 10; ++p)
    if (!(*r.u8(p) & 0x80)) return p + 1;
  return std::nullopt;
}

// The FDE pointer encoding of the CIE at `at` ('R' in its augmentation;
// absptr without one); nullopt when the CIE cannot be read or has an
// augmentation letter this reader does not know before 'R'.
std::optional<uint8_t> fde_encoding(const ByteReader& r, uint64_t at, bool elf64, uint32_t cie_id) {
  const auto length = r.u32(at);
  if (!length || *length == 0 || *length == 0xffffffff) return std::nullopt;  // gas writes 32-bit lengths
  const uint64_t end = at + 4 + *length;
  if (end > r.size() || *length < 5 || *r.u32(at + 4) != cie_id) return std::nullopt;
  const uint8_t version = *r.u8(at + 8);
  uint64_t p = at + 9;
  std::string_view aug;
  {
    const auto s = r.cstr(p);
    if (!s || p + s->size() + 1 > end) return std::nullopt;
    aug = *s;
    p += s->size() + 1;
  }
  if (aug.find("eh") != std::string_view::npos) p += elf64 ? 8 : 4;
  if (version == 4) p += 2;  // address_size, segment_selector_size (.debug_frame of DWARF 4 and 5)
  for (int field = 0; field < 2; ++field)  // code and data alignment factors
    if (const auto next = skip_leb(r, p, end)) p = *next; else return std::nullopt;
  if (version == 1) {
    ++p;
  } else if (const auto next = skip_leb(r, p, end)) {
    p = *next;
  } else {
    return std::nullopt;
  }
  if (aug.empty() || aug[0] != 'z') return aug.find('R') == std::string_view::npos ? std::optional<uint8_t>(0) : std::nullopt;
  if (const auto next = skip_leb(r, p, end)) p = *next; else return std::nullopt;  // the augmentation data's length
  for (const char letter : aug.substr(1)) {
    if (p >= end) return std::nullopt;
    switch (letter) {
      case 'R': return *r.u8(p);
      case 'L': ++p; break;
      case 'P': {  // the personality routine: any application, often indirect (C++)
        const uint32_t size = format_size(*r.u8(p), elf64);
        if (!size) return std::nullopt;
        p += 1 + size;
        break;
      }
      case 'S': case 'B': case 'G': break;  // signal frame, AArch64 pointer authentication keys, MTE
      default: return std::nullopt;
    }
  }
  return uint8_t(0);
}

// The relocation types that patch a pc_begin of `size` bytes, PC-relative
// or absolute, by machine (what gas writes: a 32-bit PC-relative field
// against the code section's symbol on all three).
bool pc_begin_type(uint16_t machine, bool pcrel, uint32_t size, uint32_t type) {
  if (size != 4 && size != 8) return false;
  const bool wide = size == 8;
  switch (machine) {
    case EM_X86_64:
      return type == (pcrel ? (wide ? R_X86_64_PC64 : R_X86_64_PC32) : (wide ? R_X86_64_64 : R_X86_64_32));
    case EM_AARCH64:
      return type == (pcrel ? (wide ? R_AARCH64_PREL64 : R_AARCH64_PREL32) : (wide ? R_AARCH64_ABS64 : R_AARCH64_ABS32));
    case EM_S390:
      return type == (pcrel ? (wide ? R_390_PC64 : R_390_PC32) : (wide ? R_390_64 : R_390_32));
    default:
      return false;
  }
}

// Whether `value` is representable in `size` bytes, signed or not.
bool fits(int64_t value, uint32_t size, bool is_signed) {
  if (size >= 8) return true;
  const int bits = int(size) * 8;
  return is_signed ? value >= -(int64_t(1) << (bits - 1)) && value < (int64_t(1) << (bits - 1))
                   : value >= 0 && value < (int64_t(1) << bits);
}

void put(uint8_t* at, uint64_t value, uint32_t size, Endian endian) {
  for (uint32_t k = 0; k < size; ++k) {
    const uint32_t shift = 8 * (endian == Endian::Little ? k : size - 1 - k);
    at[k] = static_cast<uint8_t>(value >> shift);
  }
}

}  // namespace

// Places the object's code sections, page-aligned with a page between
// them (an FDE that overruns its section by less than that finds no other
// code), above the CFI sections' own addresses and as long as a 32-bit
// PC-relative field reaches (beyond, sections stay unplaced).
void DwarfCfi::place_code_sections(const Artifact& a, uint64_t above) {
  constexpr uint64_t kPage = 4096, kReach = uint64_t(1) << 31;
  uint64_t next = (above / kPage + 2) * kPage;
  for (const Section& s : a.sections) {
    if (!(s.flags & SHF_EXECINSTR) || s.size > kReach || next > kReach) continue;
    placed_.push_back({s.index, next, s.size});
    next = ((next + s.size) / kPage + 2) * kPage;
  }
  std::sort(placed_.begin(), placed_.end(), [](const Placed& x, const Placed& y) { return x.base < y.base; });
  for (size_t k = 0; k < placed_.size(); ++k) by_section_.emplace_back(placed_[k].section, k);
  std::sort(by_section_.begin(), by_section_.end());
}

// Walks the records of `frames` (.eh_frame or .debug_frame; each record at
// least 8 bytes: the walk ends) and writes every FDE's pc_begin: its
// relocation's target in the layout of place_code_sections, or, when it
// does not resolve, the FDE's own field with a pc_range of 0 (it covers
// nothing; libdw never finds an empty FDE). In .debug_frame an FDE names
// its CIE by an offset in the section, itself relocated (against the
// section's symbol): that is written too. False when a record cannot be
// relocated at all.
bool DwarfCfi::relocate(const Artifact& a, const Section& frames, FrameSection kind) {
  const bool eh = kind == FrameSection::kEh;
  // The CIE id: 0 in .eh_frame, all ones in 32-bit .debug_frame.
  const uint32_t cie_id = eh ? 0 : 0xffffffff;
  struct Target {
    Relocation r;
    const Section* symtab;
    bool twice = false;
  };
  std::map<uint64_t, Target> at_offset;
  for (const auto& set : relocations_for(a, frames)) {
    if (!set.is_rela) continue;  // REL: no object of the three machines has one
    for (const auto& r : set.relocations) {
      const auto [it, added] = at_offset.emplace(r.offset, Target{r, set.symtab});
      if (!added) it->second.twice = true;
    }
  }
  // The symbol and addend of the relocation at `field`, when it has one of
  // the type a field of `size` bytes takes.
  const auto target_of = [&](uint64_t field, bool pcrel,
                             uint32_t size) -> std::optional<std::pair<ElfSymbolRef, int64_t>> {
    const auto it = at_offset.find(field);
    if (it == at_offset.end() || it->second.twice || !it->second.symtab ||
        !pc_begin_type(a.machine, pcrel, size, it->second.r.type))
      return std::nullopt;
    const auto sym = elf_symbol(a, *it->second.symtab, it->second.r.symbol);
    if (!sym) return std::nullopt;
    return std::pair{*sym, it->second.r.addend};
  };
  const auto resolve = [&](uint64_t field, bool pcrel, uint32_t size) -> std::optional<uint64_t> {
    const auto t = target_of(field, pcrel, size);
    if (!t) return std::nullopt;
    return address_of(t->first.section, t->first.value + static_cast<uint64_t>(t->second));
  };

  const ByteReader r(std::span<const uint8_t>(image_.data() + frames.file_offset, frames.size), a.endian);
  uint8_t* bytes = image_.data() + frames.file_offset;
  std::map<uint64_t, std::optional<uint8_t>> cies;  // encoding by CIE offset
  for (uint64_t at = 0; r.contains(at, 8);) {
    const uint32_t length = *r.u32(at);
    if (length == 0 && eh) break;  // the terminator
    if (length == 0xffffffff || length < 4 || length > r.size() - at - 4) return false;
    const uint64_t end = at + 4 + length;
    uint32_t id = *r.u32(at + 4);
    if (id == cie_id && (eh || !at_offset.contains(at + 4))) {
      at = end;
      continue;
    }
    uint64_t cie = 0;
    if (eh) {
      if (id > at + 4) return false;
      cie = at + 4 - id;
    } else {
      // The CIE pointer's relocation, when it has one, is against the
      // section itself.
      if (at_offset.contains(at + 4)) {
        const auto t = target_of(at + 4, false, 4);
        if (!t || t->first.section != frames.index) return false;
        id = static_cast<uint32_t>(t->first.value + static_cast<uint64_t>(t->second));
        put(bytes + at + 4, id, 4, a.endian);
      }
      if (id >= r.size() || id == at) return false;
      cie = id;
    }
    auto found = cies.find(cie);
    if (found == cies.end()) found = cies.emplace(cie, fde_encoding(r, cie, a.elf64, cie_id)).first;
    if (!found->second) return false;
    const uint8_t encoding = *found->second;
    const uint32_t size = pc_begin_size(encoding, a.elf64);
    const uint64_t field = at + 8;
    if (!size || field + 2 * uint64_t(size) > end) return false;
    const bool pcrel = (encoding & 0x70) == kPcrel, is_signed = (encoding & kSigned) != 0;
    const uint64_t field_address = frames.addr + field;
    const auto target = resolve(field, pcrel, size);
    const int64_t value = target ? static_cast<int64_t>(*target - (pcrel ? field_address : 0)) : 0;
    if (target && fits(value, size, is_signed)) {
      put(bytes + field, static_cast<uint64_t>(value), size, a.endian);
    } else {
      ++unresolved_;
      // Its own field: 0 PC-relative; absolute, the field's address when
      // that fits (else the pc_range of 0 alone keeps it out).
      const uint64_t self = pcrel ? 0 : field_address;
      if (fits(static_cast<int64_t>(self), size, is_signed)) put(bytes + field, self, size, a.endian);
      put(bytes + field + size, 0, size, a.endian);
    }
    at = end;
  }
  return true;
}

std::optional<uint64_t> DwarfCfi::address_of(uint32_t section, uint64_t offset) const {
  if (!relocatable_) return offset;
  const auto it = std::lower_bound(by_section_.begin(), by_section_.end(), std::pair<uint32_t, size_t>{section, 0});
  if (it == by_section_.end() || it->first != section) return std::nullopt;
  const Placed& p = placed_[it->second];
  // An empty function's FDE may start where its section ends.
  return offset <= p.size ? std::optional<uint64_t>(p.base + offset) : std::nullopt;
}

std::optional<std::pair<uint32_t, uint64_t>> DwarfCfi::section_offset(uint64_t address) const {
  if (!relocatable_) return std::nullopt;
  auto it = std::upper_bound(placed_.begin(), placed_.end(), address, [](uint64_t x, const Placed& p) { return x < p.base; });
  if (it == placed_.begin()) return std::nullopt;
  --it;
  if (address - it->base > it->size) return std::nullopt;
  return std::pair{it->section, address - it->base};
}

std::optional<CfiRegisters> cfi_registers(uint16_t machine) {
  switch (machine) {
    case EM_X86_64: return CfiRegisters{7, 6, 16};   // rsp, rbp, return address column
    case EM_AARCH64: return CfiRegisters{31, 29, 30};  // sp, x29, x30
    case EM_S390: return CfiRegisters{15, 11, 14};
    default: return std::nullopt;
  }
}

namespace {

// A CFI section whose bytes this reader can see (not SHT_NOBITS, as in a
// separate debug file, and inside the file).
const Section* frame_section(const Artifact& a, const char* name, size_t file_size) {
  const Section* s = a.section(name);
  if (!s || s->type == SHT_NOBITS || s->file_offset > file_size || s->size > file_size - s->file_offset) return nullptr;
  return s;
}

// libdw's dwarf_begin_elf expands every compressed debug section it finds
// (to the size the section claims, as much as its stream gives): a few
// megabytes of input could take gigabytes. Only .debug_frame is wanted,
// so the other debug sections of the copy lose their names (sh_name 0,
// the empty string) and libdw does not see them. False when the section
// headers are not where the ELF header says.
bool hide_other_debug_sections(const Artifact& a, std::vector<uint8_t>& image) {
  const ByteReader r(image, a.endian);
  const std::optional<uint64_t> shoff = a.elf64 ? r.u64(0x28) : std::optional<uint64_t>(r.u32(0x20));
  const auto entsize = r.u16(a.elf64 ? 0x3a : 0x2e);
  if (!shoff || !entsize || *entsize < 4) return false;
  for (const Section& s : a.sections) {
    const std::string_view name = s.name;
    if (name == ".debug_frame" || !is_dwarf_section(name)) continue;
    const uint64_t at = *shoff + uint64_t(s.index) * *entsize;
    if (!r.contains(at, 4)) return false;
    put(image.data() + at, 0, 4, a.endian);
  }
  return true;
}

}  // namespace

std::unique_ptr<DwarfCfi> DwarfCfi::open(const Artifact& a, std::string* why) {
  std::string ignored;
  std::string& reason = why ? *why : ignored;
  if (a.kind != ArtifactKind::Elf) {
    reason = "not an ELF file";
    return nullptr;
  }
  const Section* eh = frame_section(a, ".eh_frame", a.content.size());
  const Section* debug = frame_section(a, ".debug_frame", a.content.size());
  if (!eh && !debug) {
    reason = "the file has no .eh_frame or .debug_frame to read";
    return nullptr;
  }
  if (debug && (debug->flags & SHF_COMPRESSED)) {
    reason = ".debug_frame is compressed (not expanded here)";
    return nullptr;
  }
  const auto regs = cfi_registers(a.machine);
  if (!regs) {
    reason = "its machine's CFI registers are not known";
    return nullptr;
  }
  std::unique_ptr<DwarfCfi> c(new DwarfCfi);
  c->regs_ = *regs;
  c->image_.assign(a.content.begin(), a.content.end());
  c->relocatable_ = a.elf_type == ET_REL;
  if (c->relocatable_) {
    c->place_code_sections(a, eh ? eh->addr + eh->size : 0);
    for (const auto& [s, kind] : {std::pair{eh, FrameSection::kEh}, std::pair{debug, FrameSection::kDebug}}) {
      if (s && !c->relocate(a, *s, kind)) {
        reason = s->name + " has a record whose relocations cannot be applied";
        return nullptr;
      }
    }
  }
  if (debug && !hide_other_debug_sections(a, c->image_)) {
    reason = "the section headers cannot be read";
    return nullptr;
  }
  Elf* elf = elf_memory(reinterpret_cast<char*>(c->image_.data()), c->image_.size());
  if (!elf) {
    reason = "libelf cannot read the file";
    return nullptr;
  }
  c->elf_ = elf;
  // Each section that is there must be read: CFI half read would make
  // functions whose CFI is in the other half look as if they had none.
  if (eh) {
    c->eh_cfi_ = dwarf_getcfi_elf(elf);
    if (!c->eh_cfi_) {  // the destructor ends elf
      reason = "libdw cannot read .eh_frame";
      return nullptr;
    }
  }
  if (debug) {
    Dwarf* dwarf = dwarf_begin_elf(elf, DWARF_C_READ, nullptr);
    c->dwarf_ = dwarf;
    c->debug_cfi_ = dwarf ? dwarf_getcfi(dwarf) : nullptr;  // the Dwarf's: dwarf_end frees it
    if (!c->debug_cfi_) {
      reason = "libdw cannot read .debug_frame";
      return nullptr;
    }
  }
  return c;
}

DwarfCfi::~DwarfCfi() {
  if (eh_cfi_) dwarf_cfi_end(static_cast<Dwarf_CFI*>(eh_cfi_));
  if (dwarf_) dwarf_end(static_cast<Dwarf*>(dwarf_));
  if (elf_) elf_end(static_cast<Elf*>(elf_));
}

std::string DwarfCfi::sections() const {
  if (eh_cfi_ && debug_cfi_) return ".eh_frame and .debug_frame";
  return debug_cfi_ ? ".debug_frame" : ".eh_frame";
}

// .eh_frame first: where both cover an address, it is what an unwinder
// reads at run time.
std::optional<CfiRow> DwarfCfi::row_at(uint64_t pc) const {
  Dwarf_Frame* frame = nullptr;
  if (!eh_cfi_ || dwarf_cfi_addrframe(static_cast<Dwarf_CFI*>(eh_cfi_), pc, &frame) != 0) {
    frame = nullptr;
    if (!debug_cfi_ || dwarf_cfi_addrframe(static_cast<Dwarf_CFI*>(debug_cfi_), pc, &frame) != 0) return std::nullopt;
  }
  CfiRow row;
  Dwarf_Addr start = 0, end = 0;
  dwarf_frame_info(frame, &start, &end, &row.signal);
  row.start = start;
  row.end = end;
  row.cfa = cfa_expression(frame);
  row.fp = saved_of(frame, regs_.fp);
  row.ra = saved_of(frame, regs_.ra);
  std::free(frame);
  return row;
}

std::optional<std::pair<int, int64_t>> evaluate_cfa(const CfaRule& r, uint64_t pc, int pc_register) {
  if (r.simple) return std::pair{r.reg, r.offset};
  // Values are constants or one register plus a constant.
  struct Value {
    int reg = -1;
    int64_t k = 0;
  };
  std::vector<Value> stack;
  auto pop = [&](Value& v) {
    if (stack.empty()) return false;
    v = stack.back();
    stack.pop_back();
    return true;
  };
  for (const auto& [atom, n] : r.expression) {
    Value a, b;
    if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) {
      stack.push_back({-1, atom - DW_OP_lit0});
    } else if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
      const int reg = atom - DW_OP_breg0;
      stack.push_back(reg == pc_register ? Value{-1, static_cast<int64_t>(pc) + n} : Value{reg, n});
    } else if (atom == DW_OP_const1u || atom == DW_OP_const1s || atom == DW_OP_const2u || atom == DW_OP_const2s ||
               atom == DW_OP_const4u || atom == DW_OP_const4s || atom == DW_OP_constu || atom == DW_OP_consts) {
      stack.push_back({-1, n});
    } else if (atom == DW_OP_plus_uconst) {
      if (!pop(a)) return std::nullopt;
      stack.push_back({a.reg, a.k + n});
    } else if (atom == DW_OP_plus || atom == DW_OP_minus || atom == DW_OP_and || atom == DW_OP_shl || atom == DW_OP_ge ||
               atom == DW_OP_gt || atom == DW_OP_lt || atom == DW_OP_le || atom == DW_OP_mul) {
      if (!pop(b) || !pop(a)) return std::nullopt;
      if (atom == DW_OP_plus && (a.reg < 0 || b.reg < 0)) {
        stack.push_back({a.reg >= 0 ? a.reg : b.reg, a.k + b.k});
        continue;
      }
      if (atom == DW_OP_minus && b.reg < 0) {
        stack.push_back({a.reg, a.k - b.k});
        continue;
      }
      if (a.reg >= 0 || b.reg >= 0) return std::nullopt;
      int64_t v = 0;
      switch (atom) {
        case DW_OP_and: v = a.k & b.k; break;
        case DW_OP_shl: v = b.k >= 0 && b.k < 64 ? int64_t(uint64_t(a.k) << b.k) : 0; break;
        case DW_OP_ge: v = a.k >= b.k; break;
        case DW_OP_gt: v = a.k > b.k; break;
        case DW_OP_lt: v = a.k < b.k; break;
        case DW_OP_le: v = a.k <= b.k; break;
        case DW_OP_mul: v = a.k * b.k; break;
        default: v = atom == DW_OP_plus ? a.k + b.k : a.k - b.k; break;
      }
      stack.push_back({-1, v});
    } else {
      return std::nullopt;  // memory, other registers, control flow
    }
  }
  if (stack.size() != 1 || stack.back().reg < 0) return std::nullopt;
  return std::pair{stack.back().reg, stack.back().k};
}

std::string describe(const CfaRule& r) {
  if (!r.simple) return "an expression";
  return "r" + std::to_string(r.reg) + (r.offset < 0 ? "" : "+") + std::to_string(r.offset);
}

std::string describe(const SavedRule& r) {
  switch (r.kind) {
    case SavedRule::kSameValue: return "kept";
    case SavedRule::kUndefined: return "undefined";
    case SavedRule::kAtCfa: return "at cfa" + std::string(r.offset < 0 ? "" : "+") + std::to_string(r.offset);
    case SavedRule::kInRegister: return "in r" + std::to_string(r.reg);
    default: return "an expression";
  }
}

}  // namespace elfmeta::input
