// The reference resolve pass. Each function below is named after the
// function of kernel/bpf/btf.c it mirrors (Linux 6.18) and does what that
// function does, in the same order, so that this file reads beside the
// kernel's. Where elfmeta departs from the kernel it says so:
//
//  - The kernel stops at the first error; this pass goes on, so that one run
//    reports every broken type. A type whose resolution failed is Poisoned
//    with everything on the stack at the time, and a type that reaches a
//    Poisoned one later fails without a finding of its own (it would only
//    repeat the first).
//  - The kernel logs one "Invalid type_id" for several defects; elfmeta names
//    each with its own rule (a missing id, a source-only kind, no size, ...).
//  - Base types (split BTF) count as resolved, as in the kernel, unless the
//    base's own pass failed on them.
//
// Clarity wins over speed here: no caches, no short ways. The walks are still
// bounded by the input's size: the stack holds at most 32 frames, a frame's
// loop runs over its record's vlen items (present: the parser checked), and
// each type is resolved once. Every id is looked up through Btf::type() and
// Btf::kind_of(), which check bounds.
#include "btf/resolve_reference.h"

#include <algorithm>
#include <optional>
#include <string>

#include "btf/bounded_name.h"
#include "btf/btf_rules.h"
#include "core/text.h"

namespace elfmeta::btf {

namespace {

constexpr uint32_t BITS_ROUNDUP_BYTES(uint32_t bits) { return (bits >> 3) + ((bits & 7) != 0); }

// btf_type_nosize(): void, FWD, FUNC, FUNC_PROTO and DECL_TAG have no size.
bool btf_type_nosize(uint32_t kind) {
  return kind == kUnknown || kind == kFwd || kind == kFunc || kind == kFuncProto || kind == kDeclTag;
}

// btf_type_is_resolve_source_only(): kinds no type may refer to but DATASEC
// (VAR) and DECL_TAG (none).
bool btf_type_is_resolve_source_only(uint32_t kind) { return kind == kVar || kind == kDeclTag || kind == kDatasec; }

// btf_type_needs_resolve(): the kinds that refer to other types.
bool btf_type_needs_resolve(uint32_t kind) {
  return is_modifier(kind) || kind == kPtr || is_aggregate(kind) || kind == kArray || kind == kVar ||
         kind == kFunc || kind == kDeclTag || kind == kDatasec;
}

// btf_type_int_is_regular(): a byte-aligned INT of 1, 2, 4, 8 or 16 bytes.
bool btf_type_int_is_regular(uint32_t int_data) {
  const uint32_t bits = int_bits(int_data), bytes = BITS_ROUNDUP_BYTES(bits);
  return (bits & 7) == 0 && int_offset(int_data) == 0 && bytes != 0 && bytes <= 16 && (bytes & (bytes - 1)) == 0;
}

// enum resolve_mode.
enum class ResolveMode : uint8_t { RESOLVE_TBD, RESOLVE_PTR, RESOLVE_STRUCT_OR_ARRAY };

// What a resolve callback returns: 0, or the kernel's error code (with
// Poisoned for elfmeta's silent failure).
enum class Err : uint8_t {
  Ok,        // 0: pushed a dependency, or popped the type as resolved
  Einval,    // a finding was reported for the type on top
  E2big,     // env_stack_push(): more than MAX_RESOLVE_DEPTH frames
  Eexist,    // env_stack_push(): the type is on the stack already (a loop)
  Poisoned,  // elfmeta: reaches a type that failed earlier
};

// struct resolve_vertex.
struct ResolveVertex {
  uint32_t type_id;
  uint32_t next_member;
};

// What btf_type_id_size() returns: the type that has the size, its id, the size.
struct SizedType {
  TypeRef type;
  uint32_t id;
  uint32_t size;
};

// struct btf_verifier_env, for the resolve phase.
class ReferenceResolver {
 public:
  ReferenceResolver(const Btf& btf, ResolveState& state, Findings& findings)
      : btf_(btf), st_(state), f_(findings) {}

  void btf_check_all_types();

 private:
  // --- lookups (btf_type_by_id() and the resolved_ids/resolved_sizes arrays)
  bool exists(uint32_t id) const { return btf_.has_type(id); }
  uint32_t kind(uint32_t id) const { return btf_.kind_of(id); }
  bool is_own(uint32_t id) const { return btf_.is_own(id); }
  uint32_t local(uint32_t id) const { return id - btf_.first_id(); }
  // visit_states[], with the base's types as the base's pass left them.
  // Void is no type the pass visits: never resolved (always a sink).
  Visit visit_state(uint32_t id) const { return id == 0 ? Visit::NotVisited : st_.state(id); }
  bool poisoned(uint32_t id) const { return visit_state(id) == Visit::Poisoned; }
  // btf_resolved_type_id() / btf_resolved_type_size().
  uint32_t btf_resolved_type_id(uint32_t id) const { return st_.resolved_id(id); }
  uint32_t btf_resolved_type_size(uint32_t id) const { return st_.resolved_size(id); }

  // --- the resolve state machine
  bool env_type_is_resolved(uint32_t id) const;
  bool env_type_is_resolve_sink(uint32_t kind) const;
  Err env_stack_push(uint32_t id);
  void env_stack_set_next_member(uint32_t next_member) { stack_[top_stack_ - 1].next_member = next_member; }
  void env_stack_pop_resolved(uint32_t resolved_type_id, uint32_t resolved_size);
  std::optional<SizedType> btf_type_id_size(uint32_t id) const;
  uint32_t btf_type_id_resolve(uint32_t id) const;
  bool btf_resolve(uint32_t type_id);
  Err resolve(const ResolveVertex& v);

  // --- the per-kind resolve callbacks (btf_kind_operations.resolve)
  Err btf_modifier_resolve(const ResolveVertex& v);
  Err btf_ptr_resolve(const ResolveVertex& v);
  Err btf_var_resolve(const ResolveVertex& v);
  Err btf_array_resolve(const ResolveVertex& v);
  Err btf_struct_resolve(const ResolveVertex& v);
  Err btf_func_resolve(const ResolveVertex& v);
  Err btf_decl_tag_resolve(const ResolveVertex& v);
  Err btf_datasec_resolve(const ResolveVertex& v);
  bool btf_func_check(uint32_t func_id);
  void btf_func_proto_check(uint32_t proto_id);

  // --- the per-kind member checks (check_member, check_kflag_member)
  Err check_member(uint32_t struct_id, uint32_t index, const Member& member, uint32_t member_type_id, bool kflag);
  Err btf_modifier_check_member(uint32_t struct_id, uint32_t index, const Member& member, uint32_t member_type_id,
                                bool kflag);
  Err btf_generic_check_kflag_member(uint32_t struct_id, uint32_t index, const Member& member, uint32_t member_type_id);
  Err btf_int_check_member(uint32_t struct_id, uint32_t index, const Member& member, TypeRef member_type);
  Err btf_int_check_kflag_member(uint32_t struct_id, uint32_t index, const Member& member, TypeRef member_type);
  Err btf_enum_check_member(uint32_t struct_id, uint32_t index, const Member& member, TypeRef member_type);
  Err btf_enum_check_kflag_member(uint32_t struct_id, uint32_t index, const Member& member, TypeRef member_type);
  Err btf_ptr_check_member(uint32_t struct_id, uint32_t index, const Member& member);
  Err btf_array_check_member(uint32_t struct_id, uint32_t index, const Member& member, uint32_t array_id);
  Err btf_struct_check_member(uint32_t struct_id, uint32_t index, const Member& member, TypeRef member_type);
  Err btf_float_check_member(uint32_t struct_id, uint32_t index, const Member& member, TypeRef member_type);
  Err member_fails(const Rule& rule, uint32_t struct_id, uint32_t index, const Member& member,
                   const std::string& message);
  Err member_exceeds_struct_size(uint32_t struct_id, uint32_t index, const Member& member);

  // --- findings
  // A referenced id that does not exist (BTF-TYPE-007) or is a source-only
  // kind (BTF-TYPE-012); `what` names the reference.
  bool invalid_type_id(uint32_t from, uint32_t ref, const std::string& what, uint64_t at);
  std::string describe(uint32_t id) const;

  const Btf& btf_;
  ResolveState& st_;
  Findings& f_;
  ResolveVertex stack_[kMaxResolveDepth];
  uint32_t top_stack_ = 0;
  ResolveMode resolve_mode_ = ResolveMode::RESOLVE_TBD;
  uint32_t last_push_ = 0;  // the id the last env_stack_push() was for, for the loop/depth findings
};

// "12 STRUCT 'name'", for messages. Reports nothing.
std::string ReferenceResolver::describe(uint32_t id) const { return type_label(btf_, id); }

bool ReferenceResolver::invalid_type_id(uint32_t from, uint32_t ref, const std::string& what, uint64_t at) {
  if (!exists(ref)) {
    f_.at_type(rules::TYPE_007, from,
               what + " " + std::to_string(ref) + " does not exist (" + std::to_string(btf_.type_count()) + " types)",
               at);
    return true;
  }
  if (btf_type_is_resolve_source_only(kind(ref))) {
    f_.at_type(rules::TYPE_012, from, what + " " + describe(ref) + " is a source-only kind", at);
    return true;
  }
  return false;
}

// env_type_is_resolved(): RESOLVED (or, elfmeta, Poisoned: done either way);
// base types are. Reports nothing.
bool ReferenceResolver::env_type_is_resolved(uint32_t id) const { return visit_state(id) >= Visit::Resolved; }

// env_type_is_resolve_sink(): where the walk stops in the current mode.
// Reports nothing.
bool ReferenceResolver::env_type_is_resolve_sink(uint32_t next_kind) const {
  switch (resolve_mode_) {
    case ResolveMode::RESOLVE_TBD: return !btf_type_needs_resolve(next_kind);
    case ResolveMode::RESOLVE_PTR: return !is_modifier(next_kind) && next_kind != kPtr;
    case ResolveMode::RESOLVE_STRUCT_OR_ARRAY:
      return !is_modifier(next_kind) && next_kind != kArray && !is_aggregate(next_kind);
  }
  return true;
}

// env_stack_push(): E2BIG past 32 frames, EEXIST for a type that is not
// NOT_VISITED (on the stack: a loop) or is not this blob's; the first pointer
// or struct/array pushed sets the mode. Reports nothing (btf_resolve() does).
Err ReferenceResolver::env_stack_push(uint32_t id) {
  last_push_ = id;
  if (top_stack_ == kMaxResolveDepth) return Err::E2big;
  if (!is_own(id) || st_.visit[local(id)] != Visit::NotVisited) return Err::Eexist;
  st_.visit[local(id)] = Visit::Visited;
  stack_[top_stack_++] = ResolveVertex{id, 0};
  if (resolve_mode_ == ResolveMode::RESOLVE_TBD) {
    const uint32_t k = kind(id);
    if (k == kPtr)
      resolve_mode_ = ResolveMode::RESOLVE_PTR;
    else if (is_aggregate(k) || k == kArray)
      resolve_mode_ = ResolveMode::RESOLVE_STRUCT_OR_ARRAY;
  }
  return Err::Ok;
}

// env_stack_pop_resolved(): the top type is RESOLVED to `resolved_type_id`
// (past typedefs and qualifiers) of `resolved_size` bytes (arrays). Reports
// nothing.
void ReferenceResolver::env_stack_pop_resolved(uint32_t resolved_type_id, uint32_t resolved_size) {
  const uint32_t id = stack_[--top_stack_].type_id;
  st_.ids[local(id)] = resolved_type_id;
  st_.sizes[local(id)] = resolved_size;
  st_.visit[local(id)] = Visit::Resolved;
}

// btf_type_id_size(): the type and size an id stands for, looking through a
// resolved typedef, qualifier or VAR once; nullopt without a size. Reports
// nothing.
std::optional<SizedType> ReferenceResolver::btf_type_id_size(uint32_t id) const {
  if (!exists(id)) return std::nullopt;
  uint32_t size_type_id = id;
  TypeRef size_type = btf_.type(size_type_id);
  uint32_t k = size_type.kind();
  if (btf_type_nosize(k)) return std::nullopt;
  if (!has_size_field(k) && k != kArray && k != kPtr) {
    if (!is_modifier(k) && k != kVar) return std::nullopt;
    size_type_id = btf_resolved_type_id(size_type_id);
    if (!exists(size_type_id)) return std::nullopt;
    size_type = btf_.type(size_type_id);
    k = size_type.kind();
    if (btf_type_nosize(k)) return std::nullopt;
    if (!has_size_field(k) && k != kArray && k != kPtr) return std::nullopt;
  }
  uint32_t size = 0;
  if (has_size_field(k))
    size = size_type.size();
  else if (k == kArray)
    size = btf_resolved_type_size(size_type_id);
  else
    size = kPointerSize;
  return SizedType{size_type, size_type_id, size};
}

// btf_type_id_resolve(): the id a resolved type stands for. Reports nothing.
uint32_t ReferenceResolver::btf_type_id_resolve(uint32_t id) const { return btf_resolved_type_id(id); }

// btf_resolve(): resolves `type_id` depth first with an explicit stack.
// Reports BTF-TYPE-010 (deeper than 32) and BTF-TYPE-009 (a loop) at the
// root, with the path; the callbacks report the rest. On failure every type
// on the stack is Poisoned. (btf_resolve_valid(), the kernel's final sanity
// check, holds by construction here and reports nothing.)
bool ReferenceResolver::btf_resolve(uint32_t type_id) {
  resolve_mode_ = ResolveMode::RESOLVE_TBD;
  Err err = env_stack_push(type_id);
  while (err == Err::Ok && top_stack_) err = resolve(stack_[top_stack_ - 1]);
  if (err == Err::Ok) return true;
  if (err == Err::E2big || err == Err::Eexist) {
    std::string path;
    for (uint32_t i = 0; i < top_stack_; ++i) path += describe(stack_[i].type_id) + " -> ";
    path += describe(last_push_);
    if (err == Err::E2big)
      f_.at_type(rules::TYPE_010, type_id, "resolving needs more than 32 levels: " + path);
    else
      f_.at_type(rules::TYPE_009, type_id, "reference cycle: " + path);
  }
  for (uint32_t i = 0; i < top_stack_; ++i) st_.visit[local(stack_[i].type_id)] = Visit::Poisoned;
  top_stack_ = 0;
  return false;
}

// btf_type_ops(v->t)->resolve(env, v). Reports what the callback reports.
Err ReferenceResolver::resolve(const ResolveVertex& v) {
  switch (kind(v.type_id)) {
    case kTypedef:
    case kVolatile:
    case kConst:
    case kRestrict:
    case kTypeTag: return btf_modifier_resolve(v);
    case kPtr: return btf_ptr_resolve(v);
    case kVar: return btf_var_resolve(v);
    case kArray: return btf_array_resolve(v);
    case kStruct:
    case kUnion: return btf_struct_resolve(v);
    case kFunc: return btf_func_resolve(v);
    case kDeclTag: return btf_decl_tag_resolve(v);
    case kDatasec: return btf_datasec_resolve(v);
    default: return Err::Poisoned;  // not reached: only btf_type_needs_resolve() kinds are pushed
  }
}

// btf_modifier_resolve(): TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG.
// Reports BTF-TYPE-007, BTF-TYPE-012 (bad target), BTF-REF-007 (a target
// without size that is not void, FWD or FUNC_PROTO).
Err ReferenceResolver::btf_modifier_resolve(const ResolveVertex& v) {
  uint32_t next_type_id = btf_.type(v.type_id).type();
  if (invalid_type_id(v.type_id, next_type_id, "target", 8)) return Err::Einval;
  if (poisoned(next_type_id)) return Err::Poisoned;
  if (!env_type_is_resolve_sink(kind(next_type_id)) && !env_type_is_resolved(next_type_id))
    return env_stack_push(next_type_id);
  if (const auto sized = btf_type_id_size(next_type_id)) {
    env_stack_pop_resolved(sized->id, 0);
    return Err::Ok;
  }
  if (env_type_is_resolved(next_type_id)) next_type_id = btf_type_id_resolve(next_type_id);
  const uint32_t next_kind = kind(next_type_id);
  // "typedef void new_void", "const void", a pointer to a FWD or prototype.
  if (next_type_id != 0 && next_kind != kFwd && next_kind != kFuncProto) {
    f_.at_type(rules::REF_007, v.type_id, "target " + describe(next_type_id) + " has no size", 8);
    return Err::Einval;
  }
  env_stack_pop_resolved(next_type_id, 0);
  return Err::Ok;
}

// btf_ptr_resolve(): as btf_modifier_resolve(), but a target modifier
// resolved in struct mode may have stopped at a pointer: the walk goes on
// from that pointer, so that a pointer loop through it is still found.
// Reports BTF-TYPE-007, BTF-TYPE-012, BTF-REF-007.
Err ReferenceResolver::btf_ptr_resolve(const ResolveVertex& v) {
  uint32_t next_type_id = btf_.type(v.type_id).type();
  if (invalid_type_id(v.type_id, next_type_id, "target", 8)) return Err::Einval;
  if (poisoned(next_type_id)) return Err::Poisoned;
  if (!env_type_is_resolve_sink(kind(next_type_id)) && !env_type_is_resolved(next_type_id))
    return env_stack_push(next_type_id);
  if (is_modifier(kind(next_type_id))) {
    const uint32_t resolved_type_id = btf_type_id_resolve(next_type_id);
    const uint32_t resolved_kind = kind(resolved_type_id);
    if (resolved_kind == kPtr && !env_type_is_resolve_sink(resolved_kind) && !env_type_is_resolved(resolved_type_id))
      return env_stack_push(resolved_type_id);
  }
  if (const auto sized = btf_type_id_size(next_type_id)) {
    env_stack_pop_resolved(sized->id, 0);
    return Err::Ok;
  }
  if (env_type_is_resolved(next_type_id)) next_type_id = btf_type_id_resolve(next_type_id);
  const uint32_t next_kind = kind(next_type_id);
  if (next_type_id != 0 && next_kind != kFwd && next_kind != kFuncProto) {
    f_.at_type(rules::REF_007, v.type_id, "target " + describe(next_type_id) + " has no size", 8);
    return Err::Einval;
  }
  env_stack_pop_resolved(next_type_id, 0);
  return Err::Ok;
}

// btf_var_resolve(): a VAR's type must have a size (no FWD, no void).
// Reports BTF-TYPE-007, BTF-TYPE-012, BTF-VAR-005.
Err ReferenceResolver::btf_var_resolve(const ResolveVertex& v) {
  const uint32_t next_type_id = btf_.type(v.type_id).type();
  if (invalid_type_id(v.type_id, next_type_id, "type", 8)) return Err::Einval;
  if (poisoned(next_type_id)) return Err::Poisoned;
  if (!env_type_is_resolve_sink(kind(next_type_id)) && !env_type_is_resolved(next_type_id))
    return env_stack_push(next_type_id);
  if (is_modifier(kind(next_type_id))) {
    const uint32_t resolved_type_id = btf_type_id_resolve(next_type_id);
    const uint32_t resolved_kind = kind(resolved_type_id);
    if (resolved_kind == kPtr && !env_type_is_resolve_sink(resolved_kind) && !env_type_is_resolved(resolved_type_id))
      return env_stack_push(resolved_type_id);
  }
  const auto sized = btf_type_id_size(next_type_id);
  if (!sized) {
    f_.at_type(rules::VAR_005, v.type_id, "type " + describe(next_type_id) + " has no size", 8);
    return Err::Einval;
  }
  env_stack_pop_resolved(sized->id, 0);
  return Err::Ok;
}

// btf_array_resolve(): the index type first, then the element type; the
// array's size is nelems times the element's, in u32.
// Reports BTF-TYPE-007, BTF-TYPE-012, BTF-ARRAY-005 (index), BTF-ARRAY-006
// (element without size), BTF-ARRAY-007 (bitfield-shaped INT element),
// BTF-ARRAY-008 (size overflows u32).
Err ReferenceResolver::btf_array_resolve(const ResolveVertex& v) {
  const TypeRef t = btf_.type(v.type_id);
  const uint32_t elem_type_id = t.payload(0), index_type_id = t.payload(1), nelems = t.payload(2);

  // array->index_type
  if (invalid_type_id(v.type_id, index_type_id, "index type", 16)) return Err::Einval;
  if (poisoned(index_type_id)) return Err::Poisoned;
  if (btf_type_nosize(kind(index_type_id))) {
    f_.at_type(rules::ARRAY_005, v.type_id, "index type " + describe(index_type_id) + " has no size", 16);
    return Err::Einval;
  }
  if (!env_type_is_resolve_sink(kind(index_type_id)) && !env_type_is_resolved(index_type_id))
    return env_stack_push(index_type_id);
  const auto index = btf_type_id_size(index_type_id);
  if (!index || index->type.kind() != kInt || !btf_type_int_is_regular(index->type.payload(0))) {
    f_.at_type(rules::ARRAY_005, v.type_id,
               "index type " + describe(index_type_id) + " is not a regular INT" +
                   (index && index->id != index_type_id ? " (resolves to " + describe(index->id) + ")" : ""),
               16);
    return Err::Einval;
  }

  // array->type
  if (invalid_type_id(v.type_id, elem_type_id, "element type", 12)) return Err::Einval;
  if (poisoned(elem_type_id)) return Err::Poisoned;
  if (btf_type_nosize(kind(elem_type_id))) {
    f_.at_type(rules::ARRAY_006, v.type_id, "element type " + describe(elem_type_id) + " has no size", 12);
    return Err::Einval;
  }
  if (!env_type_is_resolve_sink(kind(elem_type_id)) && !env_type_is_resolved(elem_type_id))
    return env_stack_push(elem_type_id);
  const auto elem = btf_type_id_size(elem_type_id);
  if (!elem) {
    f_.at_type(rules::ARRAY_006, v.type_id, "element type " + describe(elem_type_id) + " has no size", 12);
    return Err::Einval;
  }
  if (elem->type.kind() == kInt && !btf_type_int_is_regular(elem->type.payload(0))) {
    f_.at_type(rules::ARRAY_007, v.type_id, "element type " + describe(elem->id) + " is a bitfield-shaped INT", 12);
    return Err::Einval;
  }
  const uint64_t array_size = uint64_t(elem->size) * nelems;
  if (array_size > UINT32_MAX) {
    f_.at_type(rules::ARRAY_008, v.type_id,
               std::to_string(nelems) + " elements of " + std::to_string(elem->size) + " bytes overflow u32", 20);
    return Err::Einval;
  }
  env_stack_pop_resolved(elem->id, static_cast<uint32_t>(array_size));
  return Err::Ok;
}

// btf_struct_resolve(): STRUCT and UNION. Each member's type is resolved
// (pushed, and the member checked when the struct is on top again), then
// checked by its kind's check_member or, in a kind_flag struct,
// check_kflag_member.
// Reports BTF-TYPE-007, BTF-TYPE-012 (member type), BTF-AGG-008 (member type
// without size), and through the member checks BTF-AGG-008..016.
Err ReferenceResolver::btf_struct_resolve(const ResolveVertex& v) {
  const TypeRef t = btf_.type(v.type_id);
  // Back after a member's type was pushed and resolved: check that member.
  if (v.next_member) {
    const uint32_t i = v.next_member - 1;
    const Member last_member = member_at(t, i);
    if (poisoned(last_member.type)) return Err::Poisoned;
    if (const Err err = check_member(v.type_id, i, last_member, last_member.type, t.kflag()); err != Err::Ok)
      return err;
  }
  for (uint32_t i = v.next_member, vlen = t.vlen(); i < vlen; ++i) {
    const Member member = member_at(t, i);
    const uint64_t at = 12 + 12ull * i;
    if (invalid_type_id(v.type_id, member.type, "member " + std::to_string(i) + " type", at + 4)) return Err::Einval;
    if (poisoned(member.type)) return Err::Poisoned;
    if (btf_type_nosize(kind(member.type))) {
      f_.at_type(rules::AGG_008, v.type_id,
                 "member " + std::to_string(i) + " type " + describe(member.type) + " has no size", at + 4);
      return Err::Einval;
    }
    if (!env_type_is_resolve_sink(kind(member.type)) && !env_type_is_resolved(member.type)) {
      env_stack_set_next_member(i + 1);
      return env_stack_push(member.type);
    }
    if (const Err err = check_member(v.type_id, i, member, member.type, t.kflag()); err != Err::Ok) return err;
  }
  env_stack_pop_resolved(0, 0);
  return Err::Ok;
}

// btf_func_resolve(): a FUNC resolves to its prototype once btf_func_check()
// passes. Reports BTF-FUNC-004, BTF-FUNC-005.
Err ReferenceResolver::btf_func_resolve(const ResolveVertex& v) {
  if (!btf_func_check(v.type_id)) return Err::Einval;
  env_stack_pop_resolved(btf_.type(v.type_id).type(), 0);
  return Err::Ok;
}

// btf_func_check(): the FUNC's type is a FUNC_PROTO whose parameters are
// all named (but a trailing vararg). Reports BTF-FUNC-004 (not a
// prototype) and BTF-FUNC-005, once per unnamed parameter (the kernel stops
// at the first).
bool ReferenceResolver::btf_func_check(uint32_t func_id) {
  const uint32_t proto_id = btf_.type(func_id).type();
  if (!exists(proto_id) || kind(proto_id) != kFuncProto) {
    f_.at_type(rules::FUNC_004, func_id,
               "type " + (exists(proto_id) ? describe(proto_id) : std::to_string(proto_id) + " (missing)") +
                   " is not a FUNC_PROTO",
               8);
    return false;
  }
  const TypeRef proto = btf_.type(proto_id);
  bool ok = true;
  for (uint32_t i = 0; i < proto.vlen(); ++i) {
    const Param arg = param_at(proto, i);
    if (!arg.name_off && arg.type) {
      f_.at_type(rules::FUNC_005, func_id,
                 "parameter " + std::to_string(i + 1) + " of " + describe(proto_id) + " is unnamed", 8);
      ok = false;
    }
  }
  return ok;
}

// btf_decl_tag_resolve(): the target is a FUNC, STRUCT, UNION, VAR or
// TYPEDEF, resolved first; a component_idx other than -1 names a member or
// parameter of a struct/union or FUNC. Reports BTF-TYPE-007 (no target),
// BTF-DTAG-006 (wrong target kind), BTF-DTAG-007 (component_idx on a VAR or
// TYPEDEF), BTF-DTAG-008 (component_idx past the members or parameters).
Err ReferenceResolver::btf_decl_tag_resolve(const ResolveVertex& v) {
  const TypeRef t = btf_.type(v.type_id);
  const uint32_t next_type_id = t.type();
  if (!exists(next_type_id)) {
    f_.at_type(rules::TYPE_007, v.type_id, "target " + std::to_string(next_type_id) + " does not exist", 8);
    return Err::Einval;
  }
  const TypeRef next_type = btf_.type(next_type_id);
  const uint32_t next_kind = next_type.kind();
  if (next_kind != kFunc && !is_aggregate(next_kind) && next_kind != kVar && next_kind != kTypedef) {
    f_.at_type(rules::DTAG_006, v.type_id, "target " + describe(next_type_id) + " cannot carry a declaration tag", 8);
    return Err::Einval;
  }
  if (poisoned(next_type_id)) return Err::Poisoned;
  if (!env_type_is_resolve_sink(next_kind) && !env_type_is_resolved(next_type_id))
    return env_stack_push(next_type_id);
  const int32_t component_idx = static_cast<int32_t>(t.payload(0));
  if (component_idx != -1) {
    if (next_kind == kVar || next_kind == kTypedef) {
      f_.at_type(rules::DTAG_007, v.type_id,
                 "component_idx " + std::to_string(component_idx) + " on " + describe(next_type_id), 12);
      return Err::Einval;
    }
    // A struct's members, or the parameters of a FUNC's prototype.
    uint32_t vlen = 0;
    if (is_aggregate(next_kind))
      vlen = next_type.vlen();
    else if (exists(next_type.type()))
      vlen = btf_.type(next_type.type()).vlen();
    if (static_cast<uint32_t>(component_idx) >= vlen) {
      f_.at_type(rules::DTAG_008, v.type_id,
                 "component_idx " + std::to_string(component_idx) + " but " + describe(next_type_id) + " has " +
                     std::to_string(vlen) + (is_aggregate(next_kind) ? " members" : " parameters"),
                 12);
      return Err::Einval;
    }
  }
  env_stack_pop_resolved(next_type_id, 0);
  return Err::Ok;
}

// btf_datasec_resolve(): every entry is a VAR, resolved first (the mode is
// reset for each entry, as from Linux 6.18, so that a VAR is always pushed),
// whose type's size fits the entry. Reports BTF-DATASEC-011 (not a VAR),
// BTF-VAR-005 (the VAR's type has no size), BTF-DATASEC-012 (entry smaller
// than its VAR's type).
Err ReferenceResolver::btf_datasec_resolve(const ResolveVertex& v) {
  const TypeRef t = btf_.type(v.type_id);
  for (uint32_t i = v.next_member, vlen = t.vlen(); i < vlen; ++i) {
    resolve_mode_ = ResolveMode::RESOLVE_TBD;
    const VarSecInfo vsi = secinfo_at(t, i);
    const uint64_t at = 12 + 12ull * i;
    if (!exists(vsi.type) || kind(vsi.type) != kVar) {
      f_.at_type(rules::DATASEC_011, v.type_id,
                 "entry " + std::to_string(i) + " type " +
                     (exists(vsi.type) ? describe(vsi.type) : std::to_string(vsi.type)) + " is not a VAR",
                 at);
      return Err::Einval;
    }
    if (poisoned(vsi.type)) return Err::Poisoned;
    if (!env_type_is_resolve_sink(kVar) && !env_type_is_resolved(vsi.type)) {
      env_stack_set_next_member(i + 1);
      return env_stack_push(vsi.type);
    }
    const uint32_t var_type_id = btf_.type(vsi.type).type();
    const auto sized = btf_type_id_size(var_type_id);
    if (!sized) {
      f_.at_type(rules::VAR_005, vsi.type, "type " + describe(var_type_id) + " has no size", 8);
      return Err::Einval;
    }
    if (vsi.size < sized->size) {
      f_.at_type(rules::DATASEC_012, v.type_id,
                 "entry " + std::to_string(i) + " (" + describe(vsi.type) + ") is " + std::to_string(vsi.size) +
                     " bytes, its type " + std::to_string(sized->size),
                 at + 8);
      return Err::Einval;
    }
  }
  env_stack_pop_resolved(0, 0);
  return Err::Ok;
}

// btf_func_proto_check(): the return type (unless void) and each parameter's
// type exist, are not source-only, resolve, and have a size; only the last
// parameter may be a vararg (type 0), and it has no name. A prototype is
// never pushed: its operands are resolved as roots of their own.
// Reports BTF-PROTO-003 (return type), BTF-PROTO-004 (vararg), BTF-PROTO-005
// (parameter type), and what btf_resolve() of an operand reports.
void ReferenceResolver::btf_func_proto_check(uint32_t proto_id) {
  const TypeRef t = btf_.type(proto_id);
  if (const uint32_t ret_type_id = t.type(); ret_type_id != 0) {
    if (!exists(ret_type_id) || btf_type_is_resolve_source_only(kind(ret_type_id))) {
      f_.at_type(rules::PROTO_003, proto_id,
                 "return type " + (exists(ret_type_id) ? describe(ret_type_id) : std::to_string(ret_type_id) + " (missing)"),
                 8);
      return;
    }
    if (poisoned(ret_type_id)) return;
    if (btf_type_needs_resolve(kind(ret_type_id)) && !env_type_is_resolved(ret_type_id) && !btf_resolve(ret_type_id))
      return;
    if (!btf_type_id_size(ret_type_id)) {
      f_.at_type(rules::PROTO_003, proto_id, "return type " + describe(ret_type_id) + " has no size", 8);
      return;
    }
  }
  uint32_t nr_args = t.vlen();
  if (nr_args == 0) return;
  // The last argument may be a vararg (type 0), without a name.
  if (const Param last = param_at(t, nr_args - 1); last.type == 0) {
    if (last.name_off) {
      f_.at_type(rules::PROTO_004, proto_id, "vararg parameter " + std::to_string(nr_args) + " has a name",
                 12 + 8ull * (nr_args - 1));
      return;
    }
    --nr_args;
  }
  for (uint32_t i = 0; i < nr_args; ++i) {
    const uint32_t arg_type_id = param_at(t, i).type;
    const uint64_t at = 12 + 8ull * i + 4;
    const std::string which = "parameter " + std::to_string(i + 1);
    if (!exists(arg_type_id) || btf_type_is_resolve_source_only(kind(arg_type_id))) {
      f_.at_type(rules::PROTO_005, proto_id,
                 which + " type " + (exists(arg_type_id) ? describe(arg_type_id) : std::to_string(arg_type_id) + " (missing)"),
                 at);
      continue;  // elfmeta: every parameter gets its finding
    }
    if (poisoned(arg_type_id)) continue;
    if (btf_type_needs_resolve(kind(arg_type_id)) && !env_type_is_resolved(arg_type_id) && !btf_resolve(arg_type_id))
      return;
    if (!btf_type_id_size(arg_type_id)) {
      if (arg_type_id == 0)
        f_.at_type(rules::PROTO_004, proto_id, which + " is a vararg but not the last parameter", at);
      else
        f_.at_type(rules::PROTO_005, proto_id, which + " type " + describe(arg_type_id) + " has no size", at);
      continue;
    }
  }
}

// --- member checks

// btf_verifier_log_member(): `rule` about member `index` of `struct_id`.
Err ReferenceResolver::member_fails(const Rule& rule, uint32_t struct_id, uint32_t index, const Member& member,
                                    const std::string& message) {
  f_.at_type(rule, struct_id, "member " + std::to_string(index) + " (" + describe(member.type) + ") " + message,
             12 + 12ull * index + 8);
  return Err::Einval;
}

// "Member exceeds struct_size". Reports BTF-AGG-010.
Err ReferenceResolver::member_exceeds_struct_size(uint32_t struct_id, uint32_t index, const Member& member) {
  return member_fails(rules::AGG_010, struct_id, index, member,
                      "ends past the " + std::to_string(btf_.type(struct_id).size()) + "-byte size");
}

// btf_type_ops(member_type)->check_member / check_kflag_member: the checks
// of the member's type's kind. Reports BTF-AGG-008..016 (see each).
Err ReferenceResolver::check_member(uint32_t struct_id, uint32_t index, const Member& member, uint32_t member_type_id,
                                    bool kflag) {
  const TypeRef member_type = btf_.type(member_type_id);
  const uint32_t k = member_type.kind();
  if (is_modifier(k)) return btf_modifier_check_member(struct_id, index, member, member_type_id, kflag);
  if (kflag) {
    switch (k) {
      case kInt: return btf_int_check_kflag_member(struct_id, index, member, member_type);
      case kEnum:
      case kEnum64: return btf_enum_check_kflag_member(struct_id, index, member, member_type);
      case kPtr:
      case kArray:
      case kStruct:
      case kUnion:
      case kFloat: return btf_generic_check_kflag_member(struct_id, index, member, member_type_id);
      default: break;
    }
  } else {
    switch (k) {
      case kInt: return btf_int_check_member(struct_id, index, member, member_type);
      case kEnum:
      case kEnum64: return btf_enum_check_member(struct_id, index, member, member_type);
      case kPtr: return btf_ptr_check_member(struct_id, index, member);
      case kArray: return btf_array_check_member(struct_id, index, member, member_type_id);
      case kStruct:
      case kUnion: return btf_struct_check_member(struct_id, index, member, member_type);
      case kFloat: return btf_float_check_member(struct_id, index, member, member_type);
      default: break;
    }
  }
  // btf_df_check_member(): a kind no member may have (a DATASEC behind a typedef).
  return member_fails(rules::AGG_008, struct_id, index, member, "has no size");
}

// btf_modifier_check_member() / btf_modifier_check_kflag_member(): the
// checks of the type the modifier resolves to. Reports BTF-AGG-008 (it has
// no size), and what those checks report.
Err ReferenceResolver::btf_modifier_check_member(uint32_t struct_id, uint32_t index, const Member& member,
                                                 uint32_t member_type_id, bool kflag) {
  const auto resolved = btf_type_id_size(member_type_id);
  if (!resolved) return member_fails(rules::AGG_008, struct_id, index, member, "resolves to a type without size");
  return check_member(struct_id, index, member, resolved->id, kflag);
}

// btf_generic_check_kflag_member(): a pointer, array, struct, union or FLOAT
// in a kind_flag struct has no bitfield size; its bit offset is then checked
// as in a struct without kind_flag. Reports BTF-AGG-015, and what that
// check reports.
Err ReferenceResolver::btf_generic_check_kflag_member(uint32_t struct_id, uint32_t index, const Member& member,
                                                      uint32_t member_type_id) {
  if (const uint32_t bitfield_size = member_bitfield_size(member.offset))
    return member_fails(rules::AGG_015, struct_id, index, member, "has bitfield size " + std::to_string(bitfield_size));
  // A bitfield size of 0 leaves the bit offset alone in the word.
  return check_member(struct_id, index, member, member_type_id, /*kflag=*/false);
}

// btf_int_check_member(): the INT's bits (past its own bit offset) fit in
// 128 bits and in the struct. Reports BTF-AGG-011, BTF-AGG-010.
Err ReferenceResolver::btf_int_check_member(uint32_t struct_id, uint32_t index, const Member& member,
                                            TypeRef member_type) {
  const uint32_t int_data = member_type.payload(0), struct_size = btf_.type(struct_id).size();
  const uint64_t struct_bits_off = uint64_t(member.offset) + int_offset(int_data);
  if (struct_bits_off > UINT32_MAX) return member_fails(rules::AGG_011, struct_id, index, member, "bit offset overflows u32");
  const uint64_t bytes_offset = struct_bits_off >> 3;
  const uint32_t nr_copy_bits = int_bits(int_data) + (struct_bits_off & 7);
  if (nr_copy_bits > 128)
    return member_fails(rules::AGG_011, struct_id, index, member, "spans " + std::to_string(nr_copy_bits) + " bits");
  if (bytes_offset + BITS_ROUNDUP_BYTES(nr_copy_bits) > struct_size)
    return member_exceeds_struct_size(struct_id, index, member);
  return Err::Ok;
}

// btf_int_check_kflag_member(): a bitfield of a regular INT, no wider than
// the INT, or a byte-aligned INT; its bits fit in 128 and in the struct.
// Reports BTF-AGG-012, BTF-AGG-013, BTF-AGG-011, BTF-AGG-010.
Err ReferenceResolver::btf_int_check_kflag_member(uint32_t struct_id, uint32_t index, const Member& member,
                                                  TypeRef member_type) {
  const uint32_t int_data = member_type.payload(0), struct_size = btf_.type(struct_id).size();
  if (!btf_type_int_is_regular(int_data))
    return member_fails(rules::AGG_012, struct_id, index, member, "is a bitfield with a non-regular INT base type");
  uint32_t nr_bits = member_bitfield_size(member.offset);
  const uint32_t struct_bits_off = member_bit_offset(member.offset);
  if (nr_bits == 0) {
    if (struct_bits_off & 7)
      return member_fails(rules::AGG_013, struct_id, index, member,
                          "is not a bitfield but starts at bit " + std::to_string(struct_bits_off));
    nr_bits = int_bits(int_data);
  } else if (nr_bits > int_bits(int_data)) {
    return member_fails(rules::AGG_013, struct_id, index, member,
                        "bitfield of " + std::to_string(nr_bits) + " bits in a " + std::to_string(int_bits(int_data)) +
                            "-bit INT");
  }
  const uint64_t bytes_offset = struct_bits_off >> 3;
  const uint32_t nr_copy_bits = nr_bits + (struct_bits_off & 7);
  if (nr_copy_bits > 128)
    return member_fails(rules::AGG_011, struct_id, index, member, "spans " + std::to_string(nr_copy_bits) + " bits");
  if (bytes_offset + BITS_ROUNDUP_BYTES(nr_copy_bits) > struct_size)
    return member_exceeds_struct_size(struct_id, index, member);
  return Err::Ok;
}

// btf_enum_check_member(): byte-aligned, and its size fits in the struct.
// Reports BTF-AGG-009, BTF-AGG-010.
Err ReferenceResolver::btf_enum_check_member(uint32_t struct_id, uint32_t index, const Member& member,
                                             TypeRef member_type) {
  if (member.offset & 7)
    return member_fails(rules::AGG_009, struct_id, index, member, "starts at bit " + std::to_string(member.offset));
  // The record checks (BTF-AGG-007) have rejected a member starting past the
  // struct's end, so the kernel's u32 subtraction cannot wrap here.
  if (uint64_t(member.offset >> 3) + member_type.size() > btf_.type(struct_id).size())
    return member_exceeds_struct_size(struct_id, index, member);
  return Err::Ok;
}

// btf_enum_check_kflag_member(): a bitfield of at most 32 bits, or a
// byte-aligned member the kernel counts as 4 bytes (whatever the ENUM's
// size); it fits in the struct. Reports BTF-AGG-009, BTF-AGG-014, BTF-AGG-010.
Err ReferenceResolver::btf_enum_check_kflag_member(uint32_t struct_id, uint32_t index, const Member& member,
                                                   TypeRef /*member_type*/) {
  const uint32_t struct_bits_off = member_bit_offset(member.offset);
  uint32_t nr_bits = member_bitfield_size(member.offset);
  if (nr_bits == 0) {
    if (struct_bits_off & 7)
      return member_fails(rules::AGG_009, struct_id, index, member, "starts at bit " + std::to_string(struct_bits_off));
    nr_bits = 32;  // sizeof(int) * 8, also for ENUM64
  } else if (nr_bits > 32) {
    return member_fails(rules::AGG_014, struct_id, index, member,
                        "is an enum bitfield of " + std::to_string(nr_bits) + " bits");
  }
  if (BITS_ROUNDUP_BYTES(struct_bits_off + nr_bits) > btf_.type(struct_id).size())
    return member_exceeds_struct_size(struct_id, index, member);
  return Err::Ok;
}

// btf_ptr_check_member(): byte-aligned, and 8 bytes fit in the struct.
// Reports BTF-AGG-009, BTF-AGG-010.
Err ReferenceResolver::btf_ptr_check_member(uint32_t struct_id, uint32_t index, const Member& member) {
  if (member.offset & 7)
    return member_fails(rules::AGG_009, struct_id, index, member, "starts at bit " + std::to_string(member.offset));
  if (uint64_t(member.offset >> 3) + kPointerSize > btf_.type(struct_id).size())
    return member_exceeds_struct_size(struct_id, index, member);
  return Err::Ok;
}

// btf_array_check_member(): byte-aligned, and the array's resolved size fits
// in the struct (0 for an array not resolved yet: a typedef resolved in
// pointer mode may name one). Reports BTF-AGG-009, BTF-AGG-010.
Err ReferenceResolver::btf_array_check_member(uint32_t struct_id, uint32_t index, const Member& member,
                                              uint32_t array_id) {
  if (member.offset & 7)
    return member_fails(rules::AGG_009, struct_id, index, member, "starts at bit " + std::to_string(member.offset));
  const uint32_t array_size = btf_resolved_type_size(array_id), struct_size = btf_.type(struct_id).size();
  if (uint64_t(member.offset >> 3) + array_size > struct_size)
    return member_fails(rules::AGG_010, struct_id, index, member,
                        "of " + std::to_string(array_size) + " bytes ends past the " + std::to_string(struct_size) +
                            "-byte size");
  return Err::Ok;
}

// btf_struct_check_member(): byte-aligned, and the inner struct/union fits.
// Reports BTF-AGG-009, BTF-AGG-010.
Err ReferenceResolver::btf_struct_check_member(uint32_t struct_id, uint32_t index, const Member& member,
                                               TypeRef member_type) {
  if (member.offset & 7)
    return member_fails(rules::AGG_009, struct_id, index, member, "starts at bit " + std::to_string(member.offset));
  const uint32_t struct_size = btf_.type(struct_id).size();
  if (uint64_t(member.offset >> 3) + member_type.size() > struct_size)
    return member_fails(rules::AGG_010, struct_id, index, member,
                        "of " + std::to_string(member_type.size()) + " bytes ends past the " +
                            std::to_string(struct_size) + "-byte size");
  return Err::Ok;
}

// btf_float_check_member(): aligned to min(8, size) bytes, and fits.
// Reports BTF-AGG-016, BTF-AGG-010.
Err ReferenceResolver::btf_float_check_member(uint32_t struct_id, uint32_t index, const Member& member,
                                              TypeRef member_type) {
  const uint64_t align_bits = uint64_t(std::min<uint32_t>(kPointerSize, member_type.size())) * 8;
  if (align_bits == 0 || member.offset % align_bits)
    return member_fails(rules::AGG_016, struct_id, index, member,
                        "at bit " + std::to_string(member.offset) + " is misaligned");
  if (uint64_t(member.offset / 8) + member_type.size() > btf_.type(struct_id).size())
    return member_exceeds_struct_size(struct_id, index, member);
  return Err::Ok;
}

// btf_check_all_types(): every own type in id order; a type that needs
// resolving and is not resolved yet is resolved (btf_resolve()), and every
// FUNC_PROTO checked (btf_func_proto_check()). elfmeta: the types the
// record checks flagged are failed from the start, and a flagged prototype
// is not checked. Reports what btf_resolve() and btf_func_proto_check() do.
void ReferenceResolver::btf_check_all_types() {
  const uint32_t own = btf_.own_count();
  st_.btf = &btf_;
  st_.ids.assign(own, 0);
  st_.sizes.assign(own, 0);
  st_.visit.assign(own, Visit::NotVisited);
  for (uint32_t i = 0; i < own; ++i)
    if (f_.flagged(btf_.first_id() + i)) st_.visit[i] = Visit::Poisoned;

  for (uint32_t i = 0; i < own; ++i) {
    const uint32_t type_id = btf_.first_id() + i;
    const uint32_t k = kind(type_id);
    resolve_mode_ = ResolveMode::RESOLVE_TBD;
    if (btf_type_needs_resolve(k) && !env_type_is_resolved(type_id)) btf_resolve(type_id);
    if (k == kFuncProto && !f_.flagged(type_id)) btf_func_proto_check(type_id);
  }
}

}  // namespace

void resolve_types_reference(const Btf& btf, const ResolveState* base_state, ResolveState& state,
                             Findings& findings) {
  state.base = base_state;
  ReferenceResolver(btf, state, findings).btf_check_all_types();
}

}  // namespace elfmeta::btf
