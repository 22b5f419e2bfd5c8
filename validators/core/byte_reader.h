// Bounded, endian-aware access to untrusted bytes.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>

namespace elfmeta {

enum class Endian : uint8_t { Little, Big };

constexpr Endian host_endian() {
  return std::endian::native == std::endian::little ? Endian::Little : Endian::Big;
}

template <typename T>
constexpr T byteswap_if(T v, bool swap) {
  if (!swap) return v;
  if constexpr (sizeof(T) == 1) {
    return v;
  } else if constexpr (sizeof(T) == 2) {
    return static_cast<T>(__builtin_bswap16(static_cast<uint16_t>(v)));
  } else if constexpr (sizeof(T) == 4) {
    return static_cast<T>(__builtin_bswap32(static_cast<uint32_t>(v)));
  } else {
    return static_cast<T>(__builtin_bswap64(static_cast<uint64_t>(v)));
  }
}

// Every checked accessor validates offset and length without overflow before
// touching memory; a failed check yields nullopt so that the caller decides
// whether short input is a finding. Callers that have established the bounds
// of a whole record use the `_at` accessors, which only assert in debug builds.
class ByteReader {
 public:
  ByteReader() = default;
  ByteReader(std::span<const uint8_t> bytes, Endian endian)
      : data_(bytes.data()), size_(bytes.size()), swap_(endian != host_endian()) {}

  size_t size() const { return size_; }
  const uint8_t* data() const { return data_; }
  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  Endian endian() const { return swap_ ? (host_endian() == Endian::Little ? Endian::Big : Endian::Little) : host_endian(); }

  bool contains(uint64_t offset, uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }

  template <typename T>
  std::optional<T> read(uint64_t offset) const {
    if (!contains(offset, sizeof(T))) return std::nullopt;
    return at<T>(offset);
  }
  std::optional<uint8_t> u8(uint64_t off) const { return read<uint8_t>(off); }
  std::optional<uint16_t> u16(uint64_t off) const { return read<uint16_t>(off); }
  std::optional<uint32_t> u32(uint64_t off) const { return read<uint32_t>(off); }
  std::optional<uint64_t> u64(uint64_t off) const { return read<uint64_t>(off); }
  std::optional<int32_t> s32(uint64_t off) const { return read<int32_t>(off); }

  // Caller guarantees contains(offset, sizeof(T)).
  template <typename T>
  T at(uint64_t offset) const {
    T v;
    std::memcpy(&v, data_ + offset, sizeof(T));
    return byteswap_if(v, swap_);
  }
  uint32_t u32_at(uint64_t off) const { return at<uint32_t>(off); }

  std::optional<ByteReader> sub(uint64_t offset, uint64_t length) const {
    if (!contains(offset, length)) return std::nullopt;
    ByteReader r = *this;
    r.data_ = data_ + offset;
    r.size_ = static_cast<size_t>(length);
    return r;
  }

  // The NUL-terminated string starting at offset, without the NUL; nullopt if
  // no NUL occurs before the end of the view.
  std::optional<std::string_view> cstr(uint64_t offset) const {
    if (offset >= size_) return std::nullopt;
    const void* nul = std::memchr(data_ + offset, 0, size_ - offset);
    if (!nul) return std::nullopt;
    return std::string_view(reinterpret_cast<const char*>(data_ + offset),
                            static_cast<const uint8_t*>(nul) - (data_ + offset));
  }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool swap_ = false;
};

}  // namespace elfmeta
