#include "input/decompress.h"

#include <bzlib.h>
#include <lz4.h>
#include <lz4frame.h>
#include <lzma.h>
#include <zlib.h>
// ZSTD_d_stableOutBuffer is in the "experimental" part of the API (stable
// since zstd 1.4.4, and in every release Debian ships).
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <optional>

namespace elfmeta::input {
namespace {

constexpr size_t kChunk = size_t(1) << 20;

bool starts_with(std::span<const uint8_t> d, std::initializer_list<uint8_t> magic) {
  if (d.size() < magic.size()) return false;
  return std::equal(magic.begin(), magic.end(), d.begin());
}

Decompressed failed(std::string error) {
  Decompressed r;
  r.error = std::move(error);
  return r;
}

void over_limit(Decompressed& r, size_t max_output) {
  r.error = "decompressed data exceeds the limit of " + std::to_string(max_output >> 20) + " MiB";
  r.over_limit = true;
}

// The limits of one decompression: the output cap and the expansion guard.
struct Limits {
  size_t max_output;
  ExpansionGuard guard;
  uint64_t size_hint = 0;  // 0: none; else within max_output
};

// Grows the output by one chunk, or fails when that would pass the cap or
// when the output has outgrown the `consumed` input by the guard's ratio.
bool grow(Decompressed& r, size_t used, const Limits& limits, uint64_t consumed) {
  r.consumed = consumed;
  r.produced = used;
  if (used >= limits.max_output) {
    over_limit(r, limits.max_output);
    return false;
  }
  if (limits.guard.ratio && used >= limits.guard.floor && used / limits.guard.ratio > consumed) {
    r.error = "decompressed data outgrows its input more than " + std::to_string(limits.guard.ratio) + " times";
    r.over_ratio = true;
    return false;
  }
  // The hint and a chunk more: a decoder that fills its output exactly
  // reports the end only on one more call, which needs room.
  const size_t next = used == 0 && limits.size_hint > kChunk ? size_t(limits.size_hint) + kChunk
                                                              : used + std::max(kChunk, used / 2);
  r.bytes.resize(std::min(limits.max_output, next));
  return true;
}

Decompressed gunzip(std::span<const uint8_t> in, const Limits& limits) {
  Decompressed r;
  z_stream s{};
  if (inflateInit2(&s, 15 + 32) != Z_OK) return failed("zlib init failed");
  s.next_in = const_cast<Bytef*>(in.data());
  s.avail_in = static_cast<uInt>(std::min<size_t>(in.size(), UINT32_MAX));
  size_t used = 0;
  int ret = Z_OK;
  while (ret != Z_STREAM_END) {
    if (used == r.bytes.size() && !grow(r, used, limits, s.total_in)) break;
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

Decompressed unxz(std::span<const uint8_t> in, const Limits& limits, bool alone) {
  Decompressed r;
  lzma_stream s = LZMA_STREAM_INIT;
  const uint64_t memlimit = uint64_t(512) << 20;
  lzma_ret ret = alone ? lzma_alone_decoder(&s, memlimit) : lzma_stream_decoder(&s, memlimit, 0);
  if (ret != LZMA_OK) return failed("liblzma init failed");
  s.next_in = in.data();
  s.avail_in = in.size();
  size_t used = 0;
  while (true) {
    if (used == r.bytes.size() && !grow(r, used, limits, s.total_in)) break;
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

Decompressed bunzip2(std::span<const uint8_t> in, const Limits& limits) {
  Decompressed r;
  bz_stream s{};
  if (BZ2_bzDecompressInit(&s, 0, 0) != BZ_OK) return failed("bzip2 init failed");
  s.next_in = const_cast<char*>(reinterpret_cast<const char*>(in.data()));
  s.avail_in = static_cast<unsigned>(std::min<size_t>(in.size(), UINT32_MAX));
  size_t used = 0;
  while (true) {
    if (used == r.bytes.size() && !grow(r, used, limits, (uint64_t(s.total_in_hi32) << 32 | s.total_in_lo32))) break;
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

// A zstd frame that names its size (kernel images' do) is decoded in one
// call into a buffer of that size: no window buffer beside the output (128
// MiB for a kernel image) and no growth. nullopt: the frame does not say.
std::optional<Decompressed> unzstd_sized(std::span<const uint8_t> in, const Limits& limits) {
  const unsigned long long content = ZSTD_getFrameContentSize(in.data(), in.size());
  const size_t frame = ZSTD_findFrameCompressedSize(in.data(), in.size());
  if (content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR || ZSTD_isError(frame)) return std::nullopt;
  Decompressed r;
  r.consumed = frame;
  r.produced = content;
  if (content > limits.max_output) {
    over_limit(r, limits.max_output);
    return r;
  }
  if (limits.guard.ratio && content >= limits.guard.floor && content / limits.guard.ratio > frame) {
    r.error = "decompressed data outgrows its input more than " + std::to_string(limits.guard.ratio) + " times";
    r.over_ratio = true;
    return r;
  }
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  if (!dctx) return failed("zstd init failed");
  r.bytes.resize(static_cast<size_t>(content));
  const size_t n = ZSTD_decompressDCtx(dctx, r.bytes.data(), r.bytes.size(), in.data(), frame);
  ZSTD_freeDCtx(dctx);
  if (ZSTD_isError(n)) return failed(std::string("zstd: ") + ZSTD_getErrorName(n));
  r.bytes.resize(n);
  return r;
}

// With a size hint: one output buffer of that size that zstd decodes into
// as its window (ZSTD_d_stableOutBuffer), nothing else allocated. nullopt
// when the hint was wrong (the caller decodes again the ordinary way).
std::optional<Decompressed> unzstd_into_hint(std::span<const uint8_t> in, const Limits& limits) {
  if (limits.size_hint == 0) return std::nullopt;
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  if (!dctx) return std::nullopt;
  ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, 29);
  ZSTD_DCtx_setParameter(dctx, ZSTD_d_stableOutBuffer, 1);
  Decompressed r;
  r.bytes.resize(size_t(limits.size_hint));
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  ZSTD_outBuffer output{r.bytes.data(), r.bytes.size(), 0};
  bool done = false;
  while (true) {
    const size_t ret = ZSTD_decompressStream(dctx, &output, &input);
    if (ZSTD_isError(ret)) break;
    if (ret == 0) {
      done = true;
      break;
    }
    if (output.pos == output.size || input.pos == input.size) break;
  }
  ZSTD_freeDCtx(dctx);
  if (!done) return std::nullopt;
  r.bytes.resize(output.pos);
  r.consumed = input.pos;
  r.produced = output.pos;
  if (limits.guard.ratio && output.pos >= limits.guard.floor && output.pos / limits.guard.ratio > input.pos) {
    r.bytes = {};
    r.error = "decompressed data outgrows its input more than " + std::to_string(limits.guard.ratio) + " times";
    r.over_ratio = true;
  }
  return r;
}

Decompressed unzstd(std::span<const uint8_t> in, const Limits& limits) {
  if (auto sized = unzstd_sized(in, limits)) return std::move(*sized);
  if (auto hinted = unzstd_into_hint(in, limits)) return std::move(*hinted);
  Decompressed r;
  ZSTD_DStream* ds = ZSTD_createDStream();
  if (!ds) return failed("zstd init failed");
  // A frame names its window size and the decoder allocates it up front: cap
  // it at 512 MiB, as liblzma's memory limit above (a 28-byte frame asked for
  // 2 GiB in the fuzz campaign). Kernel images use 128 MiB (zstd -22 --ultra).
  ZSTD_DCtx_setParameter(ds, ZSTD_d_windowLogMax, 29);
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  size_t used = 0;
  while (true) {
    if (used == r.bytes.size() && !grow(r, used, limits, input.pos)) break;
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
Decompressed unlz4_legacy(std::span<const uint8_t> in, const Limits& limits) {
  Decompressed r;
  constexpr uint32_t kMagic = 0x184C2102;
  constexpr size_t kBlock = size_t(8) << 20;
  size_t pos = 4, used = 0;
  // Each block is decoded into 8 MiB of room at the end: with the size
  // known, the room is there from the start and nothing is copied.
  if (limits.size_hint) r.bytes.reserve(std::min<uint64_t>(limits.max_output, limits.size_hint + kBlock));
  while (pos + 4 <= in.size()) {
    uint32_t chunk;
    std::memcpy(&chunk, in.data() + pos, 4);
    if (chunk == kMagic) {
      pos += 4;
      continue;
    }
    if (chunk > in.size() - pos - 4) break;  // trailing size word or padding
    pos += 4;
    if (used + kBlock > limits.max_output) {
      over_limit(r, limits.max_output);
      break;
    }
    if (limits.guard.ratio && used >= limits.guard.floor && used / limits.guard.ratio > pos) {
      r.error = "decompressed data outgrows its input more than " + std::to_string(limits.guard.ratio) + " times";
      r.over_ratio = true;
      r.consumed = pos;
      r.produced = used;
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

Decompressed unlz4_frame(std::span<const uint8_t> in, const Limits& limits) {
  Decompressed r;
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) return failed("lz4 init failed");
  size_t pos = 0, used = 0;
  while (pos < in.size()) {
    if (used == r.bytes.size() && !grow(r, used, limits, pos)) break;
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

Decompressed decompress_stream(Compression c, std::span<const uint8_t> data, const Limits& limits) {
  switch (c) {
    case Compression::Gzip: return gunzip(data, limits);
    case Compression::Xz: return unxz(data, limits, false);
    case Compression::Lzma: return unxz(data, limits, true);
    case Compression::Bzip2: return bunzip2(data, limits);
    case Compression::Zstd: return unzstd(data, limits);
    case Compression::Lz4Legacy: return unlz4_legacy(data, limits);
    case Compression::Lz4Frame: return unlz4_frame(data, limits);
    case Compression::None: break;
  }
  return failed("not compressed");
}

}  // namespace

// kmod writes a module as one xz stream whose index declares its size: the
// output is then allocated once, where growing by half at a time briefly
// took three times a 30 MB module. A lying index costs nothing more: the
// decoder still stops at the limits.
uint64_t xz_declared_size(std::span<const uint8_t> in) {
  size_t end = in.size();
  // Stream padding: zero words after the footer.
  while (end >= 2 * LZMA_STREAM_HEADER_SIZE + 4 && std::all_of(in.begin() + end - 4, in.begin() + end, [](uint8_t b) { return b == 0; }))
    end -= 4;
  if (end < 2 * LZMA_STREAM_HEADER_SIZE) return 0;
  lzma_stream_flags footer;
  if (lzma_stream_footer_decode(&footer, in.data() + end - LZMA_STREAM_HEADER_SIZE) != LZMA_OK) return 0;
  if (footer.backward_size > end - 2 * LZMA_STREAM_HEADER_SIZE) return 0;
  const size_t index_at = end - LZMA_STREAM_HEADER_SIZE - static_cast<size_t>(footer.backward_size);
  lzma_index* index = nullptr;
  uint64_t memlimit = uint64_t(1) << 20;  // one block's record is a few bytes
  size_t pos = 0;
  if (lzma_index_buffer_decode(&index, &memlimit, nullptr, in.data() + index_at, &pos,
                               static_cast<size_t>(footer.backward_size)) != LZMA_OK)
    return 0;
  const uint64_t size = lzma_index_uncompressed_size(index);
  lzma_index_end(index, nullptr);
  return size;
}

Decompressed decompress(Compression c, std::span<const uint8_t> data, size_t max_output, ExpansionGuard guard,
                        uint64_t size_hint) {
  if (size_hint == 0 && c == Compression::Xz) size_hint = xz_declared_size(data);
  // A hint past the cap, or that would itself break the expansion guard, is
  // no hint: the decoder then finds the truth chunk by chunk.
  if (size_hint > max_output || (guard.ratio && size_hint >= guard.floor && size_hint / guard.ratio > data.size()))
    size_hint = 0;
  Decompressed r = decompress_stream(c, data, Limits{max_output, guard, size_hint});
  // The decoders grow their output by 1 MiB or more at a time. A package's
  // thousand modules of a few KiB would each keep that (1.3 GB for Debian's
  // 6.12 cloud image) if the spare capacity were not given back.
  // (A quarter spare on a large output, a hint's slack, is not worth a copy
  // of all of it.)
  if (r.bytes.capacity() - r.bytes.size() > r.bytes.size() / 4) r.bytes.shrink_to_fit();
  return r;
}

}  // namespace elfmeta::input
