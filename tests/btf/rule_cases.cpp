#include "tests/btf/rule_cases.h"

#include <cstring>
#include <map>
#include <string>

#include <sstream>

#include "btf/artifact_check.h"
#include "btf/parse.h"
#include "btf/verifier.h"
#include "core/report.h"
#include "input/artifact.h"
#include "synth/btf_builder.h"
#include "tests/support/elf_builder.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;
using M = BtfBuilder::MemberSpec;
using P = BtfBuilder::ParamSpec;
using E = BtfBuilder::EnumeratorSpec;
using S = BtfBuilder::SecInfoSpec;

enum : uint32_t {
  kInt = 1, kPtr, kArray, kStruct, kUnion, kEnum, kFwd, kTypedef, kVolatile, kConst, kRestrict, kFunc,
  kFuncProto, kVar, kDatasec, kFloat, kDeclTag, kTypeTag, kEnum64
};
constexpr uint32_t kSigned = 1, kBool = 4;

// Type 1 is `int` in every case.
BtfBuilder with_int() {
  BtfBuilder b;
  b.add_int("int", 4, 32, kSigned);
  return b;
}
void set32(Blob& blob, size_t off, uint32_t v) { std::memcpy(blob.data() + off, &v, 4); }
// A base for split cases: `int` and `char` (3 ids with void), strings "\0int\0char\0".
Blob split_base() {
  BtfBuilder b = with_int();
  b.add_int("char", 1, 8);
  return b.build();
}
constexpr uint32_t kSplitBaseTypes = 3, kSplitBaseStrLen = 10;

// A 32-byte header whose kind-layout section (`layout`) sits between the
// types and the strings, as libbpf 1.8 and pahole write it.
void with_layout(synth::BtfBlobParts& p, std::vector<uint8_t> layout) {
  const uint32_t type_len = static_cast<uint32_t>(p.types.size()), layout_len = static_cast<uint32_t>(layout.size());
  p.gap = std::move(layout);
  p.hdr_len = 32;
  p.header_tail.assign(8, 0);
  std::memcpy(p.header_tail.data(), &type_len, 4);
  std::memcpy(p.header_tail.data() + 4, &layout_len, 4);
}

// A blob whose one record is changed by `edit` in the trigger only.

// The BPF runtime structs, sized as on 6.18, added on first use.
struct Specials {
  explicit Specials(BtfBuilder& builder) : b(builder) {}
  BtfBuilder& b;
  uint32_t u32 = 0;
  std::map<std::string, uint32_t> ids;
  uint32_t get(const std::string& name) {
    static const std::map<std::string, uint32_t> kSizes = {
        {"bpf_spin_lock", 4},  {"bpf_res_spin_lock", 4}, {"bpf_refcount", 4}, {"bpf_list_head", 16},
        {"bpf_rb_root", 16},   {"bpf_list_node", 24},    {"bpf_rb_node", 32}};
    if (auto it = ids.find(name); it != ids.end()) return it->second;
    if (!u32) u32 = b.add_int("unsigned int", 4, 32);
    const uint32_t size = kSizes.at(name);
    std::vector<M> members;
    for (uint32_t off = 0; off < size; off += 4) members.push_back({"", u32, off * 8});
    return ids[name] = b.add_struct(name, size, members);
  }
  // A pointer tagged as a kptr of `kind` to `target`.
  uint32_t kptr(const char* kind, uint32_t target) { return b.add_ptr(b.add_type_tag(kind, target)); }
};

template <typename Fn>
CaseMaker edited(Fn edit) {
  return [edit](bool twin, const BtfBuilder& ctx) {
    BtfBuilder b = ctx;
    edit(b, twin);
    return b.build();
  };
}

std::vector<RuleCase> make_cases() {
  std::vector<RuleCase> c;

  // ------------------------------------------------------------ header
  c.push_back({"BTF-HDR-001", [](bool twin, const BtfBuilder& ctx) { return twin ? ctx.build() : Blob{0x9f, 0xeb, 1, 0, 24, 0, 0}; }});
  c.push_back({"BTF-HDR-002", [](bool twin, const BtfBuilder& ctx) {
                 Blob b = ctx.build();
                 if (!twin) set32(b, 4, static_cast<uint32_t>(b.size() + 4));
                 return b;
               }});
  c.push_back({"BTF-HDR-003", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 p.hdr_len = 36;
                 p.header_tail.assign(12, 0);
                 if (!twin) p.header_tail[9] = 1;  // byte 33
                 return p.assemble();
               }, kBpfBtfLoad, nullptr, {"BTF-HDR-017"}});  // a 36-byte header is not what producers write
  c.push_back({"BTF-HDR-004", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) p.magic = 0xEB9E;
                 return p.assemble();
               }});
  c.push_back({"BTF-HDR-005", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) p.version = 2;
                 return p.assemble();
               }});
  c.push_back({"BTF-HDR-006", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) p.flags = 1;
                 return p.assemble();
               }});
  c.push_back({"BTF-HDR-007", [](bool twin, const BtfBuilder& ctx) {
                 if (twin) return ctx.build();
                 BtfBuilder b;
                 auto p = b.parts();
                 p.strings.clear();
                 return p.assemble();
               }});
  c.push_back({"BTF-HDR-008", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) p.str_off = static_cast<uint32_t>(p.types.size() + p.strings.size() + 1000);
                 return p.assemble();
               }});
  c.push_back({"BTF-HDR-009", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 p.gap = {0, 0, 0, 0};
                 if (twin) {  // the same bytes, but counted as strings
                   p.strings.insert(p.strings.end(), 4, 0);
                   p.gap.clear();
                 }
                 return p.assemble();
               }});
  c.push_back({"BTF-HDR-010", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) {
                   p.str_off = static_cast<uint32_t>(p.types.size() - 4);
                   p.strings.insert(p.strings.begin(), 4, 0);
                   p.strings.resize(p.strings.size() - 4);
                 }
                 return p.assemble();
               }});
  c.push_back({"BTF-HDR-011", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) p.str_len = static_cast<uint32_t>(p.strings.size() + 4);
                 return p.assemble();
               }});
  c.push_back({"BTF-HDR-012", [](bool twin, const BtfBuilder& ctx) {
                 Blob b = ctx.build();
                 if (!twin) b.insert(b.end(), 4, 0);
                 return b;
               }});
  c.push_back({"BTF-HDR-013", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 // Padded to 4 bytes, so that the types that follow them stay aligned.
                 p.strings.resize((p.strings.size() + 3) / 4 * 4, 0);
                 p.strings_first = !twin;
                 return p.assemble();
               }});
  // The only gap-free layout with an unaligned type_off: strings at 0, an
  // empty type section right after them. Base BTF would also break
  // BTF-HDR-015, so the case is split BTF.
  c.push_back({"BTF-HDR-014", [](bool twin, const BtfBuilder& ctx) {
                 BtfBuilder b(kSplitBaseTypes, kSplitBaseStrLen);
                 b.str("a");
                 auto p = b.parts();
                 p.strings_first = true;
                 if (twin) p.type_off = 0;
                 return p.assemble();
               }, kBpfBtfLoad, split_base});
  c.push_back({"BTF-HDR-015", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) p.types.clear();
                 return p.assemble();
               }});
  // The twin is exactly 16 MiB, the trigger one byte more.
  c.push_back(RuleCase("BTF-HDR-016", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 p.strings.resize((16u << 20) - 24 - p.types.size() + (twin ? 0 : 1), 0);
                 return p.assemble();
               }).large());
  c.push_back({"BTF-HDR-017", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) {
                   p.hdr_len = 28;
                   p.header_tail.assign(4, 0);
                 }
                 return p.assemble();
               }});
  c.push_back({"BTF-LAYOUT-001", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 p.hdr_len = 32;
                 p.header_tail.assign(8, 0);
                 if (!twin) p.header_tail[0] = 4;  // layout_off
                 return p.assemble();
               }});
  c.push_back({"BTF-LAYOUT-003", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 p.hdr_len = 28;
                 p.header_tail.assign(4, 0);
                 if (!twin) p.header_tail[0] = 1;
                 return p.assemble();
               }, kBpfBtfLoad, nullptr, {"BTF-HDR-017"}});  // a 28-byte header is not what producers write

  // ------------------------------------------------------------ strings
  c.push_back({"BTF-STR-001", [](bool twin, const BtfBuilder& ctx) {
                 BtfBuilder b;
                 b.add_int("", 4, 32);
                 auto p = b.parts();
                 if (!twin) p.strings.clear();
                 return p.assemble();
               }});
  // A string section over 16 MiB is also a blob over 16 MiB, which only
  // BPF_BTF_LOAD refuses: judged as kernel BTF, HDR-016 is a warning.
  c.push_back(RuleCase("BTF-STR-002", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 p.strings.resize((16u << 20) + (twin ? 0 : 1), 0);
                 return p.assemble();
               }, kModuleLoad, nullptr, {"BTF-HDR-016"}).large());
  c.push_back({"BTF-STR-003", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) p.strings.back() = 'x';
                 return p.assemble();
               }});
  c.push_back({"BTF-STR-004", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) p.strings[0] = 'x';
                 return p.assemble();
               }});
  c.push_back({"BTF-STR-006", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t l = b.add_int("long", 8, 64);
                 if (!twin) b.record(l)[0] = static_cast<uint32_t>(b.strings().size() + 1000);
               })});
  c.push_back({"BTF-STR-007", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t s = b.add_struct("s", 4, {{"a", 1, 0}});
                 if (!twin) b.record(s)[3] = static_cast<uint32_t>(b.strings().size() + 1000);
               })});
  c.push_back({"BTF-STR-008", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t off = b.str("xlong");
                 b.add_raw(twin ? b.str("long") : off + 1, BtfBuilder::info(kInt), 8, {64});
               })});
  c.push_back({"BTF-STR-011", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t f = b.add_func("f", b.add_func_proto(1, {}));
                 b.add_decl_tag(twin ? "ab" : "a\x01" "b", f);
               })});

  // ------------------------------------------------------------ records
  c.push_back({"BTF-TYPE-001", [](bool twin, const BtfBuilder& ctx) {
                 auto p = BtfBuilder(ctx).parts();
                 if (!twin) p.types.insert(p.types.end(), 8, 0);
                 return p.assemble();
               }});
  c.push_back({"BTF-TYPE-002", edited([](BtfBuilder& b, bool twin) {
                 if (!twin) b.record(1)[1] |= 1u << 16;
               })});
  c.push_back({"BTF-TYPE-003", edited([](BtfBuilder& b, bool twin) {
                 b.add_raw(0, BtfBuilder::info(twin ? uint32_t(kPtr) : 20u), 1);
               })});
  c.push_back({"BTF-TYPE-004", [](bool twin, const BtfBuilder& ctx) {
                 BtfBuilder b = BtfBuilder(ctx);
                 b.add_struct("s", 8, {{"a", 1, 0}, {"b", 1, 32}});
                 auto p = b.parts();
                 if (!twin) p.types.resize(p.types.size() - 12);
                 return p.assemble();
               }});
  c.push_back({"BTF-TYPE-007", edited([](BtfBuilder& b, bool twin) { b.add_ptr(twin ? 1 : 99); })});
  c.push_back({"BTF-TYPE-009", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t a = b.next_id();
                 b.add_typedef("a", a + 1);
                 b.add_typedef("b", twin ? 1 : a);
               })});
  // Increasing ids: resolving the first typedef walks the whole chain.
  c.push_back({"BTF-TYPE-010", [](bool twin, const BtfBuilder& ctx) {
                 BtfBuilder b = BtfBuilder(ctx);
                 const uint32_t n = twin ? 32 : 33;
                 for (uint32_t i = 0; i < n; ++i)
                   b.add_typedef("t" + std::to_string(i), i + 1 == n ? 1 : b.next_id() + 1);
                 return b.build();
               }});
  c.push_back({"BTF-TYPE-012", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t v = b.add_var("v", 1);
                 b.add_ptr(twin ? 1 : v);
               })});

  // ------------------------------------------------------------ INT
  c.push_back({"BTF-INT-001", edited([](BtfBuilder& b, bool twin) { if (!twin) b.record(1)[1] |= 1; })});
  c.push_back({"BTF-INT-002", edited([](BtfBuilder& b, bool twin) { if (!twin) b.record(1)[1] |= 1u << 31; })});
  c.push_back({"BTF-INT-003", edited([](BtfBuilder& b, bool twin) { if (!twin) b.record(1)[3] |= 1u << 28; })});
  c.push_back({"BTF-INT-004", edited([](BtfBuilder& b, bool twin) { b.add_int("w", 16, twin ? 128 : 129); })});
  c.push_back({"BTF-INT-005", edited([](BtfBuilder& b, bool twin) { b.add_int("w", twin ? 2 : 1, 16); })});
  c.push_back({"BTF-INT-006", edited([](BtfBuilder& b, bool twin) { b.add_int("w", 4, 32, twin ? 1 : 3); })});
  c.push_back({"BTF-INT-008", edited([](BtfBuilder& b, bool twin) { b.add_int("w", twin ? 4 : 3, twin ? 32 : 24); })});
  c.push_back({"BTF-INT-009", edited([](BtfBuilder& b, bool twin) { b.add_int("flag", twin ? 1 : 2, twin ? 8 : 16, kBool); })});

  // ------------------------------------------------------------ pointers, typedefs, qualifiers, tags
  c.push_back({"BTF-REF-001", edited([](BtfBuilder& b, bool twin) { b.add_raw(0, BtfBuilder::info(kPtr, twin ? 0 : 1), 1); })});
  c.push_back({"BTF-REF-002", edited([](BtfBuilder& b, bool twin) { b.add_raw(0, BtfBuilder::info(kConst, 0, !twin), 1); })});
  c.push_back({"BTF-REF-003", edited([](BtfBuilder& b, bool twin) { b.add_ptr(twin ? 1 : 0x100000); })});
  c.push_back({"BTF-REF-004", edited([](BtfBuilder& b, bool twin) { b.add_typedef(twin ? "a_b" : "a$b", 1); })});
  c.push_back({"BTF-REF-005", edited([](BtfBuilder& b, bool twin) { b.add_ptr(b.add_type_tag(twin ? "user" : "", 1)); })});
  c.push_back({"BTF-REF-006", edited([](BtfBuilder& b, bool twin) { b.add_raw(twin ? 0 : b.str("p"), BtfBuilder::info(kPtr), 1); })});
  // Kernel quirk: a pointer to a FUNC is accepted only when the FUNC has the
  // lower id (it is then already resolved to its FUNC_PROTO).
  c.push_back({"BTF-REF-007", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t first = b.next_id();
                 if (twin) {
                   b.add_func("f", b.add_func_proto(1, {}));
                   b.add_ptr(first + 1);
                 } else {
                   b.add_ptr(first + 2);
                   b.add_func_proto(1, {});
                   b.add_func("f", first + 1);
                 }
               })});
  c.push_back({"BTF-REF-008", edited([](BtfBuilder& b, bool twin) {
                 if (twin)
                   b.add_ptr(b.add_type_tag("user", b.add_const(1)));
                 else
                   b.add_ptr(b.add_const(b.add_type_tag("user", 1)));
               })});
  // A typedef cycle; kernel BTF runs no reference pass, so only the type-tag
  // pass's chain limit catches it.
  c.push_back({"BTF-REF-009", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t a = b.next_id();
                 b.add_typedef("a", a + 1);
                 b.add_typedef("b", twin ? 1 : a);
               }), kModuleLoad});
  c.push_back({"BTF-REF-012", edited([](BtfBuilder& b, bool twin) { b.add_const(twin ? 1 : 99); }), kModuleLoad});

  // ------------------------------------------------------------ ARRAY
  c.push_back({"BTF-ARRAY-002", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t a = b.add_array(1, 1, 4);
                 if (!twin) b.record(a)[0] = b.str("arr");
               })});
  c.push_back({"BTF-ARRAY-003", edited([](BtfBuilder& b, bool twin) { b.add_array(twin ? 1 : 0, 1, 4); })});
  c.push_back({"BTF-ARRAY-004", edited([](BtfBuilder& b, bool twin) { b.add_array(1, twin ? 1 : 0, 4); })});
  c.push_back({"BTF-ARRAY-005", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t s = b.add_struct("s", 4, {{"a", 1, 0}});
                 b.add_array(1, twin ? 1 : s, 4);
               })});
  c.push_back({"BTF-ARRAY-006", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t fwd = b.add_fwd("later");
                 b.add_array(twin ? 1 : fwd, 1, 4);
               })});
  // A 1-bit BOOL is the one INT that is not regular yet not a lint.
  c.push_back({"BTF-ARRAY-007", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t bit = b.add_int("bit", 1, twin ? 8 : 1, kBool);
                 b.add_array(bit, 1, 4);
               })});
  c.push_back({"BTF-ARRAY-008", edited([](BtfBuilder& b, bool twin) { b.add_array(1, 1, twin ? 0x3fffffff : 0x40000001); })});

  // ------------------------------------------------------------ STRUCT / UNION
  c.push_back({"BTF-AGG-002", edited([](BtfBuilder& b, bool twin) { b.add_struct(twin ? "a9" : "9a", 4, {{"a", 1, 0}}); })});
  c.push_back({"BTF-AGG-003", edited([](BtfBuilder& b, bool twin) { b.add_struct("s", 4, {{twin ? "a_b" : "a-b", 1, 0}}); })});
  c.push_back({"BTF-AGG-004", edited([](BtfBuilder& b, bool twin) { b.add_struct("s", 4, {{"a", twin ? 1u : 0u, 0}}); })});
  c.push_back({"BTF-AGG-005", edited([](BtfBuilder& b, bool twin) { b.add_union("u", 8, {{"a", 1, 0}, {"b", 1, twin ? 0u : 32u}}); })});
  c.push_back({"BTF-AGG-006", edited([](BtfBuilder& b, bool twin) {
                 b.add_struct("s", 8, {{"a", 1, twin ? 0u : 32u}, {"b", 1, twin ? 32u : 0u}});
               })});
  c.push_back({"BTF-AGG-007", edited([](BtfBuilder& b, bool twin) { b.add_struct("s", 4, {{"a", 1, twin ? 0u : 40u}}); })});
  c.push_back({"BTF-AGG-008", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t fwd = b.add_fwd("later");
                 b.add_struct("s", 4, {{"a", twin ? 1 : fwd, 0}});
               })});
  c.push_back({"BTF-AGG-009", edited([](BtfBuilder& b, bool twin) {
                 b.add_struct("s", 16, {{"p", b.add_ptr(1), twin ? 64u : 4u}});
               })});
  c.push_back({"BTF-AGG-010", edited([](BtfBuilder& b, bool twin) { b.add_struct("s", 4, {{"a", 1, twin ? 0u : 32u}}); })});
  c.push_back({"BTF-AGG-011", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t wide = b.add_int("__int128", 16, 128, kSigned);
                 b.add_struct("s", 32, {{"a", wide, twin ? 0u : 4u}});
               })});
  c.push_back({"BTF-AGG-012", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t bit = b.add_int("bit", 1, twin ? 8 : 1, kBool);
                 b.add_struct("s", 4, {{"a", bit, 0, 1}});
               })});
  c.push_back({"BTF-AGG-013", edited([](BtfBuilder& b, bool twin) { b.add_struct("s", 8, {{"a", 1, 0, twin ? 31u : 33u}}); })});
  c.push_back({"BTF-AGG-014", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t e = b.add_enum64("e", 8, {{"A", 1}});
                 b.add_struct("s", 8, {{"a", e, 0, twin ? 32u : 33u}});
               })});
  c.push_back({"BTF-AGG-015", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t p = b.add_ptr(1);
                 b.add_struct("s", 16, {{"x", 1, 0, 3}, {"p", p, 64, twin ? 0u : 8u}});
               })});
  c.push_back({"BTF-AGG-016", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t d = b.add_float("double", 8);
                 b.add_struct("s", 16, {{"a", 1, 0}, {"d", d, twin ? 64u : 32u}});
               })});
  c.push_back({"BTF-AGG-017", edited([](BtfBuilder& b, bool twin) { b.add_struct("s", 4, {{"a", 1, 0}}, !twin); })});

  // ------------------------------------------------------------ ENUM
  c.push_back({"BTF-ENUM-002", edited([](BtfBuilder& b, bool twin) { b.add_enum("e", twin ? 4 : 3, {{"A", 1}}); })});
  c.push_back({"BTF-ENUM-003", edited([](BtfBuilder& b, bool twin) { b.add_enum(twin ? "e1" : "1e", 4, {{"A", 1}}); })});
  c.push_back({"BTF-ENUM-004", edited([](BtfBuilder& b, bool twin) { b.add_enum("e", 4, {{twin ? "A" : "", 1}}); })});
  c.push_back({"BTF-ENUM-007", edited([](BtfBuilder& b, bool twin) { b.add_enum("e", 1, {{"A", twin ? 255 : 300}}); })});
  c.push_back({"BTF-ENUM-008", edited([](BtfBuilder& b, bool twin) {
                 if (twin)
                   b.add_enum64("e", 8, {{"A", 1}});
                 else
                   b.add_enum("e", 8, {{"A", 1}});
               })});

  // ------------------------------------------------------------ FWD, FUNC, FUNC_PROTO
  c.push_back({"BTF-FWD-001", edited([](BtfBuilder& b, bool twin) { b.add_raw(b.str("f"), BtfBuilder::info(kFwd, twin ? 0 : 1), 0); })});
  c.push_back({"BTF-FWD-002", edited([](BtfBuilder& b, bool twin) { b.add_raw(b.str("f"), BtfBuilder::info(kFwd), twin ? 0 : 1); })});
  c.push_back({"BTF-FWD-003", edited([](BtfBuilder& b, bool twin) { b.add_fwd(twin ? "f" : ""); })});
  c.push_back({"BTF-FUNC-001", edited([](BtfBuilder& b, bool twin) { b.add_func(twin ? "f" : "", b.add_func_proto(1, {})); })});
  c.push_back({"BTF-FUNC-002", edited([](BtfBuilder& b, bool twin) { b.add_func("f", b.add_func_proto(1, {}), twin ? 1 : 2); })});
  c.push_back({"BTF-FUNC-003", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t f = b.add_func("f", b.add_func_proto(1, {}));
                 if (!twin) b.record(f)[1] |= 1u << 31;
               })});
  c.push_back({"BTF-FUNC-004", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t proto = b.add_func_proto(1, {});
                 b.add_func("f", twin ? proto : 1);
               })});
  c.push_back({"BTF-FUNC-005", edited([](BtfBuilder& b, bool twin) { b.add_func("f", b.add_func_proto(1, {{twin ? "x" : "", 1}})); })});
  c.push_back({"BTF-PROTO-002", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t p = b.add_func_proto(1, {});
                 if (!twin) b.record(p)[0] = b.str("proto");
               })});
  c.push_back({"BTF-PROTO-003", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t fwd = b.add_fwd("later");
                 b.add_func_proto(twin ? 1 : fwd, {});
               })});
  c.push_back({"BTF-PROTO-004", edited([](BtfBuilder& b, bool twin) {
                 if (twin)
                   b.add_func_proto(1, {{"x", 1}, {"", 0}});
                 else
                   b.add_func_proto(1, {{"", 0}, {"x", 1}});
               })});
  c.push_back({"BTF-PROTO-005", edited([](BtfBuilder& b, bool twin) { b.add_func_proto(1, {{"x", twin ? 1u : 99u}}); })});
  c.push_back({"BTF-PROTO-006", edited([](BtfBuilder& b, bool twin) { b.add_func_proto(1, {{twin ? "a_b" : "a b", 1}}); })});

  // ------------------------------------------------------------ VAR, DATASEC
  c.push_back({"BTF-VAR-001", edited([](BtfBuilder& b, bool twin) { b.add_raw(b.str("v"), BtfBuilder::info(kVar, twin ? 0 : 1), 1, {0}); })});
  c.push_back({"BTF-VAR-002", edited([](BtfBuilder& b, bool twin) { b.add_var(twin ? "x" : "-x", 1); })});
  c.push_back({"BTF-VAR-003", edited([](BtfBuilder& b, bool twin) { b.add_var("v", twin ? 1 : 0); })});
  c.push_back({"BTF-VAR-004", edited([](BtfBuilder& b, bool twin) { b.add_var("v", 1, twin ? 1 : 2); })});
  c.push_back({"BTF-VAR-005", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t fwd = b.add_fwd("later");
                 b.add_var("v", twin ? 1 : fwd);
               })});
  c.push_back({"BTF-DATASEC-002", edited([](BtfBuilder& b, bool twin) { b.add_datasec(".rule_data", twin ? 4 : 0, {}); })});
  c.push_back({"BTF-DATASEC-003", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t d = b.add_datasec(".rule_data", 4, {});
                 if (!twin) b.record(d)[1] |= 1u << 31;
               })});
  c.push_back({"BTF-DATASEC-004", edited([](BtfBuilder& b, bool twin) { b.add_datasec(twin ? ".data x" : "\x01", 4, {}); })});
  // An empty string at a non-zero offset (offset 0 is "no name", DATASEC-004).
  c.push_back({"BTF-DATASEC-005", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t d = b.add_datasec(".rule_bss", 4, {});
                 if (!twin) b.record(d)[0] = b.raw_str(std::string_view("", 1));
               })});
  c.push_back({"BTF-DATASEC-006", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t v = b.add_var("v", 1);
                 b.add_datasec(".rule_data", 4, {{twin ? v : 0, 0, 4}});
               })});
  c.push_back({"BTF-DATASEC-007", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t v = b.add_var("v", 1), w = b.add_var("w", 1);
                 b.add_datasec(".rule_data", 8, {{v, 0, 4}, {w, twin ? 4u : 2u, 4}});
               })});
  c.push_back({"BTF-DATASEC-008", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t v = b.add_var("v", 1);
                 b.add_datasec(".rule_data", 8, {{v, twin ? 4u : 8u, 4}});
               })});
  c.push_back({"BTF-DATASEC-009", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t v = b.add_var("v", 1);
                 b.add_datasec(".rule_data", 8, {{v, twin ? 4u : 6u, 4}});
               })});
  c.push_back({"BTF-DATASEC-011", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t v = b.add_var("v", 1);
                 b.add_datasec(".rule_data", 4, {{twin ? v : 1, 0, 4}});
               })});
  c.push_back({"BTF-DATASEC-012", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t v = b.add_var("v", 1);
                 b.add_datasec(".rule_data", 4, {{v, 0, twin ? 4u : 2u}});
               })});
  c.push_back({"BTF-DATASEC-013", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t v = b.add_var("v", 1);
                 b.add_datasec(".rule_data", 8, {{v, 0, twin ? 4u : 8u}});
               })});
  c.push_back({"BTF-DATASEC-015", edited([](BtfBuilder& b, bool twin) {
                 b.add_datasec(".rule_data", 4, {});
                 b.add_datasec(twin ? ".rule_bss" : ".rule_data", 4, {});
               })});

  // ------------------------------------------------------------ FLOAT, DECL_TAG
  c.push_back({"BTF-FLOAT-001", edited([](BtfBuilder& b, bool twin) { b.add_raw(b.str("double"), BtfBuilder::info(kFloat, twin ? 0 : 1), 8); })});
  c.push_back({"BTF-FLOAT-002", edited([](BtfBuilder& b, bool twin) { b.add_raw(b.str("double"), BtfBuilder::info(kFloat, 0, !twin), 8); })});
  c.push_back({"BTF-FLOAT-003", edited([](BtfBuilder& b, bool twin) { b.add_float("f", twin ? 12 : 3); })});
  c.push_back({"BTF-DTAG-002", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t f = b.add_func("f", b.add_func_proto(1, {}));
                 b.add_decl_tag(twin ? "t" : "", f);
               })});
  c.push_back({"BTF-DTAG-003", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t f = b.add_func("f", b.add_func_proto(1, {}));
                 b.add_raw(b.str("t"), BtfBuilder::info(kDeclTag, twin ? 0 : 1), f, {0xffffffffu});
               })});
  c.push_back({"BTF-DTAG-005", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t f = b.add_func("f", b.add_func_proto(1, {}));
                 b.add_decl_tag("t", f, twin ? -1 : -2);
               })});
  c.push_back({"BTF-DTAG-006", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t p = b.add_ptr(1);
                 const uint32_t f = b.add_func("f", b.add_func_proto(1, {}));
                 b.add_decl_tag("t", twin ? f : p);
               })});
  c.push_back({"BTF-DTAG-007", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t v = b.add_var("v", 1);
                 b.add_decl_tag("t", v, twin ? -1 : 0);
               })});
  c.push_back({"BTF-DTAG-008", edited([](BtfBuilder& b, bool twin) {
                 const uint32_t s = b.add_struct("s", 4, {{"a", 1, 0}});
                 b.add_decl_tag("t", s, twin ? 0 : 1);
               })});

  // ------------------------------------------------------------ special fields
  c.push_back({"BTF-FIELD-003", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 const uint32_t ch = b.add_int("char", 1, 8);
                 b.add_struct("v", 8, {{"c", ch, 0}, {"l", sp.get("bpf_spin_lock"), twin ? 32u : 16u}});
               })});
  c.push_back({"BTF-FIELD-004", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 std::vector<M> m{{"l", sp.get("bpf_spin_lock"), 0}, {"a", 1, 32, 4}};
                 if (!twin) m.push_back({"b", 1, 36, 4});
                 b.add_struct("v", 8, m);
               })});
  c.push_back({"BTF-FIELD-005", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 const uint32_t l = sp.get("bpf_spin_lock");
                 b.add_struct("v", 8, {{"a", l, 0}, {"b", twin ? 1 : l, 32}});
               })});
  // Debian's 6.12 counts a refcount in an embedded struct against one in the
  // processed struct.
  c.push_back(RuleCase("BTF-FIELD-006", edited([](BtfBuilder& b, bool twin) {
                         Specials sp(b);
                         const uint32_t r = sp.get("bpf_refcount");
                         const uint32_t inner = b.add_struct("inner", 4, {{"r", twin ? 1 : r, 0}});
                         b.add_struct("v", 8, {{"r", r, 0}, {"i", inner, 32}});
                       })).on({6, 12}));
  c.push_back({"BTF-FIELD-007", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 const uint32_t r = sp.get("bpf_res_spin_lock");
                 b.add_struct("v", 8, {{"a", sp.get("bpf_spin_lock"), 0}, {"b", twin ? 1 : r, 32}});
               })});
  c.push_back({"BTF-FIELD-008", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 b.add_struct("v", 32, {{"n", sp.get("bpf_list_node"), 0}, {"l", sp.get("bpf_spin_lock"), twin ? 192u : 64u}});
               })});
  c.push_back({"BTF-FIELD-009", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 const uint32_t locks = b.add_array(sp.get("bpf_spin_lock"), 1, twin ? 1 : 2);
                 b.add_struct("v", 12, {{"r", sp.get("bpf_refcount"), 0}, {"l", locks, 32}});
               })});
  c.push_back({"BTF-FIELD-010", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 const uint32_t p = sp.kptr("kptr_untrusted", b.add_struct("elfmeta_obj", 4, {{"x", 1, 0}}));
                 std::vector<std::string> names;
                 std::vector<M> m;
                 const uint32_t n = twin ? 11 : 12;
                 names.reserve(n);
                 for (uint32_t i = 0; i < n; ++i) {
                   names.push_back("p" + std::to_string(i));
                   m.push_back({names.back(), p, i * 64});
                 }
                 b.add_struct("v", n * 8, m);
               })});
  // Inner structs get the lower ids, so that the reference pass resolves the
  // chain one level at a time and only the field scan sees its depth.
  c.push_back({"BTF-FIELD-011", [](bool twin, const BtfBuilder& ctx) {
                 BtfBuilder b = BtfBuilder(ctx);
                 Specials sp(b);
                 const uint32_t lock = sp.get("bpf_spin_lock");
                 uint32_t inner = b.add_struct("l0", 4, {{"x", 1, 0}});
                 for (uint32_t level = 1; level < (twin ? 31u : 32u); ++level)
                   inner = b.add_struct("l" + std::to_string(level), 4, {{"x", inner, 0}});
                 b.add_struct("v", 8, {{"l", lock, 0}, {"deep", inner, 32}});
                 return b.build();
               }});
  auto graph = [](BtfBuilder& b, Specials& sp, const char* tag, bool lock, bool second_node_struct = false) {
    const uint32_t node = second_node_struct ? b.add_struct("bpf_list_node", 24, {{"x", 1, 0}}) : sp.get("bpf_list_node");
    b.add_struct("elem", 32, {{"data", 1, 0}, {"n", node, 64}});
    std::vector<M> m{{"head", sp.get("bpf_list_head"), 0}};
    if (lock) m.push_back({"lock", sp.get("bpf_spin_lock"), 128});
    const uint32_t root = b.add_struct("root", 24, m);
    b.add_decl_tag(tag, root, 0);
  };
  c.push_back({"BTF-FIELD-012", edited([graph](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 graph(b, sp, "contains:elem:n", twin);
               })});
  c.push_back({"BTF-FIELD-013", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 std::vector<M> m{{"ln", sp.get("bpf_list_node"), 0}, {"rn", sp.get("bpf_rb_node"), 192}};
                 if (twin) m.push_back({"r", sp.get("bpf_refcount"), 448});
                 b.add_struct("v", 64, m);
               })});
  c.push_back({"BTF-FIELD-014", edited([graph](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 graph(b, sp, twin ? "contains:elem:n" : "container:elem:n", true);
               })});
  c.push_back({"BTF-FIELD-015", edited([graph](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 graph(b, sp, twin ? "contains:elem:n" : "contains:nosuch:n", true);
               })});
  c.push_back({"BTF-FIELD-016", edited([graph](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 graph(b, sp, twin ? "contains:elem:n" : "contains:elem:data", true);
               })});
  // The node member uses a second struct named bpf_list_node, which is not
  // the trigger (the first one), so the element struct is never scanned.
  c.push_back({"BTF-FIELD-017", edited([graph](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 sp.get("bpf_list_node");
                 graph(b, sp, "contains:elem:n", true, !twin);
               })});
  c.push_back({"BTF-FIELD-018", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 const uint32_t node = sp.get("bpf_list_node");
                 b.add_struct("leaf", 32, {{"data", 1, 0}, {"n", node, 64}});
                 const uint32_t t = b.add_struct("tree", 48, {{"lock", sp.get("bpf_spin_lock"), 0},
                                                              {"head", sp.get("bpf_list_head"), 64},
                                                              {"n", node, 192}});
                 b.add_decl_tag(twin ? "contains:leaf:n" : "contains:tree:n", t, 1);
               })});
  c.push_back({"BTF-FIELD-019", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 const uint32_t target = twin ? b.add_struct("elfmeta_obj", 4, {{"x", 1, 0}}) : 1;
                 b.add_struct("v", 16, {{"l", sp.get("bpf_spin_lock"), 0}, {"p", sp.kptr("kptr_untrusted", target), 64}});
               })});
  // Linux 7.2: a chain of 9 program structs, each holding a percpu_kptr to
  // the next; the twin's chain has 8, the most the kernel allows.
  c.push_back(RuleCase("BTF-FIELD-023", edited([](BtfBuilder& b, bool twin) {
                         const uint32_t n = twin ? 8 : 9;
                         const uint32_t leaf = b.add_struct("elfmeta_leaf", 4, {{"x", 1, 0}});
                         const uint32_t first = b.next_id();  // tag, pointer, struct per link
                         for (uint32_t k = 0; k < n; ++k) {
                           const uint32_t next = k + 1 < n ? first + 3 * k + 5 : leaf;
                           b.add_struct("elfmeta_s" + std::to_string(k), 8,
                                        {{"p", b.add_ptr(b.add_type_tag("percpu_kptr", next)), 0}});
                         }
                       })).on({7, 2}));
  c.push_back({"BTF-FIELD-021", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 const uint32_t obj = b.add_struct("elfmeta_obj", 4, {{"x", 1, 0}});
                 b.add_struct("v", 8, {{"p", sp.kptr(twin ? "kptr_untrusted" : "kptr", obj), 0}});
               })});
  // The kernel's scan visits a struct again wherever it is a member: three
  // members of the next struct, 14 levels down, are 2.4 million visits (the
  // twin, 13 levels, 797,161). Both are valid BTF.
  c.push_back({"BTF-FIELD-022", edited([](BtfBuilder& b, bool twin) {
                 Specials sp(b);
                 const uint32_t depth = twin ? 13 : 14;
                 const uint32_t lock = sp.get("bpf_spin_lock");
                 const uint32_t s0 = b.next_id() + 1;  // after top
                 b.add_struct("top", 8, {{"l", lock, 0}, {"s", s0, 32}});
                 for (uint32_t k = 0; k < depth; ++k) {
                   const std::string name = "s" + std::to_string(k);
                   if (k + 1 == depth)
                     b.add_struct(name, 4, {{"v", 1, 0}});
                   else
                     b.add_struct(name, 4, {{"a", s0 + k + 1, 0}, {"b", s0 + k + 1, 0}, {"c", s0 + k + 1, 0}});
                 }
               })});

  // ------------------------------------------------------------ version gates
  // Each feature on the last release that refused it; the twin leaves it out.
  c.push_back(RuleCase("BTF-VER-001", edited([](BtfBuilder& b, bool twin) {
                         if (!twin) b.add_func_proto(1, {{"a", 1}});
                       })).on({4, 20}));
  c.push_back(RuleCase("BTF-VER-002", edited([](BtfBuilder& b, bool twin) {
                         if (!twin) b.add_var("v", 1);
                       })).on({5, 1}));
  c.push_back(RuleCase("BTF-VER-003", edited([](BtfBuilder& b, bool twin) {
                         b.add_func("f", b.add_func_proto(1, {}), twin ? 0 : 1);
                       })).on({5, 5}));
  c.push_back(RuleCase("BTF-VER-004", edited([](BtfBuilder& b, bool twin) {
                         if (!twin) b.add_float("double", 8);
                       })).on({5, 12}));
  c.push_back(RuleCase("BTF-VER-005", edited([](BtfBuilder& b, bool twin) {
                         const uint32_t s = b.add_struct("s", 4, {{"x", 1, 0}});
                         if (!twin) b.add_decl_tag("tag", s);
                       })).on({5, 15}));
  c.push_back(RuleCase("BTF-VER-006", edited([](BtfBuilder& b, bool twin) {
                         b.add_ptr(twin ? 1 : b.add_type_tag("user", 1));
                       })).on({5, 16}));
  c.push_back(RuleCase("BTF-VER-007", edited([](BtfBuilder& b, bool twin) {
                         if (twin)
                           b.add_enum("e", 4, {{"A", 1}});
                         else
                           b.add_enum64("e", 8, {{"A", 1}});
                       })).on({5, 19}));
  c.push_back(RuleCase("BTF-VER-008", edited([](BtfBuilder& b, bool twin) {
                         b.add_struct(std::string(twin ? 128 : 129, 'n'), 4, {{"x", 1, 0}});
                       })).on({6, 0}));
  c.push_back(RuleCase("BTF-VER-009", edited([](BtfBuilder& b, bool twin) {
                         const uint32_t v = b.add_var("v", 1, 1);
                         b.add_datasec(twin ? ".data.x" : ".data x", 4, {{v, 0, 4}});
                       })).on({6, 8}));
  // A module whose .BTF continues a distilled base (.BTF.base): the twin is
  // the same module without it, which then needs its vmlinux.
  c.push_back(RuleCase("BTF-VER-010", [](bool twin, const BtfBuilder& ctx) {
                         const Blob base = split_base();
                         BtfBuilder split(kSplitBaseTypes, kSplitBaseStrLen);
                         split.add_ptr(1);
                         std::vector<ElfSection> sections = {{".BTF", split.build()},
                                                             {".modinfo", {'n', 'a', 'm', 'e', '=', 'm', 0}}};
                         if (!twin) sections.push_back({".BTF.base", base});
                         return make_elf(sections, 1 /* ET_REL */);
                       }, kModuleLoad).on({6, 10}).as_elf());
  c.push_back(RuleCase("BTF-VER-015", edited([](BtfBuilder& b, bool twin) {
                         b.add_func(twin ? "f_cold" : "f.cold", b.add_func_proto(1, {}));
                       })).on({6, 3}));
  c.push_back(RuleCase("BTF-VER-016", edited([](BtfBuilder& b, bool twin) {
                         b.add_enum("e", twin ? 4 : 2, {{"A", 1}});
                       })).on({5, 3}));
  c.push_back(RuleCase("BTF-VER-017", edited([](BtfBuilder& b, bool twin) {
                         b.add_int(twin ? "long" : "__int128", twin ? 8 : 16, twin ? 64 : 128);
                       })).on({5, 0}));
  c.push_back(RuleCase("BTF-VER-018", edited([](BtfBuilder& b, bool twin) {
                         const uint32_t v = b.add_var("v", 1);
                         if (twin)
                           b.add_datasec(".rule_data", 4, {{v, 0, 4}});
                         else
                           b.add_datasec(".rule_data", 4, {});
                       })).on({5, 11}));
  c.push_back(RuleCase("BTF-VER-011", edited([](BtfBuilder& b, bool twin) {
                         b.add_ptr(b.add_type_tag("attr", 1, /*kflag=*/!twin));
                       })).on({6, 14}));

  // ------------------------------------------------------------ 7.1 kind layout
  // Types, then strings, then a layout of 2 entries that starts 2 bytes off
  // alignment (7.1 allows any order with a 32-byte header).
  c.push_back(RuleCase("BTF-LAYOUT-006", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         p.strings.resize((p.strings.size() + 3) / 4 * 4 + (twin ? 0 : 2), 0);
                         const uint32_t type_len = static_cast<uint32_t>(p.types.size());
                         const uint32_t str_len = static_cast<uint32_t>(p.strings.size());
                         const uint32_t layout_off = type_len + str_len;
                         p.hdr_len = 32;
                         p.header_tail.assign(8, 0);
                         std::memcpy(p.header_tail.data(), &layout_off, 4);
                         const uint32_t layout_len = 8;
                         std::memcpy(p.header_tail.data() + 4, &layout_len, 4);
                         Blob blob = p.assemble();
                         blob.insert(blob.end(), {0, 0, 0, 0, 0, 0, 0, 0});
                         return blob;
                       }, kBpfBtfLoad, nullptr, {"BTF-HDR-017"}).on({7, 1}));  // not the producers' order
  c.push_back(RuleCase("BTF-LAYOUT-007", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         with_layout(p, std::vector<uint8_t>(twin ? 8 : 6, 0));
                         return p.assemble();
                       }).on({7, 1}));

  // ------------------------------------------------------------ libbpf
  // libbpf's checks under --libbpf; the kernel's findings on the same blob
  // (warnings there) are listed as `also`.
  c.push_back(RuleCase("BTF-LIBBPF-001", [](bool twin, const BtfBuilder& ctx) {
                         Blob b = ctx.build();
                         if (!twin) b.resize(20);
                         return b;
                       }, kLibbpf, nullptr, {"BTF-HDR-002"}).on_libbpf({1, 1}));
  c.push_back(RuleCase("BTF-LIBBPF-002", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         if (!twin) {
                           p.hdr_len = 32;
                           p.header_tail.assign(8, 0);
                         }
                         return btf::swap_byte_order(p.assemble(), true);
                       }).on_libbpf({1, 7}));
  c.push_back(RuleCase("BTF-LIBBPF-003", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         if (!twin) p.magic = 0xEB9E;
                         return p.assemble();
                       }, kLibbpf, nullptr, {"BTF-HDR-004"}).on_libbpf({1, 1}));
  c.push_back(RuleCase("BTF-LIBBPF-004", [](bool twin, const BtfBuilder& ctx) {
                         Blob b = ctx.build();
                         if (!twin) set32(b, 4, static_cast<uint32_t>(b.size() + 4));
                         return b;
                       }, kLibbpf, nullptr, {"BTF-HDR-002"}).on_libbpf({1, 1}));
  c.push_back(RuleCase("BTF-LIBBPF-005", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         if (!twin) p.str_len = static_cast<uint32_t>(p.strings.size() + 100);
                         return p.assemble();
                       }, kLibbpf, nullptr, {"BTF-HDR-011"}).on_libbpf({1, 1}));
  c.push_back(RuleCase("BTF-LIBBPF-006", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         p.strings.resize((p.strings.size() + 3) / 4 * 4, 0);
                         p.strings_first = !twin;
                         return p.assemble();
                       }, kLibbpf, nullptr, {"BTF-HDR-013"}).on_libbpf({1, 1}));
  // Two bytes before the types: a gap libbpf allows, an alignment it does not.
  c.push_back(RuleCase("BTF-LIBBPF-007", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         const uint32_t pad = twin ? 4 : 2;
                         p.type_off = pad;
                         p.str_off = static_cast<uint32_t>(pad + p.types.size());
                         p.types.insert(p.types.begin(), pad, 0);
                         p.type_len = static_cast<uint32_t>(p.types.size() - pad);
                         return p.assemble();
                       }, kLibbpf, nullptr, {"BTF-HDR-009"}).on_libbpf({1, 1}));
  c.push_back(RuleCase("BTF-LIBBPF-008", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         with_layout(p, std::vector<uint8_t>(twin ? 8 : 6, 0));
                         return p.assemble();
                       }, kLibbpf, nullptr, {"BTF-LAYOUT-007"}).on({7, 1}).on_libbpf({1, 8}));
  c.push_back(RuleCase("BTF-LIBBPF-009", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         if (!twin) p.strings.back() = 'x';
                         return p.assemble();
                       }, kLibbpf, nullptr, {"BTF-STR-003"}).on_libbpf({1, 1}));
  c.push_back(RuleCase("BTF-LIBBPF-010", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         if (!twin) p.strings[0] = 'x';
                         return p.assemble();
                       }, kLibbpf, nullptr, {"BTF-STR-004"}).on_libbpf({1, 6}));
  c.push_back(RuleCase("BTF-LIBBPF-011", edited([](BtfBuilder& b, bool twin) {
                         b.add_raw(0, BtfBuilder::info(twin ? 2 : 20), 1);
                       }), kLibbpf, nullptr, {"BTF-TYPE-003"}).on_libbpf({1, 7}));
  // libbpf 1.8 sizes kind 20 from a layout of 21 entries; the kernel never
  // accepts kind 20.
  c.push_back(RuleCase("BTF-LIBBPF-012", [](bool twin, const BtfBuilder& ctx) {
                         BtfBuilder b(ctx);
                         b.add_raw(0, BtfBuilder::info(20), 0);
                         auto p = b.parts();
                         std::vector<uint8_t> layout(21 * 4, 0);
                         layout[20 * 4] = twin ? 4 : 2;  // info_sz
                         p.types.insert(p.types.end(), 4, 0);  // 4 bytes of record data
                         with_layout(p, std::move(layout));
                         return p.assemble();
                       }, kLibbpf, nullptr, {"BTF-TYPE-003"}).on({7, 1}).on_libbpf({1, 8}));
  c.push_back(RuleCase("BTF-LIBBPF-013", [](bool twin, const BtfBuilder& ctx) {
                         BtfBuilder b(ctx);
                         b.add_struct("s", 8, {{"a", 1, 0}, {"b", 1, 32}});
                         auto p = b.parts();
                         if (!twin) {
                           p.types.resize(p.types.size() - 12);  // the second member is cut off
                           p.type_len = static_cast<uint32_t>(p.types.size());
                         }
                         return p.assemble();
                       }, kLibbpf, nullptr, {"BTF-TYPE-004"}).on_libbpf({1, 1}));
  c.push_back(RuleCase("BTF-LIBBPF-014", [](bool twin, const BtfBuilder& ctx) {
                         auto p = BtfBuilder(ctx).parts();
                         if (!twin) p.types.insert(p.types.end(), 4, 0);
                         return p.assemble();
                       }, kLibbpf, nullptr, {"BTF-TYPE-001"}).on_libbpf({1, 1}));
  c.push_back(RuleCase("BTF-LIBBPF-015", edited([](BtfBuilder& b, bool twin) {
                         const uint32_t l = b.add_int("long", 8, 64);
                         if (!twin) b.record(l)[0] = static_cast<uint32_t>(b.strings().size() + 1000);
                       }), kLibbpf, nullptr, {"BTF-STR-006"}).on_libbpf({1, 3}));
  c.push_back(RuleCase("BTF-LIBBPF-016", edited([](BtfBuilder& b, bool twin) {
                         b.add_ptr(twin ? 1 : b.next_id() + 100);
                       }), kLibbpf, nullptr, {"BTF-TYPE-007"}).on_libbpf({1, 3}));
  c.push_back(RuleCase("BTF-LIBBPF-017", edited([](BtfBuilder& b, bool twin) {
                         const uint32_t proto = b.add_func_proto(1, {});
                         b.add_func("f", twin ? proto : 1);
                       }), kLibbpf, nullptr, {"BTF-FUNC-004"}).on_libbpf({1, 3}));
  // struct outer { struct { int **...* deep; } *inner; }: the stack holds
  // PTR and the anonymous STRUCT, then the member's pointers and int on top
  // (libbpf 1.7 under ASan: a use after free with 14 pointers, clean with 13).
  c.push_back(RuleCase("BTF-LIBBPF-018", edited([](BtfBuilder& b, bool twin) {
                         uint32_t deep = 1;
                         for (int i = 0; i < (twin ? 13 : 14); ++i) deep = b.add_ptr(deep);
                         const uint32_t anonymous = b.add_struct("", 8, {{"deep", deep, 0}});
                         b.add_struct("outer", 8, {{"inner", b.add_ptr(anonymous), 0}});
                       }), kLibbpf).on_libbpf({1, 7}));
  // int (*)(int (*)(...)): a prototype whose parameter points back at it,
  // which the kernel accepts and btf_dump orders without end (sid's bpftool
  // 7.8: SIGSEGV); the twin's parameter points at int.
  c.push_back(RuleCase("BTF-LIBBPF-019", edited([](BtfBuilder& b, bool twin) {
                         const uint32_t proto = b.next_id();
                         b.add_func_proto(1, {{"self", twin ? 1 : proto + 1}});
                         b.add_ptr(proto);
                       }), kLibbpf).on_libbpf({1, 7}));
  // struct S { struct S (*p)[2]; }: an array's element must be complete, so
  // btf_dump cannot declare S ahead (-ELOOP; legal Rust makes it); the twin
  // points at S itself.
  c.push_back(RuleCase("BTF-LIBBPF-020", edited([](BtfBuilder& b, bool twin) {
                         const uint32_t s = b.next_id();
                         b.add_struct("S", 8, {{"p", s + 1, 0}});
                         b.add_ptr(twin ? s : s + 2);
                         b.add_array(s, 1, 2);
                       }), kLibbpf).on_libbpf({1, 7}));
  return c;
}

}  // namespace

BtfBuilder rule_case_context() { return with_int(); }

Outcome run_case(const RuleCase& c, bool twin, const BtfBuilder& context) {
  btf::CheckOptions options;
  options.consumer = c.consumer;
  options.kernel = btf::KernelProfile(c.kernel);
  if (c.libbpf) options.libbpf = *c.libbpf;
  options.concurrent = false;
  DiagnosticList base_diags, diags;
  Outcome o;
  std::ostringstream listing;
  auto collect = [&](const DiagnosticList& list) {
    for (const auto& d : list.items()) {
      write_text(listing, d);
      if (d.rule) o.rules.insert(std::string(d.rule->id));
      o.errors += d.severity == Severity::Error;
    }
    o.listing = listing.str();
  };
  const Blob blob = c.make_in(twin, context);
  if (c.elf) {
    auto opened = input::open_bytes("case.ko", blob);
    if (!opened.artifact) {
      o.listing = opened.error;
      ++o.errors;
      return o;
    }
    btf::check_artifact_btf(*opened.artifact, nullptr, options, diags);
    collect(diags);
    return o;
  }
  btf::CheckedBtf base;
  Blob base_blob;
  if (c.base) {
    base_blob = c.base();
    base = btf::check_btf(base_blob, nullptr, options, "base", ".BTF", base_diags);
    if (!base_diags.items().empty()) {
      o.rules.insert("<base not clean>");
      collect(base_diags);
      return o;
    }
  }
  btf::check_btf(blob, c.base ? &base : nullptr, options, "case", ".BTF", diags);
  collect(diags);
  return o;
}

const std::vector<RuleCase>& btf_rule_cases() {
  static const std::vector<RuleCase> cases = make_cases();
  return cases;
}

}  // namespace elfmeta::testing
