// Per-record checks: what the kernel verifies for each record in isolation,
// before it follows any reference (its "check_meta" phase). Every violation
// of a record is reported, not only the first.
#include "btf/check_records.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "btf/btf_rules.h"
#include "btf/kind_mask.h"
#include "btf/names.h"
#include "core/text.h"

namespace elfmeta::btf {
namespace {

constexpr uint32_t roundup_bytes(uint32_t bits) { return (bits >> 3) + ((bits & 7) != 0); }
constexpr bool is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

// Offsets of payload items inside a record, for locating findings.
constexpr uint64_t item_offset(uint32_t item_size, uint32_t i) { return kTypeRecordSize + uint64_t(item_size) * i; }

class RecordChecker {
 public:
  RecordChecker(const Btf& btf, Findings& f)
      : btf_(btf), f_(f), kernel_(f.kernel()), max_name_(kernel_.max_name_length()),
        own_names_(reinterpret_cast<const uint8_t*>(btf.string_at(btf.string_start())), btf.header().str_len) {}

  // btf_check_meta(): what every record gets, whatever its kind (a kind the
  // target release knows, info bits it allows, a name offset inside the
  // strings), then its kind's check_meta. Reports BTF-TYPE-002, BTF-STR-006,
  // the gated kinds' rules (kind_supported()), and what the per-kind checks report.
  void check(uint32_t id) {
    const TypeRef t = btf_.type(id);
    id_ = id;
    if (!kind_supported(id, t)) return;
    // From 7.2 those bits are part of kind and vlen (btf_check_meta() no
    // longer masks): the kind and vlen rules judge them.
    // Before, btf_check_meta() refuses them before it reads the rest of the
    // record, whose kind and vlen they would change.
    if ((t.info() & ~kInfoMask) && !kernel_.has(Gate::kWideInfo)) {
      f_.at_type(rules::TYPE_002, id, "info " + hex(t.info()) + " has bits outside " + hex(kInfoMask), 4);
      return;
    }
    name_ok_ = btf_.name_offset_valid(t.name_off());
    if (!name_ok_)
      f_.at_type(rules::STR_006, id,
                 "name_off " + hex(t.name_off()) + " is outside the " + std::to_string(btf_.strings_end()) +
                     " bytes of strings");
    switch (t.kind()) {
      case kInt: return check_int(id, t);
      case kPtr:
      case kTypedef:
      case kVolatile:
      case kConst:
      case kRestrict:
      case kTypeTag: return check_reference(id, t);
      case kArray: return check_array(id, t);
      case kStruct:
      case kUnion: return check_aggregate(id, t);
      case kEnum:
      case kEnum64: return check_enum(id, t);
      case kFwd: return check_fwd(id, t);
      case kFunc: return check_func(id, t);
      case kFuncProto: return check_func_proto(id, t);
      case kVar: return check_var(id, t);
      case kDatasec: return check_datasec(id, t);
      case kFloat: return check_float(id, t);
      case kDeclTag: return check_decl_tag(id, t);
      default: return;  // the parser stops at unknown kinds
    }
  }

  // Whether the screen knows the target kernel's rules: only the newest
  // kernels' (see screen_).
  bool screens() const { return screen_; }

  // Marks in `dirty` (a bit per own type) every record that is not of the
  // common shapes or not plainly clean: check() would find nothing in the
  // others, and their messages need not be prepared. Conservative: a
  // marked record may be clean. Kind by kind, because the kinds of a
  // vmlinux alternate (FUNC, FUNC_PROTO, FUNC, ...) and a branch on each
  // record's kind mostly goes the wrong way.
  void screen(std::vector<uint64_t>& dirty) const {
    std::vector<uint64_t> screened(dirty.size(), 0);
    screen_kinds<kFunc>(dirty, screened, [this](TypeRef t) { return (t.info() & ~1u) == plain(t) && own_identifier(t.name_off()); });
    screen_kinds<kFuncProto>(dirty, screened, [this](TypeRef t) {
      return (t.info() & ~0xffffu) == plain(t) && !t.name_off() && plain_parameters(t);
    });
    screen_kinds<kPtr, kConst, kVolatile, kRestrict>(dirty, screened, [](TypeRef t) {
      return t.info() == plain(t) && !t.name_off() && t.type() <= kMaxTypeId;
    });
    screen_kinds<kTypedef>(dirty, screened, [this](TypeRef t) {
      return t.info() == plain(t) && t.type() <= kMaxTypeId && own_identifier(t.name_off());
    });
    screen_kinds<kStruct, kUnion>(dirty, screened, [this](TypeRef t) {
      return (t.info() & ~0x8000ffffu) == plain(t) && optional_identifier(t.name_off()) && plain_members(t);
    });
    screen_kinds<kEnum, kEnum64>(dirty, screened, [this](TypeRef t) {
      return (t.info() & ~0x8000ffffu) == plain(t) && t.size() <= 8 && is_pow2(t.size()) &&
             optional_identifier(t.name_off()) && plain_enumerators(t);
    });
    screen_kinds<kArray>(dirty, screened, [](TypeRef t) {
      return t.info() == plain(t) && !t.name_off() && !t.size() && t.payload(0) - 1 < kMaxTypeId &&
             t.payload(1) - 1 < kMaxTypeId;
    });
    screen_kinds<kVar>(dirty, screened, [this](TypeRef t) {
      return t.info() == plain(t) && t.type() - 1 < kMaxTypeId && t.payload(0) <= 1 && own_identifier(t.name_off());
    });
    // The other kinds are always checked.
    const uint32_t n = btf_.own_count();
    for (uint32_t w = 0; w < dirty.size(); ++w) {
      dirty[w] |= ~screened[w] & chunk_bits(std::min(64u, n - w * 64));
    }
  }

 private:
  const char* name(uint32_t off) const { return btf_.string_at(off); }

  // A record's info with its kind alone: no kind_flag, no vlen, no stray bits.
  static uint32_t plain(TypeRef t) { return t.kind() << 24; }
  // Runs `clean` on every record of one of `Kinds`, marks them in
  // `screened`, and in `dirty` those it does not find clean.
  template <uint8_t... Kinds, typename Clean>
  void screen_kinds(std::vector<uint64_t>& dirty, std::vector<uint64_t>& screened, Clean clean) const {
    for_each_of_kinds<Kinds...>(btf_.kinds(), btf_.own_count(), [&](uint32_t local) {
      const uint64_t bit = uint64_t(1) << (local % 64);
      screened[local / 64] |= bit;
      if (!clean(btf_.own_type(local))) dirty[local / 64] |= bit;
    });
  }

  // --- the screen: names in this blob's own strings, items one by one.
  // A required name: offset 0 is none, even where a broken string section
  // does not start with a NUL.
  // Without branches (& on bools): the loop of reads_few_params() reads
  // names that count for nothing.
  bool own_identifier(uint32_t off) const {
    return (off != 0) & (off <= kMaxNameOffset) & own_names_.starts_identifier(off - btf_.string_start());
  }
  bool optional_identifier(uint32_t off) const { return (off == 0) | own_identifier(off); }
  bool plain_parameters(TypeRef t) const {
    const uint32_t n = t.vlen();
    bool plain = true;
    if (!reads_few_params(t, types_end_)) {
      for (uint32_t i = 0; i < n; ++i) plain &= optional_identifier(param_at(t, i).name_off);
      return plain;
    }
    // Past vlen, offset 0 (a word in the cache), not whatever the next
    // record holds there (mostly a FUNC's name, a miss); masked, not chosen.
    for (uint32_t i = 0; i < kFewParams; ++i) {
      const uint32_t exists = static_cast<uint32_t>(static_cast<int32_t>(i - n) >> 31);  // all ones for i < n
      plain &= optional_identifier(param_at(t, i).name_off & exists);
    }
    return plain;
  }
  bool plain_members(TypeRef t) const {
    const bool is_union = t.kind() == kUnion;
    uint32_t last_offset = 0;
    for (uint32_t i = 0, n = t.vlen(); i < n; ++i) {
      const Member m = member_at(t, i);
      const uint32_t offset = member_bit_offset_of(t, m);
      if (!optional_identifier(m.name_off) || m.type - 1 >= kMaxTypeId || (is_union && offset) ||
          offset < last_offset || roundup_bytes(offset) > t.size())
        return false;
      last_offset = offset;
    }
    return true;
  }
  bool plain_enumerators(TypeRef t) const {
    for (uint32_t i = 0, n = t.vlen(); i < n; ++i)
      if (!own_identifier(enum_at(t, i).name_off)) return false;
    return true;
  }

  // A kind (or kind_flag meaning) the target kernel does not know yet: that
  // is the finding, and the record's other checks would be those of a newer
  // kernel.
  bool kind_supported(uint32_t id, TypeRef t) {
    const uint32_t kind = t.kind();
    // The message is built only for a finding: this runs for every record.
    auto missing = [&](Gate g, const char* what = nullptr) {
      if (kernel_.has(g)) return false;
      f_.unsupported_at_type(g, id, what ? std::string(what) : std::string(kind_name(kind)) + " kind", 4);
      return true;
    };
    switch (kind) {
      case kFunc:
        if (missing(Gate::kFuncKinds)) return false;
        return !(t.vlen() == 1 && missing(Gate::kFuncLinkage, "FUNC with global linkage"));
      case kFuncProto: return !missing(Gate::kFuncKinds);
      case kVar:
      case kDatasec: return !missing(Gate::kVarDatasec);
      case kFloat: return !missing(Gate::kFloat);
      case kDeclTag:
        if (missing(Gate::kDeclTag)) return false;
        return !(t.kflag() && missing(Gate::kTagKindFlag, "DECL_TAG with kind_flag (attribute)"));
      case kTypeTag:
        if (missing(Gate::kTypeTag)) return false;
        return !(t.kflag() && missing(Gate::kTagKindFlag, "TYPE_TAG with kind_flag (attribute)"));
      case kEnum64: return !missing(Gate::kEnum64);
      case kEnum: return !(t.kflag() && missing(Gate::kEnum64, "ENUM with kind_flag (signed)"));
      case kStruct:
      case kUnion:
      case kFwd:
        if (!t.kflag() || kernel_.has(Gate::kFuncKinds)) return true;
        f_.unsupported_at_type(Gate::kFuncKinds, id, std::string(kind_name(kind)) + " with kind_flag", 4);
        return false;
      default: return true;
    }
  }
  // A name that must be a C identifier; `required` forbids anonymity.
  // A name longer than an older target allows, or with a dot it does not
  // allow, is that target's finding (reported here), not the caller's. VAR
  // names could always contain dots.
  bool identifier_ok(uint32_t off, bool required, bool dots_always = false) {
    if (!kernel_.has(Gate::kNameValidation)) return true;
    if (off == 0) return !required;
    const uint32_t rel = off - btf_.string_start();
    if (off >= btf_.string_start()) {
      if (!own_names_.starts_identifier(rel)) return false;
      if (!old_name_rules_) return true;
    }
    const size_t length = identifier_length(name(off), btf_.string_section_end(off));
    if (length == kNotIdentifier) return false;
    if (length > max_name_) {
      f_.unsupported_at_type(Gate::kLongNames, id_, "name of " + std::to_string(length) + " bytes");
      return true;
    }
    if (!dots_always && !kernel_.has(Gate::kDotsInNames) && std::memchr(name(off), '.', length))
      f_.unsupported_at_type(Gate::kDotsInNames, id_, "name '" + printable(name(off)) + "' with a '.'");
    return true;
  }
  std::string name_problem(uint32_t off) const {
    return off == 0 ? std::string("is missing") : "'" + printable(name(off)) + "' " + identifier_problem(name(off));
  }

  // btf_int_check_meta(). Reports BTF-INT-001..006.
  void check_int(uint32_t id, TypeRef t) {
    if (t.vlen()) f_.at_type(rules::INT_001, id, "vlen is " + std::to_string(t.vlen()), 4);
    if (t.kflag()) f_.at_type(rules::INT_002, id, "kind_flag is set", 4);
    const uint32_t data = t.payload(0);
    if (data & ~0x0fffffffu) f_.at_type(rules::INT_003, id, "int data " + hex(data) + " has bits 28-31 set", 12);
    const uint32_t bits = int_bits(data) + int_offset(data);
    if (bits > 128)
      f_.at_type(rules::INT_004, id,
                 "bit_offset " + std::to_string(int_offset(data)) + " + nr_bits " + std::to_string(int_bits(data)) +
                     " = " + std::to_string(bits),
                 12);
    else if (bits > 64 && !kernel_.has(Gate::kInt128))
      f_.unsupported_at_type(Gate::kInt128, id, std::to_string(bits) + "-bit INT", 12);
    else if (roundup_bytes(bits) > t.size())
      f_.at_type(rules::INT_005, id,
                 std::to_string(bits) + " bits do not fit in " + std::to_string(t.size()) + " bytes", 12);
    const uint32_t enc = int_encoding(data);
    if (enc && enc != kIntSigned && enc != kIntChar && enc != kIntBool)
      f_.at_type(rules::INT_006, id, "encoding " + hex(enc), 12);
  }

  // btf_ref_type_check_meta(): PTR, TYPEDEF, VOLATILE, CONST, RESTRICT,
  // TYPE_TAG. Reports BTF-REF-001..006.
  void check_reference(uint32_t id, TypeRef t) {
    const uint32_t kind = t.kind();
    if (t.vlen()) f_.at_type(rules::REF_001, id, "vlen is " + std::to_string(t.vlen()), 4);
    if (t.kflag() && kind != kTypeTag) f_.at_type(rules::REF_002, id, "kind_flag is set", 4);
    if (t.type() > kMaxTypeId) f_.at_type(rules::REF_003, id, "target type id " + std::to_string(t.type()), 8);
    if (!name_ok_) return;
    if (kind == kTypedef) {
      if (!identifier_ok(t.name_off(), true)) f_.at_type(rules::REF_004, id, "typedef name " + name_problem(t.name_off()));
    } else if (kind == kTypeTag) {
      if (!*name(t.name_off())) f_.at_type(rules::REF_005, id, "type tag value is empty");
    } else if (t.name_off()) {
      f_.at_type(rules::REF_006, id, std::string(kind_name(kind)) + " is named '" + printable(name(t.name_off())) + "'");
    }
  }

  // btf_array_check_meta(). Reports BTF-ARRAY-002..004.
  void check_array(uint32_t id, TypeRef t) {
    if (t.name_off()) f_.at_type(rules::ARRAY_002, id, "ARRAY has name_off " + hex(t.name_off()));
    if (t.vlen()) f_.at_type(rules::ARRAY_002, id, "vlen is " + std::to_string(t.vlen()), 4);
    if (t.kflag()) f_.at_type(rules::ARRAY_002, id, "kind_flag is set", 4);
    if (t.size()) f_.at_type(rules::ARRAY_002, id, "size field is " + std::to_string(t.size()), 8);
    const uint32_t elem = t.payload(0), index = t.payload(1);
    if (elem == 0 || elem > kMaxTypeId) f_.at_type(rules::ARRAY_003, id, "element type " + std::to_string(elem), 12);
    if (index == 0 || index > kMaxTypeId) f_.at_type(rules::ARRAY_004, id, "index type " + std::to_string(index), 16);
  }

  // btf_struct_check_meta(): STRUCT and UNION; the first problem of each
  // member, as the kernel. Reports BTF-AGG-002..007, BTF-STR-007.
  void check_aggregate(uint32_t id, TypeRef t) {
    const bool is_union = t.kind() == kUnion;
    if (name_ok_ && !identifier_ok(t.name_off(), false))
      f_.at_type(rules::AGG_002, id, "name " + name_problem(t.name_off()));
    uint32_t last_offset = 0;
    for (uint32_t i = 0; i < t.vlen(); ++i) {
      const Member m = member_at(t, i);
      const uint64_t at = item_offset(12, i);
      auto which = [i] { return "member " + std::to_string(i); };
      // Like the kernel, report the first problem of each member.
      const uint32_t offset = member_bit_offset_of(t, m);
      if (!btf_.name_offset_valid(m.name_off)) {
        f_.at_type(rules::STR_007, id, which() + " name_off " + hex(m.name_off) + " is outside the strings", at);
      } else if (!identifier_ok(m.name_off, false)) {
        f_.at_type(rules::AGG_003, id, which() + " name " + name_problem(m.name_off), at);
      } else if (m.type == 0 || m.type > kMaxTypeId) {
        f_.at_type(rules::AGG_004, id, which() + " has type " + std::to_string(m.type), at + 4);
      } else if (is_union && offset) {
        f_.at_type(rules::AGG_005, id, which() + " of a union is at bit offset " + std::to_string(offset), at + 8);
      } else if (last_offset > offset) {
        f_.at_type(rules::AGG_006, id,
                   which() + " at bit " + std::to_string(offset) + " comes after a member at bit " +
                       std::to_string(last_offset),
                   at + 8);
      } else if (roundup_bytes(offset) > t.size()) {
        f_.at_type(rules::AGG_007, id,
                   which() + " at bit " + std::to_string(offset) + " starts past the " + std::to_string(t.size()) +
                       "-byte size",
                   at + 8);
      } else {
        last_offset = offset;
      }
    }
  }

  // btf_enum_check_meta() and btf_enum64_check_meta().
  // Reports BTF-ENUM-002..004, BTF-STR-007.
  void check_enum(uint32_t id, TypeRef t) {
    const bool wide = t.kind() == kEnum64;
    if (t.size() > 8 || !is_pow2(t.size()))
      f_.at_type(rules::ENUM_002, id, "size is " + std::to_string(t.size()), 8);
    else if (!wide && t.size() != 4 && !kernel_.has(Gate::kEnumSizes))
      f_.unsupported_at_type(Gate::kEnumSizes, id, std::to_string(t.size()) + "-byte ENUM", 8);
    if (name_ok_ && !identifier_ok(t.name_off(), false))
      f_.at_type(rules::ENUM_003, id, "name " + name_problem(t.name_off()));
    for (uint32_t i = 0; i < t.vlen(); ++i) {
      const EnumValue e = enum_at(t, i);
      const uint64_t at = item_offset(wide ? 12 : 8, i);
      if (!btf_.name_offset_valid(e.name_off))
        f_.at_type(rules::STR_007, id,
                   "enumerator " + std::to_string(i) + " name_off " + hex(e.name_off) + " is outside the strings", at);
      else if (!identifier_ok(e.name_off, true))
        f_.at_type(rules::ENUM_004, id, "enumerator " + std::to_string(i) + " name " + name_problem(e.name_off), at);
    }
  }

  // btf_fwd_check_meta(). Reports BTF-FWD-001..003.
  void check_fwd(uint32_t id, TypeRef t) {
    if (t.vlen()) f_.at_type(rules::FWD_001, id, "vlen is " + std::to_string(t.vlen()), 4);
    if (t.type()) f_.at_type(rules::FWD_002, id, "type field is " + std::to_string(t.type()), 8);
    if (name_ok_ && !identifier_ok(t.name_off(), true))
      f_.at_type(rules::FWD_003, id, "forward declaration name " + name_problem(t.name_off()));
  }

  // btf_func_check_meta(). Reports BTF-FUNC-001..003.
  void check_func(uint32_t id, TypeRef t) {
    if (name_ok_ && !identifier_ok(t.name_off(), true))
      f_.at_type(rules::FUNC_001, id, "function name " + name_problem(t.name_off()));
    if (t.vlen() > 1) f_.at_type(rules::FUNC_002, id, "linkage is " + std::to_string(t.vlen()), 4);
    if (t.kflag()) f_.at_type(rules::FUNC_003, id, "kind_flag is set", 4);
  }

  // btf_func_proto_check_meta(). Reports BTF-PROTO-002, BTF-PROTO-006.
  void check_func_proto(uint32_t id, TypeRef t) {
    if (t.name_off()) f_.at_type(rules::PROTO_002, id, "FUNC_PROTO has name_off " + hex(t.name_off()));
    if (t.kflag()) f_.at_type(rules::PROTO_002, id, "kind_flag is set", 4);
    // The kernel checks parameter names in its reference pass (so only for
    // BPF_BTF_LOAD); they are strings, best read in this sequential pass.
    for (uint32_t i = 0; i < t.vlen(); ++i) {
      const Param p = param_at(t, i);
      if (!p.name_off || (i + 1 == t.vlen() && !p.type)) continue;
      if (!btf_.name_offset_valid(p.name_off))
        f_.at_type(rules::PROTO_006, id,
                   "parameter " + std::to_string(i + 1) + " name_off " + hex(p.name_off) + " is outside the strings",
                   12 + 8ull * i);
      else if (!identifier_ok(p.name_off, true))
        f_.at_type(rules::PROTO_006, id,
                   "parameter " + std::to_string(i + 1) + " name '" + printable(name(p.name_off)) + "' " +
                       identifier_problem(name(p.name_off)),
                   12 + 8ull * i);
    }
  }

  // btf_var_check_meta(). Reports BTF-VAR-001..004.
  void check_var(uint32_t id, TypeRef t) {
    if (t.vlen()) f_.at_type(rules::VAR_001, id, "vlen is " + std::to_string(t.vlen()), 4);
    if (t.kflag()) f_.at_type(rules::VAR_001, id, "kind_flag is set", 4);
    if (name_ok_ && !identifier_ok(t.name_off(), true, /*dots_always=*/true))
      f_.at_type(rules::VAR_002, id, "variable name " + name_problem(t.name_off()));
    if (t.type() == 0 || t.type() > kMaxTypeId) f_.at_type(rules::VAR_003, id, "type is " + std::to_string(t.type()), 8);
    const uint32_t linkage = t.payload(0);
    if (linkage > 1) f_.at_type(rules::VAR_004, id, "linkage is " + std::to_string(linkage), 12);
  }

  // btf_datasec_check_meta(). Reports BTF-DATASEC-002, -003, -006..009,
  // and through check_section_name() BTF-DATASEC-004, -005.
  void check_datasec(uint32_t id, TypeRef t) {
    const uint32_t size = t.size();
    if (size == 0) f_.at_type(rules::DATASEC_002, id, "size is 0", 8);
    if (t.kflag()) f_.at_type(rules::DATASEC_003, id, "kind_flag is set", 4);
    if (t.vlen() == 0 && !kernel_.has(Gate::kEmptyDatasec)) f_.unsupported_at_type(Gate::kEmptyDatasec, id, "DATASEC without entries", 4);
    if (name_ok_) check_section_name(id, t.name_off());
    uint64_t last_end = 0;
    for (uint32_t i = 0; i < t.vlen(); ++i) {
      const VarSecInfo e = secinfo_at(t, i);
      const uint64_t at = item_offset(12, i);
      auto which = [i] { return "entry " + std::to_string(i); };
      // Like the kernel, report the first problem of each entry.
      if (e.type == 0 || e.type > kMaxTypeId) {
        f_.at_type(rules::DATASEC_006, id, which() + " type is " + std::to_string(e.type), at);
      } else if (e.offset < last_end) {
        f_.at_type(rules::DATASEC_007, id,
                   which() + " at offset " + std::to_string(e.offset) + " starts before the previous entry ends at " +
                       std::to_string(last_end),
                   at + 4);
      } else if (e.offset >= size) {
        f_.at_type(rules::DATASEC_008, id,
                   which() + " at offset " + std::to_string(e.offset) + " is not inside the " + std::to_string(size) +
                       "-byte section",
                   at + 4);
      } else if (e.size == 0 || e.size > size) {
        f_.at_type(rules::DATASEC_009, id, which() + " size is " + std::to_string(e.size), at + 8);
      } else {
        last_end = uint64_t(e.offset) + e.size;
        if (last_end > size)
          f_.at_type(rules::DATASEC_009, id,
                     which() + " ends at " + std::to_string(last_end) + ", past the " + std::to_string(size) +
                         "-byte section",
                     at + 8);
      }
    }
  }

  // A DATASEC's name, as btf_datasec_check_meta() checks it
  // (btf_name_valid_section()). Reports BTF-DATASEC-004, BTF-DATASEC-005.
  void check_section_name(uint32_t id, uint32_t off) {
    if (!kernel_.has(Gate::kNameValidation)) return;
    // 6.9 and 6.10 looked at the bytes after the first only.
    if (kernel_.has(Gate::kEmptySectionNameAccepted) && off != 0 && *name(off)) {
      const char* rest = name(off) + 1;
      if (!*rest || valid_section_name(rest, btf_.string_section_end(off))) return;
    }
    if (off == 0) {
      f_.at_type(rules::DATASEC_004, id, "section has no name");
      return;
    }
    if (!*name(off)) {
      f_.at_type(rules::DATASEC_005, id, "section name is empty");
      return;
    }
    const char* s = name(off);
    const char* end = btf_.string_section_end(off);
    if (!valid_section_name(s, end)) {
      f_.at_type(rules::DATASEC_004, id, "section name '" + printable(s) + "' " + section_name_problem(s));
      return;
    }
    // Before 6.9 a section name was checked as an identifier.
    if (kernel_.has(Gate::kPrintableSectionNames)) return;
    const size_t length = identifier_length(s, end);
    if (length == kNotIdentifier)
      f_.unsupported_at_type(Gate::kPrintableSectionNames, id,
                             "section name '" + printable(s) + "' " + identifier_problem(s));
    else if (length > max_name_)
      f_.unsupported_at_type(Gate::kLongNames, id, "section name of " + std::to_string(length) + " bytes");
  }

  // btf_float_check_meta(). Reports BTF-FLOAT-001..003.
  void check_float(uint32_t id, TypeRef t) {
    if (t.vlen()) f_.at_type(rules::FLOAT_001, id, "vlen is " + std::to_string(t.vlen()), 4);
    if (t.kflag()) f_.at_type(rules::FLOAT_002, id, "kind_flag is set", 4);
    const uint32_t s = t.size();
    if (s != 2 && s != 4 && s != 8 && s != 12 && s != 16) f_.at_type(rules::FLOAT_003, id, "size is " + std::to_string(s), 8);
  }

  // btf_decl_tag_check_meta(). Reports BTF-DTAG-002, -003, -005.
  void check_decl_tag(uint32_t id, TypeRef t) {
    if (name_ok_ && !*name(t.name_off())) f_.at_type(rules::DTAG_002, id, "tag value is empty");
    if (t.vlen()) f_.at_type(rules::DTAG_003, id, "vlen is " + std::to_string(t.vlen()), 4);
    const int32_t idx = static_cast<int32_t>(t.payload(0));
    if (idx < -1) f_.at_type(rules::DTAG_005, id, "component_idx is " + std::to_string(idx), 12);
  }

  const Btf& btf_;
  Findings& f_;
  const KernelProfile& kernel_;
  const size_t max_name_;
  uint32_t id_ = 0;
  bool name_ok_ = true;
  const IdentifierMap own_names_;
  const uint8_t* const types_end_ = btf_.type_section() + btf_.header().type_len;
  // Targets before 6.1 limit names to 128 bytes, before 6.4 forbid dots: the
  // bitmap knows neither rule.
  const bool old_name_rules_ = !kernel_.has(Gate::kLongNames) || !kernel_.has(Gate::kDotsInNames);
  // The screen knows the rules of kernels that have all of these.
  const bool screen_ = !old_name_rules_ && kernel_.has(Gate::kNameValidation) && kernel_.has(Gate::kFuncKinds) &&
                       kernel_.has(Gate::kFuncLinkage) && kernel_.has(Gate::kVarDatasec) &&
                       kernel_.has(Gate::kEnum64) && kernel_.has(Gate::kEnumSizes);
};

}  // namespace

void check_records(const Btf& btf, Findings& findings, bool screen) {
  RecordChecker checker(btf, findings);
  const uint32_t first = btf.first_id(), n = btf.own_count();
  if (!screen || !checker.screens()) {
    for (uint32_t local = 0; local < n; ++local) checker.check(first + local);
    return;
  }
  std::vector<uint64_t> dirty((n + 63) / 64, 0);
  checker.screen(dirty);
  for (uint32_t w = 0; w < dirty.size(); ++w)
    for (uint64_t m = dirty[w]; m; m &= m - 1) checker.check(first + w * 64 + std::countr_zero(m));
}

}  // namespace elfmeta::btf
