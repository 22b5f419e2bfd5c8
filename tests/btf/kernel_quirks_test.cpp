// Kernel behaviour elfmeta mirrors although it is surprising; each test
// states the behaviour and, where the oracle is available, shows the running
// kernel agrees. docs/btf.md lists them.
#include <gtest/gtest.h>

#include <cstring>

#include "btf/verifier.h"
#include "oracle/kernel_btf_oracle.h"
#include "synth/btf_builder.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;
using Blob = std::vector<uint8_t>;

// Asserts elfmeta's BPF_BTF_LOAD verdict, and the kernel's when it can be asked.
void expect_verdict(const Blob& blob, bool accepted, const char* what) {
  EXPECT_EQ(btf::bpf_load_accepts(blob), accepted) << what << ": elfmeta";
  if (!oracle::kernel_btf_oracle_available()) return;
  const auto v = oracle::kernel_btf_load(blob);
  EXPECT_EQ(v.accepted, accepted) << what << ": kernel (" << oracle::errno_name(v.error) << ": " << v.reason << ")";
}

BtfBuilder with_int() {
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  return b;
}

// A pointer to a FUNC resolves through the FUNC's FUNC_PROTO only when the
// FUNC was resolved first, i.e. has the lower id.
TEST(KernelQuirks, PointerToFuncDependsOnIdOrder) {
  BtfBuilder after = with_int();
  after.add_ptr(4);
  after.add_func_proto(1, {});
  after.add_func("f", 3);
  expect_verdict(after.build(), false, "PTR before its FUNC");
  BtfBuilder before = with_int();
  before.add_func("f", before.add_func_proto(1, {}));
  before.add_ptr(3);
  expect_verdict(before.build(), true, "PTR after its FUNC");
}

// In a kind_flag struct a non-bitfield ENUM member is checked as 32 bits,
// whatever the enum's size: an 8-byte enum fits in a 4-byte struct, a 1-byte
// enum does not fit in a 2-byte one.
TEST(KernelQuirks, KindFlagEnumMembersCountAsFourBytes) {
  BtfBuilder wide = with_int();
  const uint32_t e64 = wide.add_enum64("e", 8, {{"A", 1}});
  wide.add_struct("s", 4, {{"a", e64, 0}}, /*kflag=*/true);
  expect_verdict(wide.build(), true, "8-byte enum in a 4-byte kflag struct");
  BtfBuilder narrow = with_int();
  const uint32_t e8 = narrow.add_enum("e", 1, {{"A", 1}});
  narrow.add_struct("s", 2, {{"a", e8, 0}}, /*kflag=*/true);
  expect_verdict(narrow.build(), false, "1-byte enum in a 2-byte kflag struct");
}

// A member's array size is the size resolved so far: when a qualifier
// resolved through a pointer stopped at an array that is not resolved yet,
// the member check sees size 0.
TEST(KernelQuirks, UnresolvedArrayMemberHasSizeZero) {
  BtfBuilder b = with_int();
  const uint32_t ptr = b.add_ptr(3);   // 2: PTR -> 3
  (void)ptr;
  b.add_const(5);                      // 3: CONST -> ARRAY 5
  b.add_struct("s", 4, {{"big", 3, 0}});  // 4: a 4-byte struct with a 4 MB member
  b.add_array(1, 1, 1000000);          // 5
  expect_verdict(b.build(), true, "array member resolved late");
  BtfBuilder early = with_int();
  early.add_array(1, 1, 1000000);      // 2: resolved before the struct
  early.add_struct("s", 4, {{"big", early.add_const(2), 0}});
  expect_verdict(early.build(), false, "array member resolved first");
}

// Identifier and section-name rules use the kernel's Latin-1 ctype table.
TEST(KernelQuirks, Latin1LettersAndPrintables) {
  auto struct_named = [](const char* name) {
    BtfBuilder b = with_int();
    b.add_struct(name, 0, {});
    return b.build();
  };
  auto section_named = [](const char* name) {
    BtfBuilder b = with_int();
    b.add_datasec(name, 4, {});
    return b.build();
  };
  expect_verdict(struct_named("\xc0"), true, "struct '\\xc0'");
  expect_verdict(struct_named("a\xff"), true, "struct 'a\\xff'");
  expect_verdict(struct_named("\xd7"), false, "struct '\\xd7' (multiplication sign)");
  expect_verdict(struct_named("a\xb5"), false, "struct 'a\\xb5' (micro sign is punctuation)");
  expect_verdict(struct_named("a\x80"), false, "struct 'a\\x80'");
  expect_verdict(section_named("\xa0"), true, "section '\\xa0' (no-break space is printable)");
  expect_verdict(section_named("\x9f"), false, "section '\\x9f'");
}

// Resolving follows references only as far as the first resolved type, so a
// chain of 33 typedefs fails in increasing id order and passes in decreasing.
TEST(KernelQuirks, ResolveDepthDependsOnIdOrder) {
  for (bool increasing : {true, false}) {
    BtfBuilder b = with_int();
    for (uint32_t i = 0; i < 33; ++i) {
      const uint32_t id = b.next_id();
      b.add_typedef("t" + std::to_string(i), increasing ? (i == 32 ? 1 : id + 1) : id - 1);
    }
    expect_verdict(b.build(), !increasing, increasing ? "increasing chain" : "decreasing chain");
  }
}

// A header shorter than 24 bytes leaves the later fields zero: the string
// section is then empty, which base BTF may not be.
TEST(KernelQuirks, ShortHeaderZeroesTheRest) {
  auto parts = with_int().parts();
  parts.hdr_len = 20;
  Blob blob = parts.assemble();
  // The 4 string-length bytes are gone from the header; keep the sections tiled.
  expect_verdict(blob, false, "20-byte header");
}

// 6.18 has no type-count limit below BPF_BTF_LOAD's 16 MiB size limit:
// "Exceeded max num of types" (BTF_MAX_TYPE slots) is not reachable.
TEST(KernelQuirks, NoTypeCountLimitBelowSixteenMegabytes) {
  auto parts = with_int().parts();
  const uint32_t ptr[3] = {0, 2u << 24, 1};
  const size_t records = (16u << 20) / 12 - 4;  // over 0xfffff records
  parts.types.reserve(parts.types.size() + records * 12);
  for (size_t i = 0; i < records; ++i) {
    const size_t at = parts.types.size();
    parts.types.resize(at + 12);
    std::memcpy(parts.types.data() + at, ptr, 12);
  }
  const Blob blob = parts.assemble();
  ASSERT_LE(blob.size(), 16u << 20);
  expect_verdict(blob, true, "1.39 million types");
}

// Kernel BTF (modules, vmlinux) skips the reference pass, so a parameter name
// that is not an identifier only fails BPF_BTF_LOAD.
TEST(KernelQuirks, ParameterNamesAreCheckedOnlyByTheReferencePass) {
  BtfBuilder b = with_int();
  b.add_func_proto(1, {{"not an identifier", 1}});
  DiagnosticList list;
  btf::CheckOptions module_load;
  module_load.consumer = kModuleLoad;
  EXPECT_EQ(btf::check_btf(b.build(), nullptr, module_load, "m", ".BTF", list).errors, 0u);
  EXPECT_TRUE(list.has_rule("BTF-PROTO-006"));  // reported, as a warning
  expect_verdict(b.build(), false, "invalid parameter name");
}

}  // namespace
}  // namespace elfmeta::testing
