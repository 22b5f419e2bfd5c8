// The parsed form of one BTF blob: a zero-copy view over host-order bytes
// plus the byte offset of every type record. Built by btf::parse(); read by
// every rule pass.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "btf/btf_format.h"
#include "core/byte_reader.h"

namespace elfmeta::btf {

// The header as the kernel uses it: the first min(hdr_len, 24) bytes of the
// blob copied over a zeroed header (so a short hdr_len leaves later fields 0).
struct Header {
  uint16_t magic = 0;
  uint8_t version = 0;
  uint8_t flags = 0;
  uint32_t hdr_len = 0;
  uint32_t type_off = 0;
  uint32_t type_len = 0;
  uint32_t str_off = 0;
  uint32_t str_len = 0;
  uint32_t stored_hdr_len = 0;  // hdr_len as stored in the blob
  // Linux 7.1 kind-layout section (header bytes 24-31), 0/0 when absent.
  uint32_t layout_off = 0;
  uint32_t layout_len = 0;
};

// The info and size/type words of a record, kept in a dense array so that
// the checks that follow references mostly touch 8 bytes per type instead of
// the whole record.
struct RecordHead {
  uint32_t info = 0;
  uint32_t size_or_type = 0;
  uint32_t offset = 0;  // of the record, from the start of the type section
};

// For vectors that are sized first and then written whole from several
// places at once (the parser's two threads): resize() leaves the new
// elements as they are instead of zeroing them (about 0.03 ms for a vmlinux).
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  static_assert(std::is_trivially_copyable_v<T>);
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  template <typename U>
  void construct(U*) noexcept {}
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using RecordHeads = std::vector<RecordHead, UninitializedAllocator<RecordHead>>;

// One type record in host byte order; `p == nullptr` is void (type id 0).
class TypeRef {
 public:
  TypeRef() = default;
  TypeRef(const uint8_t* p, RecordHead head) : p_(p), head_(head) {}

  bool is_void() const { return p_ == nullptr; }
  uint32_t name_off() const { return p_ ? word(0) : 0; }
  uint32_t info() const { return head_.info; }
  uint32_t kind() const { return info_kind(info()); }
  uint32_t vlen() const { return info_vlen(info()); }
  bool kflag() const { return info_kflag(info()); }
  uint32_t size() const { return head_.size_or_type; }  // == type() for reference kinds
  uint32_t type() const { return size(); }
  // The i-th u32 of the payload after the 12-byte common part.
  uint32_t payload(size_t i) const { return word(3 + i); }
  const uint8_t* bytes() const { return p_; }

 private:
  uint32_t word(size_t i) const {
    uint32_t v;
    std::memcpy(&v, p_ + 4 * i, 4);
    return v;
  }
  const uint8_t* p_ = nullptr;
  RecordHead head_;
};

// Views of vlen items; the parser has checked they are present.
struct Member {
  uint32_t name_off, type, offset;
};
struct Param {
  uint32_t name_off, type;
};
struct EnumValue {
  uint32_t name_off;
  uint64_t value;  // ENUM: zero-extended u32; ENUM64: lo | hi << 32
};
struct VarSecInfo {
  uint32_t type, offset, size;
};

inline Member member_at(TypeRef t, uint32_t i) { return {t.payload(3 * i), t.payload(3 * i + 1), t.payload(3 * i + 2)}; }
inline Param param_at(TypeRef t, uint32_t i) { return {t.payload(2 * i), t.payload(2 * i + 1)}; }
// Whether a loop may read a prototype's parameters as kFewParams of them
// whatever its vlen: it has no more, and their bytes lie before
// `types_end`. A loop of constant count has an end the processor
// predicts; a loop of vlen, a branch per prototype that mostly goes the
// wrong way. The slots past vlen hold the next records' bytes, which the
// loop must count for nothing, without a branch (a choice there, and the
// compiler cuts the loop short at vlen again).
inline constexpr uint32_t kFewParams = 4;
inline bool reads_few_params(TypeRef proto, const uint8_t* types_end) {
  return proto.vlen() <= kFewParams && size_t(types_end - proto.bytes()) >= kTypeRecordSize + 8 * kFewParams;
}
inline VarSecInfo secinfo_at(TypeRef t, uint32_t i) { return {t.payload(3 * i), t.payload(3 * i + 1), t.payload(3 * i + 2)}; }
inline EnumValue enum_at(TypeRef t, uint32_t i) {
  if (t.kind() == kEnum64) return {t.payload(3 * i), t.payload(3 * i + 1) | (uint64_t(t.payload(3 * i + 2)) << 32)};
  return {t.payload(2 * i), t.payload(2 * i + 1)};
}
// Every string offset a record names: its own name, then its members',
// enumerators' or parameters' (0, the empty name, included).
template <typename Fn>
void for_each_name_offset(TypeRef t, Fn fn) {
  fn(t.name_off());
  switch (t.kind()) {
    case kStruct: case kUnion:
      for (uint32_t i = 0; i < t.vlen(); ++i) fn(member_at(t, i).name_off);
      break;
    case kEnum: case kEnum64:
      for (uint32_t i = 0; i < t.vlen(); ++i) fn(enum_at(t, i).name_off);
      break;
    case kFuncProto:
      for (uint32_t i = 0; i < t.vlen(); ++i) fn(param_at(t, i).name_off);
      break;
    default:
      break;
  }
}
// For a kind_flag aggregate the member offset word packs bitfield size and bit offset.
inline uint32_t member_bit_offset_of(TypeRef agg, const Member& m) {
  return agg.kflag() ? member_bit_offset(m.offset) : m.offset;
}
inline uint32_t member_bitfield_size_of(TypeRef agg, const Member& m) {
  return agg.kflag() ? member_bitfield_size(m.offset) : 0;
}

class Btf {
 public:
  Btf() = default;

  const Btf* base() const { return base_; }
  const Header& header() const { return hdr_; }
  // The whole blob in host byte order.
  std::span<const uint8_t> data() const { return data_; }
  Endian stored_endian() const { return stored_endian_; }

  // Type ids [first_id(), type_count()) are this blob's records; lower ids
  // belong to the base chain (id 0 is void in the bottom base).
  uint32_t first_id() const { return first_id_; }
  uint32_t type_count() const { return first_id_ + static_cast<uint32_t>(heads_.size()); }
  uint32_t own_count() const { return static_cast<uint32_t>(heads_.size()); }
  bool types_complete() const { return types_complete_; }
  bool strings_usable() const { return strings_usable_; }

  bool has_type(uint32_t id) const { return id < type_count(); }
  bool is_own(uint32_t id) const { return id >= first_id_ && id < type_count(); }
  // The record of any id, void for id 0 and for an id past the last type:
  // a pass that runs beside the reference pass meets such ids before that
  // pass has rejected them.
  TypeRef type(uint32_t id) const {
    if (id >= type_count()) return TypeRef();
    const Btf* b = this;
    while (id < b->first_id_) {
      if (!b->base_) return TypeRef();  // void
      b = b->base_;
    }
    return b->own_type(id - b->first_id_);
  }
  // This blob's record at index `local` (id - first_id()), UNCHECKED: for
  // the loops over [0, own_count()) that have proven their bounds, without
  // the walk of type().
  TypeRef own_type(uint32_t local) const {
    const RecordHead& head = heads_[local];
    return TypeRef(types_begin_ + head.offset, head);
  }
  // The kind of a type (kUnknown for void) from one byte per type: the
  // passes that follow references mostly need only the kind, and 128 KB of
  // kinds stay in cache where 1.5 MB of record heads do not.
  uint32_t kind_of(uint32_t id) const {
    if (id >= first_id_) return id < type_count() ? kinds_[id - first_id_] : uint32_t(kUnknown);  // the common case
    const Btf* b = this;
    while (id < b->first_id_) {
      if (!b->base_) return kUnknown;  // void
      b = b->base_;
    }
    return b->kinds_[id - b->first_id_];
  }
  // Direct access for the passes that visit every type: this blob's record
  // heads (index = id - first_id()) and the start of its type section.
  const RecordHead* heads() const { return heads_.data(); }
  const uint8_t* type_section() const { return types_begin_; }
  const uint8_t* kinds() const { return kinds_.data(); }

  // Byte offset of a record of this blob from the start of the blob (of the
  // type section's start for an id that is not this blob's own).
  uint64_t record_offset(uint32_t id) const {
    const uint64_t section = uint64_t(hdr_.hdr_len) + hdr_.type_off;
    return is_own(id) ? section + heads_[id - first_id_].offset : section;
  }
  uint64_t type_section_offset() const { return uint64_t(hdr_.hdr_len) + hdr_.type_off; }
  uint64_t string_section_offset() const { return uint64_t(hdr_.hdr_len) + hdr_.str_off; }

  // String offsets continue across the base chain, as in the kernel.
  uint32_t string_start() const { return str_start_; }
  uint64_t strings_end() const { return uint64_t(str_start_) + hdr_.str_len; }
  bool name_offset_valid(uint32_t off) const {
    if (off > kMaxNameOffset) return false;
    const Btf* b = this;
    while (off < b->str_start_ && b->base_) b = b->base_;
    return off - b->str_start_ < b->hdr_.str_len;
  }
  // The NUL-terminated string at a valid offset (the parser has checked the
  // last byte of each string section is NUL); nullptr for an invalid offset.
  const char* string_at(uint32_t off) const {
    const Btf* b = this;
    while (off < b->str_start_ && b->base_) b = b->base_;
    off -= b->str_start_;
    return off < b->hdr_.str_len ? reinterpret_cast<const char*>(b->strings_begin_ + off) : nullptr;
  }
  // End of the string section that holds a valid offset (fast scanners may
  // read up to it).
  const char* string_section_end(uint32_t off) const {
    const Btf* b = string_owner(off);
    return reinterpret_cast<const char*>(b->strings_begin_ + b->hdr_.str_len);
  }
  std::string_view name_of(uint32_t off) const {
    const char* s = string_at(off);
    return s ? std::string_view(s) : std::string_view();
  }
  // Where a string offset lands: the blob that holds it and the offset in it.
  const Btf* string_owner(uint32_t off) const {
    const Btf* b = this;
    while (off < b->str_start_ && b->base_) b = b->base_;
    return b;
  }

 private:
  friend class Parser;

  const Btf* base_ = nullptr;
  std::shared_ptr<const std::vector<uint8_t>> owned_;  // host-order copy of a byte-swapped blob
  std::span<const uint8_t> data_;
  Endian stored_endian_ = Endian::Little;
  Header hdr_;
  uint32_t first_id_ = 1;
  uint32_t str_start_ = 0;
  const uint8_t* types_begin_ = nullptr;
  const uint8_t* strings_begin_ = nullptr;
  RecordHeads heads_;  // one per own record, in id order
  std::vector<uint8_t> kinds_;     // the kind of each own record
  bool types_complete_ = false;
  bool strings_usable_ = false;
};

}  // namespace elfmeta::btf
