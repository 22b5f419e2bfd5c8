#include "synth/hostile_btf.h"

#include <string>


namespace elfmeta::synth {

BtfBuilder kptr_array_repeat_wrap(bool spin_lock_trigger, uint32_t types) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t obj = b.add_struct("obj", 4, {{"x", int_id, 0}});
  const uint32_t tag = b.add_type_tag("kptr_untrusted", obj);
  const uint32_t kptr = b.add_ptr(tag);
  const uint32_t pair = b.add_struct("pair", 16, {{"a", kptr, 0}, {"b", kptr, 64}});
  const uint32_t arr = b.add_array(pair, int_id, 2147483649u);
  if (spin_lock_trigger) {
    const uint32_t lock = b.add_struct("bpf_spin_lock", 4, {{"val", int_id, 0}});
    b.add_struct("outer", 24, {{"l", lock, 0}, {"arr", arr, 64}});
  } else {
    b.add_struct("outer", 24, {{"p", kptr, 0}, {"arr", arr, 64}});
  }
  while (b.next_id() < types) b.add_ptr(int_id);
  return b;
}

BtfBuilder kptr_array_repeat_wrap_valid() {
  // The outer struct first: the kernel scans structs in id order and stops
  // at the first failure, so the repeat count is what it meets (the element
  // struct, nine kptrs at one offset, fails on its own with EEXIST).
  BtfBuilder b;
  const uint32_t int_id = 2, lock = 3, obj = 4, kptr = 6, e = 7, arr = 8;  // outer is 1
  const uint32_t nelems = 477218589;
  b.add_struct("outer", 8 + 8 * nelems, {{"l", lock, 0}, {"arr", arr, 64}});
  b.add_int("int", 4, 32, 1);
  b.add_struct("bpf_spin_lock", 4, {{"val", int_id, 0}});
  b.add_struct("obj", 4, {{"x", int_id, 0}});
  b.add_type_tag("kptr_untrusted", obj);  // 5
  b.add_ptr(5);
  std::vector<std::string> names;
  for (int i = 0; i < 9; ++i) names.push_back("k" + std::to_string(i));
  std::vector<BtfBuilder::MemberSpec> nine;
  for (const auto& n : names) nine.push_back({n, kptr, 0});
  b.add_struct("e", 8, nine);
  b.add_array(e, int_id, nelems);
  return b;
}

BtfBuilder nested_three_way(uint32_t depth) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t lock = b.add_struct("bpf_spin_lock", 4, {{"val", int_id, 0}});
  // Ids are known in advance: top, then s0 .. s(depth-1).
  const uint32_t top = b.next_id(), s0 = top + 1;
  b.add_struct("top", 8, {{"l", lock, 0}, {"s", s0, 32}});
  for (uint32_t k = 0; k < depth; ++k) {
    const std::string name = "s" + std::to_string(k);
    if (k + 1 == depth)
      b.add_struct(name, 4, {{"v", int_id, 0}});
    else
      b.add_struct(name, 4, {{"a", s0 + k + 1, 0}, {"b", s0 + k + 1, 0}, {"c", s0 + k + 1, 0}});
  }
  return b;
}

BtfBuilder self_referential_proto(uint32_t params, bool direct) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.next_id(), ptr = proto + 1;
  std::vector<std::string> names;
  for (uint32_t i = 0; i < params; ++i) names.push_back("p" + std::to_string(i));
  std::vector<BtfBuilder::ParamSpec> specs;
  for (const auto& n : names) specs.push_back({n, direct ? proto : ptr});
  b.add_func_proto(int_id, specs);
  b.add_ptr(proto);
  b.add_func("f", proto, /*linkage: global*/ 1);
  return b;
}

}  // namespace elfmeta::synth
