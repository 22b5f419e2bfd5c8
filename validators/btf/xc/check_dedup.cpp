// XC-DEDUP: what deduplication should have merged (spec btf.md §3.3).
//
// Structural equivalence is computed as libbpf's dedup defines it — two
// types are equal when their own fields are and the types they reference
// are, cycles included — by partition refinement: start from classes of
// records with equal own fields, split classes whose members reference
// different classes, until nothing splits. No recursion; each round is
// linear in the references.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "btf/btf_format.h"
#include "btf/xc/cross_check.h"
#include "btf/xc/xc_rules.h"
#include "core/text.h"

namespace elfmeta::btf::xc {
namespace {

// Rounds of refinement before giving up: each round tells apart types whose
// difference is one reference further away. Real kernels settle in tens.
constexpr size_t kMaxRounds = 128;

uint64_t mix(uint64_t h, uint64_t v) {
  // splitmix64 of the combination: cheap, and spreads small ids.
  uint64_t x = h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

size_t record_size(TypeRef t) { return kTypeRecordSize + payload_size(t.kind(), t.vlen()).value_or(0); }

std::string_view record_bytes(TypeRef t) { return {reinterpret_cast<const char*>(t.bytes()), record_size(t)}; }

// The type ids a record refers to, in order.
template <typename Fn>
void for_each_reference(TypeRef t, Fn fn) {
  switch (t.kind()) {
    case kPtr: case kTypedef: case kVolatile: case kConst: case kRestrict: case kTypeTag: case kFunc: case kVar:
    case kDeclTag:
      fn(t.type());
      break;
    case kArray:
      fn(t.payload(0));
      fn(t.payload(1));
      break;
    case kStruct: case kUnion:
      for (uint32_t i = 0; i < t.vlen(); ++i) fn(member_at(t, i).type);
      break;
    case kFuncProto:
      fn(t.type());
      for (uint32_t i = 0; i < t.vlen(); ++i) fn(param_at(t, i).type);
      break;
    case kDatasec:
      for (uint32_t i = 0; i < t.vlen(); ++i) fn(secinfo_at(t, i).type);
      break;
    default:
      break;
  }
}

class DedupChecker {
 public:
  DedupChecker(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats)
      : in_(in), btf_(in.btf), findings_(findings), stats_(stats) {}

  void run() {
    const auto first_copy = identical_records();
    split_identical();
    equivalent_records(first_copy);
    forward_declarations();
    strings();
  }

 private:
  std::string label(uint32_t id) const {
    const TypeRef t = btf_.type(id);
    const std::string_view name = bounded_name(btf_, t.name_off(), kPrintedName);
    return std::string(kind_name(t.kind())) + " " + std::to_string(id) +
           (name.empty() ? std::string(" (anon)") : " '" + printable(name) + "'");
  }

  // XC-DEDUP-001. Returns, per own record, the id of the earliest record
  // byte-identical to it (itself when none).
  std::vector<uint32_t> identical_records() {
    const uint32_t first = btf_.first_id();
    const RecordIndex own(btf_, first);
    std::vector<uint32_t> first_copy(btf_.own_count());
    for (uint32_t id = first; id < btf_.type_count(); ++id) {
      const uint32_t copy = own.find(btf_.type(id));
      first_copy[id - first] = copy;
      if (copy == id) continue;
      ++stats_.identical_records;
      findings_.emit(rules::DEDUP_001, type_location(in_, id),
                     label(id) + " is byte-identical to type " + std::to_string(copy));
    }
    return first_copy;
  }

  // XC-DEDUP-006: split records that repeat a base record.
  void split_identical() {
    const Btf* base = btf_.base();
    if (!base) return;
    std::optional<RecordIndex> own_index;
    const RecordIndex* index = in_.base_index;
    if (!index || &index->btf() != base) index = &own_index.emplace(*base, 1);
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const uint32_t copy = index->find(btf_.type(id));
      if (!copy) continue;
      ++stats_.split_identical;
      findings_.emit(rules::DEDUP_006, type_location(in_, id),
                     label(id) + " is byte-identical to base type " + std::to_string(copy));
    }
  }

  // The hash of a record's own fields: everything but the ids it refers to
  // (names by content, so that duplicated strings do not hide a duplicate).
  uint64_t shape(TypeRef t) const {
    uint64_t h = mix(t.info(), hash_name(t.name_off()));
    if (has_size_field(t.kind())) h = mix(h, t.size());
    switch (t.kind()) {
      case kInt: case kVar: case kDeclTag:
        h = mix(h, t.payload(0));
        break;
      case kArray:
        h = mix(h, t.payload(2));
        break;
      case kStruct: case kUnion:
        for (uint32_t i = 0; i < t.vlen(); ++i) {
          const Member m = member_at(t, i);
          h = mix(mix(h, hash_name(m.name_off)), m.offset);
        }
        break;
      case kEnum: case kEnum64:
        for (uint32_t i = 0; i < t.vlen(); ++i) {
          const EnumValue e = enum_at(t, i);
          h = mix(mix(h, hash_name(e.name_off)), e.value);
        }
        break;
      case kFuncProto:
        for (uint32_t i = 0; i < t.vlen(); ++i) h = mix(h, hash_name(param_at(t, i).name_off));
        break;
      case kDatasec:
        for (uint32_t i = 0; i < t.vlen(); ++i) {
          const VarSecInfo v = secinfo_at(t, i);
          h = mix(mix(h, v.offset), v.size);
        }
        break;
      default:
        break;
    }
    return h;
  }

  // A cut name (see name_key) hashes with its offset: hashing each whole
  // would cost records x length.
  uint64_t hash_name(uint32_t off) const {
    const NameKey k = name_key(btf_, off);
    const uint64_t h = std::hash<std::string_view>()(k.name);
    return k.off ? mix(h, k.off) : h;
  }

  // XC-DEDUP-002 and -004.
  void equivalent_records(const std::vector<uint32_t>& first_copy) {
    const uint32_t first = btf_.first_id(), n = btf_.own_count();
    std::vector<uint64_t> cls(n), next(n);
    for (uint32_t i = 0; i < n; ++i) cls[i] = shape(btf_.type(first + i));
    // A reference outside this blob (void, the base) is its own class.
    auto class_of = [&](uint32_t id) {
      return btf_.is_own(id) ? cls[id - first] : mix(0x6261736575ull, id);
    };
    size_t classes = count_distinct(cls), rounds = 0;
    for (;; ++rounds) {
      if (rounds == kMaxRounds) {
        findings_.note(btf_section(in_), "type equivalence did not settle in " + std::to_string(kMaxRounds) +
                                             " rounds: XC-DEDUP-002/004 skipped");
        return;
      }
      for (uint32_t i = 0; i < n; ++i) {
        uint64_t h = cls[i];
        for_each_reference(btf_.type(first + i), [&](uint32_t ref) { h = mix(h, class_of(ref)); });
        next[i] = h;
      }
      cls.swap(next);
      const size_t now = count_distinct(cls);
      if (now == classes) break;
      classes = now;
    }
    std::unordered_map<uint64_t, uint32_t> representative;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t id = first + i;
      const auto [it, fresh] = representative.emplace(cls[i], id);
      // Byte-identical copies are XC-DEDUP-001's; anonymous records equal to
      // each other are what dedup merges too.
      if (fresh || first_copy[i] != id) continue;
      const uint32_t kind = btf_.type(id).kind();
      if (kind == kDatasec || kind == kVar || kind == kFunc || kind == kDeclTag) continue;  // named by their use
      if (is_aggregate(kind)) {
        ++stats_.struct_duplicates;
        findings_.emit(rules::DEDUP_002, type_location(in_, id),
                       label(id) + " is structurally identical to type " + std::to_string(it->second));
      } else {
        ++stats_.equivalent_records;
        findings_.emit(rules::DEDUP_004, type_location(in_, id),
                       label(id) + " is equivalent to type " + std::to_string(it->second) +
                           " once duplicated types are merged");
      }
    }
  }

  static size_t count_distinct(const std::vector<uint64_t>& v) {
    std::vector<uint64_t> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    return static_cast<size_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
  }

  // XC-DEDUP-003: FWD beside a definition of the same name and kind.
  void forward_declarations() {
    std::unordered_set<NameKey, NameKeyHash> structs, unions;
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (t.kind() == kStruct) structs.insert(name_key(btf_, t.name_off()));
      if (t.kind() == kUnion) unions.insert(name_key(btf_, t.name_off()));
    }
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      if (t.kind() != kFwd) continue;
      const NameKey key = name_key(btf_, t.name_off());
      const std::string_view name = key.name;
      if (name.empty() || !(t.kflag() ? unions : structs).contains(key)) continue;
      ++stats_.fwd_with_definition;
      findings_.emit(rules::DEDUP_003, type_location(in_, id),
                     "forward declaration of " + std::string(t.kflag() ? "union" : "struct") + " '" +
                         printable(name) + "' beside its definition");
    }
  }

  // XC-DEDUP-005 over this blob's string section.
  void strings() {
    const uint32_t start = btf_.string_start();
    const uint64_t len = btf_.header().str_len;
    if (len == 0) return;
    const char* base = btf_.string_at(start);
    // Which bytes a record points at; a string is used when any of its bytes
    // is (a reference may point into the tail of a longer string).
    std::vector<uint8_t> used(len, 0);
    auto mark = [&](uint32_t off) {
      if (off >= start && off - start < len) used[off - start] = 1;
    };
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) {
      const TypeRef t = btf_.type(id);
      mark(t.name_off());
      switch (t.kind()) {
        case kStruct: case kUnion:
          for (uint32_t i = 0; i < t.vlen(); ++i) mark(member_at(t, i).name_off);
          break;
        case kEnum: case kEnum64:
          for (uint32_t i = 0; i < t.vlen(); ++i) mark(enum_at(t, i).name_off);
          break;
        case kFuncProto:
          for (uint32_t i = 0; i < t.vlen(); ++i) mark(param_at(t, i).name_off);
          break;
        default:
          break;
      }
    }
    // .BTF.ext names files and source lines with .BTF strings.
    const bool ext = in_.artifact.section(".BTF.ext") != nullptr;
    std::unordered_map<std::string_view, uint64_t> seen;
    seen.reserve(len / 16);
    for (uint64_t pos = start == 0 ? 1 : 0; pos < len;) {  // the empty string at 0 is the anonymous name
      const std::string_view s(base + pos);
      ++stats_.strings;
      const auto [it, fresh] = seen.emplace(s, pos);
      Location loc{in_.artifact.name, btf_section(in_), btf_.string_section_offset() + pos, "", std::nullopt, "",
                   std::nullopt};
      if (!fresh) {
        ++stats_.duplicate_strings;
        findings_.emit(rules::DEDUP_005, loc,
                       "string '" + printable(s) + "' repeats the one at string offset " +
                           std::to_string(start + it->second));
      } else if (!ext && std::none_of(used.begin() + pos, used.begin() + pos + s.size() + 1,
                                      [](uint8_t u) { return u; })) {
        ++stats_.unreferenced_strings;
        findings_.emit(rules::DEDUP_005, loc,
                       "string '" + printable(s) + "' at string offset " + std::to_string(start + pos) +
                           " is not referenced by any record",
                       Severity::Note);
      }
      pos += s.size() + 1;
    }
  }

  const CrossCheckInput& in_;
  const Btf& btf_;
  Findings& findings_;
  CrossCheckStats& stats_;
};

}  // namespace

// One entry per distinct record content, the lowest id that has it (ids
// are visited in order): find() is then one lookup however many copies a
// blob holds, where walking every copy of a content made N copies cost N^2.
RecordIndex::RecordIndex(const Btf& btf, uint32_t first_id) : btf_(btf), first_id_(first_id) {
  first_of_.reserve(btf.type_count() - std::min(first_id, btf.type_count()));
  for (uint32_t id = std::max(first_id, 1u); id < btf.type_count(); ++id) {
    const TypeRef t = btf.type(id);
    if (!t.is_void()) first_of_.try_emplace(record_bytes(t), id);
  }
}

const NameIndex& RecordIndex::names() const {
  std::call_once(names_once_, [this] { names_.emplace(btf_, first_id_); });
  return *names_;
}

uint32_t RecordIndex::find(TypeRef t) const {
  const auto it = first_of_.find(record_bytes(t));
  return it == first_of_.end() ? 0 : it->second;
}

void check_dedup(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats) {
  DedupChecker(in, findings, stats).run();
}

}  // namespace elfmeta::btf::xc
