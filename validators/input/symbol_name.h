// A symbol's name as it lies in the input: a view into the artifact's
// string table (or into the text or the decoded names a SymbolIndex keeps),
// never a copy. A hostile .symtab of N symbols that all name one L-byte
// string then costs N views, where copies cost N * L bytes (2,000 symbols
// of one 1 MB name took 2 GB).
//
// `+` builds a std::string as std::string's own operator does, so that
// message code written for std::string names reads as before; the bytes are
// untrusted, so names in messages still go through printable().
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace elfmeta::input {

// The longest symbol name elfmeta keeps whole: twice the kernel's
// KSYM_NAME_LEN (512 since 6.1; scripts/kallsyms drops longer names, and
// the image decoder refuses them). A longer name is kept as its first
// kMaxSymbolName + 1 bytes, so that measuring it never reads further: a
// symtab whose every entry names one long string costs N * kMaxSymbolName,
// not N * L. Two names that differ only past that point compare equal.
inline constexpr size_t kMaxSymbolName = 1024;

class SymbolName : public std::string_view {
 public:
  using std::string_view::basic_string_view;
  constexpr SymbolName(std::string_view v) noexcept : std::string_view(v) {}
  // As std::string_view's: a view of the string, which must outlive it.
  SymbolName(const std::string& s) noexcept : std::string_view(s) {}
  // Whether the name was cut at kMaxSymbolName + 1 bytes.
  constexpr bool cut() const { return size() > kMaxSymbolName; }
};

inline std::string operator+(const SymbolName& a, const char* b) { return std::string(a).append(b); }
inline std::string operator+(const SymbolName& a, const std::string& b) { return std::string(a).append(b); }
inline std::string operator+(const SymbolName& a, char b) { return std::string(a) + b; }
inline std::string operator+(const SymbolName& a, const SymbolName& b) { return std::string(a).append(b); }
inline std::string operator+(const char* a, const SymbolName& b) { return std::string(a).append(b); }
inline std::string operator+(const std::string& a, const SymbolName& b) { return std::string(a).append(b); }
inline std::string operator+(std::string&& a, const SymbolName& b) { return std::move(a.append(b)); }
inline std::string operator+(char a, const SymbolName& b) { return std::string(1, a).append(b); }

// The name at `p`, with `room` bytes left in its string table: up to its
// NUL, or its first kMaxSymbolName + 1 bytes. A name that runs to the
// table's end without a NUL reads as empty (as ByteReader::cstr has it).
inline SymbolName bounded_symbol_name(const char* p, size_t room) {
  const size_t n = strnlen(p, room < kMaxSymbolName + 1 ? room : kMaxSymbolName + 1);
  return n == room ? SymbolName() : SymbolName(p, n);
}

}  // namespace elfmeta::input
