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
  std::string error;  // non-empty on failure
};

// Output is capped at `max_output` bytes: hostile input cannot make us
// allocate more, it gets an error instead.
inline constexpr size_t kDefaultMaxOutput = size_t(2) << 30;
Decompressed decompress(Compression c, std::span<const uint8_t> data, size_t max_output = kDefaultMaxOutput);

}  // namespace elfmeta::input
