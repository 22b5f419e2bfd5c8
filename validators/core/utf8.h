// Text that must be valid UTF-8 (JSON, SARIF, XML) made from strings the
// input controls (names from BTF, paths).
#pragma once

#include <string>
#include <string_view>

namespace elfmeta {

// `s` as valid UTF-8: valid UTF-8 sequences as they are (a path
// "vmlinux-\u00fc" stays that), and each byte that does not start a valid
// sequence (a stray continuation byte, an overlong form, a surrogate, a code
// point past U+10FFFF, a cut-off sequence) as the four characters \xNN, as
// printable() in core/text.h writes bytes. Deterministic, and no byte is lost.
std::string valid_utf8(std::string_view s);
// The length of the valid UTF-8 sequence at s[i], 0 when there is none.
size_t utf8_sequence_length(std::string_view s, size_t i);

}  // namespace elfmeta
