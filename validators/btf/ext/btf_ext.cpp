#include "btf/ext/btf_ext.h"

#include <charconv>

#include "btf/bounded_name.h"
#include "btf/ext/btf_ext_rules.h"
#include "btf/findings.h"
#include "core/text.h"
#include "input/relocations.h"

namespace elfmeta::btf::ext {

namespace {

constexpr uint32_t kShfExecinstr = 0x4;
constexpr uint32_t kShtSymtab = 2;
constexpr uint8_t kSttFunc = 2;
// libbpf's limit on the accessors of one CO-RE access string
// (BPF_CORE_SPEC_MAX_LEN).
constexpr size_t kMaxAccessors = 64;
// The bytes of an access string read per relocation: 64 accessors of ten
// digits and their colons fit with room to spare. A longer string is judged
// on what that prefix shows; when the prefix is all digits and colons the
// check is left undone (and counted in one note), since reading each such
// string whole costs relocations x length.
constexpr size_t kMaxAccessString = 1024;

Location at(const std::string& artifact, uint64_t offset) {
  return Location{artifact, std::string(kSection), offset, "", std::nullopt, "", std::nullopt};
}

std::string block_label(Block b) { return std::string(block_name(b)); }

}  // namespace

FuncInfo BtfExt::func_info(const Group& g, uint32_t i) const {
  const uint64_t o = record_offset(Block::FuncInfo, g, i);
  return {data.u32_at(o), data.u32_at(o + 4)};
}
LineInfo BtfExt::line_info(const Group& g, uint32_t i) const {
  const uint64_t o = record_offset(Block::LineInfo, g, i);
  return {data.u32_at(o), data.u32_at(o + 4), data.u32_at(o + 8), data.u32_at(o + 12)};
}
CoreRelo BtfExt::core_relo(const Group& g, uint32_t i) const {
  const uint64_t o = record_offset(Block::CoreRelo, g, i);
  return {data.u32_at(o), data.u32_at(o + 4), data.u32_at(o + 8), data.u32_at(o + 12)};
}

// ------------------------------------------------------------------ parse

std::optional<BtfExt> parse_btf_ext(std::span<const uint8_t> bytes, Endian endian, elfmeta::Findings& f,
                                    const std::string& artifact) {
  using namespace rules;
  BtfExt ext;
  ext.data = ByteReader(bytes, endian);
  const ByteReader& r = ext.data;
  if (r.size() < kPreamble) {
    f.emit(EXT_001, at(artifact, 0), "section is " + std::to_string(r.size()) + " bytes, the header needs 8");
    return std::nullopt;
  }
  Header& h = ext.header;
  h.magic = *r.u16(0);
  if (h.magic != kMagic) {
    const bool swapped = byteswap_if(h.magic, true) == kMagic;
    f.emit(EXT_002, at(artifact, 0),
           "magic is " + hex(h.magic) +
               (swapped ? ": the section is in the other byte order than the ELF object" : ""));
    return std::nullopt;
  }
  h.version = *r.u8(2);
  h.flags = *r.u8(3);
  h.hdr_len = *r.u32(4);
  if (h.version != kVersion || h.flags != 0) {
    f.emit(EXT_003, at(artifact, h.version != kVersion ? 2 : 3),
           "version " + std::to_string(h.version) + ", flags " + hex(h.flags));
    return std::nullopt;
  }
  if (h.hdr_len > r.size()) {
    f.emit(EXT_001, at(artifact, 4),
           "hdr_len " + std::to_string(h.hdr_len) + " exceeds the " + std::to_string(r.size()) + "-byte section");
    return std::nullopt;
  }
  if (h.hdr_len == r.size()) {
    f.emit(EXT_004, at(artifact, 4), "the section is only its " + std::to_string(h.hdr_len) + "-byte header");
    return std::nullopt;
  }
  if (h.hdr_len < kHeaderMin) {
    f.emit(EXT_005, at(artifact, 4), "hdr_len is " + std::to_string(h.hdr_len) + ", less than 24");
    return std::nullopt;
  }
  const int blocks = h.hdr_len >= kHeaderCore ? kBlocks : 2;
  for (int b = 0; b < blocks; ++b) {
    h.off[b] = r.u32_at(8 + 8 * b);
    h.len[b] = r.u32_at(12 + 8 * b);
  }
  for (int b = 0; b < blocks; ++b) {
    const Block block = static_cast<Block>(b);
    const std::string name = block_label(block);
    BlockView& v = ext.blocks[b];
    if (h.len[b] == 0) continue;
    const uint64_t field = 8 + 8 * b;
    if (h.off[b] % 4) {
      f.emit(EXT_006, at(artifact, field), name + "_off " + std::to_string(h.off[b]) + " is not a multiple of 4");
      ext.intact = false;
      continue;
    }
    const uint64_t start = uint64_t(h.hdr_len) + h.off[b];
    const uint64_t end = start + h.len[b];
    if (end > r.size()) {
      f.emit(EXT_007, at(artifact, field),
             name + " block (off " + std::to_string(h.off[b]) + ", len " + std::to_string(h.len[b]) +
                 ") ends at byte " + std::to_string(end) + " of the " + std::to_string(r.size()) + "-byte section");
      ext.intact = false;
      continue;
    }
    if (h.len[b] < 4) {
      f.emit(EXT_008, at(artifact, start), name + " block of " + std::to_string(h.len[b]) + " bytes has no record size");
      ext.intact = false;
      continue;
    }
    v.rec_size = r.u32_at(start);
    if (v.rec_size < min_record_size(block) || v.rec_size % 4) {
      f.emit(EXT_008, at(artifact, start),
             name + " record size " + std::to_string(v.rec_size) + " (needs a multiple of 4, at least " +
                 std::to_string(min_record_size(block)) + ")");
      ext.intact = false;
      continue;
    }
    v.present = true;
    v.start = start;
    v.end = end;
    uint64_t p = start + 4;
    if (p == end) {
      f.emit(EXT_009, at(artifact, start), name + " block has a record size and no group");
      ext.intact = false;
      continue;
    }
    v.complete = true;
    while (p < end) {
      if (end - p < kGroupHeader) {
        f.emit(EXT_009, at(artifact, p),
               name + " group header needs 8 bytes, " + std::to_string(end - p) + " are left in the block");
        ext.intact = v.complete = false;
        break;
      }
      Group g{r.u32_at(p), r.u32_at(p + 4), p};
      const uint64_t room = end - p - kGroupHeader;
      if (g.num_info == 0 || uint64_t(g.num_info) * v.rec_size > room) {
        f.emit(EXT_010, at(artifact, p + 4),
               name + " group has num_info " + std::to_string(g.num_info) + " of " + std::to_string(v.rec_size) +
                   " bytes, " + std::to_string(room) + " bytes are left in the block");
        ext.intact = v.complete = false;
        break;
      }
      v.groups.push_back(g);
      p += kGroupHeader + uint64_t(g.num_info) * v.rec_size;
    }
  }
  return ext;
}

// ----------------------------------------------------------------- layout

ObjectLayout object_layout(const input::Artifact& a) {
  ObjectLayout l;
  for (const auto& s : a.sections)
    if ((s.flags & kShfExecinstr) && s.size) l.code.emplace(s.name, &s);
  for (const auto& s : a.sections) {
    if (s.type != kShtSymtab) continue;
    l.have_symtab = true;
    const uint64_t n = s.data.size() / (a.elf64 ? 24 : 16);
    for (uint64_t i = 1; i < n; ++i) {
      auto sym = input::elf_symbol(a, s, static_cast<uint32_t>(i));
      if (!sym || sym->type != kSttFunc || sym->section == 0 || sym->section >= 0xff00) continue;
      l.functions[sym->section].emplace(sym->value, sym->name);
    }
    break;
  }
  return l;
}

// ----------------------------------------------------------------- checks

namespace {

using namespace rules;

uint32_t skip_modifiers(const Btf& btf, uint32_t id) {
  for (uint32_t depth = 0; depth < kMaxResolveDepth && id && btf.has_type(id); ++depth) {
    const TypeRef t = btf.type(id);
    if (!is_modifier(t.kind())) return id;
    id = t.type();
  }
  return id;
}

// Why a CO-RE access string does not fit its relocation kind, or "";
// nullopt when `spec` was cut at kMaxAccessString + 1 bytes and what it
// shows does not decide.
std::optional<std::string> access_problem(const Btf& btf, const CoreRelo& relo, std::string_view spec) {
  const bool cut = spec.size() > kMaxAccessString;
  std::vector<uint32_t> accessors;
  size_t pos = 0;
  while (true) {
    const size_t colon = spec.find(':', pos);
    const std::string_view part = spec.substr(pos, colon == std::string_view::npos ? std::string_view::npos : colon - pos);
    if (cut && colon == std::string_view::npos) {
      // The part the cut ended: digits so far leave the verdict open.
      if (part.find_first_not_of("0123456789") != std::string_view::npos)
        return "is not colon-separated decimal indexes";
      if (accessors.size() == kMaxAccessors) return "has more than " + std::to_string(kMaxAccessors) + " accessors";
      return std::nullopt;
    }
    uint32_t v = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size())
      return "is not colon-separated decimal indexes";
    if (accessors.size() == kMaxAccessors) return "has more than " + std::to_string(kMaxAccessors) + " accessors";
    accessors.push_back(v);
    if (colon == std::string_view::npos) break;
    pos = colon + 1;
  }
  if (core_kind_is_type(relo.kind)) return accessors.size() == 1 && accessors[0] == 0 ? "" : "must be \"0\" for a type relocation";
  const uint32_t root = skip_modifiers(btf, relo.type_id);
  if (!root || !btf.has_type(root)) return "root type does not resolve";
  TypeRef t = btf.type(root);
  if (core_kind_is_enumval(relo.kind)) {
    if (t.kind() != kEnum && t.kind() != kEnum64) return "needs an ENUM root for an enum-value relocation, the root is a " + std::string(kind_name(t.kind()));
    if (accessors.size() != 1) return "must be one enumerator index";
    if (accessors[0] >= t.vlen())
      return "names enumerator " + std::to_string(accessors[0]) + " of " + std::to_string(t.vlen());
    return "";
  }
  // A field relocation: an index into the root (as an array), then members
  // and elements.
  uint32_t id = root;
  for (size_t i = 1; i < accessors.size(); ++i) {
    id = skip_modifiers(btf, id);
    if (!id || !btf.has_type(id)) return "accessor " + std::to_string(i) + " reaches no type";
    t = btf.type(id);
    if (is_aggregate(t.kind())) {
      if (accessors[i] >= t.vlen())
        return "accessor " + std::to_string(i) + " names member " + std::to_string(accessors[i]) + " of " +
               std::to_string(t.vlen());
      id = member_at(t, accessors[i]).type;
    } else if (t.kind() == kArray) {
      const uint32_t nelems = t.payload(2);
      if (nelems && accessors[i] >= nelems)
        return "accessor " + std::to_string(i) + " indexes element " + std::to_string(accessors[i]) + " of " +
               std::to_string(nelems);
      id = t.payload(0);
    } else {
      return "accessor " + std::to_string(i) + " indexes into a " + std::string(kind_name(t.kind()));
    }
  }
  return "";
}

class RecordChecker {
 public:
  RecordChecker(const BtfExt& ext, const ObjectLayout& layout, const Btf* btf, elfmeta::Findings& f, const std::string& artifact)
      : ext_(ext), layout_(layout), btf_(btf), f_(f), artifact_(artifact) {}

  void run() {
    if (!btf_) f_.note(std::string(kSection), "no usable .BTF: string and type checks of .BTF.ext skipped");
    if (!layout_.have_symtab) f_.note(std::string(kSection), "no .symtab: func_info is not compared with the functions");
    record_sizes();
    func_infos();
    line_infos();
    core_relos();
  }

 private:
  Location loc(Block b, uint64_t offset, uint32_t index, const std::string& section) const {
    return Location{artifact_, std::string(kSection), offset, block_label(b), index, "", section};
  }

  std::string_view name(uint32_t off) const {
    return btf_ && btf_->name_offset_valid(off) ? bounded_name(*btf_, off, input::kMaxSymbolName) : std::string_view();
  }
  bool string_ok(uint32_t off) const { return !btf_ || btf_->name_offset_valid(off); }

  // The group's code section, or null (reported once per group).
  const input::Section* section_of(Block b, const Group& g) {
    if (!btf_) return nullptr;
    if (!btf_->name_offset_valid(g.sec_name_off)) {
      f_.emit(EXT_011, loc(b, g.offset, 0, ""),
              block_label(b) + " group sec_name_off " + std::to_string(g.sec_name_off) + " is not a .BTF string");
      return nullptr;
    }
    const std::string_view n = bounded_name(*btf_, g.sec_name_off, input::kMaxSymbolName);
    auto it = layout_.code.find(n);
    if (it == layout_.code.end()) {
      f_.emit(EXT_011, loc(b, g.offset, 0, printable(n)),
              block_label(b) + " group names '" + printable(n) + "', which is not an executable section of the object: its " +
                  std::to_string(g.num_info) + " records are never used",
              Severity::Warning);
      return nullptr;
    }
    return it->second;
  }

  // BTF-EXT-017 for the instruction offset; false when it is unusable.
  bool insn_ok(Block b, uint64_t at, uint32_t index, const std::string& sec, const input::Section& s, uint32_t insn_off) {
    if (insn_off % kInsnSize == 0 && insn_off < s.size) return true;
    f_.emit(EXT_017, loc(b, at, index, sec),
            "insn_off " + std::to_string(insn_off) +
                (insn_off % kInsnSize ? " is not a multiple of 8" : " is not inside the " + std::to_string(s.size) + "-byte section"),
            Severity::Error, kBpfObject);
    return false;
  }

  bool tail_zero(Block b, const Group& g, uint32_t i) const {
    const uint32_t rec = ext_.block(b).rec_size;
    const uint64_t o = ext_.record_offset(b, g, i);
    for (uint32_t k = min_record_size(b); k < rec; ++k)
      if (ext_.data.data()[o + k]) return false;
    return true;
  }

  void record_sizes() {
    static constexpr const Rule* rule_of[] = {&EXT_012, &EXT_015, &EXT_016};
    for (int b = 0; b < kBlocks; ++b) {
      const BlockView& v = ext_.blocks[b];
      if (v.present && v.rec_size > kKernelMaxRecord)
        f_.emit(*rule_of[b], Location{artifact_, std::string(kSection), v.start, "", std::nullopt, "", std::nullopt},
                block_label(static_cast<Block>(b)) + " record size " + std::to_string(v.rec_size) +
                    " exceeds the kernel's 252");
    }
  }

  void func_infos() {
    const Block b = Block::FuncInfo;
    if (!ext_.block(b).present) return;
    std::map<const input::Section*, std::map<uint64_t, uint32_t>> seen;  // section -> insn_off -> record
    for (const Group& g : ext_.block(b).groups) {
      const input::Section* s = section_of(b, g);
      if (!s) continue;
      const std::string sec = printable(s->name);
      const auto fit = layout_.functions.find(s->index);
      const std::map<uint64_t, std::string_view>* funcs = fit == layout_.functions.end() ? nullptr : &fit->second;
      std::optional<uint32_t> prev;
      for (uint32_t i = 0; i < g.num_info; ++i) {
        const uint64_t o = ext_.record_offset(b, g, i);
        const FuncInfo fi = ext_.func_info(g, i);
        if (!tail_zero(b, g, i)) f_.emit(EXT_012, loc(b, o + 8, i, sec), "bytes past the 8-byte record are not zero");
        if (btf_ && (!btf_->has_type(fi.type_id) || fi.type_id == 0 || btf_->type(fi.type_id).kind() != kFunc))
          f_.emit(EXT_014, loc(b, o + 4, i, sec),
                  "type_id " + std::to_string(fi.type_id) +
                      (btf_->has_type(fi.type_id) && fi.type_id
                           ? " is a " + std::string(kind_name(btf_->type(fi.type_id).kind())) + ", not a FUNC"
                           : " is not a type of .BTF"));
        if (!insn_ok(b, o, i, sec, *s, fi.insn_off)) continue;
        if (i == 0 && fi.insn_off != 0)
          f_.emit(EXT_013, loc(b, o, i, sec), "the first func_info of the section is at insn_off " + std::to_string(fi.insn_off) + ", not 0");
        else if (prev && fi.insn_off <= *prev)
          f_.emit(EXT_013, loc(b, o, i, sec),
                  "insn_off " + std::to_string(fi.insn_off) + " does not follow the previous record's " + std::to_string(*prev));
        prev = fi.insn_off;
        seen[s].emplace(fi.insn_off, i);
        if (!funcs) continue;
        auto fn = funcs->find(fi.insn_off);
        if (fn == funcs->end()) {
          f_.emit(EXT_013, loc(b, o, i, sec), "insn_off " + std::to_string(fi.insn_off) + " is not the start of a function of the section");
        } else if (btf_ && btf_->has_type(fi.type_id) && btf_->type(fi.type_id).kind() == kFunc) {
          const std::string_view fname = name(btf_->type(fi.type_id).name_off());
          if (fname != fn->second)
            f_.emit(EXT_013, loc(b, o + 4, i, sec),
                    "FUNC '" + printable(fname) + "' describes the function '" + printable(fn->second) + "'",
                    Severity::Warning);
        }
      }
    }
    // Every function of a code section needs its record.
    for (const auto& [name, s] : layout_.code) {
      if (!ext_.block(b).complete) break;
      const auto fit = layout_.functions.find(s->index);
      if (fit == layout_.functions.end()) continue;
      const auto& have = seen[s];
      for (const auto& [value, fname] : fit->second)
        if (!have.count(value))
          f_.emit(EXT_013, Location{artifact_, std::string(kSection), ext_.block(b).start, block_label(b), std::nullopt, "", printable(name)},
                  "function '" + printable(fname) + "' at " + std::to_string(value) + " of '" + printable(name) +
                      "' has no func_info record");
    }
    func_starts_ = std::move(seen);
  }

  void line_infos() {
    const Block b = Block::LineInfo;
    if (!ext_.block(b).present) return;
    std::map<const input::Section*, std::map<uint64_t, uint32_t>> lines;
    for (const Group& g : ext_.block(b).groups) {
      const input::Section* s = section_of(b, g);
      if (!s) continue;
      const std::string sec = printable(s->name);
      auto& have = lines[s];
      std::optional<uint32_t> prev;
      for (uint32_t i = 0; i < g.num_info; ++i) {
        const uint64_t o = ext_.record_offset(b, g, i);
        const LineInfo li = ext_.line_info(g, i);
        if (!tail_zero(b, g, i)) f_.emit(EXT_015, loc(b, o + 16, i, sec), "bytes past the 16-byte record are not zero");
        if (!string_ok(li.file_name_off))
          f_.emit(EXT_011, loc(b, o + 4, i, sec), "file_name_off " + std::to_string(li.file_name_off) + " is not a .BTF string");
        if (!string_ok(li.line_off))
          f_.emit(EXT_011, loc(b, o + 8, i, sec), "line_off " + std::to_string(li.line_off) + " is not a .BTF string");
        if (li.column() == kColumnMax)
          f_.emit(EXT_017, loc(b, o + 12, i, sec), "column 1023: the 10-bit column field saturated (line " + std::to_string(li.line()) + ")");
        else if (li.line() == 0 && li.column() != 0)
          f_.emit(EXT_017, loc(b, o + 12, i, sec), "column " + std::to_string(li.column()) + " on line 0");
        if (!insn_ok(b, o, i, sec, *s, li.insn_off)) continue;
        if (prev && li.insn_off <= *prev)
          f_.emit(EXT_015, loc(b, o, i, sec),
                  "insn_off " + std::to_string(li.insn_off) + " does not follow the previous record's " + std::to_string(*prev));
        prev = li.insn_off;
        if (li.insn_off < s->data.size() && s->data[li.insn_off] == 0)
          f_.emit(EXT_015, loc(b, o, i, sec),
                  "insn_off " + std::to_string(li.insn_off) + " is an instruction of code 0" +
                      (second_half_of_ld_imm64(*s, li.insn_off) ? ": the second half of a 16-byte ld_imm64" : ""));
        have.emplace(li.insn_off, i);
      }
    }
    for (const auto& [s, starts] : func_starts_) {
      if (!ext_.block(b).complete) break;
      auto it = lines.find(s);
      if (it == lines.end()) continue;  // line_info is optional per section
      for (const auto& [insn_off, record] : starts)
        if (!it->second.count(insn_off))
          f_.emit(EXT_015, Location{artifact_, std::string(kSection), ext_.block(b).start, block_label(b), std::nullopt, "", printable(s->name)},
                  "no line_info at insn_off " + std::to_string(insn_off) + ", the start of func_info record " + std::to_string(record));
    }
  }

  // Whether the instruction before insn_off, read from the section start,
  // is a ld_imm64 whose second half insn_off is.
  bool second_half_of_ld_imm64(const input::Section& s, uint32_t insn_off) {
    auto& halves = second_halves_[&s];
    if (halves.empty()) {
      halves.assign(s.data.size() / kInsnSize + 1, 0);
      for (uint64_t p = 0; p + kInsnSize <= s.data.size(); p += kInsnSize)
        if (s.data[p] == kLdImm64 && p + 2 * kInsnSize <= s.data.size()) {
          halves[p / kInsnSize + 1] = 1;
          p += kInsnSize;
        }
    }
    return halves[insn_off / kInsnSize];
  }

  void core_relos() {
    const Block b = Block::CoreRelo;
    if (!ext_.block(b).present) return;
    const bool types = btf_ && btf_->types_complete();
    for (const Group& g : ext_.block(b).groups) {
      const input::Section* s = section_of(b, g);
      if (!s) continue;
      const std::string sec = printable(s->name);
      for (uint32_t i = 0; i < g.num_info; ++i) {
        const uint64_t o = ext_.record_offset(b, g, i);
        const CoreRelo cr = ext_.core_relo(g, i);
        if (!tail_zero(b, g, i)) f_.emit(EXT_016, loc(b, o + 16, i, sec), "bytes past the 16-byte record are not zero");
        insn_ok(b, o, i, sec, *s, cr.insn_off);
        if (cr.kind >= kCoreKindCount) {
          f_.emit(EXT_016, loc(b, o + 12, i, sec), "kind " + std::to_string(cr.kind) + " is not a CO-RE relocation kind (0..12)");
          continue;
        }
        if (!types) continue;
        if (cr.type_id == 0 || !btf_->has_type(cr.type_id)) {
          f_.emit(EXT_016, loc(b, o + 4, i, sec), "type_id " + std::to_string(cr.type_id) + " is not a type of .BTF");
          continue;
        }
        if (!btf_->name_offset_valid(cr.access_str_off)) {
          f_.emit(EXT_011, loc(b, o + 8, i, sec), "access_str_off " + std::to_string(cr.access_str_off) + " is not a .BTF string");
          continue;
        }
        const std::string_view spec = bounded_name(*btf_, cr.access_str_off, kMaxAccessString);
        const auto why = access_problem(*btf_, cr, spec);
        if (!why) {
          ++long_access_strings_;
          continue;
        }
        if (!why->empty())
          f_.emit(EXT_016, loc(b, o + 8, i, sec),
                  std::string(core_kind_name(cr.kind)) + " relocation of type " + std::to_string(cr.type_id) + ": access string '" +
                      printable(spec) + "' " + *why);
      }
    }
    if (long_access_strings_)
      f_.note(std::string(kSection), std::to_string(long_access_strings_) + " CO-RE access strings longer than " +
                                         std::to_string(kMaxAccessString) +
                                         " bytes of digits and colons were not parsed (BTF-EXT-016 not checked "
                                         "for them)");
  }

  const BtfExt& ext_;
  const ObjectLayout& layout_;
  const Btf* btf_;
  elfmeta::Findings& f_;
  const std::string& artifact_;
  std::map<const input::Section*, std::map<uint64_t, uint32_t>> func_starts_;
  std::map<const input::Section*, std::vector<uint8_t>> second_halves_;
  size_t long_access_strings_ = 0;
};

}  // namespace

void check_records(const BtfExt& ext, const ObjectLayout& layout, const Btf* btf, elfmeta::Findings& f, const std::string& artifact) {
  RecordChecker(ext, layout, btf, f, artifact).run();
}

void check_btf_ext(const input::Artifact& a, const Btf* btf, uint32_t consumer, DiagnosticSink& sink) {
  const input::Section* s = a.section(kSection);
  if (!s) return;
  elfmeta::Findings f(a.name, sink, consumer);
  if (auto ext = parse_btf_ext(s->data, a.endian, f, a.name)) check_records(*ext, object_layout(a), btf, f, a.name);
  f.finish(std::string(kSection));
}

}  // namespace elfmeta::btf::ext
