// run_beside: both functions run, on two threads, and it returns after
// both; callers on many threads at once each get a helper of their own.
#include "core/second_core.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

namespace elfmeta::testing {
namespace {

TEST(SecondCore, RunsBothOnTwoThreadsAndWaitsForBoth) {
  for (int round = 0; round < 100; ++round) {
    std::thread::id other_id, here_id;
    std::atomic<bool> other_done{false};
    run_beside(
        [&] {
          other_id = std::this_thread::get_id();
          std::this_thread::yield();
          other_done = true;
        },
        [&] { here_id = std::this_thread::get_id(); });
    EXPECT_TRUE(other_done);
    EXPECT_EQ(here_id, std::this_thread::get_id());
    EXPECT_NE(other_id, here_id);
  }
}

TEST(SecondCore, CallersOnManyThreadsAtOnce) {
  std::atomic<long> sum{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 8; ++c)
    callers.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        long mine = 0, theirs = 0;
        run_beside([&] { theirs = i; }, [&] { mine = i; });
        sum += mine + theirs;
      }
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(sum, 8L * 2 * (499L * 500 / 2));
}

// A forked child has none of its parent's parked helpers: it makes its own
// instead of waiting for one that is not there (the child is killed by an
// alarm if it waits).
TEST(SecondCore, ForkedChildMakesItsOwnHelpers) {
  run_beside([] {}, [] {});  // a helper parked in this process
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(10);
    int both = 0;
    run_beside([&] { both += 1; }, [&] { both += 2; });
    ::_exit(both == 3 ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace elfmeta::testing
