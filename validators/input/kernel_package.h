// A Debian kernel package (linux-image-*.deb) read as the inputs a check
// needs: its kernel image, its modules, and the System.map and config that
// were built with them. The package is read once, straight from the .deb.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "input/debian_package.h"

namespace elfmeta::input {

struct KernelPackage {
  std::string path;
  std::vector<PackageFile> images;   // boot/vmlinuz-*
  std::vector<PackageFile> modules;  // lib/modules/*/...*.ko, .ko.xz, .ko.zst, .ko.gz
  std::optional<PackageFile> system_map;  // boot/System.map-*
  std::optional<PackageFile> config;      // boot/config-*
};

// Whether the file at `path` starts like a Debian package.
bool is_debian_package_file(const std::string& path);

// nullopt with `error` set when the package cannot be read; a package that
// is readable but holds no kernel files is returned empty (callers say so).
std::optional<KernelPackage> read_kernel_package(const std::string& path, std::string& error);

// The value of CONFIG_`name` in a kernel config ("y", "m", a number or a
// quoted string), nullopt when unset or absent.
std::optional<std::string> config_value(const std::vector<uint8_t>& config, std::string_view name);

}  // namespace elfmeta::input
