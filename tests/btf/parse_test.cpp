// The walk that sizes the records (parse.cpp): on two threads for a large
// type section, in four runs of records, of which the last three are guessed
// from cuts in the bytes. It must give the records and findings of one walk,
// whatever the bytes.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "btf/parse.h"
#include "core/report.h"
#include "synth/btf_builder.h"

namespace elfmeta::btf {
namespace {

struct Walk {
  std::string findings;
  std::vector<RecordHead> heads;
  std::vector<uint8_t> kinds;
  bool complete = false;
};

Walk walk(const std::vector<uint8_t>& blob, bool concurrent) {
  DiagnosticList list;
  CheckContext ctx;
  Findings f(ctx, list);
  ParseOptions options;
  options.concurrent = concurrent;
  Walk w;
  if (auto btf = parse(blob, options, f)) {
    w.heads.assign(btf->heads(), btf->heads() + btf->own_count());
    w.kinds.assign(btf->kinds(), btf->kinds() + btf->own_count());
    w.complete = btf->types_complete();
  }
  std::ostringstream s;
  for (const auto& d : list.items()) write_text(s, d);
  w.findings = s.str();
  return w;
}

void expect_same_walk(const std::vector<uint8_t>& blob, const std::string& what) {
  const Walk one = walk(blob, false), two = walk(blob, true);
  ASSERT_EQ(two.findings, one.findings) << what;
  ASSERT_EQ(two.complete, one.complete) << what;
  ASSERT_EQ(two.kinds, one.kinds) << what;
  ASSERT_EQ(two.heads.size(), one.heads.size()) << what;
  for (size_t i = 0; i < one.heads.size(); ++i)
    ASSERT_TRUE(two.heads[i].info == one.heads[i].info && two.heads[i].size_or_type == one.heads[i].size_or_type &&
                two.heads[i].offset == one.heads[i].offset)
        << what << ": record " << i;
}

// Over 256 KiB of records of many sizes: small ones in the second half, as
// in a vmlinux (FUNCs after the structs).
std::vector<uint8_t> large_blob() {
  using synth::BtfBuilder;
  BtfBuilder b;
  const uint32_t i32 = b.add_int("int", 4, 32, 1);
  std::vector<std::string> names;  // the specs view them
  for (uint32_t k = 0; k < 19; ++k) names.push_back("m" + std::to_string(k));
  for (uint32_t i = 0; i < 4000; ++i) {
    std::vector<BtfBuilder::MemberSpec> members;
    for (uint32_t m = 0; m < i % 19; ++m) members.push_back({names[m], i32, 32 * m});
    b.add_struct("s" + std::to_string(i), 4 * (i % 19 + 1), members);
    b.add_ptr(i32);
  }
  for (uint32_t i = 0; i < 12000; ++i) {
    std::vector<BtfBuilder::ParamSpec> params;
    for (uint32_t p = 0; p < i % 5; ++p) params.push_back({names[p], i32});
    b.add_func("f" + std::to_string(i), b.add_func_proto(i32, params));
  }
  return b.build();
}

TEST(TwoThreadWalk, SameRecordsAsOneWalk) {
  const auto blob = large_blob();
  ASSERT_GT(blob.size(), 300u * 1024);
  const Walk one = walk(blob, false);
  ASSERT_TRUE(one.complete);
  ASSERT_EQ(one.findings, "");
  expect_same_walk(blob, "valid blob");
}

// A record that cannot be sized (unknown kind, or a vlen past the end) at
// records all over the section, densely around the seven cuts between runs:
// the same finding, once, and the same records before it.
TEST(TwoThreadWalk, SameFindingWhereverARecordIsBroken) {
  const auto blob = large_blob();
  const Walk one = walk(blob, false);
  uint32_t type_start;
  std::memcpy(&type_start, blob.data() + 4, 4);  // hdr_len; type_off is 0
  const size_t n = one.heads.size();
  std::vector<size_t> broken;
  for (size_t i = 0; i < n; i += 211) broken.push_back(i);
  for (size_t run = 1; run < 8; ++run)  // about where the cuts fall
    for (size_t i = run * n / 8 - n / 20; i < run * n / 8 + n / 20; i += 29) broken.push_back(i);
  broken.push_back(n - 1);
  size_t with_findings = 0, cases = 0;
  for (const size_t i : broken)
    for (const uint32_t info : {0x1f000000u, (kStruct << 24) | 0xffffu}) {
      auto bad = blob;
      std::memcpy(bad.data() + type_start + one.heads[i].offset + 4, &info, 4);
      expect_same_walk(bad, "record " + std::to_string(i) + " with info " + std::to_string(info));
      with_findings += walk(bad, false).findings != "";
      ++cases;
    }
  // A long struct early on may swallow records and still end on one.
  EXPECT_GT(with_findings, cases * 3 / 4);
}

// Garbage words anywhere past the first records: a guess finds no chain the
// walk meets, or one that ends early.
TEST(TwoThreadWalk, SameFindingsOnGarbage) {
  const auto blob = large_blob();
  uint32_t type_start, type_len;
  std::memcpy(&type_start, blob.data() + 4, 4);
  std::memcpy(&type_len, blob.data() + 12, 4);
  std::mt19937 rng(11);
  for (int round = 0; round < 60; ++round) {
    auto bad = blob;
    const uint32_t from = type_start + (type_len / 16 + rng() % (type_len * 7 / 8)) / 4 * 4;
    const uint32_t words = 1 + rng() % 4096;
    for (uint32_t w = 0; w < words && from + 4 * w + 4 <= type_start + type_len; ++w) {
      const uint32_t x = round % 2 ? static_cast<uint32_t>(rng()) : static_cast<uint32_t>(rng() % 20) << 24 | (rng() % 4);
      std::memcpy(bad.data() + from + 4 * w, &x, 4);
    }
    expect_same_walk(bad, "garbage round " + std::to_string(round));
  }
}

}  // namespace
}  // namespace elfmeta::btf
