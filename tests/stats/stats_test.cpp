// The stats file: what it counts, its JSON round trip, and what from_json refuses.
#include "stats/stats.h"

#include <gtest/gtest.h>

namespace elfmeta::stats {
namespace {

TEST(Stats, JsonRoundTripKeepsEveryCount) {
  Stats s;
  s.inputs = {"linux-image-x.deb"};
  s.kernel = "6.12";
  s.artifacts = {{"kernel image", 1}, {"module", 3}};
  s.btf["kernel image"] = {1, 100, 2000, 3000, {{"STRUCT", 10}, {"FUNC", 90}}, {{"24", 1}}};
  s.orc["module"] = {3, 42, {{"call", 40}, {"regs", 2}}, {{"G3", 3}}};
  s.sframe["executable"] = {1, 5, 50};
  s.findings["XC-SYM-002"] = {0, 7, 1};
  s.finding_keys["XC-SYM-002 vmlinux: FUNC 'f'"] = 2;
  std::string error;
  auto back = from_json(to_json(s), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->inputs, s.inputs);
  EXPECT_EQ(back->artifacts, s.artifacts);
  EXPECT_EQ(back->btf["kernel image"].types, 100u);
  EXPECT_EQ(back->btf["kernel image"].kinds["FUNC"], 90u);
  EXPECT_EQ(back->orc["module"].types["regs"], 2u);
  EXPECT_EQ(back->sframe["executable"].fres, 50u);
  EXPECT_EQ(back->findings["XC-SYM-002"].warning, 7u);
  EXPECT_EQ(back->findings["XC-SYM-002"].total(), 8u);
  EXPECT_EQ(back->finding_keys, s.finding_keys);
}

// What the canary (tools/upstream-canary) reads for news: BTF header
// lengths and ORC layouts; files written before they were counted still read.
TEST(Stats, HeaderLengthsAndOrcLayoutsRoundTrip) {
  Stats s;
  s.btf["kernel image"].header_lengths = {{"32", 1}};
  s.orc["module"].layouts = {{"G4", 1016}, {"unknown", 1}};
  std::string error;
  auto back = from_json(to_json(s), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->btf["kernel image"].header_lengths["32"], 1u);
  EXPECT_EQ(back->orc["module"].layouts["unknown"], 1u);
  const auto flat = flatten(s);
  EXPECT_EQ(flat.at("btf.kernel image.header_lengths.32"), 1u);
  EXPECT_EQ(flat.at("orc.module.layouts.G4"), 1016u);
  auto old = from_json(R"({"elfmeta_stats": 1, "btf": {"module": {"blobs": 1, "types": 2, "type_bytes": 3,
                           "string_bytes": 4, "kinds": {}}}, "orc": {"module": {"tables": 1, "entries": 2, "types": {}}}})",
                       error);
  ASSERT_TRUE(old) << error;
  EXPECT_TRUE(old->btf["module"].header_lengths.empty());
  EXPECT_TRUE(old->orc["module"].layouts.empty());
}

TEST(Stats, RefusesWhatIsNotAStatsFile) {
  std::string error;
  EXPECT_FALSE(from_json("[1, 2", error));
  EXPECT_EQ(error, "not JSON");
  EXPECT_FALSE(from_json(R"({"elfmeta_stats": 99})", error));
  EXPECT_NE(error.find("format 1"), std::string::npos);
  EXPECT_FALSE(from_json(R"({"elfmeta_stats": 1, "btf": {"module": {"blobs": "many"}}})", error));
  EXPECT_NE(error.find("malformed"), std::string::npos) << error;
  EXPECT_TRUE(from_json(R"({"elfmeta_stats": 1})", error)) << error;
}

TEST(Stats, MovedCountsAreTheFlatPathsThatDiffer) {
  Stats o, n;
  o.btf["module"].kinds = {{"STRUCT", 4}, {"FWD", 1}};
  n.btf["module"].kinds = {{"STRUCT", 6}};
  n.findings["BTF-TYPE-007"] = {2, 0, 0};
  o.orc["kernel image"].types = n.orc["kernel image"].types = {{"call", 9}};
  const auto moved = moved_counts(o, n);
  std::map<std::string, int64_t> deltas;
  for (const auto& m : moved) deltas[m.path] = m.delta();
  EXPECT_EQ(deltas, (std::map<std::string, int64_t>{
                        {"btf.module.kinds.FWD", -1}, {"btf.module.kinds.STRUCT", 2}, {"findings.BTF-TYPE-007", 2}}));
  EXPECT_TRUE(moved_counts(n, n).empty());
}

TEST(Stats, StableArtifactNames) {
  EXPECT_EQ(stable_artifact_name("vmlinuz-6.12.9-cloud-amd64", "kernel image"), "vmlinux");
  EXPECT_EQ(stable_artifact_name("sunrpc.ko.xz", "module"), "sunrpc.ko");
  EXPECT_EQ(stable_artifact_name("sunrpc.ko.zst", "module"), "sunrpc.ko");
  EXPECT_EQ(stable_artifact_name("a.out", "executable"), "a.out");
}

}  // namespace
}  // namespace elfmeta::stats

namespace elfmeta::stats {
namespace {

// Coverage figures (elfmeta coverage) per artifact kind: summed, kept by the
// JSON round trip, and flat paths that diff compares; a file without them
// (every baseline before issue 31) still reads.
TEST(Stats, CoverageCountsRoundTripAndMove) {
  Stats s;
  s.add_coverage("module", {{"functions.total", 10}, {"functions.covered", 7}});
  s.add_coverage("module", {{"functions.total", 5}, {"functions.covered", 5}, {"unwind.total", 0}});
  EXPECT_EQ(s.coverage["module"]["functions.total"], 15u);
  EXPECT_EQ(s.coverage["module"].count("unwind.total"), 0u);  // zeros left out
  std::string error;
  auto back = from_json(to_json(s), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->coverage, s.coverage);
  EXPECT_EQ(flatten(s).at("coverage.module.functions.covered"), 12u);
  Stats newer = s;
  newer.add_coverage("module", {{"functions.covered", 3}});
  const auto moved = moved_counts(s, newer);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].path, "coverage.module.functions.covered");
  EXPECT_EQ(moved[0].delta(), 3);
  auto old = from_json(R"({"elfmeta_stats": 1})", error);
  ASSERT_TRUE(old) << error;
  EXPECT_TRUE(old->coverage.empty());
}

}  // namespace
}  // namespace elfmeta::stats
