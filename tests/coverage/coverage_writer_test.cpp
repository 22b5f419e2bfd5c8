// The writer: sums, JSON objects with total and covered, flat paths, table.
#include <gtest/gtest.h>

#include <sstream>

#include "coverage/coverage.h"

namespace elfmeta::testing {
namespace {

coverage::Coverage sample(uint64_t n) {
  coverage::Coverage c;
  c.artifacts = 1;
  c.functions.total = 10 * n;
  c.functions.covered = 7 * n;
  c.variables.total = 5 * n;
  c.variables.percpu_covered = n;
  c.unwind.text_bytes = 100 * n;
  c.unwind.orc_tables = 1;
  return c;
}

TEST(CoverageWriter, SumsEveryCount) {
  coverage::Coverage total = sample(1);
  total += sample(2);
  EXPECT_EQ(total.artifacts, 2u);
  EXPECT_EQ(total.functions.total, 30u);
  EXPECT_EQ(total.functions.covered, 21u);
  EXPECT_EQ(total.variables.percpu_covered, 3u);
  EXPECT_EQ(total.unwind.text_bytes, 300u);
  EXPECT_EQ(total.unwind.orc_tables, 2u);
}

TEST(CoverageWriter, JsonHasTotalAndCoveredPerFamily) {
  const nlohmann::json j = coverage::to_json(sample(3));
  for (const char* family : {"functions", "variables", "unwind"}) {
    ASSERT_TRUE(j.contains(family)) << family;
    EXPECT_TRUE(j[family]["total"].is_number_unsigned()) << family;
    EXPECT_TRUE(j[family]["covered"].is_number_unsigned()) << family;
  }
  EXPECT_EQ(j["functions"]["total"], 30u);
  EXPECT_EQ(j["unwind"]["text_bytes"], 300u);
  const auto flat = coverage::flat_counts(sample(3));
  EXPECT_EQ(flat.at("functions.covered"), 21u);
  EXPECT_EQ(flat.at("variables.percpu_covered"), 3u);
  EXPECT_EQ(flat.count("unwind.tail_only"), 1u);
}

TEST(CoverageWriter, TableHasARowPerArtifactWithPercentages) {
  std::ostringstream out;
  coverage::write_table(out, {{"vmlinux", sample(1), true}, {"no-unwind", coverage::Coverage{}, true}});
  const std::string text = out.str();
  EXPECT_NE(text.find("7/10 70.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("- (no ORC/SFrame)"), std::string::npos) << text;
}

}  // namespace
}  // namespace elfmeta::testing
