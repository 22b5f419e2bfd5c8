#include "btf/libbpf_dump_order.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "btf/bounded_name.h"
#include "btf/btf_rules.h"

namespace elfmeta::btf {
namespace {

// The calls btf_dump_order_type(id, through_ptr) makes for `t` before it
// marks it ORDERED, as call(id, through_ptr): a pointer passes through_ptr =
// true, an array (whose element C must complete) and a struct's members
// false, modifiers, typedefs and a prototype's return and parameter types
// pass theirs on. A named struct or union reached through a pointer returns
// at once (a forward declaration will do). Both rules walk these edges.
template <typename Call>
void ordering_calls(const TypeRef& t, bool through_ptr, Call&& call) {
  switch (t.kind()) {
    case kPtr:
      call(t.type(), true);
      return;
    case kConst: case kVolatile: case kRestrict: case kTypeTag: case kTypedef:
      call(t.type(), through_ptr);
      return;
    case kArray:
      call(t.payload(0), false);
      return;
    case kFuncProto:
      call(t.type(), through_ptr);
      for (uint32_t i = 0; i < t.vlen(); ++i) call(param_at(t, i).type, through_ptr);
      return;
    case kStruct: case kUnion:
      if (through_ptr && t.name_off() != 0) return;
      for (uint32_t i = 0; i < t.vlen(); ++i) call(member_at(t, i).type, false);
      return;
    default:
      return;
  }
}

// The references btf_dump_order_type follows from `t` without having marked
// it first. A struct or union is marked ORDERING before its members are
// ordered (a cycle through one ends in -ELOOP, BTF-LIBBPF-020's, or at a
// forward declaration), so it has none here.
void unmarked_references(const TypeRef& t, std::vector<uint32_t>& out) {
  if (is_aggregate(t.kind())) return;
  ordering_calls(t, false, [&](uint32_t id, bool) { out.push_back(id); });
}

// The cycle's types from `from` (open on `path`) to the end of the path,
// then `from` again; long cycles keep their first and last types.
std::string cycle_text(const Btf& btf, const std::vector<uint32_t>& path, size_t from) {
  constexpr size_t kShown = 8;
  std::string s;
  const size_t length = path.size() - from;
  for (size_t i = from; i < path.size(); ++i) {
    const size_t k = i - from;
    if (length > kShown && k == kShown / 2) {
      s += "... (" + std::to_string(length - kShown) + " more) -> ";
      i = path.size() - kShown / 2 - 1;
      continue;
    }
    s += type_label(btf, path[i]) + " -> ";
  }
  return s + type_label(btf, path[from]);
}

// btf_dump_order_type(id, through_ptr) as a state of a graph, 2 * local + through_ptr:
// its successors are its ordering_calls. A struct or union reached again
// while its members are ordered, in any state but a named one through a
// pointer, is an "unsatisfiable type cycle" (-ELOOP).
class OrderingStates {
 public:
  explicit OrderingStates(const Btf& btf) : btf_(btf), first_(btf.first_id()) {}

  size_t count() const { return size_t(btf_.own_count()) * 2; }
  uint32_t id_of(size_t state) const { return first_ + static_cast<uint32_t>(state / 2); }
  bool aggregate(size_t state) const { return is_aggregate(btf_.type(id_of(state)).kind()); }

  void successors(size_t state, std::vector<size_t>& out) const {
    out.clear();
    ordering_calls(btf_.type(id_of(state)), state % 2,
                   [&](uint32_t id, bool through_ptr) { add(id, through_ptr, out); });
  }

 private:
  void add(uint32_t id, bool through_ptr, std::vector<size_t>& out) const {
    if (btf_.is_own(id)) out.push_back(size_t(id - first_) * 2 + through_ptr);  // void and base types end it
  }

  const Btf& btf_;
  const uint32_t first_;
};

// The strongly connected sets of states (Tarjan's algorithm, iteratively:
// the nesting is the input's), each as its states; sets of one state
// without an edge to itself are left out.
std::vector<std::vector<size_t>> cyclic_components(const OrderingStates& g) {
  constexpr size_t kUnseen = SIZE_MAX;
  const size_t n = g.count();
  std::vector<size_t> index(n, kUnseen), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<size_t> stack;
  struct Frame {
    size_t state;
    std::vector<size_t> next;
    size_t at = 0;
  };
  std::vector<Frame> calls;
  std::vector<std::vector<size_t>> out;
  size_t counter = 0;
  auto enter = [&](size_t v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = true;
    Frame frame{v, {}};
    g.successors(v, frame.next);
    calls.push_back(std::move(frame));
  };
  for (size_t root = 0; root < n; ++root) {
    if (index[root] != kUnseen) continue;
    enter(root);
    while (!calls.empty()) {
      Frame& top = calls.back();
      if (top.at < top.next.size()) {
        const size_t w = top.next[top.at++];
        if (index[w] == kUnseen) {
          enter(w);
        } else if (on_stack[w]) {
          low[top.state] = std::min(low[top.state], index[w]);
        }
        continue;
      }
      const size_t v = top.state;
      bool self_edge = false;
      for (const size_t w : top.next) self_edge |= w == v;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().state] = std::min(low[calls.back().state], low[v]);
      if (low[v] != index[v]) continue;
      std::vector<size_t> component;
      size_t w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        component.push_back(w);
      } while (w != v);
      if (component.size() > 1 || self_edge) out.push_back(std::move(component));
    }
  }
  return out;
}

// A shortest cycle from `start` back to it inside its component, as ids.
std::vector<uint32_t> cycle_through(const OrderingStates& g, const std::vector<size_t>& component, size_t start) {
  std::unordered_map<size_t, size_t> parent;  // state -> the state it was reached from
  for (const size_t s : component) parent.emplace(s, SIZE_MAX);
  std::vector<size_t> queue{start}, next;
  size_t end = SIZE_MAX;
  for (size_t head = 0; head < queue.size() && end == SIZE_MAX; ++head) {
    g.successors(queue[head], next);
    for (const size_t w : next) {
      auto it = parent.find(w);
      if (it == parent.end()) continue;  // outside the component
      if (w == start) {
        end = queue[head];
        break;
      }
      if (it->second != SIZE_MAX) continue;
      it->second = queue[head];
      queue.push_back(w);
    }
  }
  std::vector<uint32_t> ids;
  for (size_t s = end; s != SIZE_MAX && s != start; s = parent.at(s)) ids.push_back(g.id_of(s));
  ids.push_back(g.id_of(start));
  std::reverse(ids.begin(), ids.end());
  return ids;
}

}  // namespace

void check_btf_dump_order(const Btf& btf, Findings& f) {
  // A depth-first walk over the own types (a base cannot refer back into
  // them), iterative: the nesting is the input's. Each type is entered once;
  // an edge to a type still open closes a cycle, reported at that type.
  enum : uint8_t { kNew, kOpen, kDone, kReported };
  const uint32_t first = btf.first_id(), count = btf.own_count();
  std::vector<uint8_t> state(count, kNew);
  struct Frame {
    uint32_t id;
    std::vector<uint32_t> next;
  };
  std::vector<Frame> stack;
  std::vector<uint32_t> path;  // the ids on `stack`, for the message
  auto open = [&](uint32_t id) {
    state[id - first] = kOpen;
    Frame frame{id, {}};
    unmarked_references(btf.type(id), frame.next);
    stack.push_back(std::move(frame));
    path.push_back(id);
  };
  for (uint32_t local = 0; local < count; ++local) {
    if (state[local] != kNew) continue;
    open(first + local);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next.empty()) {
        if (state[top.id - first] == kOpen) state[top.id - first] = kDone;
        stack.pop_back();
        path.pop_back();
        continue;
      }
      const uint32_t to = top.next.back();
      top.next.pop_back();
      if (!btf.is_own(to)) continue;  // void, a base type, or past the last (other rules)
      uint8_t& s = state[to - first];
      if (s == kNew) {
        open(to);
      } else if (s == kOpen) {
        size_t from = path.size() - 1;
        while (path[from] != to) --from;
        f.at_type(rules::LIBBPF_019, to,
                  "reference cycle btf_dump orders without end: " + cycle_text(btf, path, from) +
                      "; its recursion overflows the stack");
        s = kReported;  // once per type, however many edges close on it
      }
    }
  }
  // The -ELOOP cycles: a component of ordering states that holds a struct or
  // union, reported once, at its first such type.
  const OrderingStates states(btf);
  for (const std::vector<size_t>& component : cyclic_components(states)) {
    size_t at = SIZE_MAX;
    for (const size_t s : component)
      if (states.aggregate(s) && (at == SIZE_MAX || s < at)) at = s;
    if (at == SIZE_MAX) continue;  // pointers, modifiers and prototypes only: BTF-LIBBPF-019's
    const std::vector<uint32_t> cycle = cycle_through(states, component, at);
    f.at_type(rules::LIBBPF_020, states.id_of(at),
              "type cycle btf_dump cannot order: " + cycle_text(btf, cycle, 0) +
                  "; it stops with \"unsatisfiable type cycle\" (-ELOOP) and writes no C");
  }
}

}  // namespace elfmeta::btf
