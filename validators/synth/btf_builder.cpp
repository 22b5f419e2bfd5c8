#include "synth/btf_builder.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace elfmeta::synth {
namespace {

enum : uint32_t {
  kInt = 1, kPtr, kArray, kStruct, kUnion, kEnum, kFwd, kTypedef, kVolatile, kConst, kRestrict, kFunc,
  kFuncProto, kVar, kDatasec, kFloat, kDeclTag, kTypeTag, kEnum64
};

void put32(std::vector<uint8_t>& out, size_t at, uint32_t v) { std::memcpy(out.data() + at, &v, 4); }

}  // namespace

std::vector<uint8_t> BtfBlobParts::assemble() const {
  const uint32_t tl = type_len.value_or(static_cast<uint32_t>(types.size()));
  const uint32_t sl = str_len.value_or(static_cast<uint32_t>(strings.size()));
  const uint32_t first_len = static_cast<uint32_t>((strings_first ? strings : types).size() + gap.size());
  const uint32_t to = type_off.value_or(strings_first ? first_len : 0);
  const uint32_t so = str_off.value_or(strings_first ? 0 : first_len);

  std::vector<uint8_t> out(std::max<size_t>(24, hdr_len), 0);
  std::memcpy(out.data(), &magic, 2);
  out[2] = version;
  out[3] = flags;
  put32(out, 4, hdr_len);
  put32(out, 8, to);
  put32(out, 12, tl);
  put32(out, 16, so);
  put32(out, 20, sl);
  for (size_t i = 0; i < header_tail.size() && 24 + i < out.size(); ++i) out[24 + i] = header_tail[i];
  out.resize(hdr_len);  // a short hdr_len keeps only its prefix
  const auto& first = strings_first ? strings : types;
  const auto& second = strings_first ? types : strings;
  out.insert(out.end(), first.begin(), first.end());
  out.insert(out.end(), gap.begin(), gap.end());
  out.insert(out.end(), second.begin(), second.end());
  return out;
}

BtfBuilder::BtfBuilder() : first_id_(1), str_base_(0), strings_(1, '\0') { interned_.emplace("", 0); }

BtfBuilder::BtfBuilder(uint32_t base_type_count, uint32_t base_str_len)
    : first_id_(base_type_count), str_base_(base_str_len) {}

uint32_t BtfBuilder::str(std::string_view s) {
  if (s.empty() && str_base_ > 0) return 0;  // split BTF uses the base's empty string
  if (auto it = interned_.find(s); it != interned_.end()) return it->second;
  const uint32_t off = str_base_ + static_cast<uint32_t>(strings_.size());
  strings_.append(s);
  strings_.push_back('\0');
  interned_.emplace(std::string(s), off);
  return off;
}

uint32_t BtfBuilder::raw_str(std::string_view bytes) {
  const uint32_t off = str_base_ + static_cast<uint32_t>(strings_.size());
  strings_.append(bytes);
  return off;
}

uint32_t BtfBuilder::add_raw(uint32_t name_off, uint32_t info, uint32_t size_or_type, std::vector<uint32_t> payload) {
  std::vector<uint32_t> words{name_off, info, size_or_type};
  words.insert(words.end(), payload.begin(), payload.end());
  records_.push_back(std::move(words));
  return next_id() - 1;
}

uint32_t BtfBuilder::add_int(std::string_view name, uint32_t size, uint32_t nr_bits, uint32_t encoding,
                             uint32_t bit_offset) {
  return add_raw(str(name), info(kInt), size, {encoding << 24 | bit_offset << 16 | nr_bits});
}
uint32_t BtfBuilder::add_ptr(uint32_t target) { return add_raw(0, info(kPtr), target); }
uint32_t BtfBuilder::add_typedef(std::string_view name, uint32_t target) { return add_raw(str(name), info(kTypedef), target); }
uint32_t BtfBuilder::add_volatile(uint32_t target) { return add_raw(0, info(kVolatile), target); }
uint32_t BtfBuilder::add_const(uint32_t target) { return add_raw(0, info(kConst), target); }
uint32_t BtfBuilder::add_restrict(uint32_t target) { return add_raw(0, info(kRestrict), target); }
uint32_t BtfBuilder::add_type_tag(std::string_view value, uint32_t target, bool kflag) {
  return add_raw(str(value), info(kTypeTag, 0, kflag), target);
}
uint32_t BtfBuilder::add_array(uint32_t elem, uint32_t index, uint32_t nelems) {
  return add_raw(0, info(kArray), 0, {elem, index, nelems});
}

uint32_t BtfBuilder::add_aggregate(uint32_t kind, std::string_view name, uint32_t size,
                                   const std::vector<MemberSpec>& members, bool kflag) {
  for (const auto& m : members) kflag |= m.bitfield_size != 0;
  std::vector<uint32_t> payload;
  for (const auto& m : members) {
    payload.push_back(str(m.name));
    payload.push_back(m.type);
    payload.push_back(kflag ? (m.bitfield_size << 24 | (m.bit_offset & 0xffffff)) : m.bit_offset);
  }
  return add_raw(str(name), info(kind, static_cast<uint32_t>(members.size()), kflag), size, std::move(payload));
}
uint32_t BtfBuilder::add_struct(std::string_view name, uint32_t size, const std::vector<MemberSpec>& members, bool kflag) {
  return add_aggregate(kStruct, name, size, members, kflag);
}
uint32_t BtfBuilder::add_union(std::string_view name, uint32_t size, const std::vector<MemberSpec>& members, bool kflag) {
  return add_aggregate(kUnion, name, size, members, kflag);
}

uint32_t BtfBuilder::add_enum_kind(uint32_t kind, std::string_view name, uint32_t size,
                                   const std::vector<EnumeratorSpec>& values, bool is_signed) {
  std::vector<uint32_t> payload;
  for (const auto& v : values) {
    payload.push_back(str(v.name));
    payload.push_back(static_cast<uint32_t>(v.value));
    if (kind == kEnum64) payload.push_back(static_cast<uint32_t>(static_cast<uint64_t>(v.value) >> 32));
  }
  return add_raw(str(name), info(kind, static_cast<uint32_t>(values.size()), is_signed), size, std::move(payload));
}
uint32_t BtfBuilder::add_enum(std::string_view name, uint32_t size, const std::vector<EnumeratorSpec>& values,
                              bool is_signed) {
  return add_enum_kind(kEnum, name, size, values, is_signed);
}
uint32_t BtfBuilder::add_enum64(std::string_view name, uint32_t size, const std::vector<EnumeratorSpec>& values,
                                bool is_signed) {
  return add_enum_kind(kEnum64, name, size, values, is_signed);
}
uint32_t BtfBuilder::add_fwd(std::string_view name, bool is_union) { return add_raw(str(name), info(kFwd, 0, is_union), 0); }
uint32_t BtfBuilder::add_func(std::string_view name, uint32_t proto, uint32_t linkage) {
  return add_raw(str(name), info(kFunc, linkage), proto);
}
uint32_t BtfBuilder::add_func_proto(uint32_t return_type, const std::vector<ParamSpec>& params) {
  std::vector<uint32_t> payload;
  for (const auto& p : params) {
    payload.push_back(str(p.name));
    payload.push_back(p.type);
  }
  return add_raw(0, info(kFuncProto, static_cast<uint32_t>(params.size())), return_type, std::move(payload));
}
uint32_t BtfBuilder::add_var(std::string_view name, uint32_t type, uint32_t linkage) {
  return add_raw(str(name), info(kVar), type, {linkage});
}
uint32_t BtfBuilder::add_datasec(std::string_view name, uint32_t size, const std::vector<SecInfoSpec>& entries) {
  std::vector<uint32_t> payload;
  for (const auto& e : entries) {
    payload.push_back(e.var);
    payload.push_back(e.offset);
    payload.push_back(e.size);
  }
  return add_raw(str(name), info(kDatasec, static_cast<uint32_t>(entries.size())), size, std::move(payload));
}
uint32_t BtfBuilder::add_float(std::string_view name, uint32_t size) { return add_raw(str(name), info(kFloat), size); }
uint32_t BtfBuilder::add_decl_tag(std::string_view value, uint32_t target, int32_t component_idx, bool kflag) {
  return add_raw(str(value), info(kDeclTag, 0, kflag), target, {static_cast<uint32_t>(component_idx)});
}

std::vector<uint32_t>& BtfBuilder::record(uint32_t id) {
  if (id < first_id_ || id >= next_id()) throw std::out_of_range("BtfBuilder::record: no type " + std::to_string(id));
  return records_[id - first_id_];
}

BtfBlobParts BtfBuilder::parts() const {
  BtfBlobParts p;
  for (const auto& words : records_) {
    const size_t at = p.types.size();
    p.types.resize(at + 4 * words.size());
    std::memcpy(p.types.data() + at, words.data(), 4 * words.size());
  }
  p.strings.assign(strings_.begin(), strings_.end());
  return p;
}

}  // namespace elfmeta::synth
