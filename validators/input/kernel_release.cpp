#include "input/kernel_release.h"

#include <sys/utsname.h>

#include <algorithm>
#include <string_view>

namespace elfmeta::input {

std::optional<std::string> modinfo_value(const Artifact& a, std::string_view key) {
  const Section* s = a.section(".modinfo");
  if (!s) return std::nullopt;
  std::string_view info(reinterpret_cast<const char*>(s->data.data()), s->data.size());
  size_t pos = 0;
  while (pos < info.size()) {
    size_t end = info.find('\0', pos);
    if (end == std::string_view::npos) end = info.size();
    const std::string_view entry = info.substr(pos, end - pos);
    if (entry.size() > key.size() && entry.starts_with(key) && entry[key.size()] == '=')
      return std::string(entry.substr(key.size() + 1));
    pos = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> module_vermagic_release(const Artifact& a) {
  auto vermagic = modinfo_value(a, "vermagic");
  if (!vermagic) return std::nullopt;
  return vermagic->substr(0, vermagic->find(' '));
}

// The banner is "Linux version %s (%s@%s) (%s) %s\n" of the release,
// the builder, the host, the compiler and the version: each a uname field
// of at most 64 bytes (__NEW_UTS_LEN) but the compiler's, about 100 in real
// builds. A longer line is cut: the banner ends up in notes and in the
// reason a kernel profile was chosen, and a hostile .rodata may hold no
// newline for megabytes.
constexpr size_t kMaxBanner = 512;

std::optional<std::string> kernel_image_banner(const Artifact& a) {
  constexpr std::string_view kBanner = "Linux version ";
  for (const char* name : {".rodata", ".init.rodata"}) {
    const Section* s = a.section(name);
    if (!s) continue;
    const std::string_view text(reinterpret_cast<const char*>(s->data.data()), s->data.size());
    for (size_t at = text.find(kBanner); at != std::string_view::npos; at = text.find(kBanner, at + 1)) {
      const size_t start = at + kBanner.size();
      // The banner itself, not a format string such as "Linux version %s".
      if (start >= text.size() || text[start] < '0' || text[start] > '9') continue;
      // The line ends at its newline (or any other control byte: it is
      // printed as it is), its NUL, the section's end or the cap.
      const std::string_view line = text.substr(at, kMaxBanner);
      const auto end = std::find_if(line.begin(), line.end(), [](char c) { return uint8_t(c) < 0x20 || c == 0x7f; });
      return std::string(line.begin(), end);
    }
  }
  return std::nullopt;
}

std::optional<std::string> kernel_image_release(const Artifact& a) {
  auto banner = kernel_image_banner(a);
  if (!banner) return std::nullopt;
  const size_t start = std::string_view("Linux version ").size();
  return banner->substr(start, banner->find(' ', start) - start);
}

std::optional<Compiler> producing_compiler(const Artifact& a) {
  if (const Section* s = a.section(".comment")) {
    const std::string_view text(reinterpret_cast<const char*>(s->data.data()), s->data.size());
    if (text.find("clang version") != std::string_view::npos) return Compiler::Clang;
    if (text.find("GCC: ") != std::string_view::npos) return Compiler::Gcc;
  }
  if (!a.is_vmlinux()) return std::nullopt;
  const auto banner = kernel_image_banner(a);
  if (!banner) return std::nullopt;
  if (banner->find("clang version") != std::string::npos) return Compiler::Clang;
  if (banner->find("gcc") != std::string::npos) return Compiler::Gcc;
  return std::nullopt;
}

std::optional<std::string> running_kernel_release() {
  struct utsname u {};
  if (uname(&u) != 0) return std::nullopt;
  return std::string(u.release);
}

}  // namespace elfmeta::input
