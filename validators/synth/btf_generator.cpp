#include "synth/btf_generator.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include "btf/btf_format.h"

namespace elfmeta::synth {

using namespace btf;  // kind constants

std::vector<size_t> type_id_words(const std::vector<uint32_t>& r) {
  const uint32_t kind = info_kind(r[1]), vlen = info_vlen(r[1]);
  std::vector<size_t> w;
  switch (kind) {
    case kPtr: case kTypedef: case kVolatile: case kConst: case kRestrict: case kTypeTag:
    case kFunc: case kVar: case kDeclTag:
      w.push_back(2);
      break;
    case kArray:
      w = {3, 4};
      break;
    case kStruct: case kUnion:
      for (uint32_t i = 0; i < vlen; ++i) w.push_back(3 + 3 * i + 1);
      break;
    case kFuncProto:
      w.push_back(2);
      for (uint32_t i = 0; i < vlen; ++i) w.push_back(3 + 2 * i + 1);
      break;
    case kDatasec:
      for (uint32_t i = 0; i < vlen; ++i) w.push_back(3 + 3 * i);
      break;
    default:
      break;
  }
  w.erase(std::remove_if(w.begin(), w.end(), [&](size_t i) { return i >= r.size(); }), w.end());
  return w;
}

std::vector<size_t> name_words(const std::vector<uint32_t>& r) {
  const uint32_t kind = info_kind(r[1]), vlen = info_vlen(r[1]);
  std::vector<size_t> w{0};
  size_t stride = 0;
  if (kind == kStruct || kind == kUnion || kind == kEnum64) stride = 3;
  if (kind == kEnum || kind == kFuncProto) stride = 2;
  if (stride)
    for (uint32_t i = 0; i < vlen; ++i) w.push_back(3 + stride * i);
  w.erase(std::remove_if(w.begin(), w.end(), [&](size_t i) { return i >= r.size(); }), w.end());
  return w;
}

namespace {

uint32_t pick(Rng& rng, uint32_t n) { return n ? static_cast<uint32_t>(rng() % n) : 0; }
bool chance(Rng& rng, unsigned percent) { return rng() % 100 < percent; }

class GraphGenerator {
 public:
  GraphGenerator(Rng& rng, btf::Release kernel) : rng_(rng), kernel_(kernel) {}

  BtfBuilder run(bool shuffle) {
    scalars();
    const uint32_t steps = 4 + pick(rng_, 40);
    for (uint32_t i = 0; i < steps; ++i) step();
    data_sections();
    decl_tags();
    resolve_forward_pointers();
    if (shuffle) permute();
    return std::move(b_);
  }

 private:
  struct Sized {
    uint32_t id, size, align;
  };

  std::string name(const char* prefix) { return std::string(prefix) + std::to_string(counter_++); }
  bool has(btf::Gate g) const { return kernel_.has(g); }
  // A type or function name; now and then one longer than 128 bytes, which
  // only 6.1+ accept.
  std::string long_or_short(const char* prefix) {
    std::string n = name(prefix);
    if (has(btf::Gate::kLongNames) && chance(rng_, 3)) n += std::string(129 + pick(rng_, 300), 'x');
    return n;
  }
  std::string section_name(uint32_t index) {
    static constexpr const char* kPrintable[] = {".data x", "?.struct_ops", ".data:1", "license!"};
    if (has(btf::Gate::kPrintableSectionNames) && chance(rng_, 15)) return std::string(kPrintable[pick(rng_, 4)]) + std::to_string(index);
    return index == 0 ? ".data" : chance(rng_, 50) ? ".bss" : name(".data.s");
  }
  void add_sized(uint32_t id, uint32_t size, uint32_t align) { sized_.push_back({id, size, align}); }
  const Sized& any_sized() { return sized_[pick(rng_, static_cast<uint32_t>(sized_.size()))]; }

  void scalars() {
    int_ = b_.add_int("int", 4, 32, kIntSigned);
    add_sized(int_, 4, 4);
    regular_ints_ = {int_};
    const uint32_t c = b_.add_int("char", 1, 8, chance(rng_, 50) ? kIntChar : kIntSigned);
    add_sized(c, 1, 1);
    regular_ints_.push_back(c);
    const uint32_t l = b_.add_int("long int", 8, 64, kIntSigned);
    add_sized(l, 8, 8);
    regular_ints_.push_back(l);
    if (chance(rng_, 50)) add_sized(b_.add_int("_Bool", 1, 8, kIntBool), 1, 1);
    if (has(btf::Gate::kInt128) && chance(rng_, 30)) {
      const uint32_t w = b_.add_int("__int128", 16, 128, kIntSigned);
      add_sized(w, 16, 8);
    }
    if (!has(btf::Gate::kFloat)) return;
    if (chance(rng_, 50)) add_sized(b_.add_float("double", 8), 8, 8);
    if (chance(rng_, 20)) add_sized(b_.add_float("long double", 16), 16, 8);
  }

  void step() {
    switch (pick(rng_, 12)) {
      case 0: case 1: aggregate(chance(rng_, 80) ? kStruct : kUnion); break;
      case 2: pointer(); break;
      case 3: qualifier_chain(); break;
      case 4: array(); break;
      case 5: enumeration(); break;
      case 6: b_.add_fwd(name("fwd"), has(btf::Gate::kFuncKinds) && chance(rng_, 30)); break;
      case 7: case 8: if (has(btf::Gate::kFuncKinds)) function(); break;
      case 9: if (has(btf::Gate::kVarDatasec)) variable(); break;
      case 10: if (has(btf::Gate::kTypeTag)) tagged_pointer(); break;
      case 11: aggregate(kStruct); break;
    }
  }

  void aggregate(uint32_t kind) {
    const uint32_t n = pick(rng_, 7);
    std::deque<std::string> names;  // deque: MemberSpec views must survive growth
    std::vector<BtfBuilder::MemberSpec> members;
    uint32_t offset = 0, size = 0, align = 1;
    bool bitfields = kind == kStruct && has(btf::Gate::kFuncKinds) && chance(rng_, 30);
    for (uint32_t i = 0; i < n; ++i) {
      names.push_back(chance(rng_, 10) ? "" : name("m"));
      if (bitfields && chance(rng_, 40)) {
        const uint32_t base = regular_ints_[pick(rng_, static_cast<uint32_t>(regular_ints_.size()))];
        const uint32_t bits = 1 + pick(rng_, 7);
        members.push_back({names.back(), base, offset * 8, bits});
        offset += 1;
        size = std::max(size, offset);
        continue;
      }
      // The kernel sizes an enum member of a kind_flag struct as an int
      // whatever its own size, so a bitfield struct holds none.
      Sized s = any_sized();
      if (bitfields && enums_.count(s.id)) s = sized_.front();
      const uint32_t off = kind == kUnion ? 0 : (offset + s.align - 1) / s.align * s.align;
      members.push_back({names.back(), s.id, off * 8, 0});
      offset = kind == kUnion ? 0 : off + s.size;
      size = std::max(size, off + s.size);
      align = std::max(align, s.align);
    }
    size = (size + align - 1) / align * align;
    const uint32_t id = kind == kStruct ? b_.add_struct(chance(rng_, 15) ? "" : long_or_short("s"), size, members)
                                        : b_.add_union(chance(rng_, 15) ? "" : long_or_short("u"), size, members);
    add_sized(id, size, align);
    aggregates_.push_back(id);
  }

  void pointer() {
    // Some pointers point forward: patched once all ids exist, so cycles
    // through pointers appear.
    const uint32_t p = b_.add_ptr(0);
    if (chance(rng_, 25))
      forward_pointers_.push_back(p);
    else
      b_.record(p)[2] = chance(rng_, 15) ? 0 : any_sized().id;
    add_sized(p, 8, 8);
  }

  void qualifier_chain() {
    uint32_t target = chance(rng_, 10) ? 0 : any_sized().id;
    const uint32_t len = 1 + pick(rng_, 4);
    for (uint32_t i = 0; i < len; ++i) {
      switch (pick(rng_, 4)) {
        case 0: target = b_.add_typedef(name("t"), target); break;
        case 1: target = b_.add_const(target); break;
        case 2: target = b_.add_volatile(target); break;
        default: target = b_.add_restrict(target); break;
      }
    }
    if (b_.record(target)[2] != 0) {
      const uint32_t below = b_.record(target)[2];
      const Sized* s = find_sized(below);
      if (s) add_sized(target, s->size, s->align);
      if (enums_.count(below)) enums_.insert(target);
    }
  }

  void tagged_pointer() {
    uint32_t target = chance(rng_, 20) ? 0 : any_sized().id;
    if (chance(rng_, 40)) target = b_.add_const(target);
    const uint32_t tags = 1 + pick(rng_, 2);
    for (uint32_t i = 0; i < tags; ++i)
      target = b_.add_type_tag(chance(rng_, 50) ? "user" : name("tag"), target,
                               has(btf::Gate::kTagKindFlag) && chance(rng_, 20));
    add_sized(b_.add_ptr(target), 8, 8);
  }

  void array() {
    const Sized s = any_sized();
    const uint32_t n = pick(rng_, 9);
    const uint32_t index = regular_ints_[pick(rng_, static_cast<uint32_t>(regular_ints_.size()))];
    const uint32_t a = b_.add_array(s.id, index, n);
    add_sized(a, s.size * n, s.align);
  }

  void enumeration() {
    const bool wide = has(btf::Gate::kEnum64) && chance(rng_, 25);
    const bool is_signed = has(btf::Gate::kEnum64) && chance(rng_, 30);
    const uint32_t sizes[] = {1, 2, 4, 8};
    const uint32_t size = wide ? 8 : has(btf::Gate::kEnumSizes) ? sizes[pick(rng_, 3)] : 4;
    const uint32_t n = pick(rng_, 5);
    std::deque<std::string> names;  // deque: MemberSpec views must survive growth
    std::vector<BtfBuilder::EnumeratorSpec> values;
    for (uint32_t i = 0; i < n; ++i) {
      names.push_back(name("E"));
      values.push_back({names.back(), static_cast<int64_t>(i * 3)});
    }
    const uint32_t id = wide ? b_.add_enum64(chance(rng_, 20) ? "" : name("e"), size, values, is_signed)
                             : b_.add_enum(chance(rng_, 20) ? "" : name("e"), size, values, is_signed);
    add_sized(id, size, size);
    enums_.insert(id);
  }

  void function() {
    const uint32_t n = pick(rng_, 5);
    std::deque<std::string> names;  // deque: MemberSpec views must survive growth
    std::vector<BtfBuilder::ParamSpec> params;
    for (uint32_t i = 0; i < n; ++i) {
      names.push_back(name("arg"));
      params.push_back({names.back(), any_sized().id});
    }
    if (chance(rng_, 15)) params.push_back({"", 0});
    const uint32_t ret = chance(rng_, 30) ? 0 : any_sized().id;
    const uint32_t proto = b_.add_func_proto(ret, params);
    if (chance(rng_, 80)) {
      const uint32_t f = b_.add_func(long_or_short("f"), proto, has(btf::Gate::kFuncLinkage) ? pick(rng_, 2) : 0);
      funcs_.push_back({f, static_cast<uint32_t>(params.size())});
    }
    if (chance(rng_, 30)) add_sized(b_.add_ptr(proto), 8, 8);
  }

  void variable() {
    const Sized s = any_sized();
    const uint32_t v = b_.add_var(name("v"), s.id, pick(rng_, 2));
    vars_.push_back({v, s.size, s.align});
  }

  void data_sections() {
    if (vars_.empty()) return;
    std::shuffle(vars_.begin(), vars_.end(), rng_);
    const uint32_t sections = 1 + pick(rng_, 2);
    size_t next = 0;
    for (uint32_t sec = 0; sec < sections && next < vars_.size(); ++sec) {
      std::vector<BtfBuilder::SecInfoSpec> entries;
      uint32_t offset = 0;
      const size_t count = sec + 1 == sections ? vars_.size() - next : 1 + pick(rng_, static_cast<uint32_t>(vars_.size() - next));
      for (size_t i = 0; i < count; ++i, ++next) {
        const Sized& v = vars_[next];
        if (v.size == 0) continue;  // zero-length arrays cannot be entries
        offset = (offset + v.align - 1) / v.align * v.align;
        entries.push_back({v.id, offset, v.size});
        offset += v.size;
      }
      if (entries.empty() && !has(btf::Gate::kEmptyDatasec)) continue;
      b_.add_datasec(section_name(sec), std::max<uint32_t>(offset, 1), entries);
    }
  }

  void decl_tags() {
    if (!has(btf::Gate::kDeclTag)) return;
    const uint32_t n = pick(rng_, 4);
    for (uint32_t i = 0; i < n; ++i) {
      switch (pick(rng_, 3)) {
        case 0:
          if (!funcs_.empty()) {
            const auto& f = funcs_[pick(rng_, static_cast<uint32_t>(funcs_.size()))];
            const int32_t idx = f.second && chance(rng_, 50) ? static_cast<int32_t>(pick(rng_, f.second)) : -1;
            b_.add_decl_tag(chance(rng_, 50) ? "bpf_kfunc" : name("tag"), f.first, idx,
                            has(btf::Gate::kTagKindFlag) && chance(rng_, 10));
          }
          break;
        case 1:
          if (!aggregates_.empty()) {
            const uint32_t a = aggregates_[pick(rng_, static_cast<uint32_t>(aggregates_.size()))];
            const uint32_t vlen = info_vlen(b_.record(a)[1]);
            b_.add_decl_tag(name("tag"), a, vlen && chance(rng_, 50) ? static_cast<int32_t>(pick(rng_, vlen)) : -1);
          }
          break;
        default:
          if (!vars_.empty()) b_.add_decl_tag(name("tag"), vars_[pick(rng_, static_cast<uint32_t>(vars_.size()))].id);
          break;
      }
    }
  }

  void resolve_forward_pointers() {
    for (uint32_t p : forward_pointers_) {
      // Any struct, union, or sized type; never a source-only kind.
      b_.record(p)[2] = aggregates_.empty() ? int_ : aggregates_[pick(rng_, static_cast<uint32_t>(aggregates_.size()))];
    }
  }

  // Renumber all records with a random permutation and rewrite references.
  void permute() {
    const auto& old = b_.records();
    const uint32_t n = static_cast<uint32_t>(old.size());
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng_);
    std::vector<uint32_t> new_id(n + 1, 0);
    for (uint32_t pos = 0; pos < n; ++pos) new_id[order[pos] + 1] = pos + 1;
    std::vector<std::vector<uint32_t>> records(n);
    for (uint32_t pos = 0; pos < n; ++pos) {
      auto r = old[order[pos]];
      for (size_t w : type_id_words(r))
        if (r[w] >= 1 && r[w] <= n) r[w] = new_id[r[w]];
      records[pos] = std::move(r);
    }
    BtfBuilder shuffled;
    shuffled.strings() = b_.strings();
    for (auto& r : records) {
      std::vector<uint32_t> payload(r.begin() + 3, r.end());
      shuffled.add_raw(r[0], r[1], r[2], std::move(payload));
    }
    b_ = std::move(shuffled);
  }

  const Sized* find_sized(uint32_t id) const {
    for (const auto& s : sized_)
      if (s.id == id) return &s;
    return nullptr;
  }

  Rng& rng_;
  const btf::KernelProfile kernel_;
  BtfBuilder b_;
  uint32_t counter_ = 0;
  uint32_t int_ = 0;
  std::vector<uint32_t> regular_ints_;
  std::vector<Sized> sized_;
  std::vector<Sized> vars_;
  std::vector<uint32_t> aggregates_;
  std::set<uint32_t> enums_;  // enums, and typedefs/qualifiers of them
  std::vector<uint32_t> forward_pointers_;
  std::vector<std::pair<uint32_t, uint32_t>> funcs_;  // id, parameter count
};

std::vector<uint32_t> record_words(const btf::Btf& btf, uint32_t id) {
  const btf::TypeRef t = btf.type(id);
  const uint64_t size = btf::kTypeRecordSize + *btf::payload_size(t.kind(), t.vlen());
  std::vector<uint32_t> words(size / 4);
  std::memcpy(words.data(), t.bytes(), size);
  return words;
}

}  // namespace

BtfBuilder random_type_graph(Rng& rng, const GraphOptions& options) {
  return GraphGenerator(rng, options.kernel).run(options.shuffle);
}

namespace {

class SpecialFieldsGenerator {
 public:
  explicit SpecialFieldsGenerator(Rng& rng) : rng_(rng) {}

  BtfBuilder run() {
    int_ = b_.add_int("int", 4, 32, kIntSigned);
    ch_ = b_.add_int("char", 1, 8);
    u32_ = b_.add_int("unsigned int", 4, 32);
    const char* names[] = {"bpf_spin_lock", "bpf_res_spin_lock", "bpf_refcount", "bpf_list_head",
                           "bpf_rb_root",   "bpf_list_node",     "bpf_rb_node"};
    const uint32_t sizes[] = {4, 4, 4, 16, 16, 24, 32};
    for (int i = 0; i < 7; ++i) {
      if (chance(rng_, 8)) continue;  // sometimes a special struct is missing
      special_[i] = opaque(names[i], chance(rng_, 5) ? sizes[i] + 4 : sizes[i]);
      if (chance(rng_, 5)) opaque(names[i], sizes[i]);  // a second struct of the same name
    }
    const uint32_t n = 1 + pick(rng_, 5);
    for (uint32_t i = 0; i < n; ++i) value_struct();
    tags();
    return std::move(b_);
  }

 private:
  uint32_t opaque(const std::string& name, uint32_t size) {
    std::vector<BtfBuilder::MemberSpec> members;
    for (uint32_t off = 0; off + 4 <= size; off += 4) members.push_back({"", u32_, off * 8});
    return b_.add_struct(name, size, members);
  }

  struct Choice {
    uint32_t type, size, align;
    int special;  // index into special_, -1 for plain members
  };

  Choice member_choice() {
    switch (pick(rng_, 10)) {
      case 0: return {int_, 4, 4, -1};
      case 1: return {ch_, 1, 1, -1};
      case 2: {  // a kptr
        static const char* kTags[] = {"kptr", "kptr_untrusted", "percpu_kptr", "uptr", "rcu"};
        uint32_t target = local_struct();
        if (chance(rng_, 10)) target = int_;
        uint32_t tag = b_.add_type_tag(kTags[pick(rng_, 5)], target, chance(rng_, 5));
        if (chance(rng_, 5)) tag = b_.add_type_tag("user", tag);
        uint32_t ptr = b_.add_ptr(tag);
        if (chance(rng_, 10)) ptr = b_.add_volatile(ptr);
        return {ptr, 8, 8, -1};
      }
      case 3:
        if (!nested_.empty() && chance(rng_, 60)) {
          const Choice c = nested_[pick(rng_, static_cast<uint32_t>(nested_.size()))];
          return c;
        }
        [[fallthrough]];
      default: {
        const int i = static_cast<int>(pick(rng_, 7));
        if (!special_[i]) return {int_, 4, 4, -1};
        const uint32_t sizes[] = {4, 4, 4, 16, 16, 24, 32};
        return {special_[i], sizes[i], i < 3 ? 4u : 8u, i};
      }
    }
  }

  uint32_t local_struct() {
    if (locals_.empty() || chance(rng_, 30))
      locals_.push_back(b_.add_struct("elfmeta_obj" + std::to_string(locals_.size()), 8, {{"x", int_, 0}}));
    return locals_[pick(rng_, static_cast<uint32_t>(locals_.size()))];
  }

  void value_struct() {
    const uint32_t count = 1 + pick(rng_, 5);
    std::deque<std::string> names;  // deque: MemberSpec views must survive growth
    std::vector<BtfBuilder::MemberSpec> members;
    uint32_t offset = 0, align = 4;
    std::vector<std::pair<uint32_t, int>> roots;  // member index, special index
    std::vector<std::pair<std::string, int>> nodes;  // member name, special index
    bool has_lock = false;
    for (uint32_t i = 0; i <= count; ++i) {
      Choice c = member_choice();
      if (i == count) {  // graph roots mostly come with their lock
        if (roots.empty() || has_lock || !special_[0] || chance(rng_, 15)) break;
        c = {special_[0], 4, 4, 0};
      }
      if (chance(rng_, 15)) {  // an array of it
        const uint32_t nelems = pick(rng_, 4);
        c = {b_.add_array(c.type, int_, nelems), c.size * nelems, c.align, -1};
      }
      uint32_t off = (offset + c.align - 1) / c.align * c.align;
      if (chance(rng_, 5)) off += 1 + pick(rng_, 3);  // misaligned
      names.push_back(chance(rng_, 10) ? "dup" : "m" + std::to_string(counter_++));
      members.push_back({names.back(), c.type, off * 8, 0});
      if (c.special == 3 || c.special == 4) roots.push_back({i, c.special});
      if (c.special == 5 || c.special == 6) nodes.push_back({names.back(), c.special});
      has_lock |= c.special == 0 || c.special == 1;
      offset = off + c.size;
      align = std::max(align, c.align);
    }
    if (chance(rng_, 10)) {  // a bitfield somewhere
      names.push_back("bits");
      members.push_back({names.back(), int_, offset * 8 + (chance(rng_, 50) ? 4 : 0), 4});
      offset += 4;
    }
    const uint32_t size = (offset + align - 1) / align * align;
    const std::string name = "val" + std::to_string(structs_.size());
    const uint32_t id = b_.add_struct(name, std::max<uint32_t>(size, 1), members);
    structs_.push_back({id, name, std::vector<std::string>(names.begin(), names.end()), nodes});
    for (auto [index, special] : roots) pending_roots_.push_back({id, index, special});
    if (chance(rng_, 40)) nested_.push_back({id, std::max<uint32_t>(size, 1), align, -1});
  }

  void tags() {
    for (const auto& [root, index, special] : pending_roots_) {
      if (chance(rng_, 8)) continue;  // missing tag
      // Mostly a struct with a node of the matching kind, named right.
      const Generated* target = &structs_[pick(rng_, static_cast<uint32_t>(structs_.size()))];
      std::string member;
      for (const auto& s : structs_)
        for (const auto& [node, kind] : s.nodes)
          if (kind == special + 2 && member.empty() && chance(rng_, 85)) {
            target = &s;
            member = node;
          }
      if (member.empty())
        member = target->members.empty() ? "n" : target->members[pick(rng_, static_cast<uint32_t>(target->members.size()))];
      std::string value = "contains:" + (chance(rng_, 5) ? std::string("nosuch") : target->name) + ":" + member;
      if (chance(rng_, 5)) value = "contains:" + target->name;
      b_.add_decl_tag(value, root, chance(rng_, 5) ? -1 : static_cast<int32_t>(index));
      if (chance(rng_, 5)) b_.add_decl_tag(value, root, static_cast<int32_t>(index));
    }
  }

  struct Generated {
    uint32_t id;
    std::string name;
    std::vector<std::string> members;
    std::vector<std::pair<std::string, int>> nodes;
  };
  struct PendingRoot {
    uint32_t struct_id, member_index;
    int special;
  };

  Rng& rng_;
  BtfBuilder b_;
  uint32_t int_ = 0, ch_ = 0, u32_ = 0, counter_ = 0;
  uint32_t special_[7] = {};
  std::vector<uint32_t> locals_;
  std::vector<Choice> nested_;
  std::vector<Generated> structs_;
  std::vector<PendingRoot> pending_roots_;
};

}  // namespace

BtfBuilder special_fields_graph(Rng& rng) { return SpecialFieldsGenerator(rng).run(); }


BtfBuilder remove_type(const BtfBuilder& b, uint32_t id) {
  auto records = b.records();
  const uint32_t first = b.first_id(), n = static_cast<uint32_t>(records.size());
  std::vector<uint8_t> removed(n, 0);
  auto gone = [&](uint32_t ref) { return ref >= first && ref - first < n && removed[ref - first]; };
  if (id >= first && id - first < n) removed[id - first] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < n; ++i) {
      if (removed[i]) continue;
      auto& r = records[i];
      if (info_kind(r[1]) == kDatasec) {
        std::vector<uint32_t> kept(r.begin(), r.begin() + 3);
        for (size_t e = 3; e + 2 < r.size(); e += 3)
          if (!gone(r[e])) kept.insert(kept.end(), r.begin() + e, r.begin() + e + 3);
        if (kept.size() != r.size()) {
          const uint32_t vlen = static_cast<uint32_t>((kept.size() - 3) / 3);
          kept[1] = (kept[1] & ~0xffffu) | vlen;
          r = std::move(kept);
        }
        continue;
      }
      for (size_t w : type_id_words(r))
        if (gone(r[w])) {
          removed[i] = 1;
          changed = true;
          break;
        }
    }
  }
  std::vector<uint32_t> new_id(n, 0);
  uint32_t next = first;
  for (uint32_t i = 0; i < n; ++i)
    if (!removed[i]) new_id[i] = next++;
  BtfBuilder out = first > 1 ? BtfBuilder(first, b.string_base()) : BtfBuilder();
  out.strings() = b.strings();
  for (uint32_t i = 0; i < n; ++i) {
    if (removed[i]) continue;
    auto r = records[i];
    for (size_t w : type_id_words(r))
      if (r[w] >= first && r[w] - first < n) r[w] = new_id[r[w] - first];
    out.add_raw(r[0], r[1], r[2], std::vector<uint32_t>(r.begin() + 3, r.end()));
  }
  return out;
}

BtfBuilder builder_from(const btf::Btf& btf) {
  BtfBuilder b = btf.first_id() > 1 ? BtfBuilder(btf.first_id(), btf.string_start()) : BtfBuilder();
  const auto d = btf.data();
  const uint64_t strings = btf.string_section_offset();
  b.strings().assign(reinterpret_cast<const char*>(d.data() + strings), btf.header().str_len);
  for (uint32_t id = btf.first_id(); id < btf.type_count(); ++id) {
    auto r = record_words(btf, id);
    b.add_raw(r[0], r[1], r[2], std::vector<uint32_t>(r.begin() + 3, r.end()));
  }
  return b;
}

std::optional<BtfBuilder> sample_subgraph(const btf::Btf& btf, Rng& rng, size_t max_types) {
  if (btf.own_count() == 0) return std::nullopt;
  const uint32_t root = btf.first_id() + static_cast<uint32_t>(rng() % btf.own_count());
  std::vector<uint32_t> order{root};
  std::unordered_map<uint32_t, uint32_t> new_id{{root, 1}};
  for (size_t i = 0; i < order.size(); ++i) {
    const auto words = record_words(btf, order[i]);
    for (size_t w : type_id_words(words)) {
      const uint32_t ref = words[w];
      if (ref == 0 || !btf.is_own(ref) || new_id.count(ref)) continue;
      if (order.size() >= max_types) return std::nullopt;
      new_id.emplace(ref, static_cast<uint32_t>(order.size() + 1));
      order.push_back(ref);
    }
  }
  // Keep the original relative order of ids, so that the id-order
  // dependent parts of the checks see real orderings.
  std::vector<uint32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < sorted.size(); ++i) new_id[sorted[i]] = i + 1;
  BtfBuilder b;
  for (uint32_t old : sorted) {
    auto r = record_words(btf, old);
    for (size_t w : type_id_words(r))
      if (r[w]) r[w] = new_id.at(r[w]);
    for (size_t w : name_words(r))
      if (r[w]) r[w] = b.str(btf.name_of(r[w]));
    b.add_raw(r[0], r[1], r[2], std::vector<uint32_t>(r.begin() + 3, r.end()));
  }
  return b;
}

std::string_view mutation_name(Mutation m) {
  switch (m) {
    case Mutation::ByteFlip: return "byte flip";
    case Mutation::FieldOverwrite: return "field overwrite";
    case Mutation::Truncate: return "truncation";
    case Mutation::SwapRecords: return "swapped records";
    case Mutation::DuplicateRecord: return "duplicated record";
    case Mutation::DeleteRecord: return "deleted record";
    case Mutation::HeaderTweak: return "header tweak";
    case Mutation::StringFlip: return "string flip";
  }
  return "?";
}

namespace {

uint32_t interesting_value(Rng& rng, uint32_t type_count) {
  static const uint32_t kValues[] = {0, 1, 2, 3, 4, 7, 8, 12, 16, 24, 31, 32, 33, 63, 64, 127, 128, 129, 255, 256,
                                     0xffff, 0x10000, 0xfffff, 0x100000, 0xffffff, 0x1000000, 0x7fffffff,
                                     0x80000000, 0xfffffffe, 0xffffffff};
  switch (rng() % 4) {
    case 0: return type_count ? static_cast<uint32_t>(rng() % (type_count + 2)) : 0;
    case 1: {  // a plausible info word
      const uint32_t kind = static_cast<uint32_t>(rng() % 21), vlen = static_cast<uint32_t>(rng() % 4);
      return (rng() % 4 == 0 ? 1u << 31 : 0) | kind << 24 | vlen;
    }
    default: return kValues[rng() % std::size(kValues)];
  }
}

void put32(std::vector<uint8_t>& b, size_t off, uint32_t v) {
  if (off + 4 <= b.size()) std::memcpy(b.data() + off, &v, 4);
}

}  // namespace

std::vector<uint8_t> mutate(const BtfBuilder& original, Rng& rng, Mutation m) {
  BtfBuilder b = original;
  const uint32_t n = static_cast<uint32_t>(b.records().size());
  auto any_record = [&]() { return b.first_id() + static_cast<uint32_t>(rng() % std::max<uint32_t>(n, 1)); };
  switch (m) {
    case Mutation::FieldOverwrite:
      if (n) {
        auto& r = b.record(any_record());
        r[rng() % r.size()] = interesting_value(rng, b.next_id());
      }
      return b.build();
    case Mutation::SwapRecords:
      if (n >= 2) std::swap(b.record(any_record()), b.record(any_record()));
      return b.build();
    case Mutation::DuplicateRecord:
    case Mutation::DeleteRecord: {
      if (!n) return b.build();
      auto records = b.records();
      const size_t i = rng() % records.size();
      if (m == Mutation::DuplicateRecord)
        records.insert(records.begin() + i, records[i]);
      else
        records.erase(records.begin() + i);
      BtfBuilder rebuilt = b.first_id() > 1 ? BtfBuilder(b.first_id(), b.string_base()) : BtfBuilder();
      rebuilt.strings() = b.strings();
      for (auto& r : records) rebuilt.add_raw(r[0], r[1], r[2], std::vector<uint32_t>(r.begin() + 3, r.end()));
      return rebuilt.build();
    }
    default:
      break;
  }
  BtfBlobParts parts = b.parts();
  std::vector<uint8_t> blob = parts.assemble();
  switch (m) {
    case Mutation::ByteFlip:
      if (!blob.empty()) blob[rng() % blob.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
      break;
    case Mutation::StringFlip:
      if (!parts.strings.empty()) blob[24 + parts.types.size() + rng() % parts.strings.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
      break;
    case Mutation::Truncate: {
      const size_t keep = rng() % std::max<size_t>(blob.size(), 1);
      blob.resize(keep);
      if (rng() % 2 && keep >= 24) {  // keep the header consistent with the cut
        const uint32_t body = static_cast<uint32_t>(keep - 24);
        const uint32_t types = std::min<uint32_t>(body, static_cast<uint32_t>(parts.types.size()));
        put32(blob, 12, types);
        put32(blob, 16, types);
        put32(blob, 20, body - types);
      }
      break;
    }
    case Mutation::HeaderTweak: {
      const size_t field = rng() % 7;
      if (field == 0) {
        blob[2] = static_cast<uint8_t>(rng() % 3);  // version
      } else if (field == 1) {
        blob[3] = static_cast<uint8_t>(rng() % 2);  // flags
      } else {
        const size_t off = 4 + 4 * (field - 2);
        uint32_t v;
        std::memcpy(&v, blob.data() + off, 4);
        const int64_t delta = static_cast<int64_t>(rng() % 17) - 8;
        put32(blob, off, rng() % 3 ? static_cast<uint32_t>(v + delta) : interesting_value(rng, 0));
      }
      break;
    }
    default:
      break;
  }
  return blob;
}

}  // namespace elfmeta::synth
