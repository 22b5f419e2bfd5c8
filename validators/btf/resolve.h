// The resolve pass: every type that refers to other types is resolved
// depth-first, as the kernel's verifier does for BPF_BTF_LOAD
// (btf_check_all_types() in kernel/bpf/btf.c), with loop detection, the
// 32-frame depth limit and the kernel's three resolve modes (so that the
// verdict depends on type id order exactly where the kernel's does). Then
// every FUNC_PROTO's return and parameter types are checked.
// Two implementations give the same findings and state: the reference
// (resolve_reference.cpp, function by function the kernel's) and the fast
// one (resolve.cpp), which checks use by default.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "btf/btf.h"
#include "btf/findings.h"

namespace elfmeta::btf {

enum class Visit : uint8_t { NotVisited, Visited, Resolved, Poisoned };

// What the pass learned about each own type: the id it resolves to (past
// typedefs and qualifiers) and its size. A type whose resolution failed, or
// that depends on one, is Poisoned and produces no further findings.
struct ResolveState {
  const Btf* btf = nullptr;
  const ResolveState* base = nullptr;  // state of btf->base(), if it was resolved
  std::vector<uint32_t> ids;
  std::vector<uint32_t> sizes;
  std::vector<Visit> visit;

  // Base types count as resolved (the kernel never resolves into a base);
  // one whose own resolution failed stays failed.
  Visit state(uint32_t id) const {
    if (id >= btf->first_id()) return visit[id - btf->first_id()];
    return base && base->state(id) == Visit::Poisoned ? Visit::Poisoned : Visit::Resolved;
  }
  uint32_t resolved_id(uint32_t id) const {
    if (id >= btf->first_id()) return ids[id - btf->first_id()];
    return base ? base->resolved_id(id) : 0;
  }
  uint32_t resolved_size(uint32_t id) const {
    if (id >= btf->first_id()) return sizes[id - btf->first_id()];
    return base ? base->resolved_size(id) : 0;
  }
};

// The FUNC loop that ends the pass, shared with a second thread: FUNCs are
// half the types of a vmlinux, and each needs only its prototype's result.
// Once its root loop is done, the pass hands out chunks of ids; help(), on
// the other thread, takes chunks too until none are left. The FUNCs that
// are not plainly fine (a finding, or a prototype the pass has not judged)
// are left to the pass, which takes them in id order once all chunks are
// done: the state and findings are those of one thread. Only resolve.cpp
// reads the fields.
struct SharedFuncLoop {
  // Waits until the pass has reached its FUNC loop, then takes chunks.
  void help();
  // A task for whichever thread reaches the loop first, run before it
  // takes chunks (the pass posts the chunks first, so the other can start
  // on them): the two threads then end together, sharing the FUNCs, which
  // a task run after the loop would not.
  std::function<void()> first_comer;
  void run_first_comer() {
    if (first_comer && !first_comer_taken.exchange(true, std::memory_order_acq_rel)) first_comer();
  }
  std::atomic<bool> first_comer_taken{false};

  std::atomic<uint32_t> started{0};      // 1: the fields below are set
  std::atomic<uint32_t> next_chunk{0};   // the next chunk to take
  std::atomic<uint32_t> done_chunks{0};  // chunks done, by either thread
  uint32_t chunks = 0, first = 0, own = 0;
  const RecordHead* heads = nullptr;
  const uint8_t* kinds = nullptr;
  const uint8_t* protos_named = nullptr;  // per own type: 1 for a prototype with all parameters named
  ResolveState* state = nullptr;
  std::vector<uint32_t> left_by_helper;  // own ids (local) for the pass
};

// Types already flagged by the record checks are treated as failed up front.
// `shortcuts`: the fast resolver (resolve.cpp); false: the reference one
// (resolve_reference.cpp). The state and the findings are the same, the
// findings' order is not. With `shared` and `shortcuts`, the FUNC loop is
// shared with a thread that calls shared->help() (which, without
// `shortcuts`, finds nothing to take).
// Reports BTF-TYPE-007, -009, -010, -012, BTF-REF-007, BTF-VAR-005,
// BTF-ARRAY-005..008, BTF-AGG-008..016, BTF-FUNC-004, -005,
// BTF-PROTO-003..005, BTF-DTAG-006..008, BTF-DATASEC-011, -012.
void resolve_types(const Btf& btf, const ResolveState* base_state, ResolveState& state, Findings& findings,
                   bool shortcuts = true, SharedFuncLoop* shared = nullptr);

}  // namespace elfmeta::btf
