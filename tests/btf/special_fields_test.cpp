// The special-field pass of BPF_BTF_LOAD: which pointers are kptrs, in both
// forms the kernel accepts (a pointer to a type tag, and the same behind a
// volatile), and which are not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "btf/verifier.h"
#include "core/diagnostic.h"
#include "oracle/kernel_btf_oracle.h"
#include "synth/btf_builder.h"

namespace elfmeta::testing {
namespace {

std::vector<std::string> rules_of(const synth::BtfBuilder& b) {
  DiagnosticList list;
  btf::CheckOptions options;
  options.lints = false;
  btf::check_btf(b.build(), nullptr, options, "case", ".BTF", list);
  std::vector<std::string> out;
  for (const auto& d : list.items())
    if (d.rule) out.emplace_back(d.rule->id);
  return out;
}

// A struct holding one pointer member made by `member` (given the tag's target).
template <typename Member>
std::vector<std::string> holder_of(Member member) {
  synth::BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  const uint32_t obj = b.add_struct("elfmeta_obj", 4, {{"x", i32, 0}});
  b.add_struct("holder", 8, {{"p", member(b, obj), 0}});
  return rules_of(b);
}

TEST(SpecialFields, ReferencedKptrInBothForms) {
  const std::vector<std::string> warned{"BTF-FIELD-021"};
  EXPECT_EQ(holder_of([](synth::BtfBuilder& b, uint32_t obj) { return b.add_ptr(b.add_type_tag("kptr", obj)); }), warned);
  EXPECT_EQ(holder_of([](synth::BtfBuilder& b, uint32_t obj) {
              return b.add_volatile(b.add_ptr(b.add_type_tag("kptr", obj)));
            }),
            warned);
}

TEST(SpecialFields, PointersThatAreNotKptrs) {
  const std::vector<std::string> none;
  // Untrusted kptrs need no destructor.
  EXPECT_EQ(holder_of([](synth::BtfBuilder& b, uint32_t obj) {
              return b.add_volatile(b.add_ptr(b.add_type_tag("kptr_untrusted", obj)));
            }),
            none);
  // A volatile pointer to the struct itself, a const pointer to a tagged one,
  // a tag the wrong way round (on the pointer, not its target).
  EXPECT_EQ(holder_of([](synth::BtfBuilder& b, uint32_t obj) { return b.add_volatile(b.add_ptr(obj)); }), none);
  EXPECT_EQ(holder_of([](synth::BtfBuilder& b, uint32_t obj) {
              return b.add_const(b.add_ptr(b.add_type_tag("kptr", obj)));
            }),
            none);
  EXPECT_EQ(holder_of([](synth::BtfBuilder& b, uint32_t obj) { return b.add_type_tag("kptr", b.add_ptr(obj)); }), none);
}

// Only structs are scanned: two spin locks in a struct are refused, in a
// union they are not looked at.
TEST(SpecialFields, OnlyStructsAreScanned) {
  for (const bool in_union : {false, true}) {
    synth::BtfBuilder b;
    const uint32_t i32 = b.add_int("int", 4, 32, 1);
    const uint32_t lock = b.add_struct("bpf_spin_lock", 4, {{"val", i32, 0}});
    if (in_union)
      b.add_union("holder", 4, {{"a", lock, 0}, {"b", lock, 0}});
    else
      b.add_struct("holder", 8, {{"a", lock, 0}, {"b", lock, 32}});
    const auto blob = b.build();
    EXPECT_EQ(btf::bpf_load_accepts(blob), in_union) << (in_union ? "union" : "struct");
    if (oracle::kernel_btf_oracle_available()) {
      EXPECT_EQ(oracle::kernel_btf_load(blob).accepted, in_union) << (in_union ? "union" : "struct") << ": kernel";
    }
  }
}

}  // namespace
}  // namespace elfmeta::testing
