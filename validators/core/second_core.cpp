#include "core/second_core.h"

#include <pthread.h>

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

// A fork()ed child has none of the parked threads (only the thread that
// forked): it forgets them and makes its own (a test that checks a large
// blob in a child, under a CPU limit, waited forever for a parked helper
// that exists only in its parent). The pool's lock is held across fork so
// that the child never inherits it locked.
void forget_helpers_in_child() {
  parked().clear();  // their Helper objects leak: their threads are gone
  pool_mutex.unlock();
}
void register_fork_handlers() {
  static const bool registered = [] {
    ::pthread_atfork([] { pool_mutex.lock(); }, [] { pool_mutex.unlock(); }, forget_helpers_in_child);
    return true;
  }();
  (void)registered;
}

Helper* take_helper() {
  register_fork_handlers();
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
