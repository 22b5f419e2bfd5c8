// Builds BTF blobs record by record, for tests, fuzzers and generators.
// Every record stays editable as raw words, so a test can make exactly the
// defect it wants without hand-written hex.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elfmeta::synth {

// A blob before assembly: header fields and the two section bodies. Fields
// default to what producers write; tests override any of them.
struct BtfBlobParts {
  uint16_t magic = 0xEB9F;
  uint8_t version = 1;
  uint8_t flags = 0;
  uint32_t hdr_len = 24;
  std::vector<uint8_t> header_tail;  // bytes 24..hdr_len (zeros unless set)
  std::vector<uint8_t> types;
  std::vector<uint8_t> strings;
  std::vector<uint8_t> gap;          // bytes placed between types and strings
  // Header offsets/lengths; unset = derived from the bodies (types first).
  std::optional<uint32_t> type_off, type_len, str_off, str_len;
  bool strings_first = false;        // place the string body before the types

  std::vector<uint8_t> assemble() const;
};

class BtfBuilder {
 public:
  // Base BTF: ids start at 1 and strings at 0 with the empty string.
  BtfBuilder();
  // Split BTF on top of a base with `base_type_count` ids (void included) and
  // `base_str_len` bytes of strings.
  BtfBuilder(uint32_t base_type_count, uint32_t base_str_len);

  // Intern a string; returns its (combined) offset.
  uint32_t str(std::string_view s);
  // Append raw bytes to the string section (no NUL added); returns the offset.
  uint32_t raw_str(std::string_view bytes);

  static constexpr uint32_t info(uint32_t kind, uint32_t vlen = 0, bool kflag = false) {
    return (kflag ? 1u << 31 : 0) | (kind & 0x1f) << 24 | (vlen & 0xffff);
  }

  uint32_t add_raw(uint32_t name_off, uint32_t info, uint32_t size_or_type, std::vector<uint32_t> payload = {});

  uint32_t add_int(std::string_view name, uint32_t size, uint32_t nr_bits, uint32_t encoding = 0, uint32_t bit_offset = 0);
  uint32_t add_ptr(uint32_t target);
  uint32_t add_typedef(std::string_view name, uint32_t target);
  uint32_t add_volatile(uint32_t target);
  uint32_t add_const(uint32_t target);
  uint32_t add_restrict(uint32_t target);
  uint32_t add_type_tag(std::string_view value, uint32_t target, bool kflag = false);
  uint32_t add_array(uint32_t elem, uint32_t index, uint32_t nelems);

  struct MemberSpec {
    std::string_view name;
    uint32_t type;
    uint32_t bit_offset;
    uint32_t bitfield_size = 0;  // non-zero needs a kind_flag aggregate
  };
  // kind_flag is set when a member has a bitfield size, or when forced.
  uint32_t add_struct(std::string_view name, uint32_t size, const std::vector<MemberSpec>& members, bool kflag = false);
  uint32_t add_union(std::string_view name, uint32_t size, const std::vector<MemberSpec>& members, bool kflag = false);

  struct EnumeratorSpec {
    std::string_view name;
    int64_t value;
  };
  uint32_t add_enum(std::string_view name, uint32_t size, const std::vector<EnumeratorSpec>& values, bool is_signed = false);
  uint32_t add_enum64(std::string_view name, uint32_t size, const std::vector<EnumeratorSpec>& values, bool is_signed = false);
  uint32_t add_fwd(std::string_view name, bool is_union = false);
  uint32_t add_func(std::string_view name, uint32_t proto, uint32_t linkage = 0);

  struct ParamSpec {
    std::string_view name;
    uint32_t type;
  };
  uint32_t add_func_proto(uint32_t return_type, const std::vector<ParamSpec>& params);
  uint32_t add_var(std::string_view name, uint32_t type, uint32_t linkage = 0);

  struct SecInfoSpec {
    uint32_t var;
    uint32_t offset;
    uint32_t size;
  };
  uint32_t add_datasec(std::string_view name, uint32_t size, const std::vector<SecInfoSpec>& entries);
  uint32_t add_float(std::string_view name, uint32_t size);
  uint32_t add_decl_tag(std::string_view value, uint32_t target, int32_t component_idx = -1, bool kflag = false);

  // The words of record `id` (name_off, info, size/type, payload...).
  std::vector<uint32_t>& record(uint32_t id);
  const std::vector<std::vector<uint32_t>>& records() const { return records_; }
  uint32_t first_id() const { return first_id_; }
  // Split BTF: the base's string length (0 for base BTF).
  uint32_t string_base() const { return str_base_; }
  uint32_t next_id() const { return first_id_ + static_cast<uint32_t>(records_.size()); }
  std::string& strings() { return strings_; }
  const std::string& strings() const { return strings_; }

  BtfBlobParts parts() const;
  std::vector<uint8_t> build() const { return parts().assemble(); }

 private:
  uint32_t add_aggregate(uint32_t kind, std::string_view name, uint32_t size, const std::vector<MemberSpec>& members,
                         bool kflag);
  uint32_t add_enum_kind(uint32_t kind, std::string_view name, uint32_t size, const std::vector<EnumeratorSpec>& values,
                         bool is_signed);

  uint32_t first_id_;
  uint32_t str_base_;
  std::string strings_;
  std::map<std::string, uint32_t, std::less<>> interned_;
  std::vector<std::vector<uint32_t>> records_;
};

}  // namespace elfmeta::synth
