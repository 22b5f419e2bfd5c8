#include "btf/libbpf_model.h"

#include <cstring>
#include <string>
#include <vector>

#include "btf/btf_rules.h"
#include "btf/parse.h"
#include "core/text.h"

namespace elfmeta::btf {
namespace {

constexpr uint32_t kNativeMagic = 0xEB9F, kForeignMagic = 0x9FEB;
constexpr uint32_t kLibbpfMaxStrOffset = 0x7fffffff;

struct LibbpfRecord {
  uint32_t offset;  // in the type section
  uint32_t kind, vlen;
};

class LibbpfModel {
 public:
  LibbpfModel(std::span<const uint8_t> data, const Btf* base, Release release, Findings& f)
      : d_(data), base_(base), v13_(release >= Release{1, 3}), v17_(release >= Release{1, 7}),
        v18_(release >= Release{1, 8}), f_(f) {}

  void run() {
    if (!header() || !strings() || !layout() || !types()) return;
    if (v13_) sanity();
  }

 private:
  uint32_t u32(size_t off) const {
    uint32_t v;
    std::memcpy(&v, d_.data() + off, 4);
    return v;
  }
  uint16_t u16(size_t off) const {
    uint16_t v;
    std::memcpy(&v, d_.data() + off, 2);
    return v;
  }
  // A header field as libbpf reads it: 1.8 copies only hdr_len bytes over a
  // zeroed header; older releases read the fixed offsets whatever hdr_len.
  uint32_t field(size_t off) const { return v18_ && off + 4 > hdr_len_ ? 0 : u32(off); }

  // libbpf's btf_parse_hdr(). Reports BTF-LIBBPF-001..008.
  bool header() {
    if (d_.size() < kHeaderSize) {
      f_.at_offset(rules::LIBBPF_001, 0, "blob has " + std::to_string(d_.size()) + " bytes, libbpf needs 24");
      return false;
    }
    const uint16_t magic = u16(0);
    if (magic == kForeignMagic) {
      const uint32_t hdr_len = __builtin_bswap32(u32(4));
      if (v18_ ? hdr_len < kHeaderSize : hdr_len != kHeaderSize) {
        f_.at_offset(rules::LIBBPF_002, 4,
                     "non-native byte order with hdr_len " + std::to_string(hdr_len) +
                         (v18_ ? " (libbpf needs at least 24)" : " (libbpf before 1.8 needs exactly 24)"));
        return false;
      }
      swapped_ = swap_byte_order(d_, false);
      d_ = swapped_;
      foreign_ = true;
    } else if (magic != kNativeMagic) {
      f_.at_offset(rules::LIBBPF_003, 0, "magic is " + hex(magic));
      return false;
    }
    hdr_len_ = u32(4);
    if (d_.size() < hdr_len_) {
      f_.at_offset(rules::LIBBPF_004, 4,
                   "hdr_len " + std::to_string(hdr_len_) + " exceeds the blob's " + std::to_string(d_.size()) + " bytes");
      return false;
    }
    type_off_ = field(8);
    type_len_ = field(12);
    str_off_ = field(16);
    str_len_ = field(20);
    if (v18_ && hdr_len_ >= kLayoutHeaderSize) {
      layout_off_ = field(24);
      layout_len_ = field(28);
    }
    const uint64_t body = d_.size() - hdr_len_;
    if (uint64_t(str_off_) + str_len_ > body) {
      f_.at_offset(rules::LIBBPF_005, 16,
                   "strings end at " + std::to_string(uint64_t(str_off_) + str_len_) + ", past the " +
                       std::to_string(body) + " bytes after the header");
      return false;
    }
    if (uint64_t(type_off_) + type_len_ > str_off_) {
      f_.at_offset(rules::LIBBPF_006, 8,
                   "types end at " + std::to_string(uint64_t(type_off_) + type_len_) + ", after the strings start at " +
                       std::to_string(str_off_));
      return false;
    }
    if (type_off_ % 4) {
      f_.at_offset(rules::LIBBPF_007, 8, "type_off " + std::to_string(type_off_) + " is not 4-byte aligned");
      return false;
    }
    if (layout_len_) {
      if (layout_off_ % 4) {
        f_.at_offset(rules::LIBBPF_008, 24, "layout_off " + std::to_string(layout_off_) + " is not 4-byte aligned");
        return false;
      }
      if (layout_off_ < uint64_t(type_off_) + type_len_ || uint64_t(layout_off_) + layout_len_ > str_off_) {
        f_.at_offset(rules::LIBBPF_006, 24,
                     "layout section (off " + std::to_string(layout_off_) + ", len " + std::to_string(layout_len_) +
                         ") is not between the types and the strings");
        return false;
      }
    }
    return true;
  }

  // libbpf's btf_parse_str_sec(). Reports BTF-LIBBPF-009, BTF-LIBBPF-010.
  bool strings() {
    const uint64_t start = uint64_t(hdr_len_) + str_off_;
    if (base_ && str_len_ == 0) return true;
    if (str_len_ == 0 || str_len_ - 1 > kLibbpfMaxStrOffset || d_[start + str_len_ - 1] != 0) {
      f_.at_offset(rules::LIBBPF_009, 20,
                   str_len_ == 0 ? std::string("str_len is 0") : "str_len " + std::to_string(str_len_) + " or no final NUL");
      return false;
    }
    if (!base_ && d_[start] != 0) {
      f_.at_offset(rules::LIBBPF_010, start, "first byte of the strings is " + hex(d_[start]));
      return false;
    }
    return true;
  }

  // libbpf's kind-layout section checks. Reports BTF-LIBBPF-008.
  bool layout() {
    if (layout_len_ % 4) {
      f_.at_offset(rules::LIBBPF_008, 28, "layout_len " + std::to_string(layout_len_) + " is not a multiple of 4");
      return false;
    }
    return true;
  }

  // 1.8: an unknown kind is sized by this blob's layout, or its direct base's.
  std::optional<uint64_t> layout_size(uint32_t kind, uint32_t vlen, uint64_t at) {
    const uint8_t* entries = nullptr;
    uint32_t count = 0;
    if (layout_len_) {
      entries = d_.data() + hdr_len_ + layout_off_;
      count = layout_len_ / 4;
    } else if (base_ && base_->header().layout_len) {
      entries = base_->data().data() + base_->header().hdr_len + base_->header().layout_off;
      count = base_->header().layout_len / 4;
    }
    if (!entries || kind >= count || foreign_) {
      f_.at_offset(rules::LIBBPF_011, at + 4, "type " + std::to_string(next_id()) + ": kind " + std::to_string(kind));
      return std::nullopt;
    }
    const uint8_t info_sz = entries[4 * kind], elem_sz = entries[4 * kind + 1];
    if (info_sz % 4 || elem_sz % 4) {
      f_.at_offset(rules::LIBBPF_012, at + 4,
                   "type " + std::to_string(next_id()) + ": layout entry of kind " + std::to_string(kind) + " has info_sz " +
                       std::to_string(info_sz) + ", elem_sz " + std::to_string(elem_sz));
      return std::nullopt;
    }
    return kTypeRecordSize + uint64_t(info_sz) + uint64_t(vlen) * elem_sz;
  }

  // libbpf's btf_parse_type_sec(). Reports BTF-LIBBPF-011, -013, -014.
  bool types() {
    const uint64_t section = uint64_t(hdr_len_) + type_off_;
    uint64_t cur = 0;
    while (type_len_ - cur >= kTypeRecordSize) {
      const uint32_t info = u32(section + cur + 4);
      const uint32_t kind = v18_ ? info >> 24 & 0x7f : info >> 24 & 0x1f;
      const uint32_t vlen = v18_ ? info & 0xffffff : info & 0xffff;
      std::optional<uint64_t> size;
      if (kind >= kInt && kind <= kEnum64) {
        size = kTypeRecordSize + *payload_size(kind, vlen);
      } else if (v18_) {
        size = layout_size(kind, vlen, section + cur);
        if (!size) return false;
      } else {
        f_.at_offset(rules::LIBBPF_011, section + cur + 4, "type " + std::to_string(next_id()) + ": kind " + std::to_string(kind));
        return false;
      }
      if (*size > type_len_ - cur) {
        f_.at_offset(rules::LIBBPF_013, section + cur,
                     "type " + std::to_string(next_id()) + " needs " + std::to_string(*size) + " bytes, " +
                         std::to_string(type_len_ - cur) + " left");
        return false;
      }
      records_.push_back({static_cast<uint32_t>(cur), kind, vlen});
      cur += *size;
    }
    if (cur != type_len_) {
      f_.at_offset(rules::LIBBPF_014, section + cur, std::to_string(type_len_ - cur) + " bytes after the last record");
      return false;
    }
    return true;
  }

  uint32_t next_id() const { return start_id() + static_cast<uint32_t>(records_.size()); }
  uint32_t start_id() const { return base_ ? base_->type_count() : 1; }
  // libbpf before 1.7 continues a split blob's strings after its base's own
  // section only, which is wrong for split BTF on split BTF.
  uint64_t start_str_off() const {
    if (!base_) return 0;
    return v17_ ? uint64_t(base_->string_start()) + base_->header().str_len : base_->header().str_len;
  }

  // libbpf's btf_sanity_check(). Reports BTF-LIBBPF-015..017.
  void sanity() {
    const uint64_t section = uint64_t(hdr_len_) + type_off_;
    const uint64_t str_start = start_str_off();
    const uint64_t total = uint64_t(start_id()) + records_.size();
    auto word = [&](const LibbpfRecord& r, size_t i) { return u32(section + r.offset + 4 * i); };
    auto kind_of = [&](uint32_t id) -> uint32_t {
      if (id == 0) return 0;
      if (id < start_id()) return base_->type(id).kind();
      return records_[id - start_id()].kind;
    };
    for (size_t i = 0; i < records_.size(); ++i) {
      const LibbpfRecord& r = records_[i];
      const uint32_t id = start_id() + static_cast<uint32_t>(i);
      auto name = [&](uint32_t off, const std::string& what, size_t w) {
        if (off < str_start || off - str_start < str_len_) return true;
        f_.at_offset(rules::LIBBPF_015, section + r.offset + 4 * w,
                     "type " + std::to_string(id) + ": " + what + " offset " + hex(off) + " is outside the strings");
        return false;
      };
      auto ref = [&](uint32_t target, size_t w) {
        if (target < total) return true;
        f_.at_offset(rules::LIBBPF_016, section + r.offset + 4 * w,
                     "type " + std::to_string(id) + ": referenced type id " + std::to_string(target) + " does not exist");
        return false;
      };
      if (!name(word(r, 0), "name", 0)) continue;
      switch (r.kind) {
        case kPtr: case kTypedef: case kVolatile: case kConst: case kRestrict: case kVar: case kDeclTag: case kTypeTag:
          ref(word(r, 2), 2);
          break;
        case kArray:
          if (ref(word(r, 3), 3)) ref(word(r, 4), 4);
          break;
        case kStruct: case kUnion:
          for (uint32_t m = 0; m < r.vlen; ++m)
            if (!name(word(r, 3 + 3 * m), "member " + std::to_string(m) + " name", 3 + 3 * m) || !ref(word(r, 4 + 3 * m), 4 + 3 * m))
              break;
          break;
        case kEnum: case kEnum64: {
          const size_t stride = r.kind == kEnum ? 2 : 3;
          for (uint32_t m = 0; m < r.vlen; ++m)
            if (!name(word(r, 3 + stride * m), "enumerator " + std::to_string(m) + " name", 3 + stride * m)) break;
          break;
        }
        case kFunc:
          if (ref(word(r, 2), 2) && kind_of(word(r, 2)) != kFuncProto)
            f_.at_offset(rules::LIBBPF_017, section + r.offset + 8,
                         "type " + std::to_string(id) + " FUNC: type " + std::to_string(word(r, 2)) + " is not a FUNC_PROTO");
          break;
        case kFuncProto:  // the return type is not checked
          for (uint32_t p = 0; p < r.vlen; ++p)
            if (!name(word(r, 3 + 2 * p), "parameter " + std::to_string(p + 1) + " name", 3 + 2 * p) ||
                !ref(word(r, 4 + 2 * p), 4 + 2 * p))
              break;
          break;
        case kDatasec:
          for (uint32_t e = 0; e < r.vlen; ++e)
            if (!ref(word(r, 3 + 3 * e), 3 + 3 * e)) break;
          break;
        default:
          break;
      }
    }
  }

  std::span<const uint8_t> d_;
  const Btf* base_;
  const bool v13_, v17_, v18_;
  Findings& f_;
  std::vector<uint8_t> swapped_;
  bool foreign_ = false;
  uint32_t hdr_len_ = 0, type_off_ = 0, type_len_ = 0, str_off_ = 0, str_len_ = 0, layout_off_ = 0, layout_len_ = 0;
  std::vector<LibbpfRecord> records_;
};

}  // namespace

void check_libbpf(std::span<const uint8_t> data, const Btf* base, Release libbpf, Findings& f) {
  LibbpfModel(data, base, libbpf, f).run();
}

}  // namespace elfmeta::btf
