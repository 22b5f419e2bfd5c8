#include "core/second_core.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace elfmeta {
namespace {

// A thread that parks until it is handed a task. Helpers live until the
// process exits (they are never freed: a parked thread holds nothing).
class Helper {
 public:
  Helper() { std::thread([this] { serve(); }).detach(); }

  void start(const std::function<void()>& task) {
    task_ = &task;
    state_.store(kPosted, std::memory_order_release);
    state_.notify_one();
  }
  void wait() {
    for (uint32_t s; (s = state_.load(std::memory_order_acquire)) != kDone;) state_.wait(s, std::memory_order_acquire);
    state_.store(kIdle, std::memory_order_relaxed);
  }

 private:
  static constexpr uint32_t kIdle = 0, kPosted = 1, kDone = 2;
  void serve() {
    for (;;) {
      for (uint32_t s; (s = state_.load(std::memory_order_acquire)) != kPosted;) state_.wait(s, std::memory_order_acquire);
      (*task_)();
      state_.store(kDone, std::memory_order_release);
      state_.notify_one();
    }
  }
  std::atomic<uint32_t> state_{kIdle};
  const std::function<void()>* task_ = nullptr;
};

std::mutex pool_mutex;
std::vector<Helper*>& parked() {
  static auto* helpers = new std::vector<Helper*>;  // never destroyed: helpers may outlive static destruction
  return *helpers;
}

Helper* take_helper() {
  {
    std::lock_guard lock(pool_mutex);
    if (!parked().empty()) {
      Helper* h = parked().back();
      parked().pop_back();
      return h;
    }
  }
  return new Helper;
}

void park(Helper* h) {
  std::lock_guard lock(pool_mutex);
  parked().push_back(h);
}

}  // namespace

void run_beside(const std::function<void()>& other, const std::function<void()>& here) {
  Helper* h = take_helper();
  h->start(other);
  here();
  h->wait();
  park(h);
}

}  // namespace elfmeta
