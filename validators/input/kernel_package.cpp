#include "input/kernel_package.h"

#include <fstream>

namespace elfmeta::input {
namespace {

bool is_module_path(std::string_view p) {
  if (!p.starts_with("lib/modules/") && !p.starts_with("usr/lib/modules/")) return false;
  for (std::string_view suffix : {".ko", ".ko.xz", ".ko.zst", ".ko.gz"})
    if (p.ends_with(suffix)) return true;
  return false;
}

enum class Role { Image, Module, SystemMap, Config, Other };

Role role_of(std::string_view p) {
  if (p.starts_with("boot/vmlinuz-") || p.starts_with("boot/vmlinux-")) return Role::Image;
  if (p.starts_with("boot/System.map-")) return Role::SystemMap;
  if (p.starts_with("boot/config-")) return Role::Config;
  if (is_module_path(p)) return Role::Module;
  return Role::Other;
}

}  // namespace

bool is_debian_package_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  uint8_t head[32] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  return is_debian_package(std::span<const uint8_t>(head, static_cast<size_t>(in.gcount())));
}

std::optional<KernelPackage> read_kernel_package(const std::string& path, std::string& error) {
  auto files = read_debian_package(path, [](std::string_view p) { return role_of(p) != Role::Other; }, error);
  if (!files) return std::nullopt;
  KernelPackage package;
  package.path = path;
  for (PackageFile& f : *files) {
    switch (role_of(f.path)) {
      case Role::Image: package.images.push_back(std::move(f)); break;
      case Role::Module: package.modules.push_back(std::move(f)); break;
      case Role::SystemMap: package.system_map = std::move(f); break;
      case Role::Config: package.config = std::move(f); break;
      case Role::Other: break;
    }
  }
  return package;
}

std::optional<std::string> config_value(const std::vector<uint8_t>& config, std::string_view name) {
  const std::string_view text(reinterpret_cast<const char*>(config.data()), config.size());
  const std::string key = "CONFIG_" + std::string(name) + "=";
  for (size_t pos = 0; pos < text.size();) {
    const size_t eol = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, eol - pos);
    if (line.starts_with(key)) return std::string(line.substr(key.size()));
    pos = eol + 1;
  }
  return std::nullopt;
}

}  // namespace elfmeta::input
