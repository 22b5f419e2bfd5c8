// A one-line progress counter on stderr while many artifacts are checked,
// shown only on a terminal (a log or a pipe gets nothing).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

#include <unistd.h>

namespace elfmeta::cli {

class Progress {
 public:
  // `total` 0: not known in advance (a package read as it is checked): a
  // count without a bar.
  Progress(std::string what, size_t total)
      : what_(std::move(what)), total_(total), shown_(total != 1 && ::isatty(STDERR_FILENO)) {}
  ~Progress() { finish(); }

  // One more item done; redraws at most ten times a second.
  void tick() {
    const size_t done = ++done_;
    if (!shown_) return;
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mu_);
    if (done != total_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    if (total_ == 0) {
      std::fprintf(stderr, "\r%s %zu", what_.c_str(), done);
      std::fflush(stderr);
      drawn_ = true;
      return;
    }
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * done / total_);
    std::fprintf(stderr, "\r%s [%.*s%*s] %zu/%zu", what_.c_str(), filled, "##############################", kWidth - filled,
                 "", done, total_);
    std::fflush(stderr);
    drawn_ = true;
  }
  // Clears the line, so that the report starts on a clean terminal.
  void finish() {
    std::lock_guard lock(mu_);
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }

 private:
  const std::string what_;
  const size_t total_;
  const bool shown_;
  std::atomic<size_t> done_{0};
  std::mutex mu_;
  std::chrono::steady_clock::time_point last_{};
  bool drawn_ = false;
};

}  // namespace elfmeta::cli
