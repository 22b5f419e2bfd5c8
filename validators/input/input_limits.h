// What elfmeta lets an input cost before it refuses it: containers
// (compressed files, kernel images, .deb packages and their tar archives)
// can claim far more than their own size, and a run over packages someone
// else built must end with a finding, not with the machine's memory. The
// limits are options of check, stats, diff and report (--max-expansion,
// --max-artifact-size, --max-decompressed); each refusal is a finding of a
// rule of input_rules.h with the member's name and both sizes.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "core/diagnostic.h"

namespace elfmeta::input {

struct InputLimits {
  // One artifact decompressed (a module, a kernel image's payload).
  uint64_t max_artifact_bytes = uint64_t(512) << 20;
  // Decompressed / compressed size of one member. Real kernel modules and
  // images expand 3-6x (xz, zstd); a hundredfold is already odd, a
  // thousandfold a bomb. Below 1 MiB of output the ratio is not applied.
  uint64_t max_expansion = 1000;
  // Every decompression of a run together (a whole package's modules are
  // about 0.6 GB for Debian's generic 6.12 kernel).
  uint64_t max_total_bytes = uint64_t(8) << 30;
  // Entries of one archive (a kernel package has about 5,000).
  uint64_t max_archive_entries = 1000000;
  // A file read out of a package, as stored there (before any decompression
  // of its own): the largest in Debian's kernel packages is the 120 MB
  // vmlinux of a -dbg package.
  uint64_t max_member_bytes = uint64_t(1) << 30;
};

// The run's share of decompression: reserved before a stream is decoded
// (so that threads cannot each take what is left), the unused part given
// back after. Thread-safe.
class DecompressionBudget {
 public:
  explicit DecompressionBudget(const InputLimits& limits) : limits_(limits) {}
  const InputLimits& limits() const { return limits_; }
  // Up to `want` bytes; 0 when the budget is spent.
  uint64_t reserve(uint64_t want);
  void give_back(uint64_t bytes) { used_ -= bytes; }
  uint64_t used() const { return used_; }

 private:
  InputLimits limits_;
  std::atomic<uint64_t> used_{0};
};

// What `compressed` bytes may expand to: `ratio` times their size, and at
// least `floor` (small inputs of very regular data expand far more than
// large ones do); UINT64_MAX where the product overflows.
uint64_t expansion_allowance(uint64_t compressed, uint64_t ratio, uint64_t floor);

// A refused input: the finding of one of the input rules, for `artifact`.
Diagnostic refusal(const Rule& rule, const std::string& artifact, std::string message);

// "51.2 KB", "200.0 MiB": sizes in findings.
std::string size_text(uint64_t bytes);

}  // namespace elfmeta::input
