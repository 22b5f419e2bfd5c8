#include "input/decompress.h"

#include <bzlib.h>
#include <lz4.h>
#include <lz4frame.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>

namespace elfmeta::input {
namespace {

constexpr size_t kChunk = size_t(1) << 20;

bool starts_with(std::span<const uint8_t> d, std::initializer_list<uint8_t> magic) {
  if (d.size() < magic.size()) return false;
  return std::equal(magic.begin(), magic.end(), d.begin());
}

// Grows `out` by one chunk, or fails when that would pass the cap.
bool grow(std::vector<uint8_t>& out, size_t used, size_t max_output, std::string& error) {
  if (used >= max_output) {
    error = "decompressed data exceeds the limit of " + std::to_string(max_output >> 20) + " MiB";
    return false;
  }
  out.resize(std::min(max_output, used + std::max(kChunk, used / 2)));
  return true;
}

Decompressed gunzip(std::span<const uint8_t> in, size_t max_output) {
  Decompressed r;
  z_stream s{};
  if (inflateInit2(&s, 15 + 32) != Z_OK) return {{}, "zlib init failed"};
  s.next_in = const_cast<Bytef*>(in.data());
  s.avail_in = static_cast<uInt>(std::min<size_t>(in.size(), UINT32_MAX));
  size_t used = 0;
  int ret = Z_OK;
  while (ret != Z_STREAM_END) {
    if (used == r.bytes.size() && !grow(r.bytes, used, max_output, r.error)) break;
    s.next_out = r.bytes.data() + used;
    s.avail_out = static_cast<uInt>(std::min<size_t>(r.bytes.size() - used, UINT32_MAX));
    const uInt before = s.avail_out;
    ret = inflate(&s, Z_NO_FLUSH);
    used += before - s.avail_out;
    if (ret == Z_STREAM_END) break;
    if (ret != Z_OK && ret != Z_BUF_ERROR) {
      r.error = std::string("gzip: ") + (s.msg ? s.msg : "corrupt data");
      break;
    }
    if (ret == Z_BUF_ERROR && s.avail_in == 0) {
      r.error = "gzip: truncated stream";
      break;
    }
  }
  inflateEnd(&s);
  r.bytes.resize(used);
  return r;
}

Decompressed unxz(std::span<const uint8_t> in, size_t max_output, bool alone) {
  Decompressed r;
  lzma_stream s = LZMA_STREAM_INIT;
  const uint64_t memlimit = uint64_t(512) << 20;
  lzma_ret ret = alone ? lzma_alone_decoder(&s, memlimit) : lzma_stream_decoder(&s, memlimit, 0);
  if (ret != LZMA_OK) return {{}, "liblzma init failed"};
  s.next_in = in.data();
  s.avail_in = in.size();
  size_t used = 0;
  while (true) {
    if (used == r.bytes.size() && !grow(r.bytes, used, max_output, r.error)) break;
    s.next_out = r.bytes.data() + used;
    s.avail_out = r.bytes.size() - used;
    const size_t before = s.avail_out;
    ret = lzma_code(&s, s.avail_in ? LZMA_RUN : LZMA_FINISH);
    used += before - s.avail_out;
    if (ret == LZMA_STREAM_END) break;
    if (ret != LZMA_OK) {
      r.error = std::string(alone ? "lzma" : "xz") + ": corrupt or truncated data (code " + std::to_string(ret) + ")";
      break;
    }
  }
  lzma_end(&s);
  r.bytes.resize(used);
  return r;
}

Decompressed bunzip2(std::span<const uint8_t> in, size_t max_output) {
  Decompressed r;
  bz_stream s{};
  if (BZ2_bzDecompressInit(&s, 0, 0) != BZ_OK) return {{}, "bzip2 init failed"};
  s.next_in = const_cast<char*>(reinterpret_cast<const char*>(in.data()));
  s.avail_in = static_cast<unsigned>(std::min<size_t>(in.size(), UINT32_MAX));
  size_t used = 0;
  while (true) {
    if (used == r.bytes.size() && !grow(r.bytes, used, max_output, r.error)) break;
    s.next_out = reinterpret_cast<char*>(r.bytes.data() + used);
    s.avail_out = static_cast<unsigned>(std::min<size_t>(r.bytes.size() - used, UINT32_MAX));
    const unsigned before = s.avail_out;
    const int ret = BZ2_bzDecompress(&s);
    used += before - s.avail_out;
    if (ret == BZ_STREAM_END) break;
    if (ret != BZ_OK || (s.avail_in == 0 && before == s.avail_out)) {
      r.error = "bzip2: corrupt or truncated data";
      break;
    }
  }
  BZ2_bzDecompressEnd(&s);
  r.bytes.resize(used);
  return r;
}

Decompressed unzstd(std::span<const uint8_t> in, size_t max_output) {
  Decompressed r;
  ZSTD_DStream* ds = ZSTD_createDStream();
  if (!ds) return {{}, "zstd init failed"};
  // A frame names its window size and the decoder allocates it up front: cap
  // it at 512 MiB, as liblzma's memory limit above (a 28-byte frame asked for
  // 2 GiB in the fuzz campaign). Kernel images use 128 MiB (zstd -22 --ultra).
  ZSTD_DCtx_setParameter(ds, ZSTD_d_windowLogMax, 29);
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  size_t used = 0;
  while (true) {
    if (used == r.bytes.size() && !grow(r.bytes, used, max_output, r.error)) break;
    ZSTD_outBuffer output{r.bytes.data() + used, r.bytes.size() - used, 0};
    const size_t ret = ZSTD_decompressStream(ds, &output, &input);
    used += output.pos;
    if (ZSTD_isError(ret)) {
      r.error = std::string("zstd: ") + ZSTD_getErrorName(ret);
      break;
    }
    if (ret == 0) break;  // end of the first frame
    if (input.pos == input.size && output.pos < output.size) {
      r.error = "zstd: truncated stream";
      break;
    }
  }
  ZSTD_freeDStream(ds);
  r.bytes.resize(used);
  return r;
}

// The legacy LZ4 format the kernel's build uses: a magic word, then blocks
// of {u32 compressed size, data}, each decompressing to at most 8 MiB.
Decompressed unlz4_legacy(std::span<const uint8_t> in, size_t max_output) {
  Decompressed r;
  constexpr uint32_t kMagic = 0x184C2102;
  constexpr size_t kBlock = size_t(8) << 20;
  size_t pos = 4, used = 0;
  while (pos + 4 <= in.size()) {
    uint32_t chunk;
    std::memcpy(&chunk, in.data() + pos, 4);
    if (chunk == kMagic) {
      pos += 4;
      continue;
    }
    if (chunk > in.size() - pos - 4) break;  // trailing size word or padding
    pos += 4;
    if (used + kBlock > max_output) {
      r.error = "decompressed data exceeds the limit of " + std::to_string(max_output >> 20) + " MiB";
      break;
    }
    r.bytes.resize(used + kBlock);
    const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in.data() + pos),
                                      reinterpret_cast<char*>(r.bytes.data() + used), static_cast<int>(chunk),
                                      static_cast<int>(kBlock));
    if (n < 0) {
      r.error = "lz4: corrupt block at offset " + std::to_string(pos);
      break;
    }
    used += static_cast<size_t>(n);
    pos += chunk;
  }
  r.bytes.resize(used);
  if (r.error.empty() && used == 0) r.error = "lz4: no data";
  return r;
}

Decompressed unlz4_frame(std::span<const uint8_t> in, size_t max_output) {
  Decompressed r;
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) return {{}, "lz4 init failed"};
  size_t pos = 0, used = 0;
  while (pos < in.size()) {
    if (used == r.bytes.size() && !grow(r.bytes, used, max_output, r.error)) break;
    size_t out_size = r.bytes.size() - used, in_size = in.size() - pos;
    const size_t ret = LZ4F_decompress(ctx, r.bytes.data() + used, &out_size, in.data() + pos, &in_size, nullptr);
    if (LZ4F_isError(ret)) {
      r.error = std::string("lz4: ") + LZ4F_getErrorName(ret);
      break;
    }
    used += out_size;
    pos += in_size;
    if (ret == 0) break;
    if (in_size == 0 && out_size == 0) {
      r.error = "lz4: truncated frame";
      break;
    }
  }
  LZ4F_freeDecompressionContext(ctx);
  r.bytes.resize(used);
  return r;
}

}  // namespace

std::string_view compression_name(Compression c) {
  switch (c) {
    case Compression::None: return "none";
    case Compression::Gzip: return "gzip";
    case Compression::Xz: return "xz";
    case Compression::Lzma: return "lzma";
    case Compression::Bzip2: return "bzip2";
    case Compression::Zstd: return "zstd";
    case Compression::Lz4Legacy: return "lz4 (legacy)";
    case Compression::Lz4Frame: return "lz4";
  }
  return "none";
}

Compression detect_compression(std::span<const uint8_t> d) {
  if (starts_with(d, {0x1f, 0x8b})) return Compression::Gzip;
  if (starts_with(d, {0xfd, '7', 'z', 'X', 'Z', 0x00})) return Compression::Xz;
  if (starts_with(d, {0x28, 0xb5, 0x2f, 0xfd})) return Compression::Zstd;
  if (starts_with(d, {'B', 'Z', 'h'}) && d.size() > 3 && d[3] >= '1' && d[3] <= '9') return Compression::Bzip2;
  if (starts_with(d, {0x02, 0x21, 0x4c, 0x18})) return Compression::Lz4Legacy;
  if (starts_with(d, {0x04, 0x22, 0x4d, 0x18})) return Compression::Lz4Frame;
  // lzma-alone: properties byte 0x5d and a dictionary size that is a power of
  // two (or 2^n + 2^(n-1)), as the kernel's and xz's encoders write.
  if (d.size() >= 13 && d[0] == 0x5d && d[1] == 0x00 && (d[4] == 0x00 || d[4] == 0x01 || d[4] == 0x02 || d[4] == 0x04 || d[4] == 0x08))
    return Compression::Lzma;
  return Compression::None;
}

namespace {

Decompressed decompress_stream(Compression c, std::span<const uint8_t> data, size_t max_output) {
  switch (c) {
    case Compression::Gzip: return gunzip(data, max_output);
    case Compression::Xz: return unxz(data, max_output, false);
    case Compression::Lzma: return unxz(data, max_output, true);
    case Compression::Bzip2: return bunzip2(data, max_output);
    case Compression::Zstd: return unzstd(data, max_output);
    case Compression::Lz4Legacy: return unlz4_legacy(data, max_output);
    case Compression::Lz4Frame: return unlz4_frame(data, max_output);
    case Compression::None: break;
  }
  return {{}, "not compressed"};
}

}  // namespace

Decompressed decompress(Compression c, std::span<const uint8_t> data, size_t max_output) {
  Decompressed r = decompress_stream(c, data, max_output);
  // The decoders grow their output by 1 MiB or more at a time. A package's
  // thousand modules of a few KiB would each keep that (1.3 GB for Debian's
  // 6.12 cloud image) if the spare capacity were not given back.
  r.bytes.shrink_to_fit();
  return r;
}

}  // namespace elfmeta::input
