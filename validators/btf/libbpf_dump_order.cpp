#include "btf/libbpf_dump_order.h"

#include <cstdint>
#include <string>
#include <vector>

#include "btf/bounded_name.h"
#include "btf/btf_rules.h"

namespace elfmeta::btf {
namespace {

// The references btf_dump_order_type follows from `t` without having marked
// it first: a pointer's, a modifier's or a typedef's target, an array's
// element type, a prototype's return and parameter types. A struct or union
// is marked ORDERING before its members are ordered (a cycle through one
// ends in -ELOOP, an error, or at a forward declaration); other kinds end
// the walk.
void unmarked_references(const TypeRef& t, std::vector<uint32_t>& out) {
  switch (t.kind()) {
    case kPtr: case kConst: case kVolatile: case kRestrict: case kTypeTag: case kTypedef:
      out.push_back(t.type());
      return;
    case kArray:
      out.push_back(t.payload(0));
      return;
    case kFuncProto:
      out.push_back(t.type());
      for (uint32_t i = 0; i < t.vlen(); ++i) out.push_back(param_at(t, i).type);
      return;
    default:
      return;
  }
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
}

}  // namespace elfmeta::btf
