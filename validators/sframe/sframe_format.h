// The SFrame format, versions 1 (binutils 2.40), 2 (2.41+) and 3 (2.46):
// constants, the records as plain values, and their sizes. Fields are read
// in the byte order of the magic; records are unaligned (17-byte v1 FDEs,
// byte-aligned FREs), so everything goes through ByteReader.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/byte_reader.h"

namespace elfmeta::sframe {

inline constexpr uint16_t kMagic = 0xdee2;
inline constexpr uint32_t kHeaderSize = 28;
inline constexpr uint32_t kV3AttrSize = 5;  // v3: per-function record before its FREs

enum Flag : uint8_t { kFdeSorted = 0x1, kFramePointer = 0x2, kFuncStartPcrel = 0x4 };
enum Abi : uint8_t { kAarch64Be = 1, kAarch64Le = 2, kAmd64Le = 3, kS390xBe = 4 };
enum FreType : uint8_t { kAddr1 = 0, kAddr2 = 1, kAddr4 = 2 };
enum PcType : uint8_t { kPcInc = 0, kPcMask = 1 };
enum V3Kind : uint8_t { kDefault = 0, kFlex = 1 };  // v3 info2 bits 0-4

struct Header {
  uint16_t magic = kMagic;
  uint8_t version = 2, flags = 0, abi = kAmd64Le;
  int8_t fixed_fp = 0, fixed_ra = -8;
  uint8_t auxhdr_len = 0;
  uint32_t num_fdes = 0, num_fres = 0, fre_len = 0, fdeoff = 0, freoff = 0;

  uint64_t end() const { return uint64_t(kHeaderSize) + auxhdr_len; }  // where offsets count from
};

// The 28 bytes of a header as stored (the reader has checked they exist).
inline Header decode_header(const ByteReader& r) {
  Header h;
  h.magic = r.at<uint16_t>(0);
  h.version = r.at<uint8_t>(2);
  h.flags = r.at<uint8_t>(3);
  h.abi = r.at<uint8_t>(4);
  h.fixed_fp = r.at<int8_t>(5);
  h.fixed_ra = r.at<int8_t>(6);
  h.auxhdr_len = r.at<uint8_t>(7);
  h.num_fdes = r.at<uint32_t>(8);
  h.num_fres = r.at<uint32_t>(12);
  h.fre_len = r.at<uint32_t>(16);
  h.fdeoff = r.at<uint32_t>(20);
  h.freoff = r.at<uint32_t>(24);
  return h;
}

// The bytes of one FDE (v1/v2), or of a v3 index entry with its attribute
// record, as stored.
struct Fde {
  uint64_t at = 0;         // offset of the FDE in the section
  int64_t start = 0;       // the start field (s32 in v1/v2, s64 in v3)
  uint32_t size = 0;       // function size
  uint32_t fre_off = 0;    // v1/v2: first FRE; v3: the attribute record (from the FRE sub-section)
  uint32_t num_fres = 0;
  uint8_t info = 0;
  uint8_t info2 = 0;       // v3 only: FDE kind
  uint8_t rep_size = 0;    // v2, v3: PC-mask block size
  uint16_t padding = 0;    // v2 only

  uint8_t fre_type() const { return info & 0xf; }
  uint8_t pc_type() const { return info >> 4 & 1; }
  bool pauth_key_b() const { return info >> 5 & 1; }
};

inline constexpr uint32_t kMaxWords = 15;

struct Fre {
  uint64_t at = 0;      // offset of the FRE in the section
  uint32_t start = 0;   // start offset in the function (PCINC) or block (PCMASK)
  uint8_t info = 0;
  std::array<int32_t, kMaxWords> words{};  // sign-extended data words (at most 4 bytes each)

  bool base_sp() const { return info & 1; }  // else FP
  uint8_t count() const { return info >> 1 & 0xf; }
  uint8_t size_code() const { return info >> 5 & 3; }
  bool mangled_ra() const { return info >> 7 & 1; }
};

// Inline: read for every FDE and FRE of a section.
// 17, 20 or 16 bytes; 0 for an unknown version.
constexpr uint32_t fde_size(uint8_t version) {
  switch (version) {
    case 1: return 17;
    case 2: return 20;
    case 3: return 16;
    default: return 0;
  }
}
// Bytes of an FRE start offset: 1, 2, 4; 0 for an invalid FRE type.
constexpr uint32_t start_size(uint8_t fre_type) { return fre_type <= kAddr4 ? 1u << fre_type : 0; }
// Bytes of a data word: 1, 2, 4; 0 for size code 3.
constexpr uint32_t word_size(uint8_t size_code) { return size_code < 3 ? 1u << size_code : 0; }

// From the ABI table (sframe_abi.h): "amd64", "abi?" for an unknown id.
std::string_view abi_name(uint8_t abi);
bool abi_big_endian(uint8_t abi);

}  // namespace elfmeta::sframe
