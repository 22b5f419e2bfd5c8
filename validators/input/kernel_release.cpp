#include "input/kernel_release.h"

#include <sys/utsname.h>

#include <string_view>

namespace elfmeta::input {

std::optional<std::string> module_vermagic_release(const Artifact& a) {
  const Section* s = a.section(".modinfo");
  if (!s) return std::nullopt;
  std::string_view info(reinterpret_cast<const char*>(s->data.data()), s->data.size());
  constexpr std::string_view kKey = "vermagic=";
  size_t pos = 0;
  while (pos < info.size()) {
    size_t end = info.find('\0', pos);
    if (end == std::string_view::npos) end = info.size();
    std::string_view entry = info.substr(pos, end - pos);
    if (entry.substr(0, kKey.size()) == kKey) {
      entry.remove_prefix(kKey.size());
      return std::string(entry.substr(0, entry.find(' ')));
    }
    pos = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> running_kernel_release() {
  struct utsname u {};
  if (uname(&u) != 0) return std::nullopt;
  return std::string(u.release);
}

}  // namespace elfmeta::input
