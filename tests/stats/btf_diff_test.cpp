// Two builds of the same types: what diff_btf reports, matched by kind and
// name whatever the type ids.
#include "stats/btf_diff.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "btf/parse.h"
#include "synth/btf_builder.h"
#include "synth/hostile_btf.h"

namespace elfmeta::stats {
namespace {

struct Parsed {
  std::vector<uint8_t> bytes;
  std::optional<btf::Btf> btf;
};

std::unique_ptr<Parsed> parse(const std::vector<uint8_t>& bytes) {
  auto p = std::make_unique<Parsed>();
  p->bytes = bytes;
  NullSink sink;
  btf::CheckContext ctx;
  btf::Findings f(ctx, sink);
  p->btf = btf::parse(p->bytes, btf::ParseOptions{}, f);
  return p;
}

const TypeChange* find(const std::vector<TypeChange>& changes, const std::string& name) {
  auto it = std::find_if(changes.begin(), changes.end(), [&](const TypeChange& c) { return c.name == name; });
  return it == changes.end() ? nullptr : &*it;
}

bool has(const TypeChange* c, const std::string& detail) {
  return c && std::find(c->details.begin(), c->details.end(), detail) != c->details.end();
}

TEST(BtfDiff, NamedTypesAddedRemovedAndChangedMemberByMember) {
  synth::BtfBuilder a;
  {
    const uint32_t i = a.add_int("int", 4, 32, 1);
    a.add_struct("foo", 8, {{"x", i, 0}, {"y", i, 32}});
    a.add_enum("color", 4, {{"RED", 0}, {"GREEN", 1}});
    a.add_func("gone", a.add_func_proto(i, {{"v", i}}));
    a.add_func("kept", a.add_func_proto(i, {{"v", i}}));
    a.add_typedef("u32_t", i);
  }
  synth::BtfBuilder b;  // other ids: a new type first
  {
    const uint32_t l = b.add_int("long", 8, 64, 1);
    const uint32_t i = b.add_int("int", 4, 32, 1);
    b.add_struct("foo", 16, {{"x", i, 0}, {"y", l, 64}, {"z", i, 32}});
    b.add_enum("color", 4, {{"RED", 0}, {"GREEN", 2}, {"BLUE", 3}});
    b.add_func("kept", b.add_func_proto(l, {{"v", b.add_ptr(i)}}));
    b.add_func("fresh", b.add_func_proto(i, {}));
    b.add_typedef("u32_t", i);
  }
  const auto old_btf = parse(a.build()), new_btf = parse(b.build());
  ASSERT_TRUE(old_btf->btf && new_btf->btf);
  const auto changes = diff_btf(*old_btf->btf, *new_btf->btf);

  const TypeChange* foo = find(changes, "foo");
  ASSERT_TRUE(foo);
  EXPECT_EQ(foo->what, TypeChange::What::Changed);
  EXPECT_TRUE(has(foo, "size 8 -> 16"));
  EXPECT_TRUE(has(foo, "member 'z' (int) added at bit 32"));
  EXPECT_TRUE(has(foo, "member 'y' type int -> long"));
  EXPECT_TRUE(has(foo, "member 'y' moved from bit 32 to 64"));
  const TypeChange* color = find(changes, "color");
  EXPECT_TRUE(has(color, "enumerator 'BLUE' = 3 added"));
  EXPECT_TRUE(has(color, "enumerator 'GREEN' 1 -> 2"));
  const TypeChange* kept = find(changes, "kept");
  EXPECT_TRUE(has(kept, "prototype int (int) -> long (int *)"));
  ASSERT_TRUE(find(changes, "gone"));
  EXPECT_EQ(find(changes, "gone")->what, TypeChange::What::Removed);
  ASSERT_TRUE(find(changes, "fresh"));
  EXPECT_EQ(find(changes, "fresh")->what, TypeChange::What::Added);
  ASSERT_TRUE(find(changes, "long"));
  EXPECT_EQ(find(changes, "long")->what, TypeChange::What::Added);
  EXPECT_FALSE(find(changes, "int")) << "same type, other id";
  EXPECT_FALSE(find(changes, "u32_t"));
  EXPECT_TRUE(diff_btf(*old_btf->btf, *old_btf->btf).empty());
}

TEST(BtfDiff, TypeStringsOfChainsAndCycles) {
  synth::BtfBuilder b;
  const uint32_t i = b.add_int("int", 4, 32, 1);
  const uint32_t c = b.add_const(i);
  const uint32_t arr = b.add_array(b.add_ptr(c), i, 4);
  const uint32_t loop = b.next_id();  // const -> pointer -> the const again
  b.add_const(loop + 1);
  b.add_ptr(loop);
  const auto parsed = parse(b.build());
  ASSERT_TRUE(parsed->btf);
  EXPECT_EQ(type_string(*parsed->btf, arr), "const int *[4]");
  EXPECT_EQ(type_string(*parsed->btf, 0), "void");
  EXPECT_NE(type_string(*parsed->btf, loop).find("..."), std::string::npos) << "bounded";
  EXPECT_EQ(type_string(*parsed->btf, 999), "<type 999>");
}

// C declarators: pointers to functions and arrays need parentheses, and a
// pointer to a function is not spelled with a star after it (the diff of
// 6.1 and 6.12 printed `void (*)(struct acpi_device *) *`).
TEST(BtfDiff, TypeStringsAreCDeclarators) {
  synth::BtfBuilder b;
  const uint32_t i = b.add_int("int", 4, 32, 1);
  const uint32_t dev = b.add_struct("acpi_device", 4, {{"x", i, 0}});
  const uint32_t proto = b.add_func_proto(0, {{"d", b.add_ptr(dev)}});
  const uint32_t fn_ptr = b.add_ptr(proto);
  const uint32_t arr = b.add_array(i, i, 4);
  const uint32_t arr_ptr = b.add_ptr(arr);
  const uint32_t const_ptr = b.add_const(b.add_ptr(i));
  const uint32_t ptr_const_ptr = b.add_ptr(b.add_const(b.add_ptr(b.add_const(i))));
  const uint32_t fn_ptrs = b.add_array(fn_ptr, i, 2);
  const uint32_t returns_fn_ptr = b.add_ptr(b.add_func_proto(fn_ptr, {{"a", i}, {"", 0}}));
  const auto parsed = parse(b.build());
  ASSERT_TRUE(parsed->btf);
  const btf::Btf& btf = *parsed->btf;
  EXPECT_EQ(type_string(btf, fn_ptr), "void (*)(struct acpi_device *)");
  EXPECT_EQ(type_string(btf, proto), "void (struct acpi_device *)");
  EXPECT_EQ(type_string(btf, arr), "int[4]");
  EXPECT_EQ(type_string(btf, arr_ptr), "int (*)[4]");
  EXPECT_EQ(type_string(btf, const_ptr), "int * const");
  EXPECT_EQ(type_string(btf, ptr_const_ptr), "const int * const *");
  EXPECT_EQ(type_string(btf, fn_ptrs), "void (*[2])(struct acpi_device *)");
  EXPECT_EQ(type_string(btf, returns_fn_ptr), "void (*(*)(int, ...))(struct acpi_device *)");
}

// Issue 27 (c): a prototype of 300 parameters that each point back to it.
// Its spelling recursed into every parameter, about 300^4 strings (8.7 GB
// in a minute); now it is cut short, and a parameter that is the prototype
// itself (invalid BTF that still parses) the same.
TEST(BtfDiff, SelfReferentialPrototypesAreSpelledShort) {
  for (const bool direct : {false, true}) {
    const auto parsed = parse(synth::self_referential_proto(300, direct).build());
    ASSERT_TRUE(parsed->btf);
    const std::string s = type_string(*parsed->btf, 2);  // the prototype
    EXPECT_LE(s.size(), 243u) << s;
    EXPECT_NE(s.find("..."), std::string::npos) << s;
    EXPECT_TRUE(s.starts_with(direct ? "int (int (int (" : "int (int (*)(int (*)(")) << s;
    EXPECT_TRUE(diff_btf(*parsed->btf, *parsed->btf).empty());
  }
}

}  // namespace
}  // namespace elfmeta::stats
