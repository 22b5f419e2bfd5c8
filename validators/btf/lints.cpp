// Warnings on top of the kernel's verdict: records the kernel accepts but no
// producer should emit. Types that already have an error are skipped.
#include "btf/lints.h"

#include <string>
#include <unordered_map>

#include "btf/btf_rules.h"
#include "btf/type_size.h"
#include "core/text.h"

namespace elfmeta::btf {
namespace {

class Linter {
 public:
  Linter(const Btf& btf, Findings& f) : btf_(btf), f_(f) {}

  void run() {
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      if (f_.flagged(id)) continue;
      const TypeRef t = btf_.type(id);
      check_name_start(id, t.name_off(), "type", -1, 0);
      switch (t.kind()) {
        case kInt: lint_int(id, t); break;
        case kStruct:
        case kUnion: lint_aggregate(id, t); break;
        case kEnum:
        case kEnum64: lint_enum(id, t); break;
        case kDatasec: lint_datasec(id, t); break;
        case kDeclTag:
        case kTypeTag: lint_tag_value(id, t); break;
        default: break;
      }
    }
  }

 private:
  // Producers point names at the start of a string.
  // `item` is the member/enumerator index, or -1 for the record's own name.
  void check_name_start(uint32_t id, uint32_t off, const char* what, int64_t item, uint64_t at) {
    if (off == 0 || !btf_.name_offset_valid(off)) return;
    const Btf* owner = btf_.string_owner(off);
    const uint32_t rel = off - owner->string_start();
    if (rel == 0) return;
    const char* s = owner->string_at(off);
    if (*owner->string_at(off - 1) != 0)
      f_.at_type(rules::STR_008, id,
                 std::string(what) + (item >= 0 ? " " + std::to_string(item) : "") + " name offset " + hex(off) +
                     " points into the middle of a string ('" + printable(s) + "')",
                 at);
  }

  // No kernel counterpart: INTs the kernel accepts but no producer should
  // emit. Reports BTF-INT-008, BTF-INT-009.
  void lint_int(uint32_t id, TypeRef t) {
    const uint32_t data = t.payload(0), bits = int_bits(data), enc = int_encoding(data), size = t.size();
    const bool size_ok = size == 1 || size == 2 || size == 4 || size == 8 || size == 16;
    const bool is_bool = enc == kIntBool;
    if (!size_ok || int_offset(data) || (bits != size * 8 && !(is_bool && bits == 1)))
      f_.at_type(rules::INT_008, id,
                 "size " + std::to_string(size) + ", bit_offset " + std::to_string(int_offset(data)) + ", nr_bits " +
                     std::to_string(bits),
                 12);
    else if ((is_bool && bits != 1 && bits != 8) || (enc == kIntChar && size != 1))
      f_.at_type(rules::INT_009, id, std::string(is_bool ? "BOOL" : "CHAR") + " of " + std::to_string(size) + " bytes", 12);
  }

  // No kernel counterpart. Reports BTF-AGG-017.
  void lint_aggregate(uint32_t id, TypeRef t) {
    bool has_bitfield = false;
    for (uint32_t i = 0; i < t.vlen(); ++i) {
      const Member m = member_at(t, i);
      check_name_start(id, m.name_off, "member", i, 12 + 12ull * i);
      has_bitfield |= member_bitfield_size_of(t, m) != 0;
    }
    if (t.kflag() && !has_bitfield) f_.at_type(rules::AGG_017, id, "kind_flag is set but no member is a bitfield", 4);
  }

  // No kernel counterpart. Reports BTF-ENUM-007, BTF-ENUM-008.
  void lint_enum(uint32_t id, TypeRef t) {
    const bool wide = t.kind() == kEnum64, is_signed = t.kflag();
    const uint32_t size = t.size();
    // With no enumerators nothing was lost: libbpf's distilled base
    // (pahole's distilled_base, .BTF.base) keeps an enum's name and size only,
    // and writes an ENUM64 so.
    if (!wide && size == 8 && t.vlen() > 0) {
      f_.at_type(rules::ENUM_008, id, "8-byte enum encoded as ENUM keeps only 32-bit values", 8);
      return;
    }
    for (uint32_t i = 0; i < t.vlen(); ++i) {
      const EnumValue e = enum_at(t, i);
      const uint64_t at = 12 + (wide ? 12ull : 8ull) * i;
      check_name_start(id, e.name_off, "enumerator", i, at);
      if (size >= 8 || (!wide && size >= 4)) continue;
      const unsigned bits = size * 8;
      bool fits;
      if (is_signed) {
        const int64_t v = wide ? static_cast<int64_t>(e.value) : static_cast<int32_t>(e.value);
        fits = v >= -(int64_t(1) << (bits - 1)) && v < (int64_t(1) << (bits - 1));
      } else {
        fits = e.value < (uint64_t(1) << bits);
      }
      if (!fits)
        f_.at_type(rules::ENUM_007, id,
                   "enumerator " + quoted_name(btf_, e.name_off) + " = " +
                       (is_signed ? std::to_string(wide ? static_cast<int64_t>(e.value) : static_cast<int32_t>(e.value))
                                  : std::to_string(e.value)) +
                       " does not fit " + std::to_string(size) + (is_signed ? " signed" : " unsigned") + " bytes",
                   at + 4);
    }
  }

  // No kernel counterpart. Reports BTF-DATASEC-013, BTF-DATASEC-015.
  void lint_datasec(uint32_t id, TypeRef t) {
    if (t.name_off() && btf_.name_offset_valid(t.name_off())) {
      auto [it, inserted] = datasec_names_.emplace(btf_.name_of(t.name_off()), id);
      if (!inserted)
        f_.at_type(rules::DATASEC_015, id, "section " + quoted_name(btf_, t.name_off()) + " is also type " + std::to_string(it->second));
    }
    for (uint32_t i = 0; i < t.vlen(); ++i) {
      const VarSecInfo e = secinfo_at(t, i);
      if (!btf_.has_type(e.type) || btf_.type(e.type).kind() != kVar) continue;
      const auto size = sizeof_type(btf_, btf_.type(e.type).type());
      if (size && e.size > *size)
        f_.at_type(rules::DATASEC_013, id,
                   "entry " + std::to_string(i) + " (" + quoted_name(btf_, btf_.type(e.type).name_off()) + ") is " +
                       std::to_string(e.size) + " bytes, its type " + std::to_string(*size),
                   12 + 12ull * i + 8);
    }
  }

  // No kernel counterpart. Reports BTF-STR-011.
  void lint_tag_value(uint32_t id, TypeRef t) {
    if (!btf_.name_offset_valid(t.name_off())) return;
    for (unsigned char c : btf_.name_of(t.name_off()))
      if (c < 0x20 || c == 0x7f) {
        f_.at_type(rules::STR_011, id, "tag value '" + printable(btf_.name_of(t.name_off())) + "' has control bytes");
        return;
      }
  }

  const Btf& btf_;
  Findings& f_;
  std::unordered_map<std::string_view, uint32_t> datasec_names_;
};

}  // namespace

void lint(const Btf& btf, Findings& findings) { Linter(btf, findings).run(); }

}  // namespace elfmeta::btf
