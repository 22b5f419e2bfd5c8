#include "btf/parse.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <vector>

#include "btf/btf_rules.h"
#include "core/second_core.h"
#include "core/text.h"

namespace elfmeta::btf {

namespace {

// Records read from a guessed offset, without findings: the chain of
// offsets that the bytes there would be records at, up to the first that
// cannot be one or that starts past the guess's part of the section.
struct GuessedRecords {
  RecordHeads heads;
  std::vector<uint8_t> kinds;
  uint32_t end = 0;  // where the chain stopped
};

}  // namespace

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
  void walk_types();
  bool walk_records(uint32_t& cur, uint32_t& id, uint32_t until);
  bool walked_to(uint32_t cur, uint32_t& id, size_t before, uint32_t until);
  void report_unsized(uint32_t cur, uint32_t id);
  bool walk_in_runs(uint32_t& cur, uint32_t& id);
  size_t meet_guess(uint32_t& cur, uint32_t& id, const GuessedRecords& g, GuessedRecords& stepped, bool& sized);

  uint32_t u32_at(size_t off) const {
    uint32_t v;
    std::memcpy(&v, data_.data() + off, 4);
    return v;
  }

  std::span<const uint8_t> data_;
  const ParseOptions& options_;
  Findings& f_;
  Btf btf_;
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
    walk_types();
  } else {
    f_.note("string section unusable: type records were not checked");
  }
  return std::move(btf_);
}

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
      return false;
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
  if (expected_total != total) {
    f_.at_offset(rules::HDR_012, static_cast<uint64_t>(h.hdr_len) + total,
                 std::to_string(expected_total - total) + " bytes after the last section");
    return false;
  }
  return true;
}

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

void Parser::check_strings() {
  const Header& h = btf_.hdr_;
  const uint64_t start = uint64_t(h.hdr_len) + h.str_off;
  const uint64_t end = start + h.str_len;
  btf_.strings_begin_ = data_.data() + start;
  // 7.1 lets any section come last once the header has the layout fields.
  const bool any_order = f_.kernel().has(Gate::kKindLayout) && h.stored_hdr_len >= kLayoutHeaderSize;
  if (end != data_.size() && !any_order)
    f_.at_offset(rules::HDR_013, 16,
                 "string section ends at " + std::to_string(end) + ", the blob at " + std::to_string(data_.size()));
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

// Kinds are gathered on the stack and appended this many at a time: a kind
// is a byte, a byte store may alias the vectors' own pointers, and these
// would then be reloaded and stored at every record.
constexpr size_t kKindBatch = 256;

// Room in `heads` for every record that can start in [cur, until), each at
// least a record head long; returns where the first goes. The walks write
// through a pointer they keep in a register: push_back() would load and
// store the vector's end at every record. heads_done() gives back the rest.
RecordHead* heads_room(RecordHeads& heads, uint32_t cur, uint32_t until) {
  const size_t at = heads.size();
  heads.resize(at + (cur < until ? (until - cur) / kTypeRecordSize + 1 : 0));
  return heads.data() + at;
}
void heads_done(RecordHeads& heads, const RecordHead* end) { heads.resize(static_cast<size_t>(end - heads.data())); }

// Appends the heads and kinds of the records from `cur` on, until one starts
// at or after `until` or none fits; returns where it stopped.
[[gnu::always_inline]] inline uint32_t append_records(const uint8_t* begin, uint32_t len, uint32_t cur, uint32_t until,
                                                     RecordHeads& heads, std::vector<uint8_t>& kinds) {
  uint8_t batch[kKindBatch];
  size_t n = 0;
  RecordHead* out = heads_room(heads, cur, until);
  while (cur < until) {
    const uint32_t size = record_size(begin, len, cur);
    if (!size) break;
    const RecordHead head = head_at(begin, cur);
    *out++ = head;
    batch[n++] = static_cast<uint8_t>(info_kind(head.info));
    if (n == kKindBatch) {
      kinds.insert(kinds.end(), batch, batch + n);
      n = 0;
    }
    cur += size;
  }
  kinds.insert(kinds.end(), batch, batch + n);
  heads_done(heads, out);
  return cur;
}

// Below this many bytes of records a second thread costs more than it saves.
constexpr uint32_t kTwoThreadWalkFrom = 256 * 1024;
// The runs of a two-thread walk, half on each thread.
constexpr size_t kRuns = 8;

}  // namespace

// The records of the type section, each sized by its kind and vlen.
void Parser::walk_types() {
  const uint32_t len = btf_.hdr_.type_len;
  btf_.heads_.reserve(len / kTypeRecordSize + 1);  // the most records that fit: see heads_room()
  btf_.kinds_.reserve(len / 16);
  uint32_t cur = 0;
  uint32_t id = btf_.first_id_;
  const bool two_threads = options_.concurrent && (len >= kTwoThreadWalkFrom || options_.concurrent_always);
  btf_.types_complete_ = two_threads ? walk_in_runs(cur, id) : walk_records(cur, id, len);
}

// From `cur` on, until a record starts at or after `until` (true) or one is
// malformed (a finding, false; `cur` is left before it).
bool Parser::walk_records(uint32_t& cur, uint32_t& id, uint32_t until) {
  const size_t before = btf_.heads_.size();
  cur = append_records(btf_.types_begin_, btf_.hdr_.type_len, cur, until, btf_.heads_, btf_.kinds_);
  return walked_to(cur, id, before, until);
}

// After a walk appended records from index `before` on and stopped at
// `cur`: counts them into `id`; false, with the finding, when it stopped
// short of `until`.
bool Parser::walked_to(uint32_t cur, uint32_t& id, size_t before, uint32_t until) {
  id += static_cast<uint32_t>(btf_.heads_.size() - before);
  if (cur >= until) return true;
  report_unsized(cur, id);
  return false;
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

namespace {

// Record sizes are multiples of 4, so the records start at multiples of 4.
// A chain started from the wrong word soon meets a word that is no record
// header, or runs into the true chain: the first word from `from` on whose
// chain runs for kSettled records (or to `until`); `until` when none does.
uint32_t settled_start(const uint8_t* begin, uint32_t len, uint32_t from, uint32_t until) {
  constexpr uint32_t kSettled = 64, kTries = 1024;
  for (uint32_t start = from, tries = 0; start < until && tries < kTries; start += 4, ++tries) {
    uint32_t cur = start, records = 0;
    for (uint32_t size; records < kSettled && cur < until && (size = record_size(begin, len, cur)); cur += size) ++records;
    if (records == kSettled || cur >= until) return start;
  }
  return until;
}

// The guesses of one thread's runs, and the records its walk stepped
// through before meeting each, kept from one walk to the next by each
// thread: a walk that appends records to memory the other core wrote last
// (malloc hands back what the other thread freed) runs at less than half
// speed, in about one process in three.
struct RunsOfAThread {
  std::array<GuessedRecords, kRuns / 2> guesses, stepped;
};
RunsOfAThread& runs_of_this_thread() {
  thread_local RunsOfAThread runs;
  for (auto* list : {&runs.guesses, &runs.stepped})
    for (GuessedRecords& g : *list) {
      g.heads.clear();
      g.kinds.clear();
      g.end = 0;
    }
  return runs;
}

// A guess: the records of the settled chain from `from` on, up to `until`.
void start_guess(const uint8_t* begin, uint32_t len, uint32_t from, uint32_t until, GuessedRecords& g) {
  g.end = settled_start(begin, len, from, until);
  g.heads.reserve((until - from) / 16);
  g.kinds.reserve((until - from) / 16);
}

// Several chains in one loop. Sizing a record waits for the load of its
// head, which waits for the size before it, so one chain leaves the core
// mostly idle; on a vmlinux one thread walks its records 1.3x as fast with
// two chains as with one, 2.1x with four.
struct Chain {
  uint32_t* cur;
  uint32_t until;
  RecordHeads* heads;
  std::vector<uint8_t>* kinds;
};
// The loops over the chains unrolled, so that each chain's offset stays in a
// register.
#define ELFMETA_EACH_CHAIN _Pragma("GCC unroll 8")
template <size_t K>
void append_chains(const uint8_t* begin, uint32_t len, std::array<Chain, K> chains) {
  if constexpr (K == 1) {
    *chains[0].cur = append_records(begin, len, *chains[0].cur, chains[0].until, *chains[0].heads, *chains[0].kinds);
  } else {
    uint8_t batch[K][kKindBatch];
    std::array<uint32_t, K> cur, size;
    std::array<RecordHead*, K> out;
    ELFMETA_EACH_CHAIN
    for (size_t k = 0; k < K; ++k) {
      cur[k] = *chains[k].cur;
      out[k] = heads_room(*chains[k].heads, cur[k], chains[k].until);
    }
    for (bool all = true; all;) {
      size_t n = 0;
      for (; n < kKindBatch; ++n) {
        ELFMETA_EACH_CHAIN
        for (size_t k = 0; k < K; ++k) {
          size[k] = cur[k] < chains[k].until ? record_size(begin, len, cur[k]) : 0;
          all &= size[k] != 0;
        }
        if (!all) break;
        ELFMETA_EACH_CHAIN
        for (size_t k = 0; k < K; ++k) {
          const RecordHead head = head_at(begin, cur[k]);
          *out[k]++ = head;
          batch[k][n] = static_cast<uint8_t>(info_kind(head.info));
          cur[k] += size[k];
        }
      }
      ELFMETA_EACH_CHAIN
      for (size_t k = 0; k < K; ++k) chains[k].kinds->insert(chains[k].kinds->end(), batch[k], batch[k] + n);
    }
    ELFMETA_EACH_CHAIN
    for (size_t k = 0; k < K; ++k) heads_done(*chains[k].heads, out[k]);
    // The others go on without the chain that stopped.
    const size_t stopped = static_cast<size_t>(std::find(size.begin(), size.end(), 0u) - size.begin());
    std::array<Chain, K - 1> rest;
    for (size_t k = 0, r = 0; k < K; ++k) {
      *chains[k].cur = cur[k];
      if (k != stopped) rest[r++] = chains[k];
    }
    append_chains<K - 1>(begin, len, rest);
  }
}
#undef ELFMETA_EACH_CHAIN

// Where to cut the records into kRuns runs of about as many records each
// (the time of a walk goes by records, not bytes; a vmlinux's first half by
// bytes holds a third of its records): the bytes per record around 32
// points, from a few records read at each once a chain from there has
// settled.
std::array<uint32_t, kRuns - 1> record_cuts(const uint8_t* begin, uint32_t len) {
  constexpr uint32_t kPoints = 32, kSettle = 16, kRecords = 64, kTries = 64;
  if (len == 0) return {};  // all runs empty (forced walks of tiny sections, in tests)
  std::array<double, kPoints> density{};  // records per byte in each 32nd of the section
  double total = 0;
  // The points' first lines are fetched at once rather than one point
  // after another (each is a miss to the last-level cache).
  for (uint32_t k = 0; k < kPoints; ++k)
    for (uint32_t line = 0; line < 2048; line += 64) __builtin_prefetch(begin + (uint64_t(len) * k / kPoints + line) % len);
  for (uint32_t k = 0; k < kPoints; ++k) {
    density[k] = 1.0 / 16;  // when no chain settles
    uint32_t start = static_cast<uint32_t>(uint64_t(len) * k / kPoints) & ~3u;
    for (uint32_t tries = 0; tries < kTries && start < len; ++tries, start += 4) {
      uint32_t cur = start, records = 0, from = start;
      while (records < kSettle + kRecords && cur < len) {
        const uint32_t size = record_size(begin, len, cur);
        if (!size) break;
        cur += size;
        if (++records == kSettle) from = cur;
      }
      if (records == kSettle + kRecords) {
        density[k] = double(kRecords) / (cur - from);
        break;
      }
    }
    total += density[k];
  }
  std::array<uint32_t, kRuns - 1> cuts{};
  double below = 0;
  uint32_t k = 0;
  for (uint32_t q = 0; q + 1 < kRuns; ++q) {
    const double wanted = total * (q + 1) / kRuns;
    while (k + 1 < kPoints && below + density[k] < wanted) below += density[k++];
    const double part = std::min(1.0, (wanted - below) / density[k]);
    cuts[q] = static_cast<uint32_t>(uint64_t(len) * (k + part) / kPoints) & ~3u;
  }
  return cuts;
}

}  // namespace

// A large section in kRuns runs of about as many records each, half per
// thread, each thread walking its runs at once: this one walks from the
// start beside guesses of its other runs; the other guesses the upper half.
// Where the walk reaches an offset of a guessed chain, the two agree from
// there on (a record's offset decides all that follow), and the guess is
// taken over; a guess the walk never meets is left, and the walk goes on
// alone. Once the walk has met all guesses, each thread copies its half's
// into place. The same records and findings as one walk; true when all
// records were sized.
bool Parser::walk_in_runs(uint32_t& cur, uint32_t& id) {
  const uint8_t* begin = btf_.types_begin_;
  const uint32_t len = btf_.hdr_.type_len;
  const std::array<uint32_t, kRuns - 1> cuts = record_cuts(begin, len);
  auto run_from = [&](size_t r) { return r == 0 ? 0 : cuts[r - 1]; };
  auto run_until = [&](size_t r) { return r + 1 == kRuns ? len : cuts[r]; };
  // For each run but the first: its guess, the records walked one by one
  // before the walk met it, and the first of its records taken over; each
  // thread's from runs_of_this_thread().
  std::array<GuessedRecords*, kRuns> guesses{}, stepped{};
  std::array<size_t, kRuns> taken_from{};
  auto take_runs = [&](size_t from) {
    RunsOfAThread& mine = runs_of_this_thread();
    for (size_t k = 0; k < kRuns / 2; ++k) {
      guesses[from + k] = &mine.guesses[k];
      stepped[from + k] = &mine.stepped[k];
    }
  };
  auto guessed_chain = [&](size_t r) {
    GuessedRecords& g = *guesses[r];
    start_guess(begin, len, run_from(r), run_until(r), g);
    return Chain{&g.end, run_until(r), &g.heads, &g.kinds};
  };
  auto walk_guesses = [&](std::array<Chain, kRuns / 2> chains, size_t from, size_t to) {
    append_chains(begin, len, chains);
    for (size_t r = from; r < to; ++r) taken_from[r] = guesses[r]->heads.size();  // none, until met
  };
  auto meet_guesses = [&](size_t from, size_t to, bool& sized) {
    for (size_t r = from; r < to && sized; ++r) taken_from[r] = meet_guess(cur, id, *guesses[r], *stepped[r], sized);
  };
  auto records_of = [&](size_t from, size_t to) {
    size_t n = 0;
    for (size_t r = from; r < to; ++r) n += stepped[r]->heads.size() + guesses[r]->heads.size() - taken_from[r];
    return n;
  };
  auto place = [&](size_t from, size_t to, size_t at) {
    auto copy = [&](const GuessedRecords& g, size_t first) {
      std::copy(g.heads.begin() + static_cast<std::ptrdiff_t>(first), g.heads.end(), btf_.heads_.begin() + static_cast<std::ptrdiff_t>(at));
      std::copy(g.kinds.begin() + static_cast<std::ptrdiff_t>(first), g.kinds.end(), btf_.kinds_.begin() + static_cast<std::ptrdiff_t>(at));
      at += g.heads.size() - first;
    };
    for (size_t r = from; r < to; ++r) {
      copy(*stepped[r], 0);
      copy(*guesses[r], taken_from[r]);
    }
  };
  constexpr size_t kHalf = kRuns / 2;
  bool lower_ok = true, upper_ok = true;
  size_t first_run = 0, lower_guessed = 0;  // records in the first run, in the lower half's others
  std::atomic<uint32_t> stage{0};           // 1: the lower half's guesses met; 2: the records sized
  run_beside(
      [&] {
        take_runs(kHalf);
        std::array<Chain, kHalf> chains;
        for (size_t k = 0; k < kHalf; ++k) chains[k] = guessed_chain(kHalf + k);
        walk_guesses(chains, kHalf, kRuns);
        await(stage, 1);
        upper_ok = lower_ok;
        meet_guesses(kHalf, kRuns, upper_ok);
        first_run = btf_.heads_.size();
        lower_guessed = records_of(1, kHalf);
        const size_t all = first_run + lower_guessed + records_of(kHalf, kRuns);
        btf_.heads_.resize(all);
        btf_.kinds_.resize(all);
        post(stage, 2);
        // The upper half is copied here, where its records are in the cache
        // (copied by the other thread, they came from this core's: twice as
        // slow).
        place(kHalf, kRuns, first_run + lower_guessed);
      },
      [&] {
        take_runs(0);  // the first run's are not used
        std::array<Chain, kHalf> chains;
        chains[0] = Chain{&cur, cuts[0], &btf_.heads_, &btf_.kinds_};
        for (size_t k = 1; k < kHalf; ++k) chains[k] = guessed_chain(k);
        const size_t before = btf_.heads_.size();
        walk_guesses(chains, 1, kHalf);
        lower_ok = walked_to(cur, id, before, cuts[0]);
        meet_guesses(1, kHalf, lower_ok);
        post(stage, 1);
        await(stage, 2);
        place(1, kHalf, first_run);
      });
  return lower_ok && upper_ok && walk_records(cur, id, len);
}

// Where the walk at `cur` meets `g`: the index of the first record of `g`
// it takes over (all after it follow), with `cur` moved past the last; the
// records it walks one by one until then go to `stepped`. `g.heads.size()`
// when it passes `g` without meeting it, or when a record on the way cannot
// be sized (reported; `sized` is then false).
size_t Parser::meet_guess(uint32_t& cur, uint32_t& id, const GuessedRecords& g, GuessedRecords& stepped, bool& sized) {
  size_t j = 0;
  for (;;) {
    while (j < g.heads.size() && g.heads[j].offset < cur) ++j;
    if (j == g.heads.size()) return j;
    if (g.heads[j].offset == cur) break;
    const uint32_t next = append_records(btf_.types_begin_, btf_.hdr_.type_len, cur, cur + 1, stepped.heads, stepped.kinds);
    if (next == cur) {
      report_unsized(cur, id);
      sized = false;
      return g.heads.size();
    }
    cur = next;
    ++id;
  }
  cur = g.end;
  id += static_cast<uint32_t>(g.heads.size() - j);
  return j;
}

}  // namespace elfmeta::btf
