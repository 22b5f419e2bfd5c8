#include "fuzz/mutators/btf_mutator.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "btf/btf_format.h"
#include "btf/findings.h"
#include "btf/parse.h"
#include "core/diagnostic.h"
#include "synth/btf_builder.h"
#include "synth/btf_generator.h"

namespace elfmeta::fuzz {
namespace {

using Record = std::vector<uint32_t>;

// The records and strings of one blob, editable as a whole: records can be
// inserted and removed (which the builder cannot do in place).
struct TypeGraph {
  uint32_t first_id = 1;
  uint32_t str_base = 0;
  std::string strings;
  std::vector<Record> records;
  bool foreign_order = false;  // written back in the byte order it came in

  uint32_t next_id() const { return first_id + static_cast<uint32_t>(records.size()); }
  uint32_t id_of(size_t index) const { return first_id + static_cast<uint32_t>(index); }
  // The offset of `s`, appended unless the section already holds it: the
  // section must not grow with every generation of a campaign.
  uint32_t add_string(std::string_view s) {
    std::string needle(1, '\0');
    needle.append(s);
    needle.push_back('\0');
    if (const size_t at = strings.find(needle); at != std::string::npos)
      return str_base + static_cast<uint32_t>(at + 1);
    const uint32_t off = str_base + static_cast<uint32_t>(strings.size());
    strings.append(s);
    strings.push_back('\0');
    return off;
  }
  // The builder's assembly (header, types, strings) over these records,
  // written without a BtfBuilder in between: mutation runs once per
  // fuzzer execution, and copying every record twice showed in profiles.
  std::vector<uint8_t> serialise() const {
    synth::BtfBlobParts parts;
    size_t words = 0;
    for (const auto& r : records) words += r.size();
    parts.types.resize(4 * words);
    uint8_t* out = parts.types.data();
    for (const auto& r : records) {
      std::memcpy(out, r.data(), 4 * r.size());
      out += 4 * r.size();
    }
    parts.strings.assign(strings.begin(), strings.end());
    auto blob = parts.assemble();
    return foreign_order ? btf::swap_byte_order(blob, true) : blob;
  }
};

std::optional<btf::Btf> parse_quietly(std::span<const uint8_t> data, const btf::Btf* base) {
  NullSink sink;
  btf::CheckContext ctx;
  btf::Findings findings(ctx, sink);
  btf::ParseOptions options;
  options.base = base;
  auto parsed = btf::parse(data, options, findings);
  if (!parsed || !parsed->types_complete() || !parsed->strings_usable()) return std::nullopt;
  return parsed;
}

// The records and strings of a parsed blob (what synth::builder_from
// takes, without the builder's copies).
TypeGraph graph_of(const btf::Btf& btf) {
  TypeGraph g;
  g.first_id = btf.first_id();
  g.str_base = btf.first_id() > 1 ? btf.string_start() : 0;
  const auto d = btf.data();
  g.strings.assign(reinterpret_cast<const char*>(d.data() + btf.string_section_offset()), btf.header().str_len);
  g.records.reserve(btf.own_count());
  for (uint32_t id = btf.first_id(); id < btf.type_count(); ++id) {
    const btf::TypeRef t = btf.type(id);
    const uint64_t bytes = btf::kTypeRecordSize + *btf::payload_size(t.kind(), t.vlen());
    Record r(bytes / 4);
    std::memcpy(r.data(), t.bytes(), bytes);
    g.records.push_back(std::move(r));
  }
  g.foreign_order = btf.stored_endian() != host_endian();
  return g;
}

std::optional<TypeGraph> decode(std::span<const uint8_t> data, const btf::Btf* base = nullptr) {
  const auto parsed = parse_quietly(data, base);
  if (!parsed) return std::nullopt;
  return graph_of(*parsed);
}

// Kinds whose payload is vlen items, and the words per item.
uint32_t item_words(uint32_t kind) {
  switch (kind) {
    case btf::kStruct: case btf::kUnion: case btf::kDatasec: case btf::kEnum64: return 3;
    case btf::kEnum: case btf::kFuncProto: return 2;
    default: return 0;
  }
}
uint32_t kind_of(const Record& r) { return btf::info_kind(r[1]); }
uint32_t vlen_of(const Record& r) { return btf::info_vlen(r[1]); }
void set_info(Record& r, uint32_t kind, uint32_t vlen, bool kflag) { r[1] = synth::BtfBuilder::info(kind, vlen, kflag); }
void set_vlen(Record& r, uint32_t vlen) { r[1] = (r[1] & ~0xffffu) | (vlen & 0xffff); }

// Sizes the kernel treats specially, and values just past each limit.
constexpr uint32_t kBoundaries[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255,
                                    256, 0xffff, 0x10000, 0xffffff, 0x1000000, 0x7fffffff, 0x80000000,
                                    0xfffffffe, 0xffffffff};

// Names with a meaning to the kernel's special-field pass, its tag rules,
// or its name checks.
constexpr std::string_view kSpecialNames[] = {
    "bpf_spin_lock", "bpf_res_spin_lock", "bpf_timer", "bpf_wq", "bpf_task_work", "bpf_list_head", "bpf_list_node",
    "bpf_rb_root", "bpf_rb_node", "bpf_refcount", "kptr", "kptr_untrusted", "kptr_ref", "percpu_kptr", "rcu", "uptr",
    "user", "percpu", "contains:", "contains:foo", "contains:foo:node", "contains:bar:", "__ksym", "bpf_dynptr",
    "btf_type_tag", "btf_decl_tag", "ctx", "license", ".bss", ".data", ".rodata", ".data..percpu", ".kconfig",
    ".ksyms", ".maps", "int", "char", "_Bool", "long unsigned int", "task_struct", "__u64"};
// Names the kernel's identifier checks refuse somewhere.
constexpr std::string_view kInvalidNames[] = {"9lives", "a b", "a-b", "a.b", "a:b", "\xff", "\t", "..", "$", "a\x7f",
                                              "_", "__", "a,b"};

std::string long_name(Rng& rng) {
  constexpr size_t kLengths[] = {127, 128, 129, 255, 256, 511, 512, 513, 1024};
  return std::string(pick_of(rng, kLengths), 'a' + static_cast<char>(pick(rng, 26)));
}

class BtfMutator {
 public:
  BtfMutator(TypeGraph& g, Rng& rng) : g_(g), rng_(rng) {}

  // One mutation; a few tries when the chosen one does not apply to this
  // graph (no structs, no references, ...).
  bool run() {
    // Most mutations add records, items or strings: past a size, removals
    // are favoured so that a campaign's inputs stay small and fast.
    if (g_.records.size() > kGrowthLimit && chance(rng_, 3)) return chance(rng_, 2) ? remove_record() : remove_item();
    for (int attempt = 0; attempt < 8; ++attempt)
      if (apply(pick(rng_, kMutations))) return true;
    return false;
  }

 private:
  static constexpr uint32_t kMutations = 25;
  static constexpr size_t kGrowthLimit = 64;

  bool apply(uint32_t which) {
    switch (which) {
      case 0: return change_kind();
      case 1: return change_vlen();
      case 2: return flip_kind_flag();
      case 3: case 4: return retarget_reference();
      case 5: return insert_record();
      case 6: return remove_record();
      case 7: return duplicate_record();
      case 8: return swap_records();
      case 9: return insert_item();
      case 10: return remove_item();
      case 11: return swap_items();
      case 12: return change_member_layout();
      case 13: return change_size();
      case 14: case 15: return rename();
      case 16: return add_decl_tag();
      case 17: return add_type_tag();
      case 18: return grow_modifier_chain();
      case 19: return change_payload_word();
      case 20: return embed_special_struct();
      case 21: return change_string_section();
      case 22: return nest_struct_at_offset_zero();
      case 23: return huge_array_of_structs();
      case 24: return parameter_back_to_its_prototype();
    }
    return false;
  }

  bool empty() const { return g_.records.empty(); }
  size_t any_index() { return pick(rng_, g_.records.size()); }
  // A record index satisfying `want`, if some record does.
  template <typename Pred>
  std::optional<size_t> find_index(Pred want) {
    if (empty()) return std::nullopt;
    const size_t start = any_index();
    for (size_t k = 0; k < g_.records.size(); ++k) {
      const size_t i = (start + k) % g_.records.size();
      if (want(g_.records[i])) return i;
    }
    return std::nullopt;
  }
  uint32_t existing_id() { return empty() ? 0 : g_.id_of(any_index()); }

  // A type id to point a reference at: mostly a real type, sometimes void,
  // the record itself, the first id past the end, or far out of range.
  uint32_t target_for(uint32_t self) {
    switch (pick(rng_, 10)) {
      case 0: return 0;
      case 1: return self;
      case 2: return g_.next_id();
      case 3: return pick_of(rng_, {g_.next_id() + 1, 0x7fffffffu, 0xffffffffu, g_.first_id - 1});
      case 4: return referrer_of(self).value_or(existing_id());  // a cycle through the referrer
      default: return existing_id();
    }
  }
  std::optional<uint32_t> referrer_of(uint32_t id) {
    const auto i = find_index([&](const Record& r) {
      for (size_t w : synth::type_id_words(r))
        if (r[w] == id) return true;
      return false;
    });
    if (!i) return std::nullopt;
    return g_.id_of(*i);
  }

  // Inserting or removing at `index` moves every later id: references
  // follow unless the mutation means to leave them stale.
  void shift_references(uint32_t from_id, int32_t delta) {
    for (auto& r : g_.records)
      for (size_t w : synth::type_id_words(r))
        if (r[w] >= from_id && r[w] < g_.next_id() + 1) r[w] = static_cast<uint32_t>(int64_t(r[w]) + delta);
  }
  uint32_t insert_at(size_t index, Record r, bool renumber) {
    index = std::min(index, g_.records.size());
    if (renumber) shift_references(g_.id_of(index), 1);
    g_.records.insert(g_.records.begin() + static_cast<ptrdiff_t>(index), std::move(r));
    return g_.id_of(index);
  }
  uint32_t append(Record r) { return insert_at(g_.records.size(), std::move(r), false); }

  uint32_t some_name() {
    if (empty()) return 0;
    switch (pick(rng_, 6)) {
      case 0: return g_.add_string(kSpecialNames[pick(rng_, std::size(kSpecialNames))]);
      case 1: return 0;
      default: {  // an existing record's name
        const Record& r = g_.records[any_index()];
        return r[0];
      }
    }
  }

  // A new record of a random kind whose references point into the graph.
  Record fresh_record() {
    const uint32_t kind = 1 + pick(rng_, btf::kMaxKnownKind);
    const uint32_t t = existing_id();
    switch (kind) {
      case btf::kInt: {
        const uint32_t size = pick_of(rng_, {1u, 2u, 4u, 8u, 16u});
        return {some_name(), synth::BtfBuilder::info(kind), size, size * 8};
      }
      case btf::kArray: return {0, synth::BtfBuilder::info(kind), 0, t, existing_id(), pick_of(rng_, {0u, 1u, 4u, 0xffffffffu})};
      case btf::kStruct: case btf::kUnion: {
        const uint32_t n = 1 + pick(rng_, 3);
        Record r{some_name(), synth::BtfBuilder::info(kind, n), 8 * n};
        for (uint32_t i = 0; i < n; ++i) r.insert(r.end(), {some_name(), existing_id(), kind == btf::kStruct ? 64 * i : 0});
        return r;
      }
      case btf::kEnum: case btf::kEnum64: {
        const uint32_t n = 1 + pick(rng_, 3);
        Record r{some_name(), synth::BtfBuilder::info(kind, n, chance(rng_, 2)), kind == btf::kEnum ? 4u : 8u};
        for (uint32_t i = 0; i < n; ++i) {
          r.insert(r.end(), {g_.add_string("E" + std::to_string(rng_() % 1000)), i});
          if (kind == btf::kEnum64) r.push_back(0);
        }
        return r;
      }
      case btf::kFuncProto: {
        const uint32_t n = pick(rng_, 3);
        Record r{0, synth::BtfBuilder::info(kind, n), t};
        for (uint32_t i = 0; i < n; ++i) r.insert(r.end(), {some_name(), existing_id()});
        return r;
      }
      case btf::kVar: return {some_name(), synth::BtfBuilder::info(kind), t, pick(rng_, 3)};
      case btf::kDatasec: return {g_.add_string(".data"), synth::BtfBuilder::info(kind, 1), 8, t, 0, 8};
      case btf::kDeclTag: return {g_.add_string("tag"), synth::BtfBuilder::info(kind), t, 0xffffffff};
      case btf::kFloat: return {some_name(), synth::BtfBuilder::info(kind), pick_of(rng_, {2u, 4u, 8u, 12u, 16u})};
      case btf::kFwd: return {some_name(), synth::BtfBuilder::info(kind, 0, chance(rng_, 2)), 0};
      case btf::kFunc: return {some_name(), synth::BtfBuilder::info(kind, pick(rng_, 3)), t};
      default: return {kind == btf::kTypedef || kind == btf::kTypeTag ? some_name() : 0, synth::BtfBuilder::info(kind), t};
    }
  }

  bool change_kind() {
    if (empty()) return false;
    Record& r = g_.records[any_index()];
    const uint32_t kind = chance(rng_, 8) ? pick(rng_, 32) : 1 + pick(rng_, btf::kMaxKnownKind);
    set_info(r, kind, vlen_of(r), btf::info_kflag(r[1]));
    // The payload follows the new kind, so the records after stay aligned.
    if (const auto bytes = btf::payload_size(kind, vlen_of(r)); bytes && *bytes <= 4 * 0x3000)
      r.resize(3 + *bytes / 4, 0);
    return true;
  }

  bool change_vlen() {
    if (empty()) return false;
    Record& r = g_.records[any_index()];
    const uint32_t stride = item_words(kind_of(r));
    if (stride && !chance(rng_, 4)) return resize_items(r, pick_of(rng_, {0u, 1u, vlen_of(r) + 1, vlen_of(r) + 2}));
    // A vlen the payload does not follow: FUNC linkage, vlen on a kind
    // without items, or a count the record does not hold.
    set_vlen(r, pick_of(rng_, {0u, 1u, 2u, 3u, vlen_of(r) + 1, 0xffffu}));
    return true;
  }
  bool resize_items(Record& r, uint32_t vlen) {
    const uint32_t stride = item_words(kind_of(r));
    const size_t old_items = (r.size() - 3) / stride;
    r.resize(3 + size_t(stride) * vlen);
    for (size_t i = old_items; i < vlen; ++i) fill_item(r, i);
    set_vlen(r, vlen);
    return true;
  }
  // A plausible new item: a named member after the last, a parameter, an
  // enumerator, a variable's section entry.
  void fill_item(Record& r, size_t i) {
    const uint32_t stride = item_words(kind_of(r));
    uint32_t* item = r.data() + 3 + stride * i;
    switch (kind_of(r)) {
      case btf::kStruct: case btf::kUnion:
        item[0] = some_name();
        item[1] = existing_id();
        item[2] = i ? item[-1] + 32 : 0;
        break;
      case btf::kDatasec:
        item[0] = existing_id();
        item[1] = i ? item[-2] + item[-1] : 0;
        item[2] = 8;
        break;
      case btf::kFuncProto:
        item[0] = some_name();
        item[1] = existing_id();
        break;
      default:  // enumerators
        item[0] = g_.add_string("E" + std::to_string(i));
        item[1] = static_cast<uint32_t>(i);
        if (stride == 3) item[2] = 0;
    }
  }

  bool flip_kind_flag() {
    if (empty()) return false;
    g_.records[any_index()][1] ^= 1u << 31;
    return true;
  }

  bool retarget_reference() {
    const auto i = find_index([](const Record& r) { return !synth::type_id_words(r).empty(); });
    if (!i) return false;
    Record& r = g_.records[*i];
    const auto words = synth::type_id_words(r);
    r[words[pick(rng_, words.size())]] = target_for(g_.id_of(*i));
    return true;
  }

  bool insert_record() {
    if (empty() || chance(rng_, 2)) {
      append(fresh_record());
      return true;
    }
    insert_at(any_index(), fresh_record(), !chance(rng_, 4));
    return true;
  }
  bool remove_record() {
    if (empty()) return false;
    const size_t i = any_index();
    if (chance(rng_, 3)) {  // the valid-preserving removal: dependants go too
      if (g_.first_id > 1) return false;  // remove_type takes base BTF
      synth::BtfBuilder b;
      for (const auto& r : g_.records) b.add_raw(r[0], r[1], r[2], Record(r.begin() + 3, r.end()));
      b.strings() = g_.strings;
      const auto kept = synth::remove_type(b, g_.id_of(i));
      g_.records = kept.records();
      g_.strings = kept.strings();
      return true;
    }
    const uint32_t id = g_.id_of(i);
    g_.records.erase(g_.records.begin() + static_cast<ptrdiff_t>(i));
    if (!chance(rng_, 4)) shift_references(id + 1, -1);  // else later references are off by one
    return true;
  }
  bool duplicate_record() {
    if (empty()) return false;
    const size_t i = any_index();
    insert_at(chance(rng_, 2) ? i + 1 : g_.records.size(), g_.records[i], true);
    return true;
  }
  bool swap_records() {
    if (g_.records.size() < 2) return false;
    std::swap(g_.records[any_index()], g_.records[any_index()]);
    return true;
  }

  std::optional<size_t> with_items(uint32_t at_least) {
    return find_index([&](const Record& r) { return item_words(kind_of(r)) && vlen_of(r) >= at_least; });
  }
  bool insert_item() {
    const auto i = with_items(0);
    if (!i) return false;
    Record& r = g_.records[*i];
    const uint32_t stride = item_words(kind_of(r)), n = vlen_of(r);
    const size_t at = pick(rng_, n + 1);
    if (n && chance(rng_, 2)) {  // a duplicate of an item (same name, same offset)
      const size_t from = pick(rng_, n);
      Record item(r.begin() + 3 + stride * from, r.begin() + 3 + stride * (from + 1));
      r.insert(r.begin() + 3 + static_cast<ptrdiff_t>(stride * at), item.begin(), item.end());
      set_vlen(r, n + 1);
      return true;
    }
    return resize_items(r, n + 1);
  }
  bool remove_item() {
    const auto i = with_items(1);
    if (!i) return false;
    Record& r = g_.records[*i];
    const uint32_t stride = item_words(kind_of(r)), n = vlen_of(r);
    const size_t at = pick(rng_, n);
    r.erase(r.begin() + 3 + static_cast<ptrdiff_t>(stride * at), r.begin() + 3 + static_cast<ptrdiff_t>(stride * (at + 1)));
    set_vlen(r, n - 1);
    return true;
  }
  bool swap_items() {
    const auto i = with_items(2);
    if (!i) return false;
    Record& r = g_.records[*i];
    const uint32_t stride = item_words(kind_of(r)), n = vlen_of(r);
    const size_t a = pick(rng_, n), b = pick(rng_, n);
    for (uint32_t w = 0; w < stride; ++w) std::swap(r[3 + stride * a + w], r[3 + stride * b + w]);
    return true;
  }

  // Member offsets and bitfield sizes: overlaps, unaligned and out-of-size
  // offsets, bitfields wider than their type, offsets going backwards.
  bool change_member_layout() {
    const auto i = find_index([](const Record& r) {
      return (kind_of(r) == btf::kStruct || kind_of(r) == btf::kUnion || kind_of(r) == btf::kDatasec) && vlen_of(r);
    });
    if (!i) return false;
    Record& r = g_.records[*i];
    const size_t m = pick(rng_, vlen_of(r));
    uint32_t* item = r.data() + 3 + 3 * m;
    if (kind_of(r) == btf::kDatasec) {  // entry offset or size
      uint32_t& word = item[1 + pick(rng_, 2)];
      word = chance(rng_, 2) ? pick_of(rng_, kBoundaries) : word + pick_of(rng_, {1u, 0xffffffffu, r[2]});
      return true;
    }
    uint32_t& offset = item[2];
    const uint32_t size_bits = r[2] * 8;
    switch (pick(rng_, 5)) {
      case 0: offset = pick_of(rng_, {0u, 1u, 7u, size_bits, size_bits - 1, size_bits + 8}); break;
      case 1: offset = m ? item[-1] : offset + 1; break;  // same as the previous member
      case 2: offset = offset ? offset - pick_of(rng_, {1u, 8u, offset}) : 0xffffff; break;
      default: {  // a bitfield (kind_flag layout)
        r[1] |= 1u << 31;
        const uint32_t bits = pick_of(rng_, {0u, 1u, 3u, 8u, 31u, 32u, 33u, 64u, 65u, 128u, 255u});
        offset = bits << 24 | (offset & 0xffffff);
      }
    }
    return true;
  }

  bool change_size() {
    const auto i = find_index([](const Record& r) {
      switch (kind_of(r)) {
        case btf::kInt: case btf::kStruct: case btf::kUnion: case btf::kEnum: case btf::kEnum64:
        case btf::kDatasec: case btf::kFloat:
          return true;
        default:
          return false;
      }
    });
    if (!i) return false;
    Record& r = g_.records[*i];
    r[2] = chance(rng_, 2) ? pick_of(rng_, kBoundaries) : r[2] + pick_of(rng_, {1u, 0xffffffffu, 4u, 0xfffffff8u});
    return true;
  }

  bool rename() {
    if (empty()) return false;
    Record& r = g_.records[any_index()];
    const auto words = synth::name_words(r);
    uint32_t& name = r[words[pick(rng_, words.size())]];
    const uint32_t str_end = g_.str_base + static_cast<uint32_t>(g_.strings.size());
    switch (pick(rng_, 8)) {
      case 0: name = g_.add_string(kInvalidNames[pick(rng_, std::size(kInvalidNames))]); break;
      case 1: name = g_.add_string(long_name(rng_)); break;
      case 2: name = pick_of(rng_, {str_end, str_end - 1, name + 1, 0x7fffffffu, 0xffffffffu}); break;
      case 3: name = 0; break;
      case 4: case 5: name = g_.add_string(kSpecialNames[pick(rng_, std::size(kSpecialNames))]); break;
      default: name = g_.records[any_index()][0];  // an existing name: duplicates, clashes
    }
    return true;
  }

  bool add_decl_tag() {
    if (empty()) return false;
    const uint32_t target = chance(rng_, 8) ? target_for(0) : existing_id();
    const Record* t = target >= g_.first_id && target < g_.next_id() ? &g_.records[target - g_.first_id] : nullptr;
    const uint32_t vlen = t ? vlen_of(*t) : 0;
    const uint32_t component = pick_of(rng_, {0xffffffffu, 0u, vlen ? vlen - 1 : 0, vlen, 0xfffffffeu});
    const char* value = pick_of(rng_, {"tag", "kptr", "contains:foo:node", "user", "rcu", "percpu"});
    append({g_.add_string(value), synth::BtfBuilder::info(btf::kDeclTag, 0, chance(rng_, 4)), target, component});
    return true;
  }

  // PTR -> TYPE_TAG("kptr"...) -> target, the shape of BPF map value kptrs.
  bool add_type_tag() {
    if (empty()) return false;
    const char* value = pick_of(rng_, {"kptr", "kptr_untrusted", "kptr_ref", "percpu_kptr", "rcu", "uptr", "user",
                                       "percpu", "tag"});
    const auto ptr = find_index([](const Record& r) { return kind_of(r) == btf::kPtr; });
    const uint32_t target = ptr ? g_.records[*ptr][2] : existing_id();
    const uint32_t tag = append({g_.add_string(value), synth::BtfBuilder::info(btf::kTypeTag, 0, chance(rng_, 8)), target});
    if (ptr && !chance(rng_, 4)) g_.records[*ptr][2] = tag;
    return true;
  }

  // Qualifiers, typedefs and tags between a reference and its target:
  // long chains, tags above qualifiers, typedef loops.
  bool grow_modifier_chain() {
    const auto i = find_index([](const Record& r) { return !synth::type_id_words(r).empty(); });
    if (!i) return false;
    const auto words = synth::type_id_words(g_.records[*i]);
    const size_t w = words[pick(rng_, words.size())];
    uint32_t target = g_.records[*i][w];
    const uint32_t links = 1 + pick(rng_, chance(rng_, 8) ? 40 : 3);
    for (uint32_t k = 0; k < links; ++k) {
      const uint32_t kind = pick_of(rng_, {btf::kConst, btf::kVolatile, btf::kRestrict, btf::kTypedef, btf::kTypeTag,
                                           btf::kPtr});
      const uint32_t name = kind == btf::kTypedef ? some_name() : kind == btf::kTypeTag ? g_.add_string("tag") : 0;
      target = append({name, synth::BtfBuilder::info(kind), target});
    }
    g_.records[*i][w] = target;
    return true;
  }

  // INT encodings, array bounds, VAR linkage, enumerator values, FUNC
  // linkage: any payload word set to a boundary.
  bool change_payload_word() {
    const auto i = find_index([](const Record& r) { return r.size() > 3; });
    if (!i) return false;
    Record& r = g_.records[*i];
    uint32_t& word = r[3 + pick(rng_, r.size() - 3)];
    if (kind_of(r) == btf::kInt && chance(rng_, 2)) {  // encoding, bit offset, nr_bits
      word = pick(rng_, 16) << 24 | pick_of(rng_, {0u, 1u, 8u, 64u, 127u, 128u}) << 16 |
             pick_of(rng_, {0u, 1u, 7u, 8u, 31u, 32u, 64u, 65u, 128u, 129u, 255u});
      return true;
    }
    word = chance(rng_, 2) ? pick_of(rng_, kBoundaries) : word + pick_of(rng_, {1u, 0xffffffffu});
    return true;
  }

  // A struct named after a BPF runtime object placed inside another
  // struct: the special-field pass (sizes, alignment, counts) runs.
  bool embed_special_struct() {
    const auto host = find_index([](const Record& r) { return kind_of(r) == btf::kStruct; });
    const char* name = pick_of(rng_, {"bpf_spin_lock", "bpf_res_spin_lock", "bpf_timer", "bpf_wq", "bpf_list_head",
                                      "bpf_list_node", "bpf_rb_root", "bpf_rb_node", "bpf_refcount"});
    const uint32_t size = pick_of(rng_, {4u, 8u, 16u, 24u, 32u, 3u});
    const uint32_t special = append({g_.add_string(name), synth::BtfBuilder::info(btf::kStruct), size});
    if (!host) return true;
    Record& r = g_.records[*host];
    const uint32_t offset = pick_of(rng_, {0u, 32u, 64u, r[2] * 8, 4u});
    r.insert(r.end(), {g_.add_string(name + 4), special, btf::info_kflag(r[1]) ? offset & 0xffffff : offset});
    set_vlen(r, vlen_of(r) + 1);
    if (chance(rng_, 2)) r[2] += size;
    return true;
  }

  // The shapes behind issue 27's hang and crash: a struct that repeats
  // another struct in members all at offset 0 (stacked, the kernel's
  // special-field scan visits it 3^k times), an array of structs whose
  // element count times their fields wraps 32 bits, and a prototype whose
  // parameters point back to it (type spellings that recurse).
  bool nest_struct_at_offset_zero() {
    const auto inner = find_index([](const Record& r) { return kind_of(r) == btf::kStruct; });
    if (!inner) return false;
    const uint32_t inner_id = g_.id_of(*inner), n = 2 + pick(rng_, 3);
    Record r{g_.add_string("nest"), synth::BtfBuilder::info(btf::kStruct, n), g_.records[*inner][2]};
    for (uint32_t i = 0; i < n; ++i) r.insert(r.end(), {g_.add_string("m" + std::to_string(i)), inner_id, 0});
    const uint32_t outer = append(std::move(r));
    // Sometimes a struct that a special field makes the scan enter holds it.
    if (const auto host = find_index([&](const Record& h) { return kind_of(h) == btf::kStruct && vlen_of(h) > 0; });
        host && chance(rng_, 2)) {
      Record& h = g_.records[*host];
      h[3 + 1] = outer;  // the first member
    }
    return true;
  }
  bool huge_array_of_structs() {
    const auto elem = find_index([](const Record& r) { return kind_of(r) == btf::kStruct; });
    const auto index = find_index([](const Record& r) { return kind_of(r) == btf::kInt; });
    if (!elem || !index) return false;
    const uint32_t nelems = pick_of(rng_, {0x80000001u, 0xffffffffu, 0x10000001u, 477218589u, 0x55555556u});
    const uint32_t arr = append({0, synth::BtfBuilder::info(btf::kArray), 0, g_.id_of(*elem), g_.id_of(*index), nelems});
    if (const auto host = find_index([&](const Record& h) { return kind_of(h) == btf::kStruct && vlen_of(h) > 0; })) {
      Record& h = g_.records[*host];
      h[3 + 3 * (vlen_of(h) - 1) + 1] = arr;  // the last member
    }
    return true;
  }
  bool parameter_back_to_its_prototype() {
    const auto proto = find_index([](const Record& r) { return kind_of(r) == btf::kFuncProto && vlen_of(r) > 0; });
    if (!proto) return false;
    const uint32_t proto_id = g_.id_of(*proto);
    const uint32_t target = chance(rng_, 4) ? proto_id : append({0, synth::BtfBuilder::info(btf::kPtr), proto_id});
    Record& r = g_.records[*proto];
    for (uint32_t i = 0; i < vlen_of(r); ++i)
      if (chance(rng_, 2) || i == 0) r[3 + 2 * i + 1] = target;
    return true;
  }

  // The string section itself: a missing final NUL, a non-NUL first byte.
  bool change_string_section() {
    if (g_.strings.empty()) return false;
    switch (pick(rng_, 3)) {
      case 0: g_.strings.back() = 'x'; break;
      case 1: g_.strings.front() = 'x'; break;
      default: g_.strings[pick(rng_, g_.strings.size())] = static_cast<char>(rng_());
    }
    return true;
  }

  TypeGraph& g_;
  Rng& rng_;
};

// Records whose names are carried to another graph's strings.
void carry_record(TypeGraph& to, const btf::Btf& from, Record r) {
  for (size_t w : synth::name_words(r))
    if (r[w]) r[w] = to.add_string(from.name_of(r[w]));
  to.records.push_back(std::move(r));
}

}  // namespace

std::optional<std::vector<uint8_t>> mutate_btf(std::span<const uint8_t> blob, Rng& rng) {
  auto g = decode(blob);
  if (!g) return std::nullopt;
  if (!BtfMutator(*g, rng).run()) return std::nullopt;
  return g->serialise();
}

std::optional<std::vector<uint8_t>> cross_over_btf(std::span<const uint8_t> a, std::span<const uint8_t> b, Rng& rng) {
  auto g = decode(a);
  const auto other = parse_quietly(b, nullptr);
  if (!g || !other || other->own_count() == 0) return std::nullopt;
  const TypeGraph donor = graph_of(*other);
  const size_t first = pick(rng, donor.records.size());
  const size_t count = std::min<size_t>(donor.records.size() - first, 1 + pick(rng, 16));
  for (size_t i = first; i < first + count; ++i) carry_record(*g, *other, donor.records[i]);
  return g->serialise();
}

std::optional<std::vector<uint8_t>> mutate_btf_pair(std::span<const uint8_t> input, Rng& rng) {
  if (input.size() < 2) return std::nullopt;
  const size_t head = size_t(input[0]) | size_t(input[1]) << 8;
  if (head > input.size() - 2) return std::nullopt;
  std::vector<uint8_t> first(input.begin() + 2, input.begin() + 2 + long(head)), second(input.begin() + 2 + long(head), input.end());
  // A diff is most telling between near twins: sometimes one side becomes
  // a copy of the other before the mutation.
  if (chance(rng, 4)) (chance(rng, 2) ? first : second) = chance(rng, 2) ? first : second;
  std::vector<uint8_t>& side = chance(rng, 2) ? first : second;
  auto mutated = mutate_btf(side, rng);
  if (!mutated) return std::nullopt;
  side = std::move(*mutated);
  if (first.size() > 0xffff) return std::nullopt;
  std::vector<uint8_t> out{static_cast<uint8_t>(first.size()), static_cast<uint8_t>(first.size() >> 8)};
  out.insert(out.end(), first.begin(), first.end());
  out.insert(out.end(), second.begin(), second.end());
  return out;
}

std::optional<std::vector<uint8_t>> mutate_btf_split(std::span<const uint8_t> input, Rng& rng) {
  if (input.size() < 2) return std::nullopt;
  const size_t head = size_t(input[0]) | size_t(input[1]) << 8;
  if (head > input.size() - 2) return std::nullopt;
  const auto base_bytes = input.subspan(2, head), module_bytes = input.subspan(2 + head);
  std::vector<uint8_t> base(base_bytes.begin(), base_bytes.end()), module(module_bytes.begin(), module_bytes.end());
  const auto base_btf = parse_quietly(base_bytes, nullptr);
  if (!base_btf) return std::nullopt;
  auto split = decode(module_bytes, &*base_btf);
  if (split && !chance(rng, 4)) {
    if (!BtfMutator(*split, rng).run()) return std::nullopt;
    module = split->serialise();
  } else {  // the base: later module ids and strings then point elsewhere
    auto mutated = mutate_btf(base_bytes, rng);
    if (!mutated || mutated->size() > 0xffff) return std::nullopt;
    base = std::move(*mutated);
  }
  std::vector<uint8_t> out{static_cast<uint8_t>(base.size()), static_cast<uint8_t>(base.size() >> 8)};
  out.insert(out.end(), base.begin(), base.end());
  out.insert(out.end(), module.begin(), module.end());
  return out;
}

}  // namespace elfmeta::fuzz
