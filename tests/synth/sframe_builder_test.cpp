#include "synth/sframe_builder.h"

#include <gtest/gtest.h>

#include <cstring>

namespace elfmeta::synth {
namespace {

int64_t start_field_v3(const SframeBytes& out, size_t fde) {
  int64_t start;
  std::memcpy(&start, out.bytes.data() + out.fde_at[fde], 8);
  return start;
}

// A mutated plan may put a function anywhere in the address space; the
// start field is the difference modulo 2^64, as a linker writes it (found by
// the fuzz_libsframe smoke run as a signed overflow in the builder).
TEST(SframeBuilder, StartFieldWrapsLikeTheLinkersArithmetic) {
  SframePlan plan = typical_sframe(3, sframe::kAmd64Le, 2);
  plan.text_addr = 0;
  plan.sframe_addr = 0x100;
  plan.fdes[1].offset = uint64_t(1) << 63;  // far above the section: the difference passes INT64_MAX
  plan.fdes[0].offset = 0x40;
  const SframeBytes out = encode_sframe(plan, SframeFile::Linked);
  ASSERT_EQ(out.fde_at.size(), 2u);
  EXPECT_EQ(start_field_v3(out, 0), int64_t(0x40) - int64_t(0x100 + out.fde_at[0]));
  const uint64_t expected = (uint64_t(1) << 63) - (0x100 + out.fde_at[1]);
  EXPECT_EQ(static_cast<uint64_t>(start_field_v3(out, 1)), expected);
}

}  // namespace
}  // namespace elfmeta::synth
