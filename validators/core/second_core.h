// Work split between the calling thread and a second one, for the checks
// of one large input (a kernel's BTF, ORC table, a program's SFrame).
// The second thread comes from a pool of parked threads: creating one costs
// about 150 µs on our 2-core VMs, as much as the work it would take over;
// a parked one polls for its next task for a while before it sleeps, so a
// hand-over costs about 0.5 µs (waking a sleeping one, about 28 µs).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

namespace elfmeta {

// Runs `other` on a parked helper thread while the caller runs `here`, and
// returns when both have finished. Callers on several threads at once each
// get their own helper. Neither function may throw.
void run_beside(const std::function<void()>& other, const std::function<void()>& here);

// For a hand-over inside the two functions of one run_beside(): sets
// `state` to `value` and wakes a waiter; waits until `state` holds `wanted`
// (polling for a while first, as run_beside() does, then sleeping).
void post(std::atomic<uint32_t>& state, uint32_t value);
void await(const std::atomic<uint32_t>& state, uint32_t wanted);

}  // namespace elfmeta
