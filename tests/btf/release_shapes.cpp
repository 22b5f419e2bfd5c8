#include "tests/btf/release_shapes.h"

#include <map>

#include "btf/btf_format.h"
#include "synth/btf_builder.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;
using M = BtfBuilder::MemberSpec;

// The special structs by name, each made once (their first definition is
// what the kernel looks up), with `unsigned int` words as their members.
struct Specials {
  explicit Specials(BtfBuilder& builder) : b(builder) {}
  BtfBuilder& b;
  uint32_t u32 = 0;
  std::map<std::string, uint32_t> ids;
  uint32_t get(const std::string& name) {
    static const std::map<std::string, uint32_t> kSizes = {{"bpf_spin_lock", 4}, {"bpf_refcount", 4}, {"bpf_list_head", 16},
                                                           {"bpf_list_node", 24}};
    if (auto it = ids.find(name); it != ids.end()) return it->second;
    if (!u32) u32 = b.add_int("unsigned int", 4, 32);
    std::vector<M> members;
    for (uint32_t off = 0; off < kSizes.at(name); off += 4) members.push_back({"", u32, off * 8});
    return ids[name] = b.add_struct(name, kSizes.at(name), members);
  }
};

// n program structs, each with a percpu_kptr to the next (the last to
// itself when `cycle`, else to nothing special); btf_check_ownership_depth()
// counts the structs of a chain.
std::vector<uint8_t> kptr_chain(uint32_t n, bool cycle) {
  BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  const uint32_t leaf = b.add_struct("elfmeta_leaf", 4, {{"x", i32, 0}});
  // Struct k has id first + 3k + 2 (tag, pointer, struct per link).
  const uint32_t first = b.next_id();
  std::vector<std::string> names;
  for (uint32_t k = 0; k < n; ++k) names.push_back("elfmeta_s" + std::to_string(k));
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t self = first + 3 * k + 2;
    const uint32_t next = k + 1 < n ? self + 3 : cycle ? first + 2 : leaf;
    const uint32_t ptr = b.add_ptr(b.add_type_tag("percpu_kptr", next));
    b.add_struct(names[k], 8, {{"p", ptr, 0}});
  }
  return b.build();
}

}  // namespace

std::vector<Sample> release_shapes() {
  std::vector<Sample> out;
  auto add = [&](std::string what, std::vector<uint8_t> blob) { out.push_back({"release shape: " + what, std::move(blob)}); };

  // 7.2: 24-bit vlen. An ENUM of 65,536 enumerators (7.1: "Invalid
  // btf_info"), and one of 65,535 (accepted by both).
  for (const uint32_t n : {65536u, 65535u}) {
    BtfBuilder b;
    const uint32_t a = b.str("a");
    std::vector<uint32_t> values;
    for (uint32_t i = 0; i < n; ++i) values.insert(values.end(), {a, i});
    b.add_raw(0, uint32_t(btf::kEnum) << 24 | n, 4, values);
    add("ENUM of " + std::to_string(n) + " enumerators", b.build());
  }
  // 7.2: bits 16 and 29 of info are vlen and kind (different messages,
  // the same refusal).
  for (const uint32_t bit : {16u, 29u}) {
    BtfBuilder b;
    b.add_int("int", 4, 32, 1);
    b.record(1)[1] |= 1u << bit;
    add("INT with info bit " + std::to_string(bit), b.build());
  }
  // 7.2: no type-tag order. CONST -> TYPE_TAG -> INT.
  {
    BtfBuilder b;
    const uint32_t i32 = b.add_int("int", 4, 32, 1);
    b.add_const(b.add_type_tag("elfmeta_tag", i32));
    add("CONST above a TYPE_TAG", b.build());
  }
  // 7.2: kptr tags anywhere in the chain; unknown tags ignored.
  auto locked_with_pointer = [](const char* first_tag, const char* second_tag) {
    BtfBuilder b;
    Specials sp(b);
    const uint32_t i32 = b.add_int("int", 4, 32, 1);
    const uint32_t obj = b.add_struct("elfmeta_obj", 4, {{"x", i32, 0}});
    uint32_t target = obj;
    if (second_tag) target = b.add_type_tag(second_tag, target);
    const uint32_t ptr = b.add_ptr(b.add_type_tag(first_tag, target));
    b.add_struct("elfmeta_v", 16, {{"l", sp.get("bpf_spin_lock"), 0}, {"p", ptr, 64}});
    return b.build();
  };
  add("locked struct with a __user pointer", locked_with_pointer("user", nullptr));
  add("locked struct with a kptr tagged twice", locked_with_pointer("kptr", "kptr"));
  add("locked struct with a kptr and a percpu_kptr tag", locked_with_pointer("kptr", "percpu_kptr"));
  add("locked struct with an unknown tag before kptr_untrusted", locked_with_pointer("elfmeta_tag", "kptr_untrusted"));
  {
    BtfBuilder b;
    Specials sp(b);
    const uint32_t i32 = b.add_int("int", 4, 32, 1);
    const uint32_t obj = b.add_struct("elfmeta_obj", 4, {{"x", i32, 0}});
    const uint32_t ptr = b.add_ptr(b.add_const(b.add_type_tag("kptr_untrusted", obj)));
    b.add_struct("elfmeta_v", 16, {{"l", sp.get("bpf_spin_lock"), 0}, {"p", ptr, 64}});
    add("locked struct with a kptr_untrusted below a CONST", b.build());
  }
  // 7.2 and 6.12.111/115: unique fields counted over the whole record.
  {
    BtfBuilder b;
    Specials sp(b);
    const uint32_t r = sp.get("bpf_refcount");
    b.add_struct("elfmeta_v", 8, {{"a", r, 0}, {"b", r, 32}});
    add("two bpf_refcount at one level", b.build());
  }
  {
    BtfBuilder b;
    Specials sp(b);
    const uint32_t l = sp.get("bpf_spin_lock");
    const uint32_t inner = b.add_struct("elfmeta_inner", 4, {{"l", l, 0}});
    b.add_struct("elfmeta_v", 8, {{"l", l, 0}, {"in", inner, 32}});
    add("a bpf_spin_lock and another in an embedded struct", b.build());
  }
  // 7.2 and 6.12.113: the ownership depth bound (8 structs, no cycle)
  // instead of the root-and-node rule.
  add("kptr chain of 8 program structs", kptr_chain(8, false));
  add("kptr chain of 9 program structs", kptr_chain(9, false));
  add("program struct with a percpu_kptr to itself", kptr_chain(1, true));
  add("kptr cycle of 3 program structs", kptr_chain(3, true));
  {
    // a (root of b's, and a node) owns b (root of c's, and a node) owns c.
    BtfBuilder b;
    Specials sp(b);
    const uint32_t lock = sp.get("bpf_spin_lock"), head = sp.get("bpf_list_head"), node = sp.get("bpf_list_node");
    const uint32_t i32 = b.add_int("int", 4, 32, 1);
    b.add_struct("elfmeta_c", 32, {{"x", i32, 0}, {"n", node, 64}});
    const uint32_t mid = b.add_struct("elfmeta_b", 64, {{"l", lock, 0}, {"h", head, 64}, {"n", node, 192}});
    b.add_decl_tag("contains:elfmeta_c:n", mid, 1);
    const uint32_t top = b.add_struct("elfmeta_a", 64, {{"l", lock, 0}, {"h", head, 64}, {"n", node, 192}});
    b.add_decl_tag("contains:elfmeta_b:n", top, 1);
    add("root and node that owns a root", b.build());
  }
  return out;
}

}  // namespace elfmeta::testing
