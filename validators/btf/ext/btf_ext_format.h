// The .BTF.ext section of a BPF object (spec btf.md §1.7): plain layout
// constants and record structs, in host order once read.
#pragma once

#include <cstdint>
#include <string_view>

namespace elfmeta::btf::ext {

inline constexpr uint16_t kMagic = 0xEB9F;
inline constexpr uint8_t kVersion = 1;
// The header up to line_info_len; up to core_relo_len (CO-RE, clang 14 writes 32).
inline constexpr uint32_t kHeaderMin = 24;
inline constexpr uint32_t kHeaderCore = 32;
// Bytes every .BTF.ext must hold: magic, version, flags, hdr_len.
inline constexpr uint32_t kPreamble = 8;
// A group of records: sec_name_off, num_info.
inline constexpr uint32_t kGroupHeader = 8;
// The kernel's limit on every record size of BPF_PROG_LOAD (func_info,
// line_info, core_relo).
inline constexpr uint32_t kKernelMaxRecord = 252;
// One BPF instruction; insn_off is a byte offset in the ELF object.
inline constexpr uint32_t kInsnSize = 8;
// BPF_LD | BPF_IMM | BPF_DW: the 16-byte load whose second half has code 0.
inline constexpr uint8_t kLdImm64 = 0x18;
// The column of line_col (line << 10 | column).
inline constexpr uint32_t kColumnBits = 10;
inline constexpr uint32_t kColumnMax = (1u << kColumnBits) - 1;

enum class Block : uint8_t { FuncInfo, LineInfo, CoreRelo };
inline constexpr int kBlocks = 3;

inline constexpr std::string_view block_name(Block b) {
  switch (b) {
    case Block::FuncInfo:
      return "func_info";
    case Block::LineInfo:
      return "line_info";
    case Block::CoreRelo:
      return "core_relo";
  }
  return "?";
}
// The size of the record each consumer knows; longer records carry a tail.
inline constexpr uint32_t min_record_size(Block b) { return b == Block::FuncInfo ? 8 : 16; }

struct Header {
  uint16_t magic = 0;
  uint8_t version = 0;
  uint8_t flags = 0;
  uint32_t hdr_len = 0;
  // Offsets from the end of the header, and lengths, per Block.
  uint32_t off[kBlocks] = {};
  uint32_t len[kBlocks] = {};
};

struct FuncInfo {
  uint32_t insn_off, type_id;
};
struct LineInfo {
  uint32_t insn_off, file_name_off, line_off, line_col;
  uint32_t line() const { return line_col >> kColumnBits; }
  uint32_t column() const { return line_col & kColumnMax; }
};
struct CoreRelo {
  uint32_t insn_off, type_id, access_str_off, kind;
};

// enum bpf_core_relo_kind.
enum CoreKind : uint32_t {
  kFieldByteOffset = 0,
  kFieldByteSize = 1,
  kFieldExists = 2,
  kFieldSigned = 3,
  kFieldLshiftU64 = 4,
  kFieldRshiftU64 = 5,
  kTypeIdLocal = 6,
  kTypeIdTarget = 7,
  kTypeExists = 8,
  kTypeSize = 9,
  kEnumvalExists = 10,
  kEnumvalValue = 11,
  kTypeMatches = 12,
  kCoreKindCount = 13,
};

inline constexpr std::string_view core_kind_name(uint32_t k) {
  constexpr std::string_view names[] = {"byte_off",    "byte_sz",     "field_exists", "signed",     "lshift_u64",
                                        "rshift_u64",  "local_type_id", "target_type_id", "type_exists", "type_size",
                                        "enumval_exists", "enumval_value", "type_matches"};
  return k < kCoreKindCount ? names[k] : std::string_view("unknown");
}
inline constexpr bool core_kind_is_field(uint32_t k) { return k <= kFieldRshiftU64; }
inline constexpr bool core_kind_is_type(uint32_t k) { return (k >= kTypeIdLocal && k <= kTypeSize) || k == kTypeMatches; }
inline constexpr bool core_kind_is_enumval(uint32_t k) { return k == kEnumvalExists || k == kEnumvalValue; }

}  // namespace elfmeta::btf::ext
