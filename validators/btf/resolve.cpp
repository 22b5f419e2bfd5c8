// The fast resolve pass: the findings and the ResolveState of the reference
// pass (resolve_reference.cpp, which reads beside kernel/bpf/btf.c), in a
// fraction of its time on a vmlinux. Tests compare the two on every blob
// (ResolveReference.*, CheckShortcuts.*, fuzz_btf). Where it departs from the
// reference it says why; in short:
//  - The root loop (run()) skips the kinds that never need resolving and
//    takes the FUNCs (half a vmlinux) after the others, in a loop of their
//    own: a FUNC depends only on its prototype's kind and parameter names,
//    and a FUNC below the root is resolved when a type asks for it
//    (visit_of()), as the kernel would have at its turn. Findings come in
//    another order than the kernel's; the same findings.
//  - Short ways (resolve_plain_*): types whose resolution would push nothing
//    that is not resolved at once are resolved without the stack.
//  - Caches: each own type's member shape (MemberShape), the operands found
//    valid (operand_ok_), whether a prototype's parameters are named.
//  - The FUNC loop may be shared with a second thread (SharedFuncLoop).
//
// The kernel's functions and where they are here (the reference has one
// function per kernel function):
//   btf_check_all_types()              Resolver::run()
//   btf_resolve()                      Resolver::resolve()
//   env_stack_push() / _pop_resolved() Resolver::push() / pop()
//   env_type_is_resolve_sink()         Resolver::sink()
//   btf_type_id_size()                 Resolver::id_size()
//   btf_modifier_resolve(), btf_ptr_resolve()  Resolver::resolve_modifier_or_ptr()
//   btf_var_resolve()                  Resolver::resolve_var()
//   btf_array_resolve()                Resolver::resolve_array()
//   btf_struct_resolve()               Resolver::resolve_aggregate()
//   btf_*_check_member(), btf_*_check_kflag_member()  Resolver::check_member_as(), check_member_shape()
//   btf_func_resolve(), btf_func_check()  Resolver::resolve_func(), func_ok()
//   btf_decl_tag_resolve()             Resolver::resolve_decl_tag()
//   btf_datasec_resolve()              Resolver::resolve_datasec()
//   btf_func_proto_check()             Resolver::check_func_proto()
#include "btf/resolve.h"

#include <algorithm>
#include <memory>
#include <string>

#include "btf/bounded_name.h"
#include "btf/btf_rules.h"
#include "btf/kind_mask.h"
#include "btf/names.h"
#include "btf/resolve_reference.h"
#include "core/second_core.h"
#include "core/text.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace elfmeta::btf {

namespace {

constexpr uint32_t roundup_bytes(uint32_t bits) { return (bits >> 3) + ((bits & 7) != 0); }

// Kind classes as the resolve pass uses them. Void (id 0) has kind 0.
constexpr bool nosize(uint32_t k) {
  return k == kUnknown || k == kFwd || k == kFunc || k == kFuncProto || k == kDeclTag;
}
bool nosize(TypeRef t) { return nosize(t.kind()); }
// Kinds id_size() finds a size for by themselves (none of them nosize()).
constexpr bool sized_kind(uint32_t k) { return has_size_field(k) || k == kArray || k == kPtr; }
constexpr bool source_only(uint32_t k) { return k == kVar || k == kDeclTag || k == kDatasec; }
bool source_only(TypeRef t) { return source_only(t.kind()); }
constexpr bool needs_resolve(uint32_t k) {
  return is_modifier(k) || k == kPtr || is_aggregate(k) || k == kArray || k == kVar || k == kFunc || k == kDeclTag ||
         k == kDatasec;
}
bool needs_resolve(TypeRef t) { return needs_resolve(t.kind()); }
constexpr bool regular_int_data(uint32_t data) {
  const uint32_t bits = int_bits(data), bytes = roundup_bytes(bits);
  return (bits & 7) == 0 && int_offset(data) == 0 && bytes <= 16 && bytes && !(bytes & (bytes - 1));
}
bool regular_int(TypeRef t) { return regular_int_data(t.payload(0)); }

enum class Mode : uint8_t { Tbd, Ptr, StructOrArray };

// What the member checks read of the type a member resolves to, in 32 bits
// (0: nothing known). Most member types pass one check that is the same
// whatever the struct's kind_flag: the member starts on a byte and its
// bytes fit. Those are kept as "plain": a byte count that passing it
// implies the exact checks pass (an ENUM counts as at least 4 bytes, which a
// kind_flag struct assumes). The others keep their kind and, for an INT, the
// bit count and offset of its data, else their size below 2^25 (a type whose
// word does not fit is not kept).
struct MemberShape {
  uint32_t kind, word;
  static constexpr uint32_t kPresent = 1u << 31, kPlain = 1u << 30, kWordBits = 25;
  constexpr uint32_t pack() const {
    if (const uint32_t bytes = plain_bytes(); bytes < kPlain) return kPresent | kPlain | bytes;
    const uint32_t packed_word = kind == kInt ? (word & 0xff) | (word >> 8 & 0xff00) : word;
    return packed_word >> kWordBits ? 0 : kPresent | kind << kWordBits | packed_word;
  }
  static MemberShape unpack(uint32_t x) {
    const uint32_t kind = x >> kWordBits & 0x1f, w = x & ((1u << kWordBits) - 1);
    return {kind, kind == kInt ? (w & 0xff) | (w & 0xff00) << 8 : w};
  }
  // Whether a member at bit offset word `offset` of a `struct_size`-byte
  // aggregate passes the exact checks, for a plain shape `x`; false: check
  // it the long way.
  static bool plainly_fits(uint32_t x, uint32_t offset, uint32_t struct_size) {
    // No bitfield size (kind_flag) or a bit offset below 2^24 (no kind_flag),
    // on a byte boundary. The record checks saw that it starts inside.
    return (offset & 0xff000007u) == 0 && struct_size - (offset >> 3) >= (x & (kPlain - 1));
  }

 private:
  // kPlain: not plain.
  constexpr uint32_t plain_bytes() const {
    switch (kind) {
      case kInt: return regular_int_data(word) ? roundup_bytes(int_bits(word)) : kPlain;
      case kEnum:
      case kEnum64: return std::max(word, 4u);
      case kPtr: return kPointerSize;
      case kStruct:
      case kUnion:
      case kArray: return word;
      default: return kPlain;
    }
  }
};

// shapes[i] = `pointer_shape` for the pointers among `kinds`, else 0.
void fill_pointer_shapes(const uint8_t* kinds, uint32_t n, uint32_t pointer_shape, uint32_t* shapes) {
  uint32_t i = 0;
#if defined(__SSE2__)
  const __m128i ptr = _mm_set1_epi8(static_cast<char>(kPtr)), shape = _mm_set1_epi32(static_cast<int>(pointer_shape));
  for (; i + 16 <= n; i += 16) {
    const __m128i is_ptr = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kinds + i)), ptr);
    const __m128i lo = _mm_unpacklo_epi8(is_ptr, is_ptr), hi = _mm_unpackhi_epi8(is_ptr, is_ptr);
    auto* out = reinterpret_cast<__m128i*>(shapes + i);
    _mm_storeu_si128(out, _mm_and_si128(_mm_unpacklo_epi16(lo, lo), shape));
    _mm_storeu_si128(out + 1, _mm_and_si128(_mm_unpackhi_epi16(lo, lo), shape));
    _mm_storeu_si128(out + 2, _mm_and_si128(_mm_unpacklo_epi16(hi, hi), shape));
    _mm_storeu_si128(out + 3, _mm_and_si128(_mm_unpackhi_epi16(hi, hi), shape));
  }
#endif
  for (; i < n; ++i) shapes[i] = kinds[i] == kPtr ? pointer_shape : 0;
}

// Outcome of one step of resolving the type on top of the stack.
enum class Step : uint8_t {
  Ok,        // pushed a dependency or popped the type as resolved
  Failed,    // a finding was reported for the type
  TooDeep,   // a push would exceed 32 frames
  Loop,      // a push met a type already on the stack
  Poisoned,  // depends on a type that failed earlier: fail silently
};

struct Sized {
  TypeRef type;
  uint32_t id;
  uint32_t size;
};

enum class Named : uint8_t { Unknown, Yes, No };

// The FUNCs among `count` own types from `from` that resolve() would find
// plainly fine, marked resolved; the others' local ids go to `left`. Reads
// only what the root loop wrote (and the FUNCs' own entries), so that two
// threads can take chunks of one loop.
void resolve_plain_funcs(const SharedFuncLoop& s, uint32_t from, uint32_t count, std::vector<uint32_t>& left) {
  ResolveState& st = *s.state;
  for_each_of_kinds<kFunc>(s.kinds + from, count, [&](uint32_t i) {
    const uint32_t local = from + i;
    if (st.visit[local] != Visit::NotVisited) return;  // resolved in the root loop, or flagged
    const uint32_t proto_id = s.heads[local].size_or_type, proto_local = proto_id - s.first;
    if (proto_local >= s.own || s.kinds[proto_local] != kFuncProto ||
        s.protos_named[proto_local] != static_cast<uint8_t>(Named::Yes)) {
      left.push_back(local);
      return;
    }
    st.ids[local] = proto_id;
    st.visit[local] = Visit::Resolved;
  });
}

// Chunks of 4096 types: a few dozen in a vmlinux, each long enough for the
// hand-out to cost nothing.
constexpr uint32_t kFuncChunk = 4096;

void take_func_chunks(SharedFuncLoop& s, std::vector<uint32_t>& left) {
  for (uint32_t c; (c = s.next_chunk.fetch_add(1, std::memory_order_relaxed)) < s.chunks;) {
    const uint32_t from = c * kFuncChunk;
    resolve_plain_funcs(s, from, std::min(kFuncChunk, s.own - from), left);
    s.done_chunks.fetch_add(1, std::memory_order_release);
    s.done_chunks.notify_one();
  }
}

class Resolver {
 public:
  Resolver(const Btf& btf, ResolveState& st, Findings& f, SharedFuncLoop* shared)
      : shared_(shared),
        btf_(btf),
        st_(st),
        f_(f),
        heads_(btf.heads()),
        types_(btf.type_section()),
        kinds_(btf.kinds()),
        types_len_(btf.header().type_len),
        first_(btf.first_id()),
        own_(btf.own_count()),
        count_(btf.type_count()) {}

  void run();

 private:
  struct Frame {
    uint32_t id;
    uint32_t next_item;
  };

  // --- state queries, with the kernel's semantics; this blob's own types
  // take the short way, base types go through the Btf and the base state.
  bool exists(uint32_t id) const { return id < count_; }
  TypeRef type(uint32_t id) const {
    const uint32_t local = id - first_;
    if (local < own_) return TypeRef(types_ + heads_[local].offset, heads_[local]);
    return btf_.type(id);
  }
  // Void is never resolved: it is not a type the pass visits. FUNCs are
  // resolved after the other types (see run()); a FUNC below the root the
  // pass is at is resolved when it is looked at, as the kernel's pass would
  // have resolved it at its turn.
  Visit visit_of(uint32_t id) {
    const uint32_t local = id - first_;
    if (local < own_) {
      const Visit v = st_.visit[local];
      if (v == Visit::NotVisited && id < root_ && kinds_[local] == kFunc) return resolve_func_alone(id);
      return v;
    }
    return id == 0 ? Visit::NotVisited : st_.state(id);
  }
  bool resolved(uint32_t id) { return visit_of(id) >= Visit::Resolved; }
  bool poisoned(uint32_t id) { return visit_of(id) == Visit::Poisoned; }
  bool sink(TypeRef next) const {
    const uint32_t k = next.kind();
    switch (mode_) {
      case Mode::Tbd: return !needs_resolve(next);
      case Mode::Ptr: return !is_modifier(k) && k != kPtr;
      case Mode::StructOrArray: return !is_modifier(k) && k != kArray && !is_aggregate(k);
    }
    return true;
  }
  // The type and byte size an id stands for, looking through typedefs,
  // qualifiers and VARs by their resolved ids; nullopt for types without size.
  std::optional<Sized> id_size(uint32_t id) const;
  // Whether id_size(id) would find a size.
  bool has_size(uint32_t id) const {
    const uint32_t k = kind(id);
    if (sized_kind(k)) return true;
    if (!is_modifier(k) && k != kVar) return false;
    const uint32_t rid = resolved_id(id);
    return exists(rid) && sized_kind(kind(rid));
  }
  uint32_t kind(uint32_t id) const { return btf_.kind_of(id); }
  uint32_t resolved_id(uint32_t id) const {
    const uint32_t local = id - first_;
    return local < own_ ? st_.ids[local] : st_.resolved_id(id);
  }

  Step push(uint32_t id);
  void pop(uint32_t resolved_id, uint32_t resolved_size);
  // What pop() stores, also for the types resolved without the stack.
  void mark_resolved(uint32_t local, uint32_t resolved_id, uint32_t resolved_size);
  Frame& top() { return stack_[depth_ - 1]; }

  // --- one step per kind
  Step resolve_step(Frame& v);
  Step resolve_modifier_or_ptr(const Frame& v, TypeRef t);
  Step resolve_var(const Frame& v, TypeRef t);
  Step resolve_array(const Frame& v, TypeRef t);
  Step resolve_aggregate(Frame& v, TypeRef t);
  Step resolve_func(const Frame& v, TypeRef t);
  bool func_ok(uint32_t id, TypeRef t);
  Visit resolve_func_alone(uint32_t id);
  Step resolve_decl_tag(const Frame& v, TypeRef t);
  Step resolve_datasec(Frame& v, TypeRef t);
  Step check_member(uint32_t agg_id, TypeRef agg, uint32_t index, const Member& m);
  Step check_member_as(uint32_t agg_id, TypeRef agg, uint32_t index, const Member& m, TypeRef mt, uint32_t mt_id,
                       bool kflag);
  Step check_member_shape(uint32_t agg_id, TypeRef agg, uint32_t index, const Member& m, uint32_t k, uint32_t word,
                          bool kflag);
  Step fail_member(const Rule& rule, uint32_t agg_id, uint32_t index, const Member& m, const std::string& message);
  // A referenced id that does not exist or is a source-only kind; `what`
  // names the reference, and is only called to report one.
  template <typename What>
  bool bad_reference(uint32_t from, uint32_t ref, What what, uint64_t at) {
    if (exists(ref) && !source_only(kind(ref))) return false;
    report_bad_reference(from, ref, what(), at);
    return true;
  }
  void report_bad_reference(uint32_t from, uint32_t ref, const std::string& what, uint64_t at);

  bool resolve(uint32_t root);
  void check_func_proto(uint32_t id);
  void share_func_loop(SharedFuncLoop& s);

  std::string describe(uint32_t id) const { return type_label(btf_, id); }

  SharedFuncLoop* const shared_;
  const Btf& btf_;
  ResolveState& st_;
  Findings& f_;
  const RecordHead* heads_;
  const uint8_t* types_;
  const uint8_t* kinds_;
  const uint32_t types_len_;
  const uint32_t first_, own_, count_;
  Frame stack_[kMaxResolveDepth];
  uint32_t depth_ = 0;
  Mode mode_ = Mode::Tbd;
  uint32_t rejected_push_ = 0;  // the id a failed push was for, for messages
  uint32_t root_ = 0;           // the type the root loop is at
  std::vector<Named> protos_named_;  // per own FUNC_PROTO: are all its typed parameters named?
  // Per own type that a member had and passed the checks with: the kind of
  // the type it resolves to and the word the checks read of it (MemberShape;
  // 0: none yet). Neither changes once the type is resolved, nor, for the
  // types a struct does not resolve first, at all, unless the type fails
  // later (the entry is then cleared). An array counts once it is resolved
  // (a typedef resolved from a pointer may name one that is not yet, whose
  // size is then 0). Pointers, INTs and ENUMs have theirs from the start,
  // aggregates and arrays from when they are resolved. A struct's members
  // mostly have types that others had: one load instead of a walk of the
  // chain.
  std::unique_ptr<uint32_t[]> member_shapes_;  // own types
  // Per own type: found a valid return or parameter type by an earlier
  // prototype (it exists, is resolved and has a size; none of that changes).
  // A bit per type (a vmlinux's 16 KB stay in the first-level cache, where
  // prototypes look up their operands at random).
  std::vector<uint64_t> operand_ok_;
  uint8_t operand_bit(uint32_t local) const { return operand_ok_[local / 64] >> (local % 64) & 1; }
  bool known_operand(uint32_t id) const { return id - first_ < own_ && operand_bit(id - first_); }
  // Whether all of a prototype's operands are known (then it learns whether
  // its parameters are named, and its check is done): no branch per
  // operand. operand_ok_ has a bit past the own types, for the others.
  bool known_operands(uint32_t local, TypeRef proto) {
    const uint32_t ret = proto.type(), n = proto.vlen();
    uint8_t known = (ret == 0) | operand_bit(std::min(ret - first_, own_));
    uint8_t named = 1;
    auto operand = [&](uint32_t i) {
      const Param p = param_at(proto, i);
      const uint8_t beyond = i >= n;
      known &= beyond | operand_bit(std::min(p.type - first_, own_));
      named &= beyond | (p.name_off != 0);
    };
    if (reads_few_params(proto, types_ + types_len_)) {
      for (uint32_t i = 0; i < kFewParams; ++i) operand(i);
    } else {
      for (uint32_t i = 0; i < n; ++i) operand(i);
    }
    if (known) protos_named_[local] = named ? Named::Yes : Named::No;
    return known;
  }
  // Also for the pointers, typedefs and qualifiers found to have a size
  // when they are resolved.
  void remember_operand(uint32_t id) {
    if (const uint32_t local = id - first_; local < own_) operand_ok_[local / 64] |= uint64_t(1) << (local % 64);
  }
  // The kernel wants a name on every parameter but the vararg.
  static bool unnamed(const Param& p) { return !p.name_off && p.type; }
  // Whether a prototype's parameters are all named; two FUNCs in three share
  // their prototype with another, so an own prototype is read once.
  bool proto_named(uint32_t proto_id) {
    const uint32_t local = proto_id - first_;
    if (local < own_ && protos_named_[local] != Named::Unknown) return protos_named_[local] == Named::Yes;
    const TypeRef proto = type(proto_id);
    bool named = true;
    for (uint32_t i = 0; i < proto.vlen() && named; ++i) named = !unnamed(param_at(proto, i));
    if (local < own_) protos_named_[local] = named ? Named::Yes : Named::No;
    return named;
  }
  // A resolved aggregate's or array's shape as a member, before any member
  // has it: neither changes once the type is resolved.
  void remember_shape(uint32_t id, uint32_t kind, uint32_t size) {
    member_shapes_[id - first_] = MemberShape{kind, size}.pack();
  }
  // A resolved typedef or qualifier is, as a member, what it resolves to.
  void inherit_shape(uint32_t id, uint32_t resolved_id) {
    if (const uint32_t from = resolved_id - first_; from < own_) member_shapes_[id - first_] = member_shapes_[from];
  }
  bool resolve_plain_func(uint32_t id);
  // resolve() of an own type a prototype has, the short way where it can.
  bool resolve_operand(uint32_t id) {
    const uint32_t k = kind(id);
    return ((k == kPtr || is_modifier(k)) && resolve_plain_ref(id, k)) || resolve(id);
  }
  bool resolve_plain_ref(uint32_t id, uint32_t kind, bool first_pointer = true);
  bool resolve_past_resolved(uint32_t local, uint32_t kind, uint32_t target, uint32_t target_kind);
  bool resolve_plain_aggregate(uint32_t id);
  bool resolve_plain_array(uint32_t id);
};

// btf_type_id_size().
std::optional<Sized> Resolver::id_size(uint32_t id) const {
  if (!exists(id)) return std::nullopt;
  TypeRef t = type(id);
  if (nosize(t)) return std::nullopt;
  const uint32_t k = t.kind();
  if (has_size_field(k)) return Sized{t, id, t.size()};
  if (k == kArray) return Sized{t, id, st_.resolved_size(id)};
  if (k == kPtr) return Sized{t, id, kPointerSize};
  if (!is_modifier(k) && k != kVar) return std::nullopt;
  const uint32_t rid = resolved_id(id);
  if (!exists(rid)) return std::nullopt;
  const TypeRef r = type(rid);
  const uint32_t rk = r.kind();
  if (nosize(r)) return std::nullopt;
  if (has_size_field(rk)) return Sized{r, rid, r.size()};
  if (rk == kArray) return Sized{r, rid, st_.resolved_size(rid)};
  if (rk == kPtr) return Sized{r, rid, kPointerSize};
  return std::nullopt;
}

// env_stack_push(): Loop for a type on the stack (or not this blob's),
// TooDeep past 32 frames; sets the mode from the first pointer or
// struct/array. Reports nothing (resolve() does).
Step Resolver::push(uint32_t id) {
  rejected_push_ = id;
  if (depth_ == kMaxResolveDepth) return Step::TooDeep;
  const uint32_t local = id - first_;
  if (local >= own_ || st_.visit[local] != Visit::NotVisited) return Step::Loop;
  st_.visit[local] = Visit::Visited;
  stack_[depth_++] = Frame{id, 0};
  if (mode_ == Mode::Tbd) {
    const uint32_t k = info_kind(heads_[local].info);
    if (k == kPtr)
      mode_ = Mode::Ptr;
    else if (is_aggregate(k) || k == kArray)
      mode_ = Mode::StructOrArray;
  }
  return Step::Ok;
}

// env_stack_pop_resolved().
void Resolver::pop(uint32_t resolved_id, uint32_t resolved_size) {
  mark_resolved(stack_[--depth_].id - first_, resolved_id, resolved_size);
}

void Resolver::mark_resolved(uint32_t local, uint32_t resolved_id, uint32_t resolved_size) {
  st_.ids[local] = resolved_id;
  if (resolved_size) st_.sizes[local] = resolved_size;  // the others stay 0 from the start
  st_.visit[local] = Visit::Resolved;
}

void Resolver::report_bad_reference(uint32_t from, uint32_t ref, const std::string& what, uint64_t at) {
  if (!exists(ref))
    f_.at_type(rules::TYPE_007, from,
               what + " " + std::to_string(ref) + " does not exist (" + std::to_string(btf_.type_count()) + " types)", at);
  else
    f_.at_type(rules::TYPE_012, from, what + " " + describe(ref) + " is a source-only kind", at);
}

// btf_type_ops(t)->resolve: one step of the type on top of the stack.
Step Resolver::resolve_step(Frame& v) {
  const TypeRef t = type(v.id);
  switch (t.kind()) {
    case kPtr:
    case kTypedef:
    case kVolatile:
    case kConst:
    case kRestrict:
    case kTypeTag: return resolve_modifier_or_ptr(v, t);
    case kVar: return resolve_var(v, t);
    case kArray: return resolve_array(v, t);
    case kStruct:
    case kUnion: return resolve_aggregate(v, t);
    case kFunc: return resolve_func(v, t);
    case kDeclTag: return resolve_decl_tag(v, t);
    case kDatasec: return resolve_datasec(v, t);
    default: return Step::Poisoned;  // not reachable: only needs_resolve kinds are pushed
  }
}

// btf_modifier_resolve() and btf_ptr_resolve(); also remembers the type's
// member shape and whether it is a valid operand.
// Reports BTF-TYPE-007, BTF-TYPE-012, BTF-REF-007.
Step Resolver::resolve_modifier_or_ptr(const Frame& v, TypeRef t) {
  uint32_t next_id = t.type();
  if (bad_reference(v.id, next_id, [] { return std::string("target"); }, 8)) return Step::Failed;
  if (poisoned(next_id)) return Step::Poisoned;
  TypeRef next = type(next_id);
  if (!sink(next) && !resolved(next_id)) return push(next_id);
  // A pointer (or, for VAR, see resolve_var) whose target modifier was
  // resolved in struct mode stopped at a pointer; continue from that pointer
  // so that a pointer cycle through it is still found.
  if (t.kind() == kPtr && is_modifier(next.kind())) {
    const uint32_t rid = st_.resolved_id(next_id);
    const TypeRef r = type(rid);
    if (r.kind() == kPtr && !sink(r) && !resolved(rid)) return push(rid);
  }
  if (auto sized = id_size(next_id)) {
    if (t.kind() != kPtr) inherit_shape(v.id, sized->id);
    remember_operand(v.id);
    pop(sized->id, 0);
    return Step::Ok;
  }
  if (resolved(next_id)) {
    next_id = st_.resolved_id(next_id);
    next = type(next_id);
  }
  const uint32_t nk = next.kind();
  if (!next.is_void() && nk != kFwd && nk != kFuncProto) {
    f_.at_type(rules::REF_007, v.id, "target " + describe(next_id) + " has no size", 8);
    return Step::Failed;
  }
  if (t.kind() == kPtr) remember_operand(v.id);
  pop(next_id, 0);
  return Step::Ok;
}

// btf_var_resolve(). Reports BTF-TYPE-007, BTF-TYPE-012, BTF-VAR-005.
Step Resolver::resolve_var(const Frame& v, TypeRef t) {
  const uint32_t next_id = t.type();
  if (bad_reference(v.id, next_id, [] { return std::string("type"); }, 8)) return Step::Failed;
  if (poisoned(next_id)) return Step::Poisoned;
  const TypeRef next = type(next_id);
  if (!sink(next) && !resolved(next_id)) return push(next_id);
  if (is_modifier(next.kind())) {
    const uint32_t rid = st_.resolved_id(next_id);
    const TypeRef r = type(rid);
    if (r.kind() == kPtr && !sink(r) && !resolved(rid)) return push(rid);
  }
  auto sized = id_size(next_id);
  if (!sized) {
    f_.at_type(rules::VAR_005, v.id, "type " + describe(next_id) + " has no size", 8);
    return Step::Failed;
  }
  pop(sized->id, 0);
  return Step::Ok;
}

// btf_array_resolve(). Reports BTF-TYPE-007, BTF-TYPE-012,
// BTF-ARRAY-005..008.
Step Resolver::resolve_array(const Frame& v, TypeRef t) {
  const uint32_t elem_id = t.payload(0), index_id = t.payload(1), nelems = t.payload(2);
  if (bad_reference(v.id, index_id, [] { return std::string("index type"); }, 16)) return Step::Failed;
  if (poisoned(index_id)) return Step::Poisoned;
  const TypeRef index = type(index_id);
  if (nosize(index)) {
    f_.at_type(rules::ARRAY_005, v.id, "index type " + describe(index_id) + " has no size", 16);
    return Step::Failed;
  }
  if (!sink(index) && !resolved(index_id)) return push(index_id);
  auto isz = id_size(index_id);
  if (!isz || isz->type.kind() != kInt || !regular_int(isz->type)) {
    f_.at_type(rules::ARRAY_005, v.id,
               "index type " + describe(index_id) + " is not a regular INT" +
                   (isz && isz->id != index_id ? " (resolves to " + describe(isz->id) + ")" : ""),
               16);
    return Step::Failed;
  }
  if (bad_reference(v.id, elem_id, [] { return std::string("element type"); }, 12)) return Step::Failed;
  if (poisoned(elem_id)) return Step::Poisoned;
  const TypeRef elem = type(elem_id);
  if (nosize(elem)) {
    f_.at_type(rules::ARRAY_006, v.id, "element type " + describe(elem_id) + " has no size", 12);
    return Step::Failed;
  }
  if (!sink(elem) && !resolved(elem_id)) return push(elem_id);
  auto esz = id_size(elem_id);
  if (!esz) {
    f_.at_type(rules::ARRAY_006, v.id, "element type " + describe(elem_id) + " has no size", 12);
    return Step::Failed;
  }
  if (esz->type.kind() == kInt && !regular_int(esz->type)) {
    f_.at_type(rules::ARRAY_007, v.id, "element type " + describe(esz->id) + " is a bitfield-shaped INT", 12);
    return Step::Failed;
  }
  if (nelems && esz->size > UINT32_MAX / nelems) {
    f_.at_type(rules::ARRAY_008, v.id,
               std::to_string(nelems) + " elements of " + std::to_string(esz->size) + " bytes overflow u32", 20);
    return Step::Failed;
  }
  remember_shape(v.id, kArray, esz->size * nelems);
  pop(esz->id, esz->size * nelems);
  return Step::Ok;
}

// btf_struct_resolve(), with a member whose type's shape is known checked
// from that shape alone. Reports BTF-TYPE-007, BTF-TYPE-012, BTF-AGG-008,
// and through the member checks BTF-AGG-008..016.
Step Resolver::resolve_aggregate(Frame& v, TypeRef t) {
  // Re-entered after a member's type was pushed and resolved: check that member.
  if (v.next_item) {
    const uint32_t i = v.next_item - 1;
    const Member m = member_at(t, i);
    if (poisoned(m.type)) return Step::Poisoned;
    if (Step s = check_member(v.id, t, i, m); s != Step::Ok) return s;
  }
  const bool kflag = t.kflag();
  for (uint32_t i = v.next_item, n = t.vlen(); i < n; ++i) {
    const Member m = member_at(t, i);
    if (const uint32_t local = m.type - first_; local < own_ && member_shapes_[local]) {
      const uint32_t packed = member_shapes_[local];
      if (packed & MemberShape::kPlain) {
        if (MemberShape::plainly_fits(packed, m.offset, t.size())) continue;
      } else {
        const MemberShape shape = MemberShape::unpack(packed);
        if (Step s = check_member_shape(v.id, t, i, m, shape.kind, shape.word, kflag); s != Step::Ok) return s;
        continue;
      }
    }
    const uint64_t at = 12 + 12ull * i;
    if (!exists(m.type)) {
      report_bad_reference(v.id, m.type, "member " + std::to_string(i) + " type", at + 4);
      return Step::Failed;
    }
    const TypeRef mt = type(m.type);
    if (source_only(mt)) {
      report_bad_reference(v.id, m.type, "member " + std::to_string(i) + " type", at + 4);
      return Step::Failed;
    }
    const Visit state = visit_of(m.type);
    if (state == Visit::Poisoned) return Step::Poisoned;
    if (nosize(mt)) {
      f_.at_type(rules::AGG_008, v.id, "member " + std::to_string(i) + " type " + describe(m.type) + " has no size", at + 4);
      return Step::Failed;
    }
    if (state < Visit::Resolved && !sink(mt)) {
      v.next_item = i + 1;
      return push(m.type);
    }
    if (Step s = check_member_as(v.id, t, i, m, mt, m.type, kflag); s != Step::Ok) return s;
  }
  remember_shape(v.id, t.kind(), t.size());
  pop(0, 0);
  return Step::Ok;
}

Step Resolver::check_member(uint32_t agg_id, TypeRef agg, uint32_t index, const Member& m) {
  return check_member_as(agg_id, agg, index, m, type(m.type), m.type, agg.kflag());
}

Step Resolver::fail_member(const Rule& rule, uint32_t agg_id, uint32_t index, const Member& m,
                           const std::string& message) {
  f_.at_type(rule, agg_id, "member " + std::to_string(index) + " (" + describe(m.type) + ") " + message,
             12 + 12ull * index + 8);
  return Step::Failed;
}

// btf_modifier_check_member(): the member checks on `mt`, the member's type,
// seen through typedefs and qualifiers once they are resolved; remembers the
// shape the checks passed with. Reports BTF-AGG-008..016.
Step Resolver::check_member_as(uint32_t agg_id, TypeRef agg, uint32_t index, const Member& m, TypeRef mt,
                               uint32_t mt_id, bool kflag) {
  const uint32_t k = mt.kind();
  if (is_modifier(k)) {
    auto sized = id_size(mt_id);
    if (!sized) return fail_member(rules::AGG_008, agg_id, index, m, "resolves to a type without size");
    return check_member_as(agg_id, agg, index, m, sized->type, sized->id, kflag);
  }
  const uint32_t word = k == kInt ? mt.payload(0) : k == kArray ? st_.resolved_size(mt_id) : mt.size();
  const Step s = check_member_shape(agg_id, agg, index, m, k, word, kflag);
  if (const uint32_t local = m.type - first_; s == Step::Ok && (k != kArray || resolved(mt_id)) && local < own_)
    member_shapes_[local] = MemberShape{k, word}.pack();
  return s;
}

// The kernel's per-kind member checks (btf_int_check_member(),
// btf_int_check_kflag_member(), btf_enum_check_member(), ...,
// btf_generic_check_kflag_member()), on the kind `k` of the type the
// member resolves to and the one word of it they read (`word`: an INT's
// data, an array's resolved size, or the size of the others).
// Reports BTF-AGG-008..016.
Step Resolver::check_member_shape(uint32_t agg_id, TypeRef agg, uint32_t index, const Member& m, uint32_t k,
                                  uint32_t word, bool kflag) {
  const uint32_t struct_size = agg.size();
  auto fail = [&](const Rule& rule, const std::string& message) { return fail_member(rule, agg_id, index, m, message); };
  if (kflag && (k == kPtr || k == kArray || is_aggregate(k) || k == kFloat)) {
    if (member_bitfield_size(m.offset)) return fail(rules::AGG_015, "has bitfield size " + std::to_string(member_bitfield_size(m.offset)));
    kflag = false;  // a zero bitfield size leaves a plain bit offset
  }
  const uint32_t off = m.offset;
  switch (k) {
    case kInt: {
      const uint32_t data = word;
      if (!kflag) {
        if (UINT32_MAX - off < int_offset(data)) return fail(rules::AGG_011, "bit offset overflows u32");
        const uint32_t bit_off = off + int_offset(data);
        const uint32_t bytes = bit_off >> 3;
        const uint32_t copy_bits = int_bits(data) + (bit_off & 7);
        if (copy_bits > 128) return fail(rules::AGG_011, "spans " + std::to_string(copy_bits) + " bits");
        if (struct_size < bytes || struct_size - bytes < roundup_bytes(copy_bits))
          return fail(rules::AGG_010, "ends past the " + std::to_string(struct_size) + "-byte size");
        return Step::Ok;
      }
      if (!regular_int_data(data)) return fail(rules::AGG_012, "is a bitfield with a non-regular INT base type");
      uint32_t nr_bits = member_bitfield_size(off);
      const uint32_t bit_off = member_bit_offset(off);
      if (!nr_bits) {
        if (bit_off & 7) return fail(rules::AGG_013, "is not a bitfield but starts at bit " + std::to_string(bit_off));
        nr_bits = int_bits(data);
      } else if (nr_bits > int_bits(data)) {
        return fail(rules::AGG_013, "bitfield of " + std::to_string(nr_bits) + " bits in a " +
                                        std::to_string(int_bits(data)) + "-bit INT");
      }
      const uint32_t bytes = bit_off >> 3;
      const uint32_t copy_bits = nr_bits + (bit_off & 7);
      if (copy_bits > 128) return fail(rules::AGG_011, "spans " + std::to_string(copy_bits) + " bits");
      if (struct_size < bytes || struct_size - bytes < roundup_bytes(copy_bits))
        return fail(rules::AGG_010, "ends past the " + std::to_string(struct_size) + "-byte size");
      return Step::Ok;
    }
    case kEnum:
    case kEnum64: {
      if (!kflag) {
        if (off & 7) return fail(rules::AGG_009, "starts at bit " + std::to_string(off));
        if (struct_size - (off >> 3) < word)
          return fail(rules::AGG_010, "ends past the " + std::to_string(struct_size) + "-byte size");
        return Step::Ok;
      }
      const uint32_t bit_off = member_bit_offset(off);
      uint32_t nr_bits = member_bitfield_size(off);
      if (!nr_bits) {
        if (bit_off & 7) return fail(rules::AGG_009, "starts at bit " + std::to_string(bit_off));
        nr_bits = 32;  // the kernel assumes int-sized enums here, even for 8-byte ones
      } else if (nr_bits > 32) {
        return fail(rules::AGG_014, "is an enum bitfield of " + std::to_string(nr_bits) + " bits");
      }
      if (struct_size < roundup_bytes(bit_off + nr_bits))
        return fail(rules::AGG_010, "ends past the " + std::to_string(struct_size) + "-byte size");
      return Step::Ok;
    }
    case kPtr:
      if (off & 7) return fail(rules::AGG_009, "starts at bit " + std::to_string(off));
      if (struct_size - (off >> 3) < kPointerSize)
        return fail(rules::AGG_010, "ends past the " + std::to_string(struct_size) + "-byte size");
      return Step::Ok;
    case kArray: {
      if (off & 7) return fail(rules::AGG_009, "starts at bit " + std::to_string(off));
      // The array's size as resolved so far (0 if it is not resolved yet).
      const uint32_t array_size = word;
      if (struct_size - (off >> 3) < array_size)
        return fail(rules::AGG_010, "of " + std::to_string(array_size) + " bytes ends past the " +
                                        std::to_string(struct_size) + "-byte size");
      return Step::Ok;
    }
    case kStruct:
    case kUnion:
      if (off & 7) return fail(rules::AGG_009, "starts at bit " + std::to_string(off));
      if (struct_size - (off >> 3) < word)
        return fail(rules::AGG_010, "of " + std::to_string(word) + " bytes ends past the " +
                                        std::to_string(struct_size) + "-byte size");
      return Step::Ok;
    case kFloat: {
      const uint64_t align_bits = uint64_t(std::min<uint32_t>(kPointerSize, word)) * 8;
      if (align_bits == 0 || off % align_bits) return fail(rules::AGG_016, "at bit " + std::to_string(off) + " is misaligned");
      if (uint64_t(off / 8) + word > struct_size)
        return fail(rules::AGG_010, "ends past the " + std::to_string(struct_size) + "-byte size");
      return Step::Ok;
    }
    default:
      return fail(rules::AGG_008, "has no size");
  }
}

// btf_func_resolve(). Reports BTF-FUNC-004, BTF-FUNC-005.
Step Resolver::resolve_func(const Frame& v, TypeRef t) {
  if (!func_ok(v.id, t)) return Step::Failed;
  pop(t.type(), 0);
  return Step::Ok;
}

// btf_func_check(): every unnamed parameter reported (the kernel stops at
// the first). Reports BTF-FUNC-004, BTF-FUNC-005.
bool Resolver::func_ok(uint32_t id, TypeRef t) {
  const uint32_t proto_id = t.type();
  if (!exists(proto_id) || kind(proto_id) != kFuncProto) {
    f_.at_type(rules::FUNC_004, id,
               "type " + (exists(proto_id) ? describe(proto_id) : std::to_string(proto_id) + " (missing)") +
                   " is not a FUNC_PROTO",
               8);
    return false;
  }
  if (!proto_named(proto_id)) {
    const TypeRef proto = type(proto_id);
    for (uint32_t i = 0; i < proto.vlen(); ++i)
      if (unnamed(param_at(proto, i)))
        f_.at_type(rules::FUNC_005, id, "parameter " + std::to_string(i + 1) + " of " + describe(proto_id) + " is unnamed", 8);
    return false;
  }
  return true;
}

// What resolve() of a FUNC as the root does. A FUNC pushes nothing, so this
// needs no stack (and leaves the one in use alone).
Visit Resolver::resolve_func_alone(uint32_t id) {
  const uint32_t local = id - first_;
  if (resolve_plain_func(id)) return Visit::Resolved;
  const TypeRef t = type(id);
  if (func_ok(id, t)) {
    mark_resolved(local, t.type(), 0);
    return Visit::Resolved;
  }
  st_.visit[local] = Visit::Poisoned;
  return Visit::Poisoned;
}

// What resolve() of a FUNC does when it finds nothing wrong (one FUNC in
// two of a vmlinux is nothing else), without the stack: false leaves the
// FUNC to resolve().
bool Resolver::resolve_plain_func(uint32_t id) {
  const uint32_t proto_id = type(id).type(), local = id - first_, proto_local = proto_id - first_;
  if (proto_local >= own_ || kinds_[proto_local] != kFuncProto || !proto_named(proto_id)) return false;
  mark_resolved(local, proto_id, 0);
  return true;
}

// What resolve() of a pointer or modifier does when its target ends the
// walk at once (a pointer to a struct, a const INT, a typedef of a resolved
// struct: four in five of a vmlinux's), without the stack: false leaves the
// type to resolve().
bool Resolver::resolve_plain_ref(uint32_t id, uint32_t kind, bool first_pointer) {
  const uint32_t local = id - first_, target = heads_[local].size_or_type, target_local = target - first_;
  if (target) {
    if (target_local >= own_) return false;
    const Visit target_state = st_.visit[target_local];
    const uint32_t target_kind = kinds_[target_local];
    switch (target_kind) {
      case kInt:
      case kEnum:
      case kEnum64:
      case kFloat:
      case kFwd:
      case kFuncProto: break;  // never resolved, and a sink in every mode
      case kStruct:
      case kUnion:  // a sink for a pointer; in TBD mode, resolved already
        if (kind == kPtr || target_state == Visit::Resolved) break;
        return false;
      case kPtr:
        // Not visited yet: the stack would push it and resolve it at once, in
        // pointer mode, as it would as a root (a typedef of a pointer to a
        // struct); once, so that a chain stays within the depth limit.
        if (target_state == Visit::NotVisited && first_pointer &&
            resolve_plain_ref(target, kPtr, /*first_pointer=*/false))
          return resolve_past_resolved(local, kind, target, target_kind);
        [[fallthrough]];
      case kArray:
      case kTypedef:
      case kVolatile:
      case kConst:
      case kRestrict:
      case kTypeTag:  // resolved already: not pushed in any mode
        return target_state == Visit::Resolved && resolve_past_resolved(local, kind, target, target_kind);
      default: return false;
    }
    if (target_state == Visit::Poisoned) return false;
    if (kind == kPtr || (target_kind != kFwd && target_kind != kFuncProto)) remember_operand(id);
  } else if (kind == kPtr) {
    remember_operand(id);
  }
  if (kind != kPtr) inherit_shape(id, target);
  mark_resolved(local, target, 0);
  return true;
}

// The rest of resolve_plain_ref() for a target that is a pointer, an array
// or a modifier, resolved already (a const struct, a typedef of a pointer:
// most of the others of a vmlinux): done when id_size() finds the target's
// size, and a pointer's target modifier does not end at a pointer still to
// resolve (that one would be pushed).
bool Resolver::resolve_past_resolved(uint32_t local, uint32_t kind, uint32_t target, uint32_t target_kind) {
  uint32_t sized_id = target;  // the type id_size(target) finds
  if (is_modifier(target_kind)) {
    sized_id = st_.ids[target - first_];
    const uint32_t sized_local = sized_id - first_;
    if (sized_local >= own_) return false;  // void, or a base type
    const uint32_t k = kinds_[sized_local];
    if (kind == kPtr && k == kPtr && st_.visit[sized_local] != Visit::Resolved) return false;
    if (!sized_kind(k)) return false;
  }
  const uint32_t id = first_ + local;
  if (kind != kPtr) inherit_shape(id, sized_id);
  remember_operand(id);
  mark_resolved(local, sized_id, 0);
  return true;
}

// What resolve() of a struct or union does when every member's type has a
// plain shape already and fits (nine in ten of a vmlinux's), without the
// stack: false leaves the type to resolve().
bool Resolver::resolve_plain_aggregate(uint32_t id) {
  const TypeRef t = type(id);
  const uint32_t size = t.size();
  for (uint32_t i = 0, n = t.vlen(); i < n; ++i) {
    const Member m = member_at(t, i);
    const uint32_t local = m.type - first_;
    if (local >= own_) return false;
    uint32_t packed = member_shapes_[local];
    // An array not visited yet (a vmlinux's mostly follow their struct):
    // the stack would push it and resolve it at once, in struct mode, as
    // the root loop would.
    if (!packed && kinds_[local] == kArray && st_.visit[local] == Visit::NotVisited && resolve_plain_array(m.type))
      packed = member_shapes_[local];
    if (!(packed & MemberShape::kPlain) || !MemberShape::plainly_fits(packed, m.offset, size)) return false;
  }
  remember_shape(id, t.kind(), size);
  mark_resolved(id - first_, 0, 0);
  return true;
}

// What resolve() of an array does when its index type is a regular INT and
// its element type ends the walk at once (an INT, ENUM, FLOAT or pointer, or
// a type resolved already) and passes (most of a vmlinux's arrays), without
// the stack: false leaves the array to resolve().
bool Resolver::resolve_plain_array(uint32_t id) {
  const TypeRef t = type(id);
  const uint32_t elem = t.payload(0), index = t.payload(1), nelems = t.payload(2);
  const uint32_t elem_local = elem - first_, index_local = index - first_;
  if (index_local >= own_ || elem_local >= own_ || kinds_[index_local] != kInt ||
      st_.visit[index_local] == Visit::Poisoned || !regular_int(type(index)))
    return false;
  switch (kinds_[elem_local]) {
    case kInt:
    case kEnum:
    case kEnum64:
    case kFloat:
    case kPtr:  // sinks for an array
      if (st_.visit[elem_local] == Visit::Poisoned) return false;
      break;
    case kArray:
    case kStruct:
    case kUnion:
    case kTypedef:
    case kVolatile:
    case kConst:
    case kRestrict:
    case kTypeTag:  // resolved already (the others fail, or are source-only)
      if (st_.visit[elem_local] != Visit::Resolved) return false;
      break;
    default: return false;
  }
  const auto esz = id_size(elem);
  if (!esz || (esz->type.kind() == kInt && !regular_int(esz->type)) || (nelems && esz->size > UINT32_MAX / nelems))
    return false;
  remember_shape(id, kArray, esz->size * nelems);
  mark_resolved(id - first_, esz->id, esz->size * nelems);
  return true;
}

// btf_decl_tag_resolve(). Reports BTF-TYPE-007, BTF-DTAG-006..008.
Step Resolver::resolve_decl_tag(const Frame& v, TypeRef t) {
  const uint32_t target_id = t.type();
  if (!exists(target_id)) {
    f_.at_type(rules::TYPE_007, v.id, "target " + std::to_string(target_id) + " does not exist", 8);
    return Step::Failed;
  }
  const TypeRef target = type(target_id);
  const uint32_t tk = target.kind();
  if (tk != kFunc && !is_aggregate(tk) && tk != kVar && tk != kTypedef) {
    f_.at_type(rules::DTAG_006, v.id, "target " + describe(target_id) + " cannot carry a declaration tag", 8);
    return Step::Failed;
  }
  if (poisoned(target_id)) return Step::Poisoned;
  if (!sink(target) && !resolved(target_id)) return push(target_id);
  const int32_t idx = static_cast<int32_t>(t.payload(0));
  if (idx != -1) {
    if (tk == kVar || tk == kTypedef) {
      f_.at_type(rules::DTAG_007, v.id, "component_idx " + std::to_string(idx) + " on " + describe(target_id), 12);
      return Step::Failed;
    }
    const uint32_t vlen = is_aggregate(tk) ? target.vlen() : exists(target.type()) ? type(target.type()).vlen() : 0;
    if (static_cast<uint32_t>(idx) >= vlen) {
      f_.at_type(rules::DTAG_008, v.id,
                 "component_idx " + std::to_string(idx) + " but " + describe(target_id) + " has " +
                     std::to_string(vlen) + (is_aggregate(tk) ? " members" : " parameters"),
                 12);
      return Step::Failed;
    }
  }
  pop(target_id, 0);
  return Step::Ok;
}

// btf_datasec_resolve(). Reports BTF-DATASEC-011, BTF-VAR-005,
// BTF-DATASEC-012.
Step Resolver::resolve_datasec(Frame& v, TypeRef t) {
  mode_ = Mode::Tbd;  // 6.18 resets the mode for every entry, so VARs are always pushed
  for (uint32_t i = v.next_item; i < t.vlen(); ++i) {
    const VarSecInfo e = secinfo_at(t, i);
    const uint64_t at = 12 + 12ull * i;
    if (!exists(e.type) || type(e.type).kind() != kVar) {
      f_.at_type(rules::DATASEC_011, v.id,
                 "entry " + std::to_string(i) + " type " + (exists(e.type) ? describe(e.type) : std::to_string(e.type)) +
                     " is not a VAR",
                 at);
      return Step::Failed;
    }
    if (poisoned(e.type)) return Step::Poisoned;
    const TypeRef var = type(e.type);
    if (!sink(var) && !resolved(e.type)) {
      v.next_item = i + 1;
      return push(e.type);
    }
    auto sized = id_size(var.type());
    if (!sized) {
      f_.at_type(rules::VAR_005, e.type, "type " + describe(var.type()) + " has no size", 8);
      return Step::Failed;
    }
    if (e.size < sized->size) {
      f_.at_type(rules::DATASEC_012, v.id,
                 "entry " + std::to_string(i) + " (" + describe(e.type) + ") is " + std::to_string(e.size) +
                     " bytes, its type " + std::to_string(sized->size),
                 at + 8);
      return Step::Failed;
    }
  }
  pop(0, 0);
  return Step::Ok;
}

// btf_resolve(): resolves `root` with the stack; on failure the types on it
// are Poisoned. Reports BTF-TYPE-009 (loop), BTF-TYPE-010 (depth), and what
// the steps report.
bool Resolver::resolve(uint32_t root) {
  mode_ = Mode::Tbd;
  push(root);
  Step s = Step::Ok;
  while (s == Step::Ok && depth_) s = resolve_step(top());
  if (s == Step::Ok) return true;
  if (s == Step::TooDeep || s == Step::Loop) {
    std::string path;
    for (uint32_t i = 0; i < depth_; ++i) path += describe(stack_[i].id) + " -> ";
    path += describe(rejected_push_);
    if (s == Step::TooDeep)
      f_.at_type(rules::TYPE_010, root, "resolving needs more than 32 levels: " + path);
    else
      f_.at_type(rules::TYPE_009, root, "reference cycle: " + path);
  }
  // Every type on the path fails with the root; later types that reach them
  // fail silently.
  for (uint32_t i = 0; i < depth_; ++i) {
    const uint32_t local = stack_[i].id - first_;
    st_.visit[local] = Visit::Poisoned;
    member_shapes_[local] = 0;  // a pointer a struct did not resolve may fail later
  }
  depth_ = 0;
  return false;
}

// btf_func_proto_check(), done at once when every operand is known valid
// (known_operands()). Reports BTF-PROTO-003..005, and what resolve() of an
// operand reports.
void Resolver::check_func_proto(uint32_t id) {
  const TypeRef t = type(id);
  const uint32_t ret = t.type();
  if (known_operands(id - first_, t)) return;
  if (ret && !known_operand(ret)) {
    if (!exists(ret) || source_only(kind(ret))) {
      f_.at_type(rules::PROTO_003, id, "return type " + (exists(ret) ? describe(ret) : std::to_string(ret) + " (missing)"), 8);
      return;
    }
    const Visit state = visit_of(ret);
    if (state == Visit::Poisoned) return;
    if (state < Visit::Resolved && needs_resolve(kind(ret)) && !resolve_operand(ret)) return;
    if (!has_size(ret)) {
      f_.at_type(rules::PROTO_003, id, "return type " + describe(ret) + " has no size", 8);
      return;
    }
    remember_operand(ret);
  }
  uint32_t nargs = t.vlen();
  if (nargs && param_at(t, nargs - 1).type == 0) {
    if (param_at(t, nargs - 1).name_off) {
      f_.at_type(rules::PROTO_004, id, "vararg parameter " + std::to_string(nargs) + " has a name", 12 + 8ull * (nargs - 1));
      return;
    }
    --nargs;
  }
  // The FUNCs of the prototype mostly follow it: whether its parameters are
  // all named is best learned while they are read here.
  bool named = true;
  for (uint32_t i = 0; i < nargs; ++i) {
    const Param p = param_at(t, i);
    named &= !unnamed(p);
    if (known_operand(p.type)) continue;
    const uint64_t at = 12 + 8ull * i;
    auto which = [i] { return "parameter " + std::to_string(i + 1); };
    if (!exists(p.type) || source_only(kind(p.type))) {
      f_.at_type(rules::PROTO_005, id, which() + " type " + (exists(p.type) ? describe(p.type) : std::to_string(p.type) + " (missing)"), at + 4);
      continue;
    }
    const Visit state = visit_of(p.type);
    if (state == Visit::Poisoned) continue;
    if (state < Visit::Resolved && needs_resolve(kind(p.type)) && !resolve_operand(p.type)) return;
    if (!has_size(p.type)) {
      if (p.type == 0)
        f_.at_type(rules::PROTO_004, id, which() + " is a vararg but not the last parameter", at + 4);
      else
        f_.at_type(rules::PROTO_005, id, which() + " type " + describe(p.type) + " has no size", at + 4);
      continue;
    }
    remember_operand(p.type);
  }
  protos_named_[id - first_] = named ? Named::Yes : Named::No;
}

// btf_check_all_types(), reordered (see the top of the file). Reports what
// resolve(), check_func_proto() and the FUNC checks report.
void Resolver::run() {
  const uint32_t first = btf_.first_id(), n = btf_.own_count();
  st_.btf = &btf_;
  st_.ids.assign(n, 0);
  st_.sizes.assign(n, 0);
  st_.visit.assign(n, Visit::NotVisited);
  protos_named_.assign(n, Named::Unknown);
  operand_ok_.assign(n / 64 + 1, 0);
  // The kinds that are members without being resolved have their shapes
  // from the start. A pointer's is the same for all: written with the
  // zeros of the others, from the kinds alone (one in eight types of a
  // vmlinux, whose records need not be read).
  member_shapes_ = std::make_unique_for_overwrite<uint32_t[]>(n);
  fill_pointer_shapes(kinds_, n, MemberShape{kPtr, 0}.pack(), member_shapes_.get());
  if (f_.any_flagged())
    for (uint32_t i = 0; i < n; ++i)
      if (f_.flagged(first + i)) {
        st_.visit[i] = Visit::Poisoned;
        member_shapes_[i] = 0;
      }
  for_each_of_kinds<kInt, kEnum, kEnum64>(kinds_, n, [&](uint32_t local) {
      if (st_.visit[local] == Visit::Poisoned) return;
      const uint32_t k = kinds_[local];
      member_shapes_[local] =
          MemberShape{k, k == kInt ? type(first_ + local).payload(0) : heads_[local].size_or_type}.pack();
    });
  // In id order, as the kernel does, but without the kinds that never need
  // anything, and without the FUNCs (one type in two, all alike), which
  // follow in a loop of their own (see visit_of()): the kinds alternate so
  // often that a branch on each type's kind mostly goes the wrong way.
  for_each_not_of_kinds<kInt, kEnum, kFwd, kFunc, kFloat, kEnum64>(kinds_, n, [&](uint32_t local) {
    const uint32_t id = first + local, k = kinds_[local];
    root_ = id;
    if (k == kFuncProto) {
      if (!f_.flagged(id)) check_func_proto(id);
    } else if (needs_resolve(k) && !resolved(id) &&
               !((k == kPtr || is_modifier(k)) ? resolve_plain_ref(id, k)
                 : is_aggregate(k)               ? resolve_plain_aggregate(id)
                 : k == kArray                   ? resolve_plain_array(id)
                                                 : false)) {
      resolve(id);
    }
  });
  root_ = count_;
  if (shared_) {
    share_func_loop(*shared_);
    return;
  }
  for_each_of_kinds<kFunc>(kinds_, n, [&](uint32_t local) {
    if (st_.visit[local] == Visit::NotVisited) resolve_func_alone(first + local);
  });
}

void Resolver::share_func_loop(SharedFuncLoop& s) {
  s.chunks = (own_ + kFuncChunk - 1) / kFuncChunk;
  s.first = first_;
  s.own = own_;
  s.heads = heads_;
  s.kinds = kinds_;
  s.protos_named = reinterpret_cast<const uint8_t*>(protos_named_.data());
  s.state = &st_;
  post(s.started, 1);
  s.run_first_comer();
  std::vector<uint32_t> left;
  take_func_chunks(s, left);
  await(s.done_chunks, s.chunks);
  left.insert(left.end(), s.left_by_helper.begin(), s.left_by_helper.end());
  std::sort(left.begin(), left.end());
  for (const uint32_t local : left) resolve_func_alone(first_ + local);
}

}  // namespace

void resolve_types(const Btf& btf, const ResolveState* base_state, ResolveState& state, Findings& findings,
                   bool shortcuts, SharedFuncLoop* shared) {
  if (!shortcuts) {
    if (shared) post(shared->started, 1);  // no chunks: the loop is not shared
    resolve_types_reference(btf, base_state, state, findings);
    return;
  }
  state.base = base_state;
  Resolver(btf, state, findings, shared).run();
}

void SharedFuncLoop::help() {
  run_first_comer();
  await(started, 1);
  take_func_chunks(*this, left_by_helper);
}

}  // namespace elfmeta::btf
