// The special-field pass of BPF_BTF_LOAD (the kernel's btf_parse_struct_metas
// and btf_parse_fields): structs that embed BPF runtime objects are scanned
// for them, and the layout rules of those objects are enforced. Follows the
// kernel's scan order exactly, because which struct fails first decides the
// verdict and errno.
//
// What this pass may assume, and what it checks itself (it runs beside the
// reference pass on large blobs, see check_concurrently() in verifier.cpp):
// - assumed: the record checks passed, so every record's vlen items are
//   present and every id in a record is below BTF_MAX_TYPE;
// - checked here: ids past the last type (the reference pass rejects them
//   later; type() gives void), reference cycles (the scan's depth limit, as
//   the kernel's, ends them), array sizes and field counts (64-bit products:
//   the kernel's 32-bit ones are safe only after its resolve pass bounded
//   every size), and the work of a scan: a struct whose scan found nothing
//   is not scanned again (the kernel does, 3^k times for k levels of three
//   members each), and look-ups by name use indexes built once.
// When the reference pass rejects the blob, this pass's findings are dropped.
#include "btf/special_fields.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "btf/btf_rules.h"
#include "btf/kind_mask.h"
#include "core/text.h"

namespace elfmeta::btf {
namespace {

// Field types (a bit each, as the kernel's record keeps a mask of them).
enum FieldType : uint32_t {
  kSpinLock = 1u << 0,
  kTimer = 1u << 1,
  kKptrUnref = 1u << 2,
  kKptrRef = 1u << 3,
  kKptrPercpu = 1u << 4,
  kListHead = 1u << 5,
  kListNode = 1u << 6,
  kRbRoot = 1u << 7,
  kRbNode = 1u << 8,
  kRefcount = 1u << 9,
  kWorkqueue = 1u << 10,
  kUptr = 1u << 11,
  kResSpinLock = 1u << 12,
};
constexpr uint32_t kKptrMask = kKptrUnref | kKptrRef | kKptrPercpu;
constexpr uint32_t kGraphRoot = kListHead | kRbRoot;
constexpr uint32_t kGraphNode = kListNode | kRbNode;
constexpr int kFieldsMax = 11;

// What BPF_BTF_LOAD looks for in the target kernel (map-only types such as
// bpf_timer are never scanned at load).
uint32_t load_mask(const KernelProfile& k) {
  uint32_t mask = kSpinLock | kListHead | kListNode;
  if (k.has(Gate::kRbTree)) mask |= kRbRoot | kRbNode;
  if (k.has(Gate::kRefcount)) mask |= kRefcount;
  if (k.has(Gate::kKptrAtLoad)) mask |= kKptrMask;
  if (k.has(Gate::kResSpinLock)) mask |= kResSpinLock;
  return mask;
}

// Graph nodes grew an owner pointer in 6.6.
uint32_t field_size(uint32_t type, bool owning_nodes = true) {
  switch (type) {
    case kSpinLock: case kResSpinLock: case kRefcount: return 4;
    case kTimer: case kWorkqueue: case kListHead: case kRbRoot: return 16;
    case kListNode: return owning_nodes ? 24 : 16;
    case kRbNode: return owning_nodes ? 32 : 24;
    default: return 8;  // kptrs, uptr
  }
}
uint32_t field_align(uint32_t type) {
  switch (type) {
    case kSpinLock: case kResSpinLock: case kRefcount: return 4;
    default: return 8;
  }
}
const char* field_name(uint32_t type) {
  switch (type) {
    case kSpinLock: return "bpf_spin_lock";
    case kResSpinLock: return "bpf_res_spin_lock";
    case kTimer: return "bpf_timer";
    case kWorkqueue: return "bpf_wq";
    case kListHead: return "bpf_list_head";
    case kListNode: return "bpf_list_node";
    case kRbRoot: return "bpf_rb_root";
    case kRbNode: return "bpf_rb_node";
    case kRefcount: return "bpf_refcount";
    case kKptrUnref: return "kptr_untrusted";
    case kKptrRef: return "kptr";
    case kKptrPercpu: return "percpu_kptr";
    default: return "uptr";
  }
}

struct FieldInfo {
  uint32_t type = 0;
  uint32_t off = 0;
  uint32_t kptr_target = 0;     // kptrs: the pointee struct id
  uint32_t value_id = 0;        // graph roots: the contained struct
  std::string node_name;        // graph roots: its node member
};

struct Record {
  uint32_t struct_id = 0;
  std::vector<FieldInfo> fields;
  uint32_t mask = 0;
};
constexpr int kMaxOwnershipDepth = 8;  // BTF_MAX_OWNERSHIP_DEPTH

// A scan failure: the errno the kernel returns and the rule it breaks.
std::string errno_label(int err) {
  switch (-err) {
    case EINVAL: return "EINVAL";
    case E2BIG: return "E2BIG";
    case EFAULT: return "EFAULT";
    case ENOENT: return "ENOENT";
    case EEXIST: return "EEXIST";
    case ELOOP: return "ELOOP";
    default: return std::to_string(err);
  }
}

struct Failure {
  int err = 0;
  const Rule* rule = nullptr;
  std::string message;
};

class FieldScanner {
 public:
  FieldScanner(const Btf& btf, const Btf* kernel_btf, Findings& f)
      : btf_(btf), kernel_btf_(kernel_btf), f_(f), kernel_(f.kernel()), load_mask_(load_mask(kernel_)),
        owning_nodes_(kernel_.has(Gate::kOwningNodes)), nested_(kernel_.has(Gate::kNestedFields)),
        fields_max_(kernel_.has(Gate::kElevenFields) ? kFieldsMax : kFieldsMax - 1) {}

  void run();

 private:
  std::string_view name(uint32_t off) const { return btf_.name_of(off); }
  // Void for an id past the last type: beside the reference pass (see
  // check_concurrently()) this pass may meet one before that pass has
  // rejected the blob, and its findings are then dropped.
  TypeRef type(uint32_t id) const { return id < btf_.type_count() ? btf_.type(id) : TypeRef(); }
  std::string_view name_of_type(TypeRef t) const { return t.is_void() ? std::string_view() : name(t.name_off()); }
  TypeRef skip_modifiers(uint32_t id, uint32_t* res_id) const {
    TypeRef t = type(id);
    for (int guard = 0; is_modifier(t.kind()) && guard < 4096; ++guard) {
      id = t.type();
      t = type(id);
    }
    if (res_id) *res_id = id;
    return t;
  }
  // The first STRUCT named `n` (the kernel's btf_find_by_name_kind), -1 for
  // none: from an index of every struct's first id, built once.
  int32_t find_struct_by_name(std::string_view n) {
    if (!struct_by_name_) {
      struct_by_name_.emplace();
      for (uint32_t i = 1; i < btf_.type_count(); ++i) {
        const TypeRef t = type(i);
        if (t.kind() == kStruct) struct_by_name_->emplace(name(t.name_off()), i);
      }
    }
    auto it = struct_by_name_->find(n);
    return it == struct_by_name_->end() ? -1 : static_cast<int32_t>(it->second);
  }
  // The "contains:" DECL_TAGs on member `comp_idx` of the struct whose
  // record is at `container`, in id order (the kernel's
  // btf_find_decl_tag_value scans every type for each graph root; an index
  // built once keeps a blob of many roots linear).
  const std::vector<uint32_t>& contains_tags(const uint8_t* container, int comp_idx) {
    if (!contains_tags_) {
      contains_tags_.emplace();
      for (uint32_t i = 1; i < btf_.type_count(); ++i) {
        const TypeRef tag = type(i);
        if (tag.kind() != kDeclTag || name(tag.name_off()).substr(0, 9) != "contains:") continue;
        const TypeRef target = type(tag.type());
        if (target.is_void()) continue;
        (*contains_tags_)[{target.bytes(), static_cast<int32_t>(tag.payload(0))}].push_back(i);
      }
    }
    static const std::vector<uint32_t> none;
    auto it = contains_tags_->find({container, comp_idx});
    return it == contains_tags_->end() ? none : it->second;
  }

  // find_kptr()'s first test, on the byte-per-type kinds (most pointers
  // fail it, and their records need not be read): a pointer to a type tag
  // (up to 7.1) or to any modifier (7.2, where the tags may be anywhere in
  // the chain), or a volatile in front of one. Ids past the last type fail it.
  bool kptr_shaped(uint32_t id) const {
    const uint32_t n = btf_.type_count();
    auto target_of = [&](uint32_t of) { return type(of).type(); };
    if (btf_.kind_of(id) == kVolatile) {
      id = target_of(id);
      if (id >= n || btf_.kind_of(id) != kPtr) return false;
    }
    const uint32_t tag = target_of(id);
    return tag < n && (kptr_tag_walk_ ? is_modifier(btf_.kind_of(tag)) : btf_.kind_of(tag) == kTypeTag);
  }
  // Returns <0 (errno, with `failure_` set), 0 ignore, 1 found.
  int find_kptr(TypeRef t, uint32_t off, FieldInfo* info, uint32_t mask);
  int find_kptr_in_chain(TypeRef ptr, uint32_t off, FieldInfo* info, uint32_t mask);
  void check_ownership_depth(const std::vector<Record>& records);
  int find_graph_root(TypeRef container, TypeRef t, int comp_idx, uint32_t off, uint32_t sz, FieldInfo* info,
                      uint32_t head_type);
  int get_field_type(TypeRef member_type, uint32_t mask, uint32_t& seen, uint32_t& align, uint32_t& sz);
  int repeat_fields(FieldInfo* info, int info_cnt, uint32_t field_cnt, uint64_t repeat_cnt, uint32_t elem_size);
  int find_field_one(TypeRef container, uint32_t member_type_id, int member_idx, uint32_t off, uint32_t mask,
                     uint32_t& seen, FieldInfo* info, int info_cnt, uint32_t level);
  int find_nested_struct(uint32_t id, uint32_t off, uint64_t nelems, uint32_t mask, FieldInfo* info, int info_cnt,
                         uint32_t level);
  void warn_about_scan_cost(const std::vector<uint32_t>& scanned);
  int find_struct_fields(TypeRef t, uint32_t mask, FieldInfo* info, int info_cnt, uint32_t level);
  bool parse_record(uint32_t id, Record& rec);
  bool is_special_member(TypeRef member_type, uint32_t mask);
  int parse_graph_root(const FieldInfo& info, const char* node_type);

  // A `kptr` to a type the kernel also defines needs a destructor the
  // kernel registered, which no BTF records.
  void report_referenced_kptr(uint32_t struct_id, const FieldInfo& fi) {
    const TypeRef target = type(fi.kptr_target);
    const std::string_view target_name = name(target.name_off());
    std::string where = "kptr to " + quoted_name(btf_, target.name_off()) + " at byte " + std::to_string(fi.off);
    if (kernel_btf_) {
      if (!kernel_names_) {  // built once: a blob may have many referenced kptrs
        kernel_names_.emplace();
        for (uint32_t i = 1; i < kernel_btf_->type_count(); ++i) {
          const TypeRef k = kernel_btf_->type(i);
          kernel_names_->emplace(std::to_string(k.kind()) + ":" + std::string(kernel_btf_->name_of(k.name_off())));
        }
      }
      const bool in_kernel = kernel_names_->count(std::to_string(target.kind()) + ":" + std::string(target_name)) != 0;
      if (!in_kernel) return;  // a program-local object (bpf_obj_new): always accepted
      f_.at_type(rules::FIELD_021, struct_id, where + ": a kernel type, accepted only if the kernel registered a destructor for it");
      return;
    }
    f_.at_type(rules::FIELD_021, struct_id,
               where + ": accepted only if it is a program-defined struct or the kernel has a destructor for it");
  }

  int fail(int err, const Rule& rule, std::string message) {
    failure_ = {err, &rule, std::move(message)};
    return err;
  }

  uint32_t size_of(uint32_t type) const { return field_size(type, owning_nodes_); }

  const Btf& btf_;
  const Btf* kernel_btf_;
  Findings& f_;
  const KernelProfile& kernel_;
  const uint32_t load_mask_;
  const bool owning_nodes_;
  const bool nested_;  // nested structs and arrays are searched (before: only direct members)
  const int fields_max_;  // BTF_FIELDS_MAX of the target
  const bool record_wide_unique_ = kernel_.has(Gate::kRecordWideUniqueFields);
  const bool kptr_tag_walk_ = kernel_.has(Gate::kKptrTagWalk);
  uint32_t seen_in_record_ = 0;  // unique fields found in the struct being processed, at any level
  Failure failure_;

  // Structs whose scan found no field, failed nowhere and (where the kernel
  // counts unique fields record-wide) met no unique field: scanning them
  // again finds the same nothing, unless the depth limit is met on the way.
  // The value: how many levels below the struct its scan went; -1 unknown.
  std::vector<int8_t> inert_height_ = std::vector<int8_t>(btf_.type_count(), -1);
  uint32_t deepest_level_ = 0;  // the deepest level the scan reached (for the heights)

  std::optional<std::unordered_map<std::string_view, uint32_t>> struct_by_name_;
  struct TagKey {
    const uint8_t* record;
    int32_t component;
    bool operator==(const TagKey&) const = default;
  };
  struct TagKeyHash {
    size_t operator()(const TagKey& k) const { return std::hash<const void*>()(k.record) ^ size_t(k.component) * 0x9e3779b97f4a7c15u; }
  };
  std::optional<std::unordered_map<TagKey, std::vector<uint32_t>, TagKeyHash>> contains_tags_;
  std::optional<std::unordered_set<std::string>> kernel_names_;
};

// btf_find_kptr(): up to 7.1 the tag must follow the pointer directly.
int FieldScanner::find_kptr(TypeRef t, uint32_t off, FieldInfo* info, uint32_t mask) {
  if (t.kind() == kVolatile) t = type(t.type());
  if (t.kind() != kPtr) return 0;
  if (kptr_tag_walk_) return find_kptr_in_chain(t, off, info, mask);
  t = type(t.type());
  if (t.kind() != kTypeTag || t.kflag()) return 0;
  if (type(t.type()).kind() == kTypeTag)
    return fail(-EINVAL, rules::FIELD_019, "kptr tag '" + printable(name(t.name_off())) + "' is followed by another type tag");
  const std::string_view tag = name(t.name_off());
  uint32_t type;
  if (tag == "kptr_untrusted")
    type = kKptrUnref;
  else if (tag == "kptr")
    type = kKptrRef;
  else if (tag == "percpu_kptr")
    type = kKptrPercpu;
  else if (tag == "uptr" && kernel_.has(Gate::kUptr))
    type = kUptr;
  else
    return fail(-EINVAL, rules::FIELD_019, "pointer tagged '" + printable(tag) + "' is not a known kptr kind");
  if (!(type & mask)) return 0;
  uint32_t res_id = 0;
  const TypeRef target = skip_modifiers(t.type(), &res_id);
  if (target.kind() != kStruct)
    return fail(-EINVAL, rules::FIELD_019, std::string(field_name(type)) + " points to a " +
                                               std::string(kind_name(target.kind())) + ", not a struct");
  info->type = type;
  info->off = off;
  info->kptr_target = res_id;
  return 1;
}

// 7.2's btf_find_kptr() through btf_type_tag_walk(): every modifier after
// the pointer is passed, type tags without kind_flag are matched against the
// four kptr names (others are ignored), and two different ones are refused.
int FieldScanner::find_kptr_in_chain(TypeRef ptr, uint32_t off, FieldInfo* info, uint32_t mask) {
  uint32_t found = 0, id = ptr.type();
  TypeRef t = type(id);
  // The chain-limit pass ran first and refused chains of more than 32.
  for (int guard = 0; is_modifier(t.kind()) && guard < 4096; ++guard) {
    if (t.kind() == kTypeTag && !t.kflag()) {
      const std::string_view tag = name(t.name_off());
      found |= tag == "kptr_untrusted" ? kKptrUnref
               : tag == "kptr"         ? kKptrRef
               : tag == "percpu_kptr"  ? kKptrPercpu
               : tag == "uptr"         ? kUptr
                                       : 0u;
    }
    id = t.type();
    t = type(id);
  }
  if (found & (found - 1))
    return fail(-EINVAL, rules::FIELD_019, "two different kptr tags in the pointer's modifier chain");
  if (!(found & mask)) return 0;
  if (t.kind() != kStruct)
    return fail(-EINVAL, rules::FIELD_019, std::string(field_name(found)) + " points to a " +
                                               std::string(kind_name(t.kind())) + ", not a struct");
  info->type = found;
  info->off = off;
  info->kptr_target = id;
  return 1;
}

int FieldScanner::find_graph_root(TypeRef container, TypeRef t, int comp_idx, uint32_t off, uint32_t sz,
                                  FieldInfo* info, uint32_t head_type) {
  if (t.kind() != kStruct || t.size() != sz) return 0;
  // The one DECL_TAG "contains:..." on this member of the container.
  int found = -1;
  for (uint32_t i : contains_tags(container.bytes(), comp_idx)) {
    if (found >= 0 && !kernel_.has(Gate::kUniqueContainsTag)) break;  // the first one counts
    if (found >= 0)
      return fail(-EINVAL, rules::FIELD_014, std::string(field_name(head_type)) + " member " + std::to_string(comp_idx) +
                                                 " has two contains: tags (" + std::to_string(found) + ", " +
                                                 std::to_string(i) + ")");
    found = static_cast<int>(i);
  }
  if (found < 0)
    return fail(-EINVAL, rules::FIELD_014,
                std::string(field_name(head_type)) + " member " + std::to_string(comp_idx) + " has no contains: tag");
  const std::string_view value = name(type(found).name_off()).substr(9);
  const size_t colon = value.find(':');
  if (colon == std::string_view::npos)
    return fail(-EINVAL, rules::FIELD_015, "tag 'contains:" + printable(value) + "' has no ':' before the member name");
  const int32_t value_id = find_struct_by_name(value.substr(0, colon));
  if (value_id < 0)
    return fail(-ENOENT, rules::FIELD_015, "tag names struct '" + printable(value.substr(0, colon)) + "', which is not defined");
  if (colon + 1 == value.size()) return fail(-EINVAL, rules::FIELD_015, "tag 'contains:" + printable(value) + "' names no member");
  info->type = head_type;
  info->off = off;
  info->value_id = static_cast<uint32_t>(value_id);
  info->node_name = std::string(value.substr(colon + 1));
  return 1;
}

// btf_get_field_type(): which special field a member is.
// Reports BTF-FIELD-005, -006, -009..011.
int FieldScanner::get_field_type(TypeRef member_type, uint32_t mask, uint32_t& seen, uint32_t& align, uint32_t& sz) {
  const std::string_view n = name_of_type(member_type);
  uint32_t type = 0;
  auto once = [&](uint32_t t) -> int {
    if (seen & t)
      return fail(-E2BIG, rules::FIELD_005, std::string("a second ") + field_name(t) + " at the same struct level");
    if (record_wide_unique_ && (seen_in_record_ & t))
      return fail(-E2BIG, rules::FIELD_006, std::string("a second ") + field_name(t) + " in this struct and those it embeds");
    seen |= t;
    seen_in_record_ |= t;
    type = t;
    return 0;
  };
  if ((mask & kSpinLock) && n == "bpf_spin_lock") {
    if (int e = once(kSpinLock)) return e;
  } else if ((mask & kResSpinLock) && n == "bpf_res_spin_lock") {
    if (int e = once(kResSpinLock)) return e;
  } else if ((mask & kTimer) && n == "bpf_timer") {
    if (int e = once(kTimer)) return e;
  } else if ((mask & kWorkqueue) && n == "bpf_wq") {
    if (int e = once(kWorkqueue)) return e;
  } else if ((mask & kListHead) && n == "bpf_list_head") {
    type = kListHead;
  } else if ((mask & kListNode) && n == "bpf_list_node") {
    type = kListNode;
  } else if ((mask & kRbRoot) && n == "bpf_rb_root") {
    type = kRbRoot;
  } else if ((mask & kRbNode) && n == "bpf_rb_node") {
    type = kRbNode;
  } else if ((mask & kRefcount) && n == "bpf_refcount") {
    if (record_wide_unique_ && (seen_in_record_ & kRefcount))
      return fail(-E2BIG, rules::FIELD_006, "a second bpf_refcount in this struct and those it embeds");
    seen_in_record_ |= kRefcount;
    type = kRefcount;
  } else if ((mask & (kKptrMask | kUptr)) && member_type.kind() != kStruct) {
    type = kKptrRef;  // the pointer's tag decides the real kind
  } else {
    return 0;
  }
  sz = size_of(type);
  align = field_align(type);
  return static_cast<int>(type);
}

// The kernel's btf_repeat_fields: the fields of an array's first element,
// repeated for the others.
int FieldScanner::repeat_fields(FieldInfo* info, int info_cnt, uint32_t field_cnt, uint64_t repeat_cnt,
                                uint32_t elem_size) {
  for (uint32_t i = 0; i < field_cnt; ++i) {
    const uint32_t t = info[i].type;
    if (!(t & (kKptrMask | kUptr | kListHead | kRbRoot)))
      return fail(-EINVAL, rules::FIELD_009, std::string("an array repeats ") + field_name(t) + ", which cannot repeat");
  }
  // The kernel multiplies in 32 bits, safe there because its resolve pass has
  // bounded every array's size; beside our reference pass the count may be
  // anything, and a wrapped product would pass this test (issue 27).
  if (uint64_t(field_cnt) * (repeat_cnt + 1) > uint64_t(info_cnt))
    return fail(-E2BIG, rules::FIELD_010, "an array expands to more than " + std::to_string(fields_max_) + " special fields");
  uint32_t cur = field_cnt;
  for (uint64_t i = 0; i < repeat_cnt; ++i)
    for (uint32_t j = 0; j < field_cnt; ++j) {
      info[cur] = info[j];
      info[cur++].off += static_cast<uint32_t>((i + 1) * elem_size);
    }
  return 0;
}

// The kernel's btf_find_nested_struct: the fields of a struct member (or of
// an array of structs), at the member's offset.
int FieldScanner::find_nested_struct(uint32_t id, uint32_t off, uint64_t nelems, uint32_t mask, FieldInfo* info,
                                     int info_cnt, uint32_t level) {
  if (++level >= kMaxResolveDepth)
    return fail(-E2BIG, rules::FIELD_011, "structs nested " + std::to_string(kMaxResolveDepth) + " levels deep");
  // A struct known to hold nothing, met where its whole scan stays within
  // the depth limit: the kernel's scan of it again would find nothing again.
  if (const int height = inert_height_[id]; height >= 0 && level + uint32_t(height) < kMaxResolveDepth) {
    deepest_level_ = std::max(deepest_level_, level + uint32_t(height));
    return 0;
  }
  const uint32_t outer_deepest = deepest_level_, unique_before = seen_in_record_;
  deepest_level_ = level;
  const TypeRef t = type(id);
  int ret = find_struct_fields(t, mask, info, info_cnt, level);
  if (ret == 0 && (!record_wide_unique_ || seen_in_record_ == unique_before))
    inert_height_[id] = static_cast<int8_t>(deepest_level_ - level);
  deepest_level_ = std::max(outer_deepest, deepest_level_);
  if (ret <= 0) return ret;
  for (int i = 0; i < ret; ++i) info[i].off += off;
  if (nelems > 1) {
    const int err = repeat_fields(info, info_cnt, static_cast<uint32_t>(ret), nelems - 1, t.size());
    ret = err == 0 ? static_cast<int>(uint64_t(ret) * nelems) : err;  // within info_cnt: repeat_fields checked it
  }
  return ret;
}

// The kernel's btf_find_field_one: what one member is (through arrays).
int FieldScanner::find_field_one(TypeRef container, uint32_t member_type_id, int member_idx, uint32_t off,
                                 uint32_t mask, uint32_t& seen, FieldInfo* info, int info_cnt, uint32_t level) {
  TypeRef member_type = type(member_type_id);
  // The element count of nested arrays is a u32 in the kernel, and wraps:
  // for BTF its resolve pass accepts, only where the elements have no size
  // (and then hold no field). Mirrored, as the kernel's verdict depends on
  // it; the wrapped count is safe here because every use of it below is
  // checked in 64 bits (repeat_fields).
  uint32_t nelems = 1;
  uint32_t i = 0;
  // Before arrays were understood, an array member (it has no name) was no field.
  for (; nested_ && i < kMaxResolveDepth && member_type.kind() == kArray; ++i) {
    nelems = static_cast<uint32_t>(uint64_t(nelems) * member_type.payload(2));
    member_type_id = member_type.payload(0);
    member_type = type(member_type_id);
  }
  if (i == kMaxResolveDepth) return fail(-E2BIG, rules::FIELD_011, "a member has 32 array dimensions");
  if (nelems == 0) return 0;
  uint32_t align = 0, sz = 0;
  const int field_type = get_field_type(member_type, mask, seen, align, sz);
  if (field_type == 0 && member_type.kind() == kStruct && nested_)
    return find_nested_struct(member_type_id, off, nelems, mask, info, info_cnt, level);
  if (field_type <= 0) return field_type;
  if (off % align) return 0;
  FieldInfo tmp;
  FieldInfo* slot = info_cnt ? &info[0] : &tmp;
  int ret;
  switch (field_type) {
    case kSpinLock: case kResSpinLock: case kTimer: case kWorkqueue: case kListNode: case kRbNode: case kRefcount:
      ret = member_type.kind() == kStruct && member_type.size() == sz;
      if (ret) {
        slot->type = static_cast<uint32_t>(field_type);
        slot->off = off;
      }
      break;
    case kListHead: case kRbRoot:
      ret = find_graph_root(container, member_type, member_idx, off, sz, slot, static_cast<uint32_t>(field_type));
      break;
    default:
      ret = find_kptr(member_type, off, slot, mask);
      break;
  }
  if (ret <= 0) return ret;
  if (!info_cnt) return fail(-E2BIG, rules::FIELD_010, "more than " + std::to_string(fields_max_) + " special fields");
  if (nelems > 1)
    if (int err = repeat_fields(info, info_cnt, 1, nelems - 1, sz); err < 0) return err;
  return static_cast<int>(nelems);
}

// btf_find_struct_field() / btf_find_field(). Reports BTF-FIELD-004.
int FieldScanner::find_struct_fields(TypeRef t, uint32_t mask, FieldInfo* info, int info_cnt, uint32_t level) {
  int idx = 0;
  uint32_t seen = 0;
  for (uint32_t i = 0; i < t.vlen(); ++i) {
    const Member m = member_at(t, i);
    const uint32_t bit_off = member_bit_offset_of(t, m);
    if (bit_off % 8 && (nested_ || is_special_member(type(m.type), mask)))
      return fail(-EINVAL, rules::FIELD_004, "member " + std::to_string(i) + " starts at bit " + std::to_string(bit_off));
    const int ret = find_field_one(t, m.type, static_cast<int>(i), bit_off / 8,
                                   mask, seen, &info[idx], info_cnt - idx, level);
    if (ret < 0) return ret;
    idx += ret;
  }
  return idx;
}

// Before 6.10 only members that are special fields had to start on a byte.
bool FieldScanner::is_special_member(TypeRef member_type, uint32_t mask) {
  uint32_t seen = 0, align = 0, sz = 0;
  const Failure saved = failure_;
  const bool special = get_field_type(member_type, mask, seen, align, sz) != 0;
  failure_ = saved;
  return special;
}

// How many structs the kernel's scan visits below each struct (itself
// included; a nested struct member, or an array of structs, is one visit of
// the struct however many elements): the kernel's btf_find_struct_field
// recurses into every member that is a struct, once per member, without
// remembering what it found. Iterative, saturating; a member that leads
// back to a struct being counted counts nothing (a loop the reference pass
// refuses). Gives, for each struct of `scanned` whose scan visits at least
// kScanCostWarnAt structs, one BTF-FIELD-022 warning that names the chain of
// the costliest members.
void FieldScanner::warn_about_scan_cost(const std::vector<uint32_t>& scanned) {
  constexpr uint64_t kScanCostWarnAt = 1000000, kSaturated = uint64_t(1) << 62;
  if (!nested_ || scanned.empty()) return;
  std::unordered_map<uint32_t, uint64_t> visits;  // done
  std::unordered_set<uint32_t> open;              // on the stack
  // The struct a member leads to through arrays (as find_field_one walks
  // them), 0 for none and for the special structs themselves, which the
  // scan recognises instead of entering.
  auto struct_of_member = [&](uint32_t id) -> uint32_t {
    TypeRef t = type(id);
    for (uint32_t i = 0; i < kMaxResolveDepth && t.kind() == kArray; ++i) {
      id = t.payload(0);
      t = type(id);
    }
    if (t.kind() != kStruct) return 0;
    uint32_t seen = 0, align = 0, sz = 0;
    const Failure saved = failure_;
    const uint32_t unique_saved = seen_in_record_;
    const bool special = get_field_type(t, load_mask_, seen, align, sz) != 0;
    failure_ = saved;
    seen_in_record_ = unique_saved;
    return special ? 0 : id;
  };
  auto count = [&](uint32_t root) {
    struct Frame {
      uint32_t id, next_member;
      uint64_t sum;
    };
    std::vector<Frame> stack{{root, 0, 1}};
    open.insert(root);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const TypeRef t = type(f.id);
      if (f.next_member < t.vlen()) {
        const uint32_t child = struct_of_member(member_at(t, f.next_member++).type);
        if (!child || open.count(child)) continue;
        if (auto it = visits.find(child); it != visits.end()) {
          f.sum = std::min(kSaturated, f.sum + it->second);
          continue;
        }
        open.insert(child);
        stack.push_back({child, 0, 1});
        continue;
      }
      const Frame done = f;
      stack.pop_back();
      open.erase(done.id);
      visits[done.id] = done.sum;
      if (!stack.empty()) stack.back().sum = std::min(kSaturated, stack.back().sum + done.sum);
    }
  };
  for (uint32_t id : scanned) {
    if (!visits.count(id)) count(id);
    const uint64_t total = visits[id] - 1;  // the nested structs: the struct itself is no nested visit
    if (total < kScanCostWarnAt) continue;
    // The costliest way down, by name.
    std::string chain = quoted_name(btf_, type(id).name_off());
    uint32_t at = id;
    for (int step = 0; step < 8; ++step) {
      uint32_t best = 0;
      uint64_t best_visits = 0;
      const TypeRef t = type(at);
      for (uint32_t i = 0; i < t.vlen(); ++i) {
        const uint32_t child = struct_of_member(member_at(t, i).type);
        if (auto it = visits.find(child); child && it != visits.end() && it->second > best_visits) {
          best = child;
          best_visits = it->second;
        }
      }
      if (!best || best_visits < 2) break;
      chain += " > " + quoted_name(btf_, type(best).name_off());
      at = best;
    }
    f_.at_type(rules::FIELD_022, id,
               "BPF_BTF_LOAD's special-field scan visits about " + with_thousands(total) +
                   " nested structs for this struct (" + chain +
                   (total >= kSaturated ? ", and more" : "") +
                   "): the kernel scans a struct again wherever it is a member, and holds a CPU in the syscall "
                   "for the whole scan");
  }
}

// btf_parse_graph_root(). Reports BTF-FIELD-016.
int FieldScanner::parse_graph_root(const FieldInfo& info, const char* node_type) {
  const TypeRef t = type(info.value_id);
  TypeRef node;
  bool found = false;
  for (uint32_t i = 0; i < t.vlen(); ++i) {
    const Member m = member_at(t, i);
    if (name(m.name_off) != info.node_name) continue;
    const std::string which = "member '" + printable(info.node_name) + "' of " + quoted_name(btf_, t.name_off());
    if (found) return fail(-EINVAL, rules::FIELD_016, which + " is defined twice");
    found = true;
    node = type(m.type);
    if (node.kind() != kStruct) return fail(-EINVAL, rules::FIELD_016, which + " is not a struct");
    if (name(node.name_off()) != node_type)
      return fail(-EINVAL, rules::FIELD_016, which + " is not a " + std::string(node_type));
    // The kernel decodes the offset with the node struct's kind_flag, not the container's.
    const uint32_t bit_off = node.kflag() ? member_bit_offset(m.offset) : m.offset;
    if (bit_off % 8 || (bit_off / 8) % 8)
      return fail(-EINVAL, rules::FIELD_016, which + " at bit " + std::to_string(bit_off) + " is not 8-byte aligned");
  }
  if (!found)
    return fail(-ENOENT, rules::FIELD_016,
                quoted_name(btf_, t.name_off()) + " has no member '" + printable(info.node_name) + "'");
  return 0;
}

// btf_parse_fields(). Reports BTF-FIELD-003, -007, -008, -012, -013.
bool FieldScanner::parse_record(uint32_t id, Record& rec) {
  const TypeRef t = type(id);
  std::array<FieldInfo, kFieldsMax> info;
  seen_in_record_ = 0;
  const int cnt = find_struct_fields(t, load_mask_, info.data(), fields_max_, 0);
  if (cnt < 0) return false;
  if (cnt == 0) {
    fail(-EFAULT, rules::FIELD_003, "a member uses a special type but none is recognised (wrong size or alignment)");
    return false;
  }
  rec.struct_id = id;
  uint32_t next_off = 0;
  bool spin = false, res_spin = false, refcount = false;
  for (int i = 0; i < cnt; ++i) {
    const FieldInfo& fi = info[i];
    if (fi.off < next_off) {
      fail(-EEXIST, rules::FIELD_008, std::string(field_name(fi.type)) + " at byte " + std::to_string(fi.off) +
                                          " overlaps the special field before it, which ends at " + std::to_string(next_off));
      return false;
    }
    next_off = fi.off + size_of(fi.type);
    rec.mask |= fi.type;
    spin |= fi.type == kSpinLock;
    res_spin |= fi.type == kResSpinLock;
    refcount |= fi.type == kRefcount;
    if (fi.type == kListHead || fi.type == kRbRoot)
      if (parse_graph_root(fi, fi.type == kListHead ? "bpf_list_node" : "bpf_rb_node") < 0) return false;
    rec.fields.push_back(fi);
  }
  if (spin && res_spin) {
    fail(-EINVAL, rules::FIELD_007, "both a bpf_spin_lock and a bpf_res_spin_lock");
    return false;
  }
  if ((rec.mask & kGraphRoot) && !spin && !res_spin) {
    fail(-EINVAL, rules::FIELD_012, std::string(rec.mask & kListHead ? "bpf_list_head" : "bpf_rb_root") + " without a lock");
    return false;
  }
  if (!refcount && (rec.mask & kListNode) && (rec.mask & kRbNode)) {
    fail(-EINVAL, rules::FIELD_013, "bpf_list_node and bpf_rb_node without a bpf_refcount");
    return false;
  }
  return true;
}

// btf_parse_struct_metas() and the special-field part of
// btf_check_and_fixup_fields(). Reports BTF-FIELD-017, BTF-FIELD-018, and what
// the steps report.
void FieldScanner::run() {
  // The trigger set: the first STRUCT of each special name, and every
  // pointer that is a kptr.
  static constexpr std::pair<std::string_view, uint32_t> kTriggerNames[] = {
      {"bpf_spin_lock", kSpinLock}, {"bpf_list_head", kListHead}, {"bpf_list_node", kListNode},
      {"bpf_rb_root", kRbRoot},     {"bpf_rb_node", kRbNode},     {"bpf_refcount", kRefcount}};
  uint32_t first_of_name[std::size(kTriggerNames)] = {};
  std::vector<uint32_t> triggers;
  const uint32_t n = btf_.type_count();
  // Kind by kind: most records are neither kind, and their heads need not
  // be read. Base BTF only (see the header): its own types are all of them,
  // read straight from the record heads.
  const uint32_t first = btf_.first_id();
  // Until each name looked for has its first struct (a vmlinux's are all
  // among its first ninth).
  size_t names_left = 0;
  for (const auto& [name, type] : kTriggerNames) names_left += (load_mask_ & type) != 0;
  if (names_left)
    for_each_of_kinds<kStruct>(btf_.kinds(), btf_.own_count(), [&](uint32_t local) {
      const char* s = btf_.string_at(btf_.own_type(local).name_off());
      // "bpf_" without a call (a shorter name ends at a NUL, which no test matches)
      if (!s || s[0] != 'b' || s[1] != 'p' || s[2] != 'f' || s[3] != '_') return true;
      for (size_t j = 0; j < std::size(kTriggerNames); ++j)
        if (!first_of_name[j] && (load_mask_ & kTriggerNames[j].second) && kTriggerNames[j].first == s) {
          first_of_name[j] = first + local;
          --names_left;
        }
      return names_left != 0;
    });
  if (load_mask_ & kKptrMask)
    for_each_of_kinds<kPtr, kVolatile>(btf_.kinds(), btf_.own_count(), [&](uint32_t local) {
      const uint32_t id = first + local;
      if (!kptr_shaped(id)) return;
      FieldInfo tmp;
      if (find_kptr(type(id), 0, &tmp, kKptrMask) == 1) triggers.push_back(id);
      failure_ = {};
    });
  for (uint32_t id : first_of_name)
    if (id) triggers.push_back(id);
  if (triggers.empty()) return;
  std::vector<uint32_t> scanned_ids;
  // A bit per type: the set stays in the first-level cache.
  std::vector<uint64_t> is_trigger((n + 63) / 64, 0);
  for (uint32_t id : triggers) is_trigger[id / 64] |= uint64_t(1) << (id % 64);

  std::vector<Record> records;
  bool all_parsed = true;
  for_each_of_kinds<kStruct>(btf_.kinds(), btf_.own_count(), [&](uint32_t local) {
    const uint32_t id = first + local;
    const TypeRef t = btf_.own_type(local);
    bool scanned = false;
    for (uint32_t i = 0, vlen = t.vlen(); i < vlen; ++i) {
      const uint32_t member_type = member_at(t, i).type;
      scanned |= member_type < n && (is_trigger[member_type / 64] >> (member_type % 64) & 1);
    }
    if (!scanned) return;
    scanned_ids.push_back(id);
    failure_ = {};
    Record rec;
    if (!parse_record(id, rec)) {
      f_.at_type(*failure_.rule, id, failure_.message + " (kernel: " + errno_label(failure_.err) + ")");
      all_parsed = false;
      return;
    }
    for (const auto& fi : rec.fields)
      if (fi.type == kKptrRef) report_referenced_kptr(id, fi);
    records.push_back(std::move(rec));
  });
  warn_about_scan_cost(scanned_ids);
  if (!all_parsed) return;  // the kernel stops at the first failure
  auto record_of = [&](uint32_t id) -> const Record* {
    for (const auto& r : records)
      if (r.struct_id == id) return &r;
    return nullptr;
  };
  // 7.2 and 6.12.113 dropped the root-and-node rule for the depth bound:
  // its finding stays as a warning, and the fix-up goes on.
  const bool root_node_rule = !kernel_.has(Gate::kRootNodeRuleDropped);
  for (const auto& rec : records) {
    if (!(rec.mask & kGraphRoot)) continue;
    for (const auto& fi : rec.fields) {
      if (!(fi.type & kGraphRoot)) continue;
      const Record* value = record_of(fi.value_id);
      if (!value) {
        f_.at_type(rules::FIELD_017, rec.struct_id,
                   std::string(field_name(fi.type)) + " contains " + quoted_name(btf_, type(fi.value_id).name_off()) +
                       ", which the scan did not process (kernel: EFAULT)");
        return;
      }
      if (!(rec.mask & kGraphNode)) continue;
      if (value->mask & kGraphRoot) {
        f_.at_type(rules::FIELD_018, rec.struct_id,
                   "a root and node that owns " + quoted_name(btf_, type(fi.value_id).name_off()) +
                       ", itself a root (kernel: ELOOP)");
        if (root_node_rule) return;
      }
    }
  }
  check_ownership_depth(records);
}

// BTF-FIELD-023: btf_check_ownership_depth() of 7.2 (6.12.113): from each
// record in table order, a walk of what it owns with a budget of 8 structs,
// each record's depth remembered once known, as the kernel does.
void FieldScanner::check_ownership_depth(const std::vector<Record>& records) {
  std::vector<size_t> index_of_struct;  // by struct id: 1 + record index, 0 none
  for (size_t i = 0; i < records.size(); ++i) {
    const uint32_t id = records[i].struct_id;
    if (id >= index_of_struct.size()) index_of_struct.resize(id + 1, 0);
    index_of_struct[id] = i + 1;
  }
  auto record_index = [&](uint32_t id) -> int64_t {
    return id < index_of_struct.size() && index_of_struct[id] ? int64_t(index_of_struct[id] - 1) : -1;
  };
  // A kptr target the kernel's BTF also has (by name and kind) is the
  // kernel's type, and owns nothing here; without that BTF every target is
  // taken to be the program's.
  std::map<uint32_t, bool> in_kernel;  // by target id: a walk of the kernel's BTF once per target
  auto kernel_type = [&](uint32_t id) {
    if (!kernel_btf_) return false;
    if (auto it = in_kernel.find(id); it != in_kernel.end()) return it->second;
    bool& known = in_kernel[id];
    const TypeRef t = type(id);
    const std::string_view n = name(t.name_off());
    for (uint32_t k = 1; k < kernel_btf_->type_count(); ++k) {
      const TypeRef kt = kernel_btf_->type(k);
      if (kt.kind() == t.kind() && kernel_btf_->name_of(kt.name_off()) == n) return known = true;
    }
    return known = false;
  };
  // btf_owned_type_idx(): the record a field owns, -1 none.
  auto owned = [&](const FieldInfo& fi) -> int64_t {
    if (fi.type & kGraphRoot) return record_index(fi.value_id);
    if ((fi.type == kKptrRef || fi.type == kKptrPercpu) && !kernel_type(fi.kptr_target)) return record_index(fi.kptr_target);
    return -1;
  };
  std::vector<uint8_t> depth(records.size(), 0);
  // Depth-first, at most kMaxOwnershipDepth calls deep: -1 is ELOOP.
  auto walk = [&](auto& self, size_t idx, int left) -> int {
    if (left == 0) return -1;
    if (!depth[idx]) {
      int deepest = 0;
      for (const FieldInfo& fi : records[idx].fields) {
        const int64_t next = owned(fi);
        if (next < 0) continue;
        const int d = self(self, static_cast<size_t>(next), left - 1);
        if (d < 0) return d;
        deepest = std::max(deepest, d);
      }
      depth[idx] = static_cast<uint8_t>(deepest + 1);
    }
    return depth[idx] > left ? -1 : depth[idx];
  };
  for (size_t i = 0; i < records.size(); ++i)
    if (walk(walk, i, kMaxOwnershipDepth) < 0) {
      f_.at_type(rules::FIELD_023, records[i].struct_id,
                 "owns, through its graph roots and kptrs to program structs, a cycle or a chain of more than " +
                     std::to_string(kMaxOwnershipDepth) + " structs (kernel: ELOOP)");
      return;
    }
}

}  // namespace

void check_special_fields(const Btf& btf, const Btf* kernel_btf, Findings& findings) {
  FieldScanner(btf, kernel_btf, findings).run();
}

}  // namespace elfmeta::btf
