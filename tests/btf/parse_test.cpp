// The walk that sizes the records (parse.cpp, btf_check_all_metas()): it
// must find the records a plain model of the format finds (each record 12
// bytes plus payload_size() of its kind and vlen), and stop with one finding
// at the first record that does not fit, whatever the bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
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

Walk walk(const std::vector<uint8_t>& blob) {
  DiagnosticList list;
  CheckContext ctx;
  Findings f(ctx, list);
  Walk w;
  if (auto btf = parse(blob, ParseOptions{}, f)) {
    w.heads.assign(btf->heads(), btf->heads() + btf->own_count());
    w.kinds.assign(btf->kinds(), btf->kinds() + btf->own_count());
    w.complete = btf->types_complete();
  }
  std::ostringstream s;
  for (const auto& d : list.items()) write_text(s, d);
  w.findings = s.str();
  return w;
}

// The model: the offsets of the records that fit, one after the other, and
// whether they reach the section's end. Written apart from parse.cpp, from
// btf_format.h's payload_size() alone.
struct Model {
  std::vector<uint32_t> offsets;
  bool complete = false;
};
Model model_walk(const std::vector<uint8_t>& blob) {
  uint32_t hdr_len, type_off, type_len;
  std::memcpy(&hdr_len, blob.data() + 4, 4);
  std::memcpy(&type_off, blob.data() + 8, 4);
  std::memcpy(&type_len, blob.data() + 12, 4);
  const uint8_t* types = blob.data() + hdr_len + type_off;
  Model m;
  uint64_t cur = 0;
  while (cur < type_len) {
    if (type_len - cur < 12) return m;
    uint32_t info;
    std::memcpy(&info, types + cur + 4, 4);
    const auto payload = info_kind(info) == kUnknown ? std::nullopt : payload_size(info_kind(info), info_vlen(info));
    if (!payload || *payload > type_len - cur - 12) return m;
    m.offsets.push_back(static_cast<uint32_t>(cur));
    cur += 12 + *payload;
  }
  m.complete = true;
  return m;
}

// The walk agrees with the model, and reports one finding exactly when the
// records do not reach the end.
void expect_model_walk(const std::vector<uint8_t>& blob, const std::string& what) {
  const Walk w = walk(blob);
  const Model m = model_walk(blob);
  ASSERT_EQ(w.complete, m.complete) << what;
  ASSERT_EQ(w.heads.size(), m.offsets.size()) << what;
  for (size_t i = 0; i < m.offsets.size(); ++i) ASSERT_EQ(w.heads[i].offset, m.offsets[i]) << what << ": record " << i;
  ASSERT_EQ(w.kinds.size(), w.heads.size()) << what;
  for (size_t i = 0; i < w.heads.size(); ++i) ASSERT_EQ(w.kinds[i], info_kind(w.heads[i].info)) << what;
  const size_t findings = static_cast<size_t>(std::count(w.findings.begin(), w.findings.end(), '\n'));
  if (m.complete) {
    EXPECT_EQ(w.findings, "") << what;
  } else {
    EXPECT_GE(findings, 1u) << what;
    EXPECT_NE(w.findings.find("BTF-TYPE-00"), std::string::npos) << what << ":\n" << w.findings;
    // The finding names the first type that does not fit.
    EXPECT_NE(w.findings.find("type " + std::to_string(m.offsets.size() + 1)), std::string::npos)
        << what << ":\n" << w.findings;
  }
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

TEST(RecordWalk, FindsEveryRecordOfALargeSection) {
  const auto blob = large_blob();
  ASSERT_GT(blob.size(), 300u * 1024);
  const Walk w = walk(blob);
  ASSERT_TRUE(w.complete);
  ASSERT_EQ(w.findings, "");
  EXPECT_EQ(w.heads.size(), 1u + 4000 * 2 + 12000 * 2);
  expect_model_walk(blob, "valid blob");
}

// A record that cannot be sized (unknown kind, or a vlen past the end) at
// records all over the section: the model's records before it, and a
// finding naming it.
TEST(RecordWalk, StopsAtTheFirstBrokenRecordWhereverItIs) {
  const auto blob = large_blob();
  const Walk one = walk(blob);
  uint32_t type_start;
  std::memcpy(&type_start, blob.data() + 4, 4);  // hdr_len; type_off is 0
  const size_t n = one.heads.size();
  std::vector<size_t> broken;
  for (size_t i = 0; i < n; i += 211) broken.push_back(i);
  broken.push_back(n - 1);
  size_t with_findings = 0, cases = 0;
  for (const size_t i : broken)
    for (const uint32_t info : {0x1f000000u, (kStruct << 24) | 0xffffu}) {
      auto bad = blob;
      std::memcpy(bad.data() + type_start + one.heads[i].offset + 4, &info, 4);
      expect_model_walk(bad, "record " + std::to_string(i) + " with info " + std::to_string(info));
      with_findings += walk(bad).findings != "";
      ++cases;
    }
  // A long struct early on may swallow records and still end on one.
  EXPECT_GT(with_findings, cases * 3 / 4);
}

// Garbage words anywhere past the first records.
TEST(RecordWalk, AgreesWithTheModelOnGarbage) {
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
    expect_model_walk(bad, "garbage round " + std::to_string(round));
  }
}

}  // namespace
}  // namespace elfmeta::btf
