// Reference encoders (the libraries' own) for every format the input layer
// decompresses; tests use them to make compressed inputs.
#pragma once

#include <bzlib.h>
#include <lz4.h>
#include <lz4frame.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace elfmeta::testing::compressors {

using Bytes = std::vector<uint8_t>;

inline Bytes gzip(const Bytes& in) {
  z_stream s{};
  deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  Bytes out(deflateBound(&s, in.size()) + 64);
  s.next_in = const_cast<Bytef*>(in.data());
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = out.data();
  s.avail_out = static_cast<uInt>(out.size());
  deflate(&s, Z_FINISH);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

inline Bytes xz(const Bytes& in, bool alone) {
  Bytes out(in.size() + 4096);
  size_t pos = 0;
  if (!alone) {
    if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, nullptr, in.data(), in.size(), out.data(), &pos, out.size()) != LZMA_OK)
      return {};
  } else {
    lzma_options_lzma opt;
    lzma_lzma_preset(&opt, 6);
    lzma_stream s = LZMA_STREAM_INIT;
    if (lzma_alone_encoder(&s, &opt) != LZMA_OK) return {};
    s.next_in = in.data();
    s.avail_in = in.size();
    s.next_out = out.data();
    s.avail_out = out.size();
    if (lzma_code(&s, LZMA_FINISH) != LZMA_STREAM_END) return {};
    pos = s.total_out;
    lzma_end(&s);
  }
  out.resize(pos);
  return out;
}

// xz in blocks of `block_size` bytes of input, as xz -T writes it (and
// Debian's packages are).
inline Bytes xz_blocks(const Bytes& in, uint64_t block_size) {
  lzma_mt mt{};
  mt.threads = 2;
  mt.block_size = block_size;
  mt.preset = 6;
  mt.check = LZMA_CHECK_CRC64;
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_stream_encoder_mt(&s, &mt) != LZMA_OK) return {};
  Bytes out(in.size() + 4096 + in.size() / block_size * 64);
  s.next_in = in.data();
  s.avail_in = in.size();
  s.next_out = out.data();
  s.avail_out = out.size();
  const lzma_ret ret = lzma_code(&s, LZMA_FINISH);
  out.resize(s.total_out);
  lzma_end(&s);
  return ret == LZMA_STREAM_END ? out : Bytes{};
}

// The number of blocks in the index of a single xz stream, 0 if unreadable.
inline uint64_t xz_block_count(const Bytes& xz) {
  if (xz.size() < 24) return 0;
  lzma_stream_flags footer;
  if (lzma_stream_footer_decode(&footer, xz.data() + xz.size() - LZMA_STREAM_HEADER_SIZE) != LZMA_OK) return 0;
  if (footer.backward_size > xz.size() - 2 * LZMA_STREAM_HEADER_SIZE) return 0;
  lzma_index* index = nullptr;
  uint64_t memlimit = UINT64_MAX;
  size_t pos = xz.size() - LZMA_STREAM_HEADER_SIZE - footer.backward_size;
  if (lzma_index_buffer_decode(&index, &memlimit, nullptr, xz.data(), &pos, xz.size() - LZMA_STREAM_HEADER_SIZE) != LZMA_OK)
    return 0;
  const uint64_t blocks = lzma_index_block_count(index);
  lzma_index_end(index, nullptr);
  return blocks;
}

inline Bytes bzip2(const Bytes& in) {
  Bytes out(in.size() + in.size() / 100 + 700);
  unsigned len = static_cast<unsigned>(out.size());
  BZ2_bzBuffToBuffCompress(reinterpret_cast<char*>(out.data()), &len,
                           const_cast<char*>(reinterpret_cast<const char*>(in.data())), static_cast<unsigned>(in.size()),
                           9, 0, 0);
  out.resize(len);
  return out;
}

inline Bytes zstd(const Bytes& in) {
  Bytes out(ZSTD_compressBound(in.size()));
  out.resize(ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3));
  return out;
}

inline Bytes lz4_frame(const Bytes& in) {
  Bytes out(LZ4F_compressFrameBound(in.size(), nullptr));
  out.resize(LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), nullptr));
  return out;
}

// The kernel build's format: magic, then {u32 size, block} per 8 MiB chunk,
// then (in a bzImage payload) the uncompressed size.
inline Bytes lz4_legacy(const Bytes& in) {
  Bytes out{0x02, 0x21, 0x4c, 0x18};
  constexpr size_t kChunk = 8u << 20;
  for (size_t pos = 0; pos < in.size(); pos += kChunk) {
    const int n = static_cast<int>(std::min(kChunk, in.size() - pos));
    Bytes block(LZ4_compressBound(n));
    const int c = LZ4_compress_default(reinterpret_cast<const char*>(in.data() + pos), reinterpret_cast<char*>(block.data()),
                                       n, static_cast<int>(block.size()));
    const uint32_t c32 = static_cast<uint32_t>(c);
    out.insert(out.end(), reinterpret_cast<const uint8_t*>(&c32), reinterpret_cast<const uint8_t*>(&c32) + 4);
    out.insert(out.end(), block.begin(), block.begin() + c);
  }
  const uint32_t size = static_cast<uint32_t>(in.size());
  out.insert(out.end(), reinterpret_cast<const uint8_t*>(&size), reinterpret_cast<const uint8_t*>(&size) + 4);
  return out;
}

// An ELF64 relocatable header followed by `size` - 64 zero bytes, as xz:
// the member of the package bomb (a few hundred bytes expanding to `size`).
inline Bytes xz_of_zero_elf(uint64_t size) {
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_easy_encoder(&s, 1, LZMA_CHECK_CRC64) != LZMA_OK) return {};
  std::vector<uint8_t> header(64, 0), zeros(1 << 20, 0), out(1 << 20);
  std::memcpy(header.data(), "\x7f" "ELF\x02\x01\x01", 7);
  header[16] = 1;   // ET_REL
  header[18] = 62;  // EM_X86_64
  Bytes result;
  uint64_t left = size - header.size();
  auto feed = [&](const uint8_t* p, size_t n, lzma_action action) -> bool {
    s.next_in = p;
    s.avail_in = n;
    do {
      s.next_out = out.data();
      s.avail_out = out.size();
      const lzma_ret ret = lzma_code(&s, action);
      if (ret != LZMA_OK && ret != LZMA_STREAM_END) return false;
      result.insert(result.end(), out.data(), out.data() + (out.size() - s.avail_out));
    } while (s.avail_in || (action == LZMA_FINISH && s.avail_out == 0));
    return true;
  };
  feed(header.data(), header.size(), LZMA_RUN);
  while (left) {
    const size_t n = std::min<uint64_t>(left, zeros.size());
    feed(zeros.data(), n, LZMA_RUN);
    left -= n;
  }
  feed(nullptr, 0, LZMA_FINISH);
  lzma_end(&s);
  return result;
}

// `n` zero bytes through zlib (a raw zlib stream, as in an SHF_COMPRESSED
// section), streamed: a section bomb's payload, about n / 1000 bytes.
inline Bytes zlib_of_zeros(uint64_t n) {
  z_stream z{};
  if (deflateInit(&z, 9) != Z_OK) return {};
  Bytes out, zeros(1 << 20, 0), chunk(1 << 16);
  for (uint64_t left = n;;) {
    const uint64_t take = std::min<uint64_t>(left, zeros.size());
    z.next_in = zeros.data();
    z.avail_in = static_cast<uInt>(take);
    left -= take;
    const int flush = left ? Z_NO_FLUSH : Z_FINISH;
    int status;
    do {
      z.next_out = chunk.data();
      z.avail_out = static_cast<uInt>(chunk.size());
      status = deflate(&z, flush);
      out.insert(out.end(), chunk.data(), chunk.data() + (chunk.size() - z.avail_out));
    } while (z.avail_out == 0);
    if (status == Z_STREAM_END || status < 0) break;
  }
  deflateEnd(&z);
  return out;
}

}  // namespace elfmeta::testing::compressors
