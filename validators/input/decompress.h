// Decompression of the formats kernels and modules ship in, each stopping at
// the end of its first stream (kernel payloads carry a trailing size word).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace elfmeta::input {

enum class Compression { None, Gzip, Xz, Lzma, Bzip2, Zstd, Lz4Legacy, Lz4Frame };

std::string_view compression_name(Compression c);

// Recognise a compressed stream by its first bytes.
Compression detect_compression(std::span<const uint8_t> data);

struct Decompressed {
  std::vector<uint8_t> bytes;
  std::string error;        // non-empty on failure
  bool over_limit = false;  // the failure: the output reached max_output
  bool over_ratio = false;  // the failure: the output outgrew the input too fast (ExpansionGuard)
  uint64_t consumed = 0, produced = 0;  // where it stopped: input read, output written
};

// A bomb shows itself early: its output outgrows the input it has read by
// far more than real data ever does. Once `floor` bytes are out, more than
// `ratio` times the input read so far stops the decoder (0: no guard).
struct ExpansionGuard {
  uint64_t ratio = 0;
  uint64_t floor = uint64_t(16) << 20;
};

// Output is capped at `max_output` bytes: hostile input cannot make us
// allocate more, it gets an error instead.
inline constexpr size_t kDefaultMaxOutput = size_t(2) << 30;
// `size_hint`: what the output is said to be (a kernel image appends its
// size to the payload); when it is right the output is allocated once, with
// no growth and no copy, and zstd decodes straight into it without a window
// of its own. A wrong hint only costs that saving.
Decompressed decompress(Compression c, std::span<const uint8_t> data, size_t max_output = kDefaultMaxOutput,
                        ExpansionGuard guard = {}, uint64_t size_hint = 0);

// The uncompressed size the index at the end of an xz stream declares (the
// hint `decompress` takes for xz data when given none), 0 when the stream's
// footer or index does not read.
uint64_t xz_declared_size(std::span<const uint8_t> xz);

}  // namespace elfmeta::input
