// BTF on-disk layout: constants and field accessors (spec: docs/btf.md and
// ../shared/spec/btf.md §1). Written from the format description, not from
// the kernel's or libbpf's headers.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace elfmeta::btf {

inline constexpr uint16_t kMagic = 0xEB9F;
inline constexpr uint32_t kHeaderSize = 24;       // fields up to str_len
inline constexpr uint32_t kLayoutHeaderSize = 32;  // + layout_off, layout_len (Linux 7.1)
// The info bits kernels before 7.2 allow (5-bit kind, 16-bit vlen).
inline constexpr uint32_t kInfoMask = 0x9f00ffff;
inline constexpr uint32_t kMaxTypeId = 0x000fffff;
inline constexpr uint32_t kMaxNameOffset = 0x00ffffff;
inline constexpr uint32_t kMaxUserBlobSize = 16u * 1024 * 1024;
inline constexpr uint32_t kTypeRecordSize = 12;  // name_off, info, size/type
inline constexpr uint32_t kMaxResolveDepth = 32;
inline constexpr uint32_t kPointerSize = 8;      // x86-64 / arm64 kernels

enum Kind : uint8_t {
  kUnknown = 0,
  kInt = 1,
  kPtr = 2,
  kArray = 3,
  kStruct = 4,
  kUnion = 5,
  kEnum = 6,
  kFwd = 7,
  kTypedef = 8,
  kVolatile = 9,
  kConst = 10,
  kRestrict = 11,
  kFunc = 12,
  kFuncProto = 13,
  kVar = 14,
  kDatasec = 15,
  kFloat = 16,
  kDeclTag = 17,
  kTypeTag = 18,
  kEnum64 = 19,
};
inline constexpr uint32_t kMaxKnownKind = kEnum64;

std::string_view kind_name(uint32_t kind);

// Linux 7.2's reading: kind bits 24-30, vlen bits 0-23. Older kernels refuse
// the bits the narrower fields leave out (BTF-TYPE-002, kInfoMask) before
// they read anything else of the record, so reading them wide changes no
// verdict of theirs.
constexpr uint32_t info_kind(uint32_t info) { return (info >> 24) & 0x7f; }
constexpr uint32_t info_vlen(uint32_t info) { return info & 0xffffff; }
constexpr bool info_kflag(uint32_t info) { return info >> 31; }

// INT encoding word.
constexpr uint32_t int_encoding(uint32_t data) { return (data & 0x0f000000) >> 24; }
constexpr uint32_t int_offset(uint32_t data) { return (data & 0x00ff0000) >> 16; }
constexpr uint32_t int_bits(uint32_t data) { return data & 0x000000ff; }
inline constexpr uint32_t kIntSigned = 1, kIntChar = 2, kIntBool = 4;

// Member offset word of a kind_flag aggregate.
constexpr uint32_t member_bitfield_size(uint32_t offset) { return offset >> 24; }
constexpr uint32_t member_bit_offset(uint32_t offset) { return offset & 0xffffff; }

// Bytes that follow the 12-byte common part of a record of this kind.
// nullopt for a kind that cannot be sized.
constexpr std::optional<uint64_t> payload_size(uint32_t kind, uint32_t vlen) {
  switch (kind) {
    case kInt: case kVar: case kDeclTag: return 4;
    case kArray: return 12;
    case kStruct: case kUnion: case kDatasec: case kEnum64: return 12ull * vlen;
    case kEnum: case kFuncProto: return 8ull * vlen;
    case kPtr: case kFwd: case kTypedef: case kVolatile: case kConst: case kRestrict: case kFunc: case kFloat:
    case kTypeTag: return 0;
    default: return std::nullopt;
  }
}

constexpr bool is_modifier(uint32_t kind) {
  return kind == kTypedef || kind == kVolatile || kind == kConst || kind == kRestrict || kind == kTypeTag;
}
constexpr bool is_aggregate(uint32_t kind) { return kind == kStruct || kind == kUnion; }
// Kinds whose size field is a byte size.
constexpr bool has_size_field(uint32_t kind) {
  return kind == kInt || kind == kStruct || kind == kUnion || kind == kEnum || kind == kDatasec ||
         kind == kFloat || kind == kEnum64;
}

}  // namespace elfmeta::btf
