#include "btf/names.h"

#include "core/text.h"

namespace elfmeta::btf {
namespace {

// Index of the first offending byte, or kMaxNameLength for a name that is
// too long; only called for names that fail.
template <typename Ok>
size_t first_problem(const char* s, Ok ok_at) {
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  size_t i = 0;
  while (p[i] && i < kMaxNameLength) {
    if (!ok_at(p[i], i)) return i;
    ++i;
  }
  return p[i] ? kMaxNameLength : (i == 0 ? 0 : i);
}

std::string describe(const char* s, size_t at) {
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  if (at == kMaxNameLength) return "is longer than " + std::to_string(kMaxNameLength) + " bytes";
  if (!p[at]) return at == 0 ? "is empty" : "is invalid";
  return "has byte '" + printable(std::string_view(s + at, 1)) + "' at position " + std::to_string(at);
}

}  // namespace

std::string identifier_problem(const char* s) {
  return describe(s, first_problem(s, [](uint8_t c, size_t i) {
                    return i ? detail::kIdentifierRest[c] : detail::kIdentifierFirst[c];
                  }));
}

std::string section_name_problem(const char* s) {
  return describe(s, first_problem(s, [](uint8_t c, size_t) { return detail::kPrintable[c]; }));
}

}  // namespace elfmeta::btf
