#include "btf/names.h"

#include "core/kernel_ctype.h"
#include "core/text.h"

namespace elfmeta::btf {
namespace {

bool identifier_char_ok(uint8_t c, bool first) {
  return (first ? kctype::isalpha(c) : kctype::isalnum(c)) || c == '_' || c == '.';
}

// Index of the first offending byte, or kMaxNameLength for a name that is
// too long, or SIZE_MAX when the name is valid.
size_t first_identifier_problem(const char* s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  if (!identifier_char_ok(p[0], true)) return 0;
  size_t i = 1;
  while (p[i] && i < kMaxNameLength) {
    if (!identifier_char_ok(p[i], false)) return i;
    ++i;
  }
  return p[i] ? kMaxNameLength : SIZE_MAX;
}

size_t first_section_name_problem(const char* s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  if (!p[0]) return 0;
  size_t i = 0;
  while (p[i] && i < kMaxNameLength) {
    if (!kctype::isprint(p[i])) return i;
    ++i;
  }
  return p[i] ? kMaxNameLength : SIZE_MAX;
}

std::string describe(const char* s, size_t at) {
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  if (at == kMaxNameLength) return "is longer than " + std::to_string(kMaxNameLength) + " bytes";
  if (at == 0 && !p[0]) return "is empty";
  return "has byte '" + printable(std::string_view(s + at, 1)) + "' at position " + std::to_string(at);
}

}  // namespace

bool valid_identifier(const char* s) { return first_identifier_problem(s) == SIZE_MAX; }
bool valid_section_name(const char* s) { return first_section_name_problem(s) == SIZE_MAX; }
std::string identifier_problem(const char* s) { return describe(s, first_identifier_problem(s)); }
std::string section_name_problem(const char* s) { return describe(s, first_section_name_problem(s)); }

}  // namespace elfmeta::btf
