// ORC-ENT-*: the fields of each entry, by layout.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/text.h"
#include "orc/orc_checks.h"
#include "orc/orc_rules.h"

namespace elfmeta::orc {
namespace {

// "8 (prevsp)": a register as stored and what it means in the layout.
std::string reg_text(Reg reg, uint8_t code) {
  return std::to_string(code) + " (" + (reg == kRegUnassigned ? std::string("unassigned") : std::string(reg_name(reg))) + ")";
}

// ORC-ENT-001..007, 009, 010 for one entry, with what the layout's row says
// the unwinder accepts (unwind_next_frame()) and objtool writes.
void check_entry(const OrcTable& t, size_t i, OrcFindings& f) {
  const LayoutInfo& l = layout_info(t.layout);
  const Entry& e = t.entries[i];
  if (e.reserved)
    f.at_entry(rules::ENT_001, i, "reserved bits " + hex(e.reserved) + " set in " + hex(e.bits) + " (" +
                                      std::string(l.name) + ")");
  if (e.type == kTypeInvalid) {
    f.at_entry(rules::ENT_003, i, "type " + std::to_string(e.raw_type) + " is not defined in layout " +
                                      std::string(layout_name(t.layout)));
    return;
  }
  // Before 6.4 sp_reg UNDEFINED marks entries without information; from
  // 6.4 their type does (the decoder gives both types undefined or
  // end_of_stack).
  const bool frame = is_frame(e);
  if (frame) {
    if (!l.accepts_cfa_base(e.sp_reg))
      f.at_entry(rules::ENT_002, i, std::string(type_name(e.type)) + " frame with sp_reg " + reg_text(e.sp_reg, e.sp_code));
    if (!l.accepts_bp_base(e.bp_reg)) f.at_entry(rules::ENT_002, i, "bp_reg " + reg_text(e.bp_reg, e.bp_code));
  } else if (!l.typed_no_info) {
    if (e.bp_code || e.sp_offset || e.bp_offset || e.raw_type || e.signal)
      f.at_entry(rules::ENT_005, i, "sp_reg undefined with payload " + hex_bytes(e.bytes));
  } else if (e.sp_code || e.bp_code || e.sp_offset || e.bp_offset || e.signal) {
    f.at_entry(rules::ENT_004, i, std::string(type_name(e.type)) + " entry with payload " + hex_bytes(e.bytes));
  }
  if (!frame) return;
  if (e.end) f.at_entry(rules::ENT_005, i, "end bit on a " + std::string(type_name(e.type)) + " frame");
  if (e.type == kTypeCall && e.sp_reg == kRegSp && (e.sp_offset < 8 || e.sp_offset % 8))
    f.at_entry(rules::ENT_006, i, "call frame with sp" + std::string(e.sp_offset < 0 ? "" : "+") + std::to_string(e.sp_offset));
  if (e.bp_reg == kRegPrevSp &&
      (e.bp_offset >= 0 || e.bp_offset % 8 || (e.sp_reg == kRegSp && -e.bp_offset > e.sp_offset)))
    f.at_entry(rules::ENT_007, i, "saved RBP at prevsp" + std::string(e.bp_offset < 0 ? "" : "+") +
                                      std::to_string(e.bp_offset) + " with " + describe(e));
  if (e.bp_reg == kRegUndefined && e.bp_offset)
    f.at_entry(rules::ENT_007, i, "bp undefined with bp_offset " + std::to_string(e.bp_offset));
  if (e.signal && e.type == kTypeCall) f.at_entry(rules::ENT_009, i, "signal bit on a call frame");
  if ((e.type == kTypeRegs || e.type == kTypeRegsPartial) &&
      ((e.sp_reg != kRegSp && e.sp_reg != kRegDx) || e.bp_reg != kRegUndefined))
    f.at_entry(rules::ENT_010, i, describe(e));
}

}  // namespace

void check_entries(const OrcTable& t, OrcFindings& f, size_t from, size_t to) {
  // A kernel has a few hundred distinct entries among hundreds of
  // thousands: remember payloads found clean (a direct-mapped cache). No
  // test for a repeat of the previous entry: objtool writes an entry where
  // the state changes, so it would only add a mispredicted branch.
  constexpr size_t kSlots = 1024;
  std::vector<uint64_t> clean(kSlots, ~uint64_t(0));
  const uint8_t* raw = t.unwind->data.data();
  const size_t n = std::min(t.size(), to);
  // One 8-byte load (2 bytes of the next entry masked off) for all but
  // the last entry: two narrow loads would cost more.
  const size_t wide = t.unwind->data.size() >= kEntrySize + 2 ? std::min(n, (t.unwind->data.size() - 2) / kEntrySize) : 0;
  auto slot_of = [](uint64_t key) { return (key * 0x9E3779B97F4A7C15ull) >> 54; };
  auto check = [&](size_t i, uint64_t key) {
    const size_t slot = slot_of(key);
    if (clean[slot] == key) return;
    const size_t before = f.findings();
    check_entry(t, i, f);
    if (f.findings() == before) clean[slot] = key;
  };
  // The hits in a loop of their own, free of the call a miss makes.
  const uint64_t* const known = clean.data();
  for (size_t i = from; i < wide;) {
    uint64_t key = 0;
    for (; i < wide; ++i) {
      std::memcpy(&key, raw + i * kEntrySize, 8);
      key &= 0xffffffffffffull;
      if (known[slot_of(key)] != key) break;
    }
    if (i == wide) break;
    check(i++, key);
  }
  for (size_t i = std::max(from, wide); i < n; ++i) {
    uint64_t key = 0;
    std::memcpy(&key, raw + i * kEntrySize, kEntrySize);
    check(i, key);
  }
}

}  // namespace elfmeta::orc
