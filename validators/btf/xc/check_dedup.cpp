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
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "btf/btf_format.h"
#include "btf/xc/cross_check.h"
#include "btf/xc/open_table.h"
#include "btf/xc/xc_rules.h"
#include "core/second_core.h"
#include "core/text.h"

namespace elfmeta::btf::xc {
namespace {

// Rounds of refinement before giving up: each round tells apart types whose
// difference is one reference further away. Real kernels settle in tens.
constexpr size_t kMaxRounds = 128;
// From this many records of its own a blob's families are split over two
// threads (a module's few hundred are not worth a hand-over).
constexpr uint32_t kConcurrentRecords = 4096;

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

  // The refinement of XC-DEDUP-002/004's classes on this thread; the
  // other families (001, 003, 005), which need nothing it finds, beside it
  // on a second one for a large blob: XC-DEDUP was most of what `check` of
  // a kernel's BTF takes as a whole process. Each half reports into its own
  // list, taken over in the order of a sequential run, so the findings and
  // their order are the same. (Each family writes its own counters.)
  void run() {
    if (btf_.own_count() < kConcurrentRecords) {
      const auto first_copy = identical_records(findings_);
      split_identical();
      report_equivalent(equivalence_classes(), first_copy);
      forward_declarations(findings_);
      strings(findings_);
      return;
    }
    DiagnosticList copies_list, names_list;
    Findings copies(findings_.artifact(), copies_list, findings_.consumer());
    Findings names(findings_.artifact(), names_list, findings_.consumer());
    std::vector<uint32_t> first_copy;
    std::optional<std::vector<uint64_t>> classes;
    run_beside(
        [&] {
          first_copy = identical_records(copies);
          forward_declarations(names);
          strings(names);
        },
        [&] { classes = equivalence_classes(); });
    findings_.absorb(copies, copies_list.items());
    split_identical();
    report_equivalent(classes, first_copy);
    findings_.absorb(names, names_list.items());
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
  std::vector<uint32_t> identical_records(Findings& findings) {
    const uint32_t first = btf_.first_id();
    std::vector<uint32_t> first_copy;
    const RecordIndex own(btf_, first, &first_copy);
    for (uint32_t id = first; id < btf_.type_count(); ++id) {
      // A VAR is one variable: static variables of one name and type in two
      // units (pahole's global_var) are byte-identical VARs that btf__dedup
      // keeps apart, as it does every VAR and DATASEC.
      if (btf_.type(id).kind() == kVar) first_copy[id - first] = id;
      const uint32_t copy = first_copy[id - first];
      if (copy == id) continue;
      ++stats_.identical_records;
      findings.emit(rules::DEDUP_001, type_location(in_, id),
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

  // The classes of XC-DEDUP-002 and -004: per own record, a hash equal for
  // two records exactly when dedup would merge them (then more entries, the
  // fixed classes of references outside the blob); nullopt when the
  // refinement did not settle within kMaxRounds.
  std::optional<std::vector<uint64_t>> equivalence_classes() const {
    const uint32_t first = btf_.first_id(), n = btf_.own_count();
    // Each record's references, read once (the rounds below revisit them
    // many times): positions in `cls`, whose first n entries are the own
    // records' classes and the rest the fixed classes of references outside
    // this blob (void, the base), each its own class.
    std::vector<uint64_t> cls(n);
    std::vector<uint32_t> ref_start(size_t(n) + 1, 0), refs;
    refs.reserve(size_t(n) * 2);
    std::vector<uint64_t> outside;
    for (uint32_t i = 0; i < n; ++i) {
      const TypeRef t = btf_.type(first + i);
      cls[i] = shape(t);
      for_each_reference(t, [&](uint32_t ref) {
        if (btf_.is_own(ref)) {
          refs.push_back(ref - first);
        } else {
          refs.push_back(static_cast<uint32_t>(n + outside.size()));
          outside.push_back(mix(0x6261736575ull, ref));
        }
      });
      ref_start[i + 1] = static_cast<uint32_t>(refs.size());
    }
    // Refinement only splits classes: a record alone in its class from the
    // start (most named records: the shape holds the name) stays alone, and
    // its first value labels it to the end. The rounds recompute the others
    // only (a tenth of a kernel's records), and count their classes.
    const std::vector<uint32_t> shared = records_sharing_a_value(cls);
    const size_t alone = n - shared.size();
    std::vector<uint64_t> scratch, values(shared.size());
    size_t classes = alone + count_distinct(gather(cls, shared, values), scratch), rounds = 0;
    cls.insert(cls.end(), outside.begin(), outside.end());
    std::vector<uint64_t> next = cls;
    for (;; ++rounds) {
      if (rounds == kMaxRounds) return std::nullopt;
      for (const uint32_t i : shared) {
        uint64_t h = cls[i];
        for (uint32_t k = ref_start[i]; k < ref_start[i + 1]; ++k) h = mix(h, cls[refs[k]]);
        next[i] = h;
      }
      cls.swap(next);  // the records alone hold the same value in both
      const size_t now = alone + count_distinct(gather(cls, shared, values), scratch);
      if (now == classes) break;
      classes = now;
    }
    return cls;
  }

  // The slot of hash value `x` in a table of hash values (0: an empty slot,
  // so a 0 value is counted apart by the callers).
  static size_t value_slot(const std::vector<uint64_t>& table, uint64_t x) {
    return probe(table, x, uint64_t(0), [x](uint64_t y) { return y == x; });
  }

  static std::span<const uint64_t> gather(const std::vector<uint64_t>& cls, const std::vector<uint32_t>& at,
                                          std::vector<uint64_t>& out) {
    for (size_t k = 0; k < at.size(); ++k) out[k] = cls[at[k]];
    return out;
  }

  // The positions of the values that occur more than once, in order: an
  // open table of values (0 counted apart, as in count_distinct) with a
  // count beside each.
  static std::vector<uint32_t> records_sharing_a_value(const std::vector<uint64_t>& v) {
    std::vector<uint64_t> table(open_table_size(v.size()), 0);
    std::vector<uint32_t> count(table.size(), 0);
    uint32_t zeros = 0;
    for (const uint64_t x : v) {
      if (x == 0) {
        ++zeros;
        continue;
      }
      const size_t slot = value_slot(table, x);
      table[slot] = x;
      ++count[slot];
    }
    std::vector<uint32_t> shared;
    for (uint32_t i = 0; i < v.size(); ++i)
      if (v[i] == 0 ? zeros > 1 : count[value_slot(table, v[i])] > 1) shared.push_back(i);
    return shared;
  }

  // XC-DEDUP-002 and -004: each record equivalent to an earlier one, unless
  // it is a byte-identical copy (`first_copy`, XC-DEDUP-001's).
  void report_equivalent(const std::optional<std::vector<uint64_t>>& classes, const std::vector<uint32_t>& first_copy) {
    if (!classes) {
      findings_.note(btf_section(in_), "type equivalence did not settle in " + std::to_string(kMaxRounds) +
                                           " rounds: XC-DEDUP-002/004 skipped");
      return;
    }
    const std::vector<uint64_t>& cls = *classes;
    const uint32_t first = btf_.first_id(), n = btf_.own_count();
    // The first record of each class, in the fourth open table (0: an
    // empty slot; own ids are never 0). A node-based map, rehashed as it
    // grew, was a tenth of a vmlinux check.
    std::vector<uint32_t> representative(open_table_size(n), 0);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t id = first + i;
      const uint64_t c = cls[i];
      const size_t slot = probe(representative, c, 0u, [&](uint32_t other) { return cls[other - first] == c; });
      const bool fresh = representative[slot] == 0;
      if (fresh) representative[slot] = id;
      // Byte-identical copies are XC-DEDUP-001's; anonymous records equal to
      // each other are what dedup merges too.
      if (fresh || first_copy[i] != id) continue;
      const uint32_t earlier = representative[slot];
      const uint32_t kind = btf_.type(id).kind();
      if (kind == kDatasec || kind == kVar || kind == kFunc || kind == kDeclTag) continue;  // named by their use
      if (is_aggregate(kind)) {
        ++stats_.struct_duplicates;
        findings_.emit(rules::DEDUP_002, type_location(in_, id),
                       label(id) + " is structurally identical to type " + std::to_string(earlier));
      } else {
        ++stats_.equivalent_records;
        findings_.emit(rules::DEDUP_004, type_location(in_, id),
                       label(id) + " is equivalent to type " + std::to_string(earlier) +
                           " once duplicated types are merged");
      }
    }
  }

  // The values are hashes already (well mixed in their low bits): an open
  // table counts them in one pass (sorting a copy each round was a quarter
  // of a vmlinux check's time). `table` is scratch kept between calls (a
  // fresh one each round cost a page fault per 4 KiB of it).
  static size_t count_distinct(std::span<const uint64_t> v, std::vector<uint64_t>& table) {
    table.assign(open_table_size(v.size()), 0);
    bool zero = false;  // 0 marks an empty slot: counted apart
    size_t distinct = 0;
    for (const uint64_t x : v) {
      if (x == 0) {
        distinct += !zero;
        zero = true;
        continue;
      }
      const size_t slot = value_slot(table, x);
      if (!table[slot]) {
        table[slot] = x;
        ++distinct;
      }
    }
    return distinct;
  }

  // XC-DEDUP-003: FWD beside a definition of the same name and kind.
  void forward_declarations(Findings& findings) {
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
      findings.emit(rules::DEDUP_003, type_location(in_, id),
                     "forward declaration of " + std::string(t.kflag() ? "union" : "struct") + " '" +
                         printable(name) + "' beside its definition");
    }
  }

  // Positions in the string section (its length is a u32 of the header),
  // four bytes a slot: the probe's load misses the cache for most strings,
  // and a smaller table misses less.
  static constexpr uint32_t kNoString = ~uint32_t(0);

  // XC-DEDUP-005 over this blob's string section.
  void strings(Findings& findings) {
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
    for (uint32_t id = btf_.first_id(); id < btf_.type_count(); ++id) for_each_name_offset(btf_.type(id), mark);
    // .BTF.ext names files and source lines with .BTF strings.
    const bool ext = in_.artifact.section(".BTF.ext") != nullptr;
    // The first position of each string, in an open table sized once by
    // the strings' count (their terminators).
    const uint64_t first_pos = start == 0 ? 1 : 0;  // the empty string at 0 is the anonymous name
    std::vector<uint32_t> first_at(open_table_size(static_cast<size_t>(std::count(base + first_pos, base + len, '\0'))),
                                   kNoString);
    const std::hash<std::string_view> hash;
    for (uint64_t pos = first_pos; pos < len;) {
      const std::string_view s(base + pos);
      ++stats_.strings;
      const size_t slot = probe(first_at, hash(s), kNoString, [&](uint32_t p) { return std::string_view(base + p) == s; });
      const uint32_t earlier = first_at[slot];
      const bool fresh = earlier == kNoString;
      if (fresh) first_at[slot] = static_cast<uint32_t>(pos);
      // Built for a finding only: two string copies for each of a kernel's
      // 100k strings were a tenth of this loop.
      auto loc = [&] {
        return Location{in_.artifact.name, btf_section(in_), btf_.string_section_offset() + pos, "", std::nullopt, "",
                        std::nullopt};
      };
      if (!fresh) {
        ++stats_.duplicate_strings;
        findings.emit(rules::DEDUP_005, loc(),
                       "string '" + printable(s) + "' repeats the one at string offset " +
                           std::to_string(start + earlier));
      } else if (!ext && std::none_of(used.begin() + pos, used.begin() + pos + s.size() + 1,
                                      [](uint8_t u) { return u; })) {
        ++stats_.unreferenced_strings;
        findings.emit(rules::DEDUP_005, loc(),
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
RecordIndex::RecordIndex(const Btf& btf, uint32_t first_id, std::vector<uint32_t>* first_copy)
    : btf_(btf), first_id_(first_id) {
  const uint32_t from = std::max(first_id, 1u);
  first_of_.assign(open_table_size(btf.type_count() > from ? btf.type_count() - from : 0), 0);
  if (first_copy) first_copy->assign(btf.type_count() > first_id ? btf.type_count() - first_id : 0, 0);
  for (uint32_t id = from; id < btf.type_count(); ++id) {
    const TypeRef t = btf.type(id);
    if (t.is_void()) continue;
    const size_t slot = slot_of(record_bytes(t));
    if (!first_of_[slot]) first_of_[slot] = id;
    if (first_copy) (*first_copy)[id - first_id] = first_of_[slot];
  }
}

size_t RecordIndex::slot_of(std::string_view bytes) const {
  return probe(first_of_, std::hash<std::string_view>()(bytes), 0u,
               [&](uint32_t id) { return record_bytes(btf_.type(id)) == bytes; });
}

const NameIndex& RecordIndex::names() const {
  std::call_once(names_once_, [this] { names_.emplace(btf_, first_id_); });
  return *names_;
}

uint32_t RecordIndex::find(TypeRef t) const { return first_of_[slot_of(record_bytes(t))]; }

void check_dedup(const CrossCheckInput& in, Findings& findings, CrossCheckStats& stats) {
  DedupChecker(in, findings, stats).run();
}

}  // namespace elfmeta::btf::xc
