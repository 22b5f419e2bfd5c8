// Files from inside a Debian package (.deb): an ar archive whose data.tar.*
// member holds the installed tree. Kernel packages carry the vmlinuz the VM
// oracle boots and the modules it loads.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "input/input_limits.h"

namespace elfmeta::input {

struct PackageFile {
  std::string path;  // as in the data archive, without a leading "./"
  std::vector<uint8_t> bytes;
};

// Whether `bytes` start like a Debian package.
bool is_debian_package(std::span<const uint8_t> bytes);

// The regular files of the package's data archive whose path `want` accepts,
// in archive order, each handed to `on_file` as soon as it is read (the
// package is never held whole: memory is one file at a time). Within
// `limits`: a file past max_member_bytes is skipped, an archive past
// max_archive_entries or expanding past max_expansion is read no further,
// each with a finding in `refusals` (input_rules.h). false with `error` set
// when the package is unreadable.
bool stream_debian_package(const std::string& path, const std::function<bool(std::string_view)>& want,
                           const std::function<void(PackageFile&&)>& on_file, const InputLimits& limits,
                           std::vector<Diagnostic>& refusals, std::string& error);

// All of them at once (the default limits; a refusal is an error).
std::optional<std::vector<PackageFile>> read_debian_package(const std::string& path,
                                                            const std::function<bool(std::string_view)>& want,
                                                            std::string& error);

// The package's control file (the `control` of its control.tar.* member),
// read without the data member; nullopt with `error` set when unreadable.
std::optional<std::string> read_debian_control(const std::string& path, std::string& error);
// The value of field `name` ("Package", "Version") of a control file; the
// first line only (a multi-line field's continuation is not needed here).
std::optional<std::string> control_field(std::string_view control, std::string_view name);

}  // namespace elfmeta::input
