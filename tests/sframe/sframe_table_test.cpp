// Reading a large section on two threads (the second reads quietly and
// stops at the first finding; the first reads that block and the rest
// again) gives the findings, their order and the model of a sequential read.
#include <gtest/gtest.h>

#include "core/diagnostic.h"
#include "input/artifact.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"
#include "synth/sframe_builder.h"

namespace elfmeta::testing {
namespace {

using synth::SframeFile;
using synth::SframePlan;

constexpr size_t kFunctions = 6000;  // above the threshold of concurrent reading

struct Read {
  std::string listing;
  size_t fres = 0;
  std::vector<uint32_t> counts;
  std::vector<bool> complete;
};

Read read(const std::vector<uint8_t>& file, bool concurrent) {
  auto opened = input::open_bytes("generated", file);
  EXPECT_NE(opened.artifact, nullptr);
  Read out;
  if (!opened.artifact) return out;
  DiagnosticList list;
  sframe::check_sframe(*opened.artifact, {kNoConsumer, false, concurrent}, list);
  for (const auto& d : list.items())
    out.listing += std::string(d.rule ? d.rule->id : "-") + " " + d.location.section + "+" +
                   std::to_string(d.location.offset.value_or(0)) + " " + d.location.record_label + " " +
                   std::to_string(d.location.index.value_or(0)) + ": " + d.message + "\n";
  sframe::SframeFindings f("generated", list, kNoConsumer);
  const auto t = sframe::read_sframe(*opened.artifact, f, concurrent);
  EXPECT_TRUE(t && t->usable);
  if (!t) return out;
  out.fres = t->fre_count;
  for (const auto& b : t->blocks) {
    out.counts.push_back(b.count);
    out.complete.push_back(b.complete);
  }
  return out;
}

// FDE i's FRE k with size code 3 (SFRAME-FRE-002): its block ends there.
void break_fre(SframePlan& p, size_t i, size_t k) {
  auto& fre = p.fdes.at(i).fres.at(k);
  fre.info = uint8_t(3 << 5 | 1 << 1 | (fre.base_sp ? 0 : 1));
}

struct Case {
  const char* name;
  std::vector<size_t> broken;  // FDEs whose second FRE is broken
};

class ConcurrentRead : public ::testing::TestWithParam<uint8_t> {};

TEST_P(ConcurrentRead, FindingsAndModelEqualTheSequentialRead) {
  const std::vector<Case> cases{
      {"clean", {}},
      {"one in the first half", {17}},
      {"one in the second half", {kFunctions / 2 + 40}},
      {"at the first FDE of the second half", {kFunctions / 2}},
      {"in both halves and at the end", {3, kFunctions / 2 + 1, kFunctions - 900, kFunctions - 1}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    SframePlan p = synth::typical_sframe(GetParam(), sframe::kAmd64Le, kFunctions);
    for (size_t i : c.broken) break_fre(p, i, 1);
    const auto file = synth::sframe_elf(p, SframeFile::Linked);
    const Read one = read(file, false), two = read(file, true);
    EXPECT_EQ(two.listing, one.listing);
    EXPECT_EQ(two.fres, one.fres);
    EXPECT_EQ(two.counts, one.counts);
    EXPECT_EQ(two.complete, one.complete);
    // Each broken FDE is reported once, in FDE order, and only there.
    size_t reported = 0, from = 0;
    for (size_t i : c.broken) {
      const size_t at = one.listing.find("SFRAME-FRE-002", from);
      ASSERT_NE(at, std::string::npos) << one.listing;
      from = at + 1;
      ++reported;
      EXPECT_EQ(one.counts.at(i), 1u);
      EXPECT_FALSE(one.complete.at(i));
    }
    EXPECT_EQ(one.listing.find("SFRAME-FRE-002", from), std::string::npos) << one.listing;
    EXPECT_EQ(reported, c.broken.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Versions, ConcurrentRead, ::testing::Values(uint8_t{1}, uint8_t{2}, uint8_t{3}),
                         [](const auto& info) { return "v" + std::to_string(info.param); });

}  // namespace
}  // namespace elfmeta::testing
