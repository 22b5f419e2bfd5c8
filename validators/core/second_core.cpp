#include "core/second_core.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace elfmeta {
namespace {

// Waking a sleeping thread costs tens of microseconds on a VM (a futex
// wake, then the hypervisor runs the idle vCPU again), as much as a small
// task. So both sides poll for a while before they sleep: the helper for
// its next task (a check hands over two or three in a row), the caller
// for the helper's end. OpenMP runtimes do the same, for longer.
constexpr auto kPollFor = std::chrono::microseconds(200);

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}


// A thread that parks until it is handed a task. Helpers live until the
// process exits (they are never freed: a parked thread holds nothing).
class Helper {
 public:
  Helper() { std::thread([this] { serve(); }).detach(); }

  void start(const std::function<void()>& task) {
    task_ = &task;
    post(state_, kPosted);
  }
  void wait() {
    await(state_, kDone);
    state_.store(kIdle, std::memory_order_relaxed);
  }

 private:
  static constexpr uint32_t kIdle = 0, kPosted = 1, kDone = 2;
  void serve() {
    for (;;) {
      await(state_, kPosted);
      (*task_)();
      post(state_, kDone);
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

// Polls for kPollFor, then sleeps.
void await(const std::atomic<uint32_t>& state, uint32_t wanted) {
  const auto until = std::chrono::steady_clock::now() + kPollFor;
  for (unsigned round = 0; state.load(std::memory_order_acquire) != wanted; ++round) {
    pause();
    if (round % 64 == 63 && std::chrono::steady_clock::now() > until) break;
  }
  for (uint32_t s; (s = state.load(std::memory_order_acquire)) != wanted;) state.wait(s, std::memory_order_acquire);
}

void post(std::atomic<uint32_t>& state, uint32_t value) {
  state.store(value, std::memory_order_release);
  state.notify_one();
}

void run_beside(const std::function<void()>& other, const std::function<void()>& here) {
  Helper* h = take_helper();
  h->start(other);
  here();
  h->wait();
  park(h);
}

}  // namespace elfmeta
