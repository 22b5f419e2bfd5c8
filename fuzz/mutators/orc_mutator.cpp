#include "fuzz/mutators/orc_mutator.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "fuzz/orc_layout_byte.h"
#include "orc/orc_format.h"

namespace elfmeta::fuzz {
namespace {

using EntryBytes = std::array<uint8_t, orc::kEntrySize>;

// fuzz_orc's input as tables. Bytes past the last whole slot or entry are
// kept, so a decode/encode round trip is the identity.
struct OrcInput {
  std::vector<uint64_t> addresses;  // absolute targets of the .orc_unwind_ip slots
  uint8_t layout_byte = 0;
  std::vector<EntryBytes> entries;
  std::vector<uint8_t> ip_tail, unwind_tail;

  // The entry layout fuzz_orc checks with (fuzz/orc_layout_byte.h).
  orc::Layout layout() const { return orc_layout_byte(layout_byte).mutation_layout(); }
};

uint64_t slot_address(size_t i) { return kOrcIpAddress + orc::kIpSize * i; }

std::optional<OrcInput> decode(std::span<const uint8_t> in) {
  if (in.size() < 3) return std::nullopt;
  const size_t head = size_t(in[0]) | size_t(in[1]) << 8;
  if (head + 3 > in.size()) return std::nullopt;  // the layout byte must follow the slots
  OrcInput o;
  const uint8_t* ip = in.data() + 2;
  for (size_t i = 0; i + orc::kIpSize <= head; i += orc::kIpSize) {
    int32_t rel;
    std::memcpy(&rel, ip + i, 4);
    o.addresses.push_back(slot_address(i / orc::kIpSize) + static_cast<uint64_t>(int64_t(rel)));
  }
  o.ip_tail.assign(ip + head / orc::kIpSize * orc::kIpSize, ip + head);
  o.layout_byte = in[2 + head];
  const auto unwind = in.subspan(3 + head);
  for (size_t i = 0; i + orc::kEntrySize <= unwind.size(); i += orc::kEntrySize) {
    EntryBytes e;
    std::memcpy(e.data(), unwind.data() + i, orc::kEntrySize);
    o.entries.push_back(e);
  }
  o.unwind_tail.assign(unwind.begin() + static_cast<ptrdiff_t>(unwind.size() / orc::kEntrySize * orc::kEntrySize),
                       unwind.end());
  return o;
}

std::optional<std::vector<uint8_t>> encode(const OrcInput& o) {
  const size_t head = o.addresses.size() * orc::kIpSize + o.ip_tail.size();
  if (head > 0xffff) return std::nullopt;
  std::vector<uint8_t> out{static_cast<uint8_t>(head), static_cast<uint8_t>(head >> 8)};
  for (size_t i = 0; i < o.addresses.size(); ++i) {
    const auto rel = static_cast<int32_t>(static_cast<uint32_t>(o.addresses[i] - slot_address(i)));
    const auto* p = reinterpret_cast<const uint8_t*>(&rel);
    out.insert(out.end(), p, p + 4);
  }
  out.insert(out.end(), o.ip_tail.begin(), o.ip_tail.end());
  out.push_back(o.layout_byte);
  for (const auto& e : o.entries) out.insert(out.end(), e.begin(), e.end());
  out.insert(out.end(), o.unwind_tail.begin(), o.unwind_tail.end());
  return out;
}

class OrcMutator {
 public:
  OrcMutator(OrcInput& o, Rng& rng) : o_(o), rng_(rng) {}

  bool run() {
    for (int attempt = 0; attempt < 8; ++attempt)
      if (apply(pick(rng_, 12))) return true;
    return false;
  }

 private:
  bool apply(uint32_t which) {
    switch (which) {
      case 0: return swap_rows();
      case 1: return duplicate_row();
      case 2: return delete_row();
      case 3: case 4: case 5: return change_field();
      case 6: case 7: return move_address();
      case 8: return flip_layout();
      case 9: return insert_row();
      case 10: return misalign_tables();
      case 11: return replace_entry();
    }
    return false;
  }

  size_t rows() const { return std::min(o_.addresses.size(), o_.entries.size()); }
  size_t any_row() { return pick(rng_, rows()); }

  bool swap_rows() {
    if (rows() < 2) return false;
    const size_t a = any_row(), b = chance(rng_, 2) ? std::min(a + 1, rows() - 1) : any_row();
    std::swap(o_.addresses[a], o_.addresses[b]);
    std::swap(o_.entries[a], o_.entries[b]);
    return true;
  }
  bool duplicate_row() {
    if (!rows()) return false;
    const size_t i = any_row();
    o_.addresses.insert(o_.addresses.begin() + static_cast<ptrdiff_t>(i), o_.addresses[i]);
    o_.entries.insert(o_.entries.begin() + static_cast<ptrdiff_t>(i), o_.entries[i]);
    return true;
  }
  bool delete_row() {
    if (!rows()) return false;
    const size_t i = any_row();
    o_.addresses.erase(o_.addresses.begin() + static_cast<ptrdiff_t>(i));
    o_.entries.erase(o_.entries.begin() + static_cast<ptrdiff_t>(i));
    return true;
  }
  // A terminator, an end-of-stack or a call frame at a new address.
  bool insert_row() {
    const size_t i = pick(rng_, rows() + 1);
    const uint64_t at = rows() ? o_.addresses[std::min(i, rows() - 1)] + pick(rng_, 17) : kImageTextStart;
    const orc::Entry e = pick_of(rng_, {orc::terminator(), orc::end_of_stack(), orc::call_frame(8), orc::call_frame(16)});
    o_.addresses.insert(o_.addresses.begin() + static_cast<ptrdiff_t>(i), at);
    o_.entries.insert(o_.entries.begin() + static_cast<ptrdiff_t>(i), orc::encode(e, o_.layout()));
    return true;
  }

  // One field of one entry, through the layout's decoder and encoder.
  bool change_field() {
    if (o_.entries.empty()) return false;
    EntryBytes& bytes = o_.entries[pick(rng_, o_.entries.size())];
    orc::Entry e = orc::decode(bytes.data(), o_.layout());
    constexpr uint8_t kRegs[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14, 15};
    constexpr int16_t kOffsets[] = {0, 1, -1, 7, 8, -8, 16, -16, 24, 0x7fff, -0x8000, 0x7ff8};
    switch (pick(rng_, 7)) {
      // A register code as stored, whatever it means in the layout.
      case 0: e.sp_reg = orc::kRegUnassigned, e.sp_code = pick_of(rng_, kRegs); break;
      case 1: e.bp_reg = orc::kRegUnassigned, e.bp_code = pick_of(rng_, kRegs); break;
      case 2: e.type = static_cast<uint8_t>(pick(rng_, 8)); break;
      case 3: (chance(rng_, 2) ? e.end : e.signal) ^= true; break;
      case 4: e.sp_offset = pick_of(rng_, kOffsets); break;
      case 5: e.bp_offset = pick_of(rng_, kOffsets); break;
      default: e.reserved = static_cast<uint16_t>(0x800u << pick(rng_, 5));  // the layout keeps its reserved bits
    }
    bytes = orc::encode(e, o_.layout());
    return true;
  }
  bool replace_entry() {
    if (o_.entries.empty()) return false;
    const size_t i = pick(rng_, o_.entries.size());
    o_.entries[i] = o_.entries[pick(rng_, o_.entries.size())];
    return true;
  }

  // Addresses equal to a neighbour's, going backwards, outside the text,
  // one byte off.
  bool move_address() {
    if (o_.addresses.empty()) return false;
    const size_t i = pick(rng_, o_.addresses.size());
    uint64_t& a = o_.addresses[i];
    const uint64_t prev = i ? o_.addresses[i - 1] : kImageTextStart;
    const uint64_t next = i + 1 < o_.addresses.size() ? o_.addresses[i + 1] : kImageTextEnd;
    switch (pick(rng_, 8)) {
      case 0: a = prev; break;
      case 1: a = next; break;
      case 2: a = prev - 1 - pick(rng_, 16); break;
      case 3: a = pick_of(rng_, {uint64_t(0), kImageTextStart - 1, kImageTextEnd, kImageTextEnd + 1, kOrcIpAddress}); break;
      case 4: a = slot_address(i) + pick_of(rng_, {uint64_t(0x7fffffff), uint64_t(-0x80000000ll)}); break;
      case 5: a = kImageTextEnd - 1; break;
      default: a += chance(rng_, 2) ? 1 : uint64_t(-1);
    }
    return true;
  }

  bool flip_layout() {
    o_.layout_byte ^= static_cast<uint8_t>(chance(rng_, 4) ? rng_() : 1u << pick(rng_, 4));
    return true;
  }

  // Tables of different lengths: the rule that compares them runs.
  bool misalign_tables() {
    if (chance(rng_, 2) && !o_.entries.empty()) {
      o_.entries.erase(o_.entries.begin() + pick(rng_, o_.entries.size()));
    } else if (!o_.addresses.empty()) {
      o_.addresses.erase(o_.addresses.begin() + pick(rng_, o_.addresses.size()));
    } else {
      return false;
    }
    return true;
  }

  OrcInput& o_;
  Rng& rng_;
};

}  // namespace

std::optional<std::vector<uint8_t>> mutate_orc(std::span<const uint8_t> input, Rng& rng) {
  auto o = decode(input);
  if (!o || !OrcMutator(*o, rng).run()) return std::nullopt;
  return encode(*o);
}

std::optional<std::vector<uint8_t>> cross_over_orc(std::span<const uint8_t> a, std::span<const uint8_t> b, Rng& rng) {
  auto x = decode(a);
  const auto y = decode(b);
  if (!x || !y) return std::nullopt;
  const size_t x_rows = std::min(x->addresses.size(), x->entries.size());
  const size_t y_rows = std::min(y->addresses.size(), y->entries.size());
  if (!y_rows) return std::nullopt;
  // x's rows up to a cut, then y's from a cut: both tables stay aligned.
  const size_t cut = pick(rng, x_rows + 1), from = pick(rng, y_rows);
  x->addresses.resize(cut);
  x->entries.resize(cut);
  x->addresses.insert(x->addresses.end(), y->addresses.begin() + static_cast<ptrdiff_t>(from), y->addresses.begin() + static_cast<ptrdiff_t>(y_rows));
  x->entries.insert(x->entries.end(), y->entries.begin() + static_cast<ptrdiff_t>(from), y->entries.begin() + static_cast<ptrdiff_t>(y_rows));
  x->ip_tail.clear();
  x->unwind_tail.clear();
  return encode(*x);
}

}  // namespace elfmeta::fuzz
