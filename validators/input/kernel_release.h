// Which kernel release an input belongs to, and which one is running.
#pragma once

#include <cstdint>
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
// The whole banner line, "Linux version 6.1.0-56-cloud-amd64 (...) (gcc-12 ...".
std::optional<std::string> kernel_image_banner(const Artifact& a);

enum class Compiler : uint8_t { Gcc, Clang };
// The compiler that built an ELF file: from its .comment ("GCC: (Debian
// 12.2.0-14) 12.2.0", "clang version 14.0.6"; clang's wins when both are
// there, as in an image with GCC-built objects linked in), else from a
// kernel image's banner. nullopt when neither says.
std::optional<Compiler> producing_compiler(const Artifact& a);
// uname -r of the running kernel.
std::optional<std::string> running_kernel_release();

}  // namespace elfmeta::input
