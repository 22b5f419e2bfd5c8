// A Debian package as the package check reads it (issue 33): the ar
// archive, its data.tar.* member in any compression, every kernel file
// streamed out of it and opened within a small run budget, as
// `elfmeta check PACKAGE.deb` does. The bytes go through a memfd: the
// package reader streams from a path, never from memory.
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "fuzz_support.h"
#include "input/artifact.h"
#include "input/input_limits.h"
#include "input/kernel_package.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  static const int fd = memfd_create("fuzz_package", 0);
  if (fd < 0) return 0;
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  // Limits small enough that a bomb meets them within libFuzzer's RSS
  // limit; the shapes of the real ones (thousandfold, a member cap).
  input::InputLimits limits;
  limits.max_artifact_bytes = uint64_t(64) << 20;
  limits.max_total_bytes = uint64_t(128) << 20;
  limits.max_member_bytes = uint64_t(64) << 20;
  limits.max_archive_entries = 10000;
  input::DecompressionBudget budget(limits);
  input::KernelPackageId id;
  std::vector<Diagnostic> refusals;
  std::string error;
  input::stream_kernel_package(
      path, id,
      [&](input::KernelFileRole role, input::PackageFile&& file) {
        if (role != input::KernelFileRole::Image && role != input::KernelFileRole::Module) return;
        input::OpenOptions options;
        options.budget = &budget;
        if (role == input::KernelFileRole::Module) options.expansion_floor = uint64_t(1) << 20;
        auto opened = input::open_bytes(file.path, std::move(file.bytes), options);
        if (opened.artifact) fuzz::check_everything(*opened.artifact);
      },
      limits, refusals, error);
  return 0;
}
