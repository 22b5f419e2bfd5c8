// Every compression the input layer reads, round-tripped through the
// reference encoders, plus the failures hostile input must produce.
#include "input/decompress.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/support/compressors.h"

namespace elfmeta::input {
namespace {

using namespace elfmeta::testing::compressors;

Bytes sample_data(size_t n) {
  std::mt19937 rng(42);
  Bytes b(n);
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(i % 251 < 200 ? 'a' + i % 7 : rng());
  return b;
}

struct Format {
  const char* name;
  Compression kind;
  Bytes (*encode)(const Bytes&);
};

const Format kFormats[] = {
    {"gzip", Compression::Gzip, gzip},
    {"xz", Compression::Xz, [](const Bytes& b) { return xz(b, false); }},
    {"lzma", Compression::Lzma, [](const Bytes& b) { return xz(b, true); }},
    {"bzip2", Compression::Bzip2, bzip2},
    {"zstd", Compression::Zstd, zstd},
    {"lz4", Compression::Lz4Frame, lz4_frame},
    {"lz4legacy", Compression::Lz4Legacy, lz4_legacy},
};

void PrintTo(const Format& f, std::ostream* os) { *os << f.name; }

class Formats : public ::testing::TestWithParam<Format> {};

TEST_P(Formats, RoundTripsAndIgnoresTrailingBytes) {
  const Format& f = GetParam();
  const Bytes data = sample_data(9u << 20);  // more than one lz4 legacy chunk
  Bytes packed = f.encode(data);
  ASSERT_EQ(detect_compression(packed), f.kind);
  packed.insert(packed.end(), {0x12, 0x34, 0x56, 0x78});  // a kernel payload's size word
  const Decompressed out = decompress(f.kind, packed);
  ASSERT_TRUE(out.error.empty()) << out.error;
  EXPECT_EQ(out.bytes, data);
}

// A package's modules are a few KiB each and are all held at once: the
// decoders' 1 MiB growth steps must not stay behind with each of them.
TEST_P(Formats, SmallOutputKeepsNoSpareCapacity) {
  const Format& f = GetParam();
  const Bytes data = sample_data(20000);
  const Decompressed out = decompress(f.kind, f.encode(data));
  ASSERT_TRUE(out.error.empty()) << out.error;
  EXPECT_EQ(out.bytes, data);
  EXPECT_EQ(out.bytes.capacity(), data.size()) << f.name;
}

TEST_P(Formats, TruncatedStreamIsAnErrorNotACrash) {
  const Format& f = GetParam();
  const Bytes data = sample_data(1u << 20);
  Bytes packed = f.encode(data);
  packed.resize(packed.size() / 2);
  const Decompressed out = decompress(f.kind, packed);
  EXPECT_TRUE(!out.error.empty() || out.bytes.size() < data.size()) << f.name;
}

TEST_P(Formats, OutputIsCapped) {
  const Format& f = GetParam();
  const Bytes packed = f.encode(sample_data(4u << 20));
  const Decompressed out = decompress(f.kind, packed, 1u << 20);
  EXPECT_NE(out.error.find("exceeds the limit"), std::string::npos) << f.name << ": " << out.error;
  EXPECT_LE(out.bytes.size(), 8u << 20);
}

TEST_P(Formats, GarbageAfterMagicIsAnError) {
  const Format& f = GetParam();
  Bytes packed = f.encode(sample_data(4096));
  const size_t keep = f.kind == Compression::Lzma ? 13 : 6;
  for (size_t i = keep; i < packed.size(); ++i) packed[i] = static_cast<uint8_t>(i * 131);
  const Decompressed out = decompress(f.kind, packed);
  EXPECT_TRUE(!out.error.empty() || out.bytes != sample_data(4096)) << f.name;
}

INSTANTIATE_TEST_SUITE_P(Compression, Formats, ::testing::ValuesIn(kFormats),
                         [](const auto& info) { return std::string(info.param.name); });

// A module's xz stream declares its size in its index: the output is sized
// from it once (see decompress.cpp), padded or not; what does not read as a
// footer and index declares nothing.
TEST(Compression, XzIndexDeclaresTheOutputSize) {
  const Bytes data = sample_data(3u << 20);
  Bytes packed = xz(data, false);
  EXPECT_EQ(xz_declared_size(packed), data.size());
  packed.insert(packed.end(), 8, 0);  // stream padding
  EXPECT_EQ(xz_declared_size(packed), data.size());
  const Decompressed out = decompress(Compression::Xz, packed);
  ASSERT_TRUE(out.error.empty()) << out.error;
  EXPECT_EQ(out.bytes, data);
  Bytes cut(packed.begin(), packed.end() - 20);
  EXPECT_EQ(xz_declared_size(cut), 0u);
  Bytes bad = packed;
  bad[bad.size() - 8 - 3] ^= 0xff;  // the footer's magic
  EXPECT_EQ(xz_declared_size(bad), 0u);
  EXPECT_EQ(xz_declared_size(Bytes{}), 0u);
  EXPECT_EQ(xz_declared_size(xz(data, true)), 0u);  // lzma-alone has no index
}

TEST(Compression, UnknownBytesAreNotCompressed) {
  EXPECT_EQ(detect_compression(Bytes{'h', 'e', 'l', 'l', 'o'}), Compression::None);
  EXPECT_EQ(detect_compression(Bytes{}), Compression::None);
}

}  // namespace
}  // namespace elfmeta::input
