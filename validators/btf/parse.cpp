#include "btf/parse.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "btf/btf_rules.h"
#include "core/text.h"

namespace elfmeta::btf {

class Parser {
 public:
  Parser(std::span<const uint8_t> data, const ParseOptions& options, Findings& findings)
      : data_(data), options_(options), f_(findings) {}

  std::optional<Btf> run();

 private:
  bool read_header();
  bool check_section_tiling();
  void check_producer_layout();
  void check_strings();
  void check_layout_section();
  void check_type_section_placement();
  void btf_check_all_metas();
  void report_unsized(uint32_t cur, uint32_t id);
  // Whether the kernel's parse, which stops at `rule`, stops here too: for
  // a consumer to which it is no error (libbpf reads past gaps and trailing
  // bytes) and which has refused nothing so far, the rest of the blob is
  // checked, within the bounds already met.
  bool stops_at(const Rule& rule) const { return f_.effective(rule) == Severity::Error || f_.errors() != 0; }

  uint32_t u32_at(size_t off) const {
    uint32_t v;
    std::memcpy(&v, data_.data() + off, 4);
    return v;
  }

  std::span<const uint8_t> data_;
  const ParseOptions& options_;
  Findings& f_;
  Btf btf_;
  uint64_t sections_end_ = 0;  // where the last section ends: the blob's end unless BTF-HDR-012
};

namespace {

bool is_split(const ParseOptions& o) { return o.base != nullptr; }

}  // namespace

bool looks_like_btf(std::span<const uint8_t> data) {
  return data.size() >= 2 && ((data[0] == 0x9f && data[1] == 0xeb) || (data[0] == 0xeb && data[1] == 0x9f));
}

std::vector<uint8_t> swap_byte_order(std::span<const uint8_t> data, bool from_host_order) {
  std::vector<uint8_t> out(data.begin(), data.end());
  // Fields are read in the input's order, before they are swapped.
  auto read32 = [&](uint64_t off) -> uint32_t {
    uint32_t v;
    std::memcpy(&v, data.data() + off, 4);
    return from_host_order ? v : __builtin_bswap32(v);
  };
  auto swap16 = [&](uint64_t off) {
    if (off + 2 <= out.size()) std::swap(out[off], out[off + 1]);
  };
  auto swap32 = [&](uint64_t off) {
    if (off + 4 <= out.size()) {
      std::swap(out[off], out[off + 3]);
      std::swap(out[off + 1], out[off + 2]);
    }
  };
  swap16(0);
  if (out.size() < 8) return out;
  const uint32_t hdr_len = read32(4);
  swap32(4);
  for (uint32_t off = 8; off + 4 <= std::min<uint32_t>(hdr_len, kLayoutHeaderSize); off += 4) swap32(off);
  if (out.size() < kHeaderSize || hdr_len < kHeaderSize || hdr_len > out.size()) return out;
  const uint64_t types = uint64_t(hdr_len) + read32(8);
  const uint64_t types_end = types + read32(12);
  if (types_end > out.size()) return out;
  if (hdr_len >= kLayoutHeaderSize) {
    const uint64_t layout = uint64_t(hdr_len) + read32(24);
    const uint64_t layout_end = layout + read32(28);
    if (layout_end <= out.size())
      for (uint64_t off = layout; off + 4 <= layout_end; off += 4) swap16(off + 2);
  }
  for (uint64_t cur = types; cur + kTypeRecordSize <= types_end;) {
    // Sized as libbpf before 1.8 swaps (5-bit kind, 16-bit vlen): a record
    // with the bits 7.2 widened into is malformed for every reader of
    // byte-swapped BTF.
    const uint32_t info = read32(cur + 4) & kInfoMask;
    const auto payload = payload_size(info_kind(info), info_vlen(info));
    for (int i = 0; i < 3; ++i) swap32(cur + 4 * i);
    if (!payload || cur + kTypeRecordSize + *payload > types_end) break;
    for (uint64_t w = 0; w < *payload; w += 4) swap32(cur + kTypeRecordSize + w);
    cur += kTypeRecordSize + *payload;
  }
  return out;
}

std::optional<Btf> parse(std::span<const uint8_t> data, const ParseOptions& options, Findings& findings) {
  return Parser(data, options, findings).run();
}

// btf_parse() (kernel/bpf/btf.c), up to the type records: the blob's
// size, its byte order, btf_parse_hdr(), btf_check_sec_info(),
// btf_parse_str_sec(), then the walk of btf_check_all_metas(). Reports
// BTF-HDR-016, and what the steps report.
std::optional<Btf> Parser::run() {
  if (data_.size() > kMaxUserBlobSize)
    f_.at_offset(rules::HDR_016, 0,
                 "blob is " + std::to_string(data_.size()) + " bytes; BPF_BTF_LOAD takes at most 16 MiB");
  if (data_.size() > UINT32_MAX) return std::nullopt;  // HDR-016 above; sizes are u32
  btf_.base_ = options_.base;
  btf_.first_id_ = options_.base ? options_.base->type_count() : 1;
  btf_.str_start_ = options_.base ? static_cast<uint32_t>(options_.base->strings_end()) : 0;
  btf_.stored_endian_ = host_endian();
  if (!options_.assume_host_order && data_.size() >= 2) {
    const uint16_t stored = uint16_t(data_[0]) | uint16_t(data_[1]) << 8;
    const bool swapped = (host_endian() == Endian::Little) ? stored == 0x9feb : stored == 0xeb9f;
    if (swapped) {
      auto copy = std::make_shared<const std::vector<uint8_t>>(swap_byte_order(data_, false));
      btf_.owned_ = copy;
      data_ = *copy;
      btf_.stored_endian_ = host_endian() == Endian::Little ? Endian::Big : Endian::Little;
    }
  }
  btf_.data_ = data_;

  if (!read_header()) return std::nullopt;
  if (!check_section_tiling()) return std::nullopt;
  check_strings();
  if (f_.kernel().has(Gate::kKindLayout)) check_layout_section();
  check_type_section_placement();
  if (!f_.findings()) check_producer_layout();
  if (btf_.strings_usable_) {
    btf_check_all_metas();
  } else {
    f_.note("string section unusable: type records were not checked");
  }
  return std::move(btf_);
}

// btf_parse_hdr(): the header's length, magic, version, flags, and the
// bytes past the fields the target kernel knows. Reports BTF-HDR-001..007,
// BTF-LAYOUT-003.
bool Parser::read_header() {
  const size_t n = data_.size();
  if (n < 8) {
    f_.at_offset(rules::HDR_001, 0, "blob has " + std::to_string(n) + " bytes; the header needs at least 8");
    return false;
  }
  const uint32_t hdr_len = u32_at(4);
  if (n < hdr_len) {
    f_.at_offset(rules::HDR_002, 4,
                 "hdr_len " + std::to_string(hdr_len) + " exceeds the blob's " + std::to_string(n) + " bytes");
    return false;
  }
  if (hdr_len > kHeaderSize) {
    auto first_nonzero = [&](uint32_t from, uint32_t to) -> std::optional<uint32_t> {
      for (uint32_t i = from; i < to; ++i)
        if (data_[i]) return i;
      return std::nullopt;
    };
    // Linux 7.1 knows 32 header bytes (the kind-layout fields) and copies a
    // shorter header as far as it reaches; older kernels know 24 and refuse
    // any non-zero byte past them.
    const bool layout_kernel = f_.kernel().has(Gate::kKindLayout);
    if (hdr_len >= kLayoutHeaderSize) {
      if (!layout_kernel)
        if (auto at = first_nonzero(kHeaderSize, kLayoutHeaderSize))
          f_.unsupported_at_offset(Gate::kKindLayout, *at,
                                   "layout_off " + std::to_string(u32_at(24)) + ", layout_len " +
                                       std::to_string(u32_at(28)) + ": a kind-layout section");
      if (auto at = first_nonzero(kLayoutHeaderSize, hdr_len))
        f_.at_offset(rules::HDR_003, *at,
                     "header byte " + std::to_string(*at) + " of " + std::to_string(hdr_len) + " is non-zero");
    } else if (!layout_kernel) {
      if (auto at = first_nonzero(kHeaderSize, hdr_len))
        f_.at_offset(rules::LAYOUT_003, *at,
                     "hdr_len " + std::to_string(hdr_len) + " and header byte " + std::to_string(*at) + " is non-zero");
    }
  }
  // The kernel copies min(hdr_len, 24) bytes over a zeroed header.
  std::array<uint8_t, kHeaderSize> raw{};
  std::memcpy(raw.data(), data_.data(), std::min<uint32_t>(hdr_len, kHeaderSize));
  Header& h = btf_.hdr_;
  std::memcpy(&h.magic, raw.data(), 2);
  h.version = raw[2];
  h.flags = raw[3];
  std::memcpy(&h.hdr_len, raw.data() + 4, 4);
  std::memcpy(&h.type_off, raw.data() + 8, 4);
  std::memcpy(&h.type_len, raw.data() + 12, 4);
  std::memcpy(&h.str_off, raw.data() + 16, 4);
  std::memcpy(&h.str_len, raw.data() + 20, 4);
  h.stored_hdr_len = hdr_len;
  if (hdr_len >= kLayoutHeaderSize) {
    h.layout_off = u32_at(24);
    h.layout_len = u32_at(28);
  }

  if (h.magic != kMagic) {
    f_.at_offset(rules::HDR_004, 0, "magic is " + hex(h.magic) + ", expected 0xeb9f");
    return false;
  }
  if (h.version != 1) f_.at_offset(rules::HDR_005, 2, "version is " + std::to_string(h.version));
  if (h.flags != 0) f_.at_offset(rules::HDR_006, 3, "flags is " + hex(h.flags));
  if (!is_split(options_) && n == h.hdr_len) {
    f_.at_offset(rules::HDR_007, 4, "blob ends with its " + std::to_string(n) + "-byte header");
    return false;
  }
  return true;
}

// btf_check_sec_info(): the sections lie inside the blob, in order,
// without gaps or overlap. Reports BTF-HDR-008..012. A gap and bytes after
// the last section stop the parse only where they are errors (stops_at).
bool Parser::check_section_tiling() {
  const Header& h = btf_.hdr_;
  struct Sec {
    uint32_t off, len;
    const char* name;
  };
  std::vector<Sec> secs = {{h.type_off, h.type_len, "type"}, {h.str_off, h.str_len, "string"}};
  // The kernel sorts with a comparator that subtracts offsets as int (so very
  // large offsets sort first) and, for two entries, keeps the second first
  // when the comparison is >= 0. Mirror it, because the gap/overlap verdict
  // depends on the order.
  auto cmp = [](const Sec& x, const Sec& y) {
    int d = static_cast<int>(x.off - y.off);
    return d ? d : static_cast<int>(x.len - y.len);
  };
  if (cmp(secs[0], secs[1]) >= 0) std::swap(secs[0], secs[1]);
  // A 7.1 kind-layout section (already reported as unsupported, BTF-LAYOUT-001)
  // takes part in the tiling as 7.1 defines it, so that the rest of the blob
  // is still checked.
  if (h.layout_len) {
    secs.push_back({h.layout_off, h.layout_len, "layout"});
    std::stable_sort(secs.begin(), secs.end(), [](const Sec& x, const Sec& y) { return x.off < y.off; });
  }

  const uint32_t expected_total = static_cast<uint32_t>(data_.size()) - h.hdr_len;
  uint32_t total = 0;
  for (const Sec& s : secs) {
    const std::string what = std::string(s.name) + " section (off " + std::to_string(s.off) + ", len " +
                             std::to_string(s.len) + ")";
    if (expected_total < s.off) {
      f_.at_offset(rules::HDR_008, 8, what + " starts beyond the " + std::to_string(expected_total) +
                                          " bytes after the header");
      return false;
    }
    if (total < s.off) {
      f_.at_offset(rules::HDR_009, 8, "gap of " + std::to_string(s.off - total) + " bytes before the " + what);
      if (stops_at(rules::HDR_009)) return false;
      total = s.off;
    }
    if (total > s.off) {
      f_.at_offset(rules::HDR_010, 8, what + " overlaps the previous section, which ends at " + std::to_string(total));
      return false;
    }
    if (expected_total - total < s.len) {
      f_.at_offset(rules::HDR_011, 8, what + " runs past the end of the blob");
      return false;
    }
    total += s.len;
  }
  sections_end_ = uint64_t(h.hdr_len) + total;
  if (expected_total != total) {
    f_.at_offset(rules::HDR_012, sections_end_, std::to_string(expected_total - total) + " bytes after the last section");
    return !stops_at(rules::HDR_012);
  }
  return true;
}

// No kernel counterpart: how producers lay sections out.
// Reports BTF-HDR-017.
void Parser::check_producer_layout() {
  const Header& h = btf_.hdr_;
  if (h.stored_hdr_len != kHeaderSize && h.stored_hdr_len != kLayoutHeaderSize)
    f_.at_offset(rules::HDR_017, 4, "hdr_len is " + std::to_string(h.stored_hdr_len) + ", producers write 24 or 32");
  else if (h.layout_len && (h.type_off != 0 || h.layout_off != h.type_len || h.str_off != h.type_len + h.layout_len))
    f_.at_offset(rules::HDR_017, 8,
                 "type_off " + std::to_string(h.type_off) + ", layout_off " + std::to_string(h.layout_off) +
                     ", str_off " + std::to_string(h.str_off) +
                     ": producers write the types, the layout and the strings in that order, with no gaps");
  else if (!h.layout_len && (h.type_off != 0 || h.str_off != h.type_len))
    f_.at_offset(rules::HDR_017, 8,
                 "type_off " + std::to_string(h.type_off) + ", str_off " + std::to_string(h.str_off) +
                     ": producers write type_off 0 and str_off = type_len");
}

// btf_parse_str_sec(). Reports BTF-HDR-013, BTF-STR-001..004.
void Parser::check_strings() {
  const Header& h = btf_.hdr_;
  const uint64_t start = uint64_t(h.hdr_len) + h.str_off;
  const uint64_t end = start + h.str_len;
  btf_.strings_begin_ = data_.data() + start;
  // 7.1 lets any section come last once the header has the layout fields.
  const bool any_order = f_.kernel().has(Gate::kKindLayout) && h.stored_hdr_len >= kLayoutHeaderSize;
  // Bytes after the last section are BTF-HDR-012's: the strings must end
  // the sections.
  if (end != sections_end_ && !any_order)
    f_.at_offset(rules::HDR_013, 16,
                 "string section ends at " + std::to_string(end) + ", the " +
                     (sections_end_ == data_.size() ? "blob" : "last section") + " at " +
                     std::to_string(sections_end_));
  if (is_split(options_) && h.str_len == 0) {
    btf_.strings_usable_ = true;
    return;
  }
  bool usable = true;
  if (h.str_len == 0) {
    f_.at_offset(rules::STR_001, 20, "str_len is 0");
    usable = false;
  } else {
    if (h.str_len - 1 > kMaxNameOffset)
      f_.at_offset(rules::STR_002, 20, "str_len is " + std::to_string(h.str_len));
    if (data_[end - 1] != 0) {
      f_.at_offset(rules::STR_003, end - 1, "last byte of the string section is " + hex(data_[end - 1]));
      usable = false;
    }
    if (!is_split(options_) && data_[start] != 0)
      f_.at_offset(rules::STR_004, start, "first byte of the string section is " + hex(data_[start]));
  }
  btf_.strings_usable_ = usable;
}

// Linux 7.1 checks the kind-layout section after the strings. It does not
// read the entries (records are still sized by the kernel's own tables).
void Parser::check_layout_section() {
  const Header& h = btf_.hdr_;
  if (!h.layout_len) return;
  if (h.layout_off & 3)
    f_.at_offset(rules::LAYOUT_006, 24, "layout_off " + std::to_string(h.layout_off) + " is not 4-byte aligned");
  if (h.layout_len < 4 || h.layout_len % 4)
    f_.at_offset(rules::LAYOUT_007, 28,
                 "layout_len " + std::to_string(h.layout_len) + " is not a whole number of 4-byte entries");
}

// btf_parse_type_sec()'s checks of the section itself (alignment,
// empty). Reports BTF-HDR-014, BTF-HDR-015.
void Parser::check_type_section_placement() {
  const Header& h = btf_.hdr_;
  btf_.types_begin_ = data_.data() + h.hdr_len + h.type_off;
  if (h.type_off & 3) f_.at_offset(rules::HDR_014, 8, "type_off " + std::to_string(h.type_off) + " is not 4-byte aligned");
  if (!is_split(options_) && h.type_len == 0) f_.at_offset(rules::HDR_015, 12, "type_len is 0");
}

namespace {

// payload_size() as two small tables, so that sizing a record is arithmetic
// instead of a switch that mispredicts on every change of kind.
struct PayloadShape {
  uint32_t fixed = 0, per_item = 0;
  bool known = false;
};
constexpr std::array<PayloadShape, 128> payload_shapes() {
  std::array<PayloadShape, 128> t{};  // every 7-bit kind
  for (uint32_t k = 0; k < 128; ++k) {
    const auto none = payload_size(k, 0), one = payload_size(k, 1);
    if (k == kUnknown || !none || !one) continue;
    t[k] = {static_cast<uint32_t>(*none), static_cast<uint32_t>(*one - *none), true};
  }
  return t;
}
constexpr std::array<PayloadShape, 128> kPayloadShapes = payload_shapes();

// The size of the record at `cur` of a type section of `len` bytes, or 0
// when none fits there (Parser::report_unsized says why).
[[gnu::always_inline]] inline uint32_t record_size(const uint8_t* begin, uint32_t len, uint32_t cur) {
  if (len - cur < kTypeRecordSize) return 0;
  uint32_t info;
  std::memcpy(&info, begin + cur + 4, 4);
  const PayloadShape& shape = kPayloadShapes[info_kind(info)];
  const uint64_t payload = shape.fixed + uint64_t(shape.per_item) * info_vlen(info);
  if (!shape.known || payload > len - cur - kTypeRecordSize) return 0;
  return kTypeRecordSize + static_cast<uint32_t>(payload);
}

[[gnu::always_inline]] inline RecordHead head_at(const uint8_t* begin, uint32_t cur) {
  RecordHead head;
  std::memcpy(&head.info, begin + cur + 4, 4);
  std::memcpy(&head.size_or_type, begin + cur + 8, 4);
  head.offset = cur;
  return head;
}

}  // namespace

// btf_check_all_metas() (kernel/bpf/btf.c), its walk: from the start of the
// type section, record after record, each sized by its kind and vlen as
// btf_check_meta() sizes it (the per-kind checks of the "meta" phase are
// check_records.cpp's), until the section's end or a record that does not
// fit. One pass over the bytes, bounded by type_len: every record is at
// least 12 bytes. Reports BTF-TYPE-001, BTF-TYPE-003, BTF-TYPE-004 (through
// report_unsized()).
void Parser::btf_check_all_metas() {
  const uint8_t* begin = btf_.types_begin_;
  const uint32_t len = btf_.hdr_.type_len;
  btf_.heads_.reserve(len / kTypeRecordSize + 1);  // the most records that fit
  btf_.kinds_.reserve(len / kTypeRecordSize + 1);
  uint32_t id = btf_.first_id_;
  for (uint32_t cur = 0; cur < len; ++id) {
    const uint32_t size = record_size(begin, len, cur);
    if (size == 0) {
      report_unsized(cur, id);
      btf_.types_complete_ = false;
      return;
    }
    const RecordHead head = head_at(begin, cur);
    btf_.heads_.push_back(head);
    btf_.kinds_.push_back(static_cast<uint8_t>(info_kind(head.info)));
    cur += size;
  }
  btf_.types_complete_ = true;
}

// Why no record fits at `cur` (record_size() returned 0).
void Parser::report_unsized(uint32_t cur, uint32_t id) {
  const uint32_t left = btf_.hdr_.type_len - cur;
  const uint64_t at = btf_.type_section_offset() + cur;
  if (left < kTypeRecordSize) {
    f_.at_offset(rules::TYPE_001, at,
                 "type " + std::to_string(id) + ": " + std::to_string(left) + " bytes left, a record needs 12");
    return;
  }
  const uint32_t info = head_at(btf_.types_begin_, cur).info, kind = info_kind(info);
  const PayloadShape& shape = kPayloadShapes[kind];
  if (!shape.known) {
    f_.at_offset(rules::TYPE_003, at + 4, "type " + std::to_string(id) + ": kind " + std::to_string(kind));
    return;
  }
  const uint64_t payload = shape.fixed + uint64_t(shape.per_item) * info_vlen(info);
  f_.at_offset(rules::TYPE_004, at,
               "type " + std::to_string(id) + " " + std::string(kind_name(kind)) + ": needs " + std::to_string(payload) +
                   " bytes after its common part, " + std::to_string(left - kTypeRecordSize) + " left");
}

}  // namespace elfmeta::btf
