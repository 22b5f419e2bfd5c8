// Which kernel release an input belongs to, and which one is running.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "input/artifact.h"

namespace elfmeta::input {

// The value of a module's .modinfo entry `key` ("name", "depends", ...).
std::optional<std::string> modinfo_value(const Artifact& a, std::string_view key);
// "6.1.0-56-cloud-amd64" from a module's .modinfo vermagic entry.
std::optional<std::string> module_vermagic_release(const Artifact& a);
// "6.1.0-56-cloud-amd64" from a vmlinux's banner ("Linux version ..." in .rodata).
std::optional<std::string> kernel_image_release(const Artifact& a);
// uname -r of the running kernel.
std::optional<std::string> running_kernel_release();

}  // namespace elfmeta::input
