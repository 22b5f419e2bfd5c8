// The kind-by-kind walks every pass uses (kind_mask.h).
#include <gtest/gtest.h>

#include <vector>

#include "btf/btf_format.h"
#include "btf/kind_mask.h"

namespace elfmeta::btf {
namespace {

// 150 kinds: across three chunks of 64, the last one short.
std::vector<uint8_t> alternating_kinds() {
  std::vector<uint8_t> kinds(150, kFunc);
  for (size_t i = 0; i < kinds.size(); i += 3) kinds[i] = kStruct;
  return kinds;
}

TEST(KindMask, VisitsTheTypesOfTheKindsInOrder) {
  const auto kinds = alternating_kinds();
  std::vector<uint32_t> seen;
  for_each_of_kinds<kStruct>(kinds.data(), static_cast<uint32_t>(kinds.size()), [&](uint32_t i) { seen.push_back(i); });
  ASSERT_EQ(seen.size(), 50u);
  for (uint32_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], 3 * k);
  size_t others = 0;
  for_each_not_of_kinds<kStruct>(kinds.data(), static_cast<uint32_t>(kinds.size()), [&](uint32_t) { ++others; });
  EXPECT_EQ(others, 100u);
}

// A function that returns false stops the walk there, within a chunk too.
TEST(KindMask, AFunctionReturningFalseStopsTheWalk) {
  const auto kinds = alternating_kinds();
  std::vector<uint32_t> seen;
  for_each_of_kinds<kStruct>(kinds.data(), static_cast<uint32_t>(kinds.size()), [&](uint32_t i) {
    seen.push_back(i);
    return i < 99;  // 99 is the 34th struct, in the second chunk
  });
  ASSERT_EQ(seen.size(), 34u);
  EXPECT_EQ(seen.back(), 99u);
}

}  // namespace
}  // namespace elfmeta::btf
