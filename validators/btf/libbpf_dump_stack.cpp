#include "btf/libbpf_dump_stack.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "btf/btf_rules.h"
#include "btf/c_type.h"

namespace elfmeta::btf {
namespace {

// Heights are counted up to one past the first stack: beyond, how far does
// not matter. A cycle of inline emissions (an anonymous struct reached again
// from inside itself) is unbounded, and counts as past it too.
constexpr uint8_t kPast = kBtfDumpFirstStack + 1;

// Steps of declarator chains past kPast, all chains together: per type, and
// a base for small blobs. Real chains end well before kPast and take none.
constexpr uint64_t kChainStepsPerType = 32;
constexpr uint64_t kChainStepsBase = uint64_t(1) << 20;

uint8_t capped(uint32_t h) { return static_cast<uint8_t>(std::min<uint32_t>(kPast, h)); }

// Three questions per type id, each a node of the walk:
// - Decl: btf_dump_emit_type_decl(id): the entries its declarator chain
//   pushes (pointers, modifiers, arrays, prototypes, then the type they
//   end on), and what the chain emits inline on top of the whole chain;
// - Body: btf_dump_emit_struct_def(id) of a struct or union: its members,
//   each declared on top of the stack as it is;
// - Params: a prototype's parameters, each declared on top of the stack.
enum Question : uint32_t { kDecl, kBody, kParams, kQuestions };

// Per node, relative to the stack's height where it starts:
// - `height`: the highest the stack grows during it;
// - `exposed`: the highest it grows while a view that is read afterwards is
//   open. btf_dump_emit_type_chain reads its view again after an anonymous
//   struct it emitted inline when the chain pushed entries before the struct
//   (`struct { ... } *p`: the pointer is written after the body); after a
//   prototype's parameters it returns, and at the top level each member's
//   declaration starts from the stack afresh. A reallocation is harmless
//   unless a view is exposed to it (measured on libbpf 1.7 under ASan: a
//   prototype's deep parameter in a named struct is clean at 17 entries,
//   inside `struct { ... } *p` it is not).
//
// An anonymous struct or a prototype emitted inside itself is a bug of its
// own (btf_dump recurses until its own stack overflows: regress/known-bugs/
// libbpf-1.7/dump-anonymous-struct-recursion, dump-pointer-cycle): the walk
// does not follow the edge back, and the branch adds nothing here.
struct Heights {
  uint8_t height = 0, exposed = 0;
};

class DumpStackHeights {
 public:
  explicit DumpStackHeights(const Btf& btf)
      : btf_(btf),
        heights_(size_t(btf.type_count()) * kQuestions),
        state_(heights_.size(), kNew),
        chain_steps_left_(btf.type_count() * kChainStepsPerType + kChainStepsBase) {}

  // Whether some declarator chain was not followed to its end (the budget of
  // chain steps ran out): what it ends on was not judged.
  bool cut_short() const { return cut_short_; }

  // Node (id, q)'s heights, capped at kPast.
  Heights of(uint32_t id, Question q) {
    const size_t root = node(id, q);
    if (state_[root] == kDone) return heights_[root];
    // Post-order over the nodes, iteratively (the nesting is the input's).
    std::vector<Frame> stack;
    auto open = [&](size_t n) {
      state_[n] = kOpen;
      Frame frame;
      frame.node = n;
      frame.own = expand(n, frame.children, frame.reading_child);
      frame.result.height = frame.own;
      stack.push_back(std::move(frame));
    };
    open(root);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.result.exposed < kPast && top.next < top.children.size()) {
        const size_t index = top.next++;
        const size_t child = top.children[index];
        if (state_[child] == kNew) {
          open(child);
          continue;
        }
        if (state_[child] == kDone) top.take(heights_[child], index);  // else inside itself: not followed
        continue;
      }
      const Frame done = std::move(top);
      stack.pop_back();
      heights_[done.node] = done.result;
      state_[done.node] = kDone;
      if (!stack.empty()) stack.back().take(done.result, stack.back().next - 1);
    }
    return heights_[root];
  }

 private:
  enum : uint8_t { kNew, kOpen, kDone };
  static constexpr size_t kNone = SIZE_MAX;
  static size_t node(uint32_t id, Question q) { return size_t(id) * kQuestions + q; }

  struct Frame {
    size_t node = 0;
    std::vector<size_t> children;
    size_t next = 0;
    size_t reading_child = kNone;  // the child emitted under this node's read-again view
    uint8_t own = 0;               // what the node pushes itself (a Decl's chain)
    Heights result;
    // Child `index`'s heights, on top of what this node pushed.
    void take(Heights child, size_t index) {
      result.height = std::max(result.height, capped(own + child.height));
      if (child.exposed) result.exposed = std::max(result.exposed, capped(own + child.exposed));
      if (index == reading_child) result.exposed = std::max(result.exposed, capped(own + child.height));
    }
  };

  // The entries node `n` pushes itself, the nodes it emits on top of them,
  // and which of those it emits under a view it reads again.
  uint8_t expand(size_t n, std::vector<size_t>& children, size_t& reading_child) {
    const uint32_t id = static_cast<uint32_t>(n / kQuestions);
    const TypeRef t = btf_.type(id);
    switch (static_cast<Question>(n % kQuestions)) {
      // References past the last type are skipped: libbpf before 1.3
      // accepts them (its btf_dump then follows a null record).
      case kBody:
        for (uint32_t i = 0; i < t.vlen(); ++i)
          if (const uint32_t type = member_at(t, i).type; btf_.has_type(type)) children.push_back(node(type, kDecl));
        return 0;
      case kParams:
        for (uint32_t i = 0; i < t.vlen(); ++i) {
          const uint32_t type = param_at(t, i).type;
          if (i + 1 == t.vlen() && type == 0) break;  // varargs: "..."
          if (btf_.has_type(type)) children.push_back(node(type, kDecl));
        }
        return 0;
      default:
        break;
    }
    // The declarator chain, as btf_dump_emit_type_decl follows it, to its
    // end even past kPast: what it ends on (an inline struct, a prototype's
    // parameters) is emitted on top of all of it. Before, the walk stopped at
    // kPast and missed `struct { ... }` at the end of 22 modifiers
    // (regress/fuzz_libbpf/dump-stack-inline-struct-after-long-chain). A
    // chain longer than the type count is a cycle; all chains together have
    // a budget of steps.
    uint32_t chain = 0;
    for (uint32_t at = id;;) {
      if (chain == btf_.type_count()) break;
      if (chain >= kPast) {
        if (chain_steps_left_ == 0) {
          cut_short_ = true;
          break;
        }
        --chain_steps_left_;
      }
      ++chain;
      if (at == 0 || !btf_.has_type(at)) break;  // void ends it
      const TypeRef r = btf_.type(at);
      switch (r.kind()) {
        case kFuncProto:
          children.push_back(node(at, kParams));
          at = r.type();
          continue;
        case kPtr: case kConst: case kVolatile: case kRestrict: case kTypeTag:
          at = r.type();
          continue;
        case kArray:
          at = r.payload(0);
          continue;
        case kStruct: case kUnion:
          if (r.name_off() == 0) {  // emitted inline
            if (chain > 1) reading_child = children.size();
            children.push_back(node(at, kBody));
          }
          break;
        default:
          break;
      }
      break;
    }
    return capped(chain);
  }

  const Btf& btf_;
  std::vector<Heights> heights_;
  std::vector<uint8_t> state_;
  uint64_t chain_steps_left_;
  bool cut_short_ = false;
};

}  // namespace

void check_btf_dump_stack(const Btf& btf, Findings& f) {
  DumpStackHeights heights(btf);
  for (uint32_t local = 0; local < btf.own_count(); ++local) {
    const uint32_t id = btf.first_id() + local;
    const TypeRef t = btf.own_type(local);
    const bool named_aggregate = is_aggregate(t.kind()) && t.name_off() != 0;
    if (!named_aggregate && t.kind() != kTypedef) continue;
    const Question q = named_aggregate ? kBody : kDecl;
    // A typedef's declaration is its target's, on an empty stack.
    const uint32_t from = named_aggregate ? id : t.type();
    if (!named_aggregate && !btf.has_type(from)) continue;
    if (heights.of(from, q).exposed <= kBtfDumpFirstStack) continue;
    f.at_type(rules::LIBBPF_018, id,
              c_type_name(btf, id, 80) + ": declaring it takes btf_dump's declaration stack past its first " +
                  std::to_string(kBtfDumpFirstStack) + " entries inside an inline anonymous struct whose "
                  "declarator is read again afterwards: btf_dump then reads freed memory");
  }
  if (heights.cut_short())
    f.note("BTF-LIBBPF-018 cut short: the declarator chains past " + std::to_string(kBtfDumpFirstStack) +
           " entries are longer in all than its budget of steps; where they end was not judged");
}

}  // namespace elfmeta::btf
