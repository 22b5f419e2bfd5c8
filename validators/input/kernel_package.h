// Debian's kernel packages read as the inputs a check needs: the kernel
// image, its modules, and the System.map and config built with them. Three
// layouts are known:
//
//   up to 6.18   linux-image-VER holds everything: /boot/vmlinuz-VER,
//                /boot/System.map-VER, /boot/config-VER and the modules under
//                /lib/modules/VER (bookworm: .ko) or /usr/lib/modules/VER
//                (trixie: .ko.xz)
//   6.19 - 7.1   linux-image-VER is a metapackage; linux-binary-VER has
//                /boot/vmlinuz-VER, linux-modules-VER the modules,
//                linux-base-VER System.map and config
//   7.2 on       the same split, with the image at /usr/lib/modules/VER/vmlinuz
//                (vmlinuz.unsigned in linux-binary-unsigned-VER) and System.map
//                and config in /usr/lib/modules/VER/
//
// A package is read once, straight from the .deb. An unpacked tree (a
// system's / with /boot and /lib/modules, or one /usr/lib/modules/VER
// directory) is found by find_kernel_trees().
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "input/debian_package.h"

namespace elfmeta::input {

// Which of Debian's kernel packages a .deb is, by its name.
enum class KernelPackageKind : uint8_t {
  Unknown,  // not a kernel package (or a -dbg, headers, kbuild, ... package)
  Image,    // linux-image-VER(-unsigned): everything up to 6.18; a metapackage from 6.19
  Binary,   // linux-binary(-unsigned)-VER: the kernel image (6.19+)
  Modules,  // linux-modules-VER: the modules (6.19+)
  Base,     // linux-base-VER: System.map (a placeholder), config (6.18+)
};
std::string_view kernel_package_kind_name(KernelPackageKind k);  // "linux-binary", ...

struct KernelPackageId {
  std::string package, version;  // the control file's Package and Version
  KernelPackageKind kind = KernelPackageKind::Unknown;
  // The kernel release it carries ("7.2.13+deb14-cloud-amd64", as uname -r
  // and the module directory name it); "" for a metapackage of a flavour
  // (linux-image-cloud-amd64) or an unknown package.
  std::string release;
};

// What a package name says (the version is the caller's).
KernelPackageId kernel_package_id(std::string_view package, std::string_view version = "");
// The control file of the .deb, read without its data member: which
// kernel package it is. nullopt with `error` set when unreadable.
std::optional<KernelPackageId> identify_kernel_package(const std::string& path, std::string& error);
// The package of the same kernel that holds `want`: for the modules of a
// split kernel (6.19+) the image is in "linux-binary-RELEASE"; in one package
// of the old layout everything is in "linux-image-RELEASE". "" when `id`
// carries no release.
std::string companion_package(const KernelPackageId& id, KernelPackageKind want);

struct KernelPackage {
  std::string path;
  KernelPackageId id;                // from the control file; release from the files when the name has none
  std::vector<PackageFile> images;   // boot/vmlinuz-*, usr/lib/modules/*/vmlinuz(.unsigned)
  std::vector<PackageFile> modules;  // lib/modules/*/...*.ko, .ko.xz, .ko.zst, .ko.gz (also under usr/)
  std::optional<PackageFile> system_map;  // boot/System.map-*, usr/lib/modules/*/System.map
  std::optional<PackageFile> config;      // boot/config-*, usr/lib/modules/*/config
};

// Whether a path inside a package is a kernel image: boot/vmlinuz-* (and
// vmlinux-*), or lib/modules/VER/vmlinuz(.unsigned) with or without usr/.
bool is_kernel_image_path(std::string_view path);

// What a file of a kernel package is, by its path in any of the layouts.
enum class KernelFileRole { Image, Module, SystemMap, Config, Other };
KernelFileRole kernel_file_role(std::string_view path);

// The kernel files of a package handed to `on_file` one at a time, in
// archive order, as they are read (stream_debian_package: the package is
// never held whole). `id` is filled from the control file (the release from
// the first file when the name has none) before the first file. false with
// `error` when the package is unreadable; limit refusals in `refusals`.
bool stream_kernel_package(const std::string& path, KernelPackageId& id,
                           const std::function<void(KernelFileRole, PackageFile&&)>& on_file, const InputLimits& limits,
                           std::vector<Diagnostic>& refusals, std::string& error);

// Whether the file at `path` starts like a Debian package.
bool is_debian_package_file(const std::string& path);

// nullopt with `error` set when the package cannot be read; a package that
// is readable but holds no kernel files is returned empty (callers say so,
// naming companion_package() of its id where that helps).
std::optional<KernelPackage> read_kernel_package(const std::string& path, std::string& error);

// The value of CONFIG_`name` in a kernel config ("y", "m", a number or a
// quoted string), nullopt when unset or absent.
std::optional<std::string> config_value(const std::vector<uint8_t>& config, std::string_view name);

// One kernel of an unpacked tree, as paths (open them with open_input).
struct KernelTree {
  std::string release;              // the module directory's name
  std::string image;                // "" when the tree has no image for it
  std::vector<std::string> modules;  // sorted
  std::string system_map, config;   // "" when absent
};

// The kernels under `dir`: a system's root (or an unpacked package) with
// /boot and /lib/modules or /usr/lib/modules, or one modules directory
// (.../lib/modules/VER, whose image is VER/vmlinuz or, found by going up to
// the root, /boot/vmlinuz-VER). Symbolic links are followed (a merged /usr
// has /lib -> usr/lib); a modules directory reached twice is listed once.
// Empty when `dir` holds no kernel; `error` set when it cannot be read.
std::vector<KernelTree> find_kernel_trees(const std::string& dir, std::string& error);

}  // namespace elfmeta::input
