// The special-field pass of BPF_BTF_LOAD: which pointers are kptrs, in both
// forms the kernel accepts (a pointer to a type tag, and the same behind a
// volatile), and which are not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "btf/verifier.h"
#include "core/diagnostic.h"
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

}  // namespace
}  // namespace elfmeta::testing
