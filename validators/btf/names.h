// The kernel's name rules for BTF records.
#pragma once

#include <cstddef>
#include <string>

namespace elfmeta::btf {

// KSYM_NAME_LEN: 512 since Linux 6.1 (128 before).
inline constexpr size_t kMaxNameLength = 512;

// A C identifier as the kernel checks it: first byte a letter, '_' or '.',
// then letters, digits, '_' or '.', NUL within kMaxNameLength bytes. Letters
// are those of the kernel's Latin-1 ctype table.
bool valid_identifier(const char* s);
// A DATASEC name (Linux 6.9+): non-empty, printable bytes, NUL within the limit.
bool valid_section_name(const char* s);

// Why a name fails, for messages: "is empty", "is longer than 512 bytes",
// "has byte '\x24' at 1".
std::string identifier_problem(const char* s);
std::string section_name_problem(const char* s);

}  // namespace elfmeta::btf
