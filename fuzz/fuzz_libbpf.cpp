// libbpf's btf__new on any bytes, and what libbpf does with a BTF it
// accepted: crashes here are findings about libbpf. The fuzz build links
// sid's libbpf (1.7 today) compiled from its source with the fuzz
// instrumentation, so that libbpf's own edges guide the campaign
// (fuzz/CMakeLists.txt); without that source, bookworm's libbpf-dev 1.1, of
// which only the harness is seen.
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <algorithm>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "btf/verifier.h"
#include "core/diagnostic.h"
#include "fuzz/custom_mutator.h"
#include "fuzz/mutators/btf_mutator.h"

namespace {

int quiet(enum libbpf_print_level, const char*, va_list) { return 0; }
void discard(void*, const char*, va_list) {}

// A word of a record; libbpf (1.1 to 1.8 at least) accepts headers whose
// length is not a multiple of 4 and then hands out misaligned records
// (regress/known-bugs): read by bytes.
__u32 word(const struct btf_type* t, size_t index) {
  __u32 w = 0;
  std::memcpy(&w, reinterpret_cast<const char*>(t) + 4 * index, sizeof w);
  return w;
}

// The references libbpf's recursive walks follow from a record
// (btf__align_of: modifiers, typedefs, arrays, members; btf__resolve_size
// and btf__resolve_type: modifiers, typedefs, variables, arrays, to a
// bounded depth). btf_dump's walks are elfmeta's rules (dump_is_modelled_safe).
enum class Walk { AlignOf, Resolve };
std::vector<__u32> references(const struct btf_type* t, Walk walk) {
  const __u32 info = word(t, 1);
  const __u32 kind = (info >> 24) & 0x1f, vlen = info & 0xffff;
  switch (kind) {
    case BTF_KIND_TYPEDEF:
    case BTF_KIND_VOLATILE:
    case BTF_KIND_CONST:
    case BTF_KIND_RESTRICT:
    case BTF_KIND_TYPE_TAG:
      return {word(t, 2)};
    case BTF_KIND_VAR:
    case BTF_KIND_FUNC:
      return walk == Walk::Resolve ? std::vector<__u32>{word(t, 2)} : std::vector<__u32>{};
    case BTF_KIND_ARRAY:
      return {word(t, 3)};
    case BTF_KIND_STRUCT:
    case BTF_KIND_UNION: {
      if (walk != Walk::AlignOf) return {};
      std::vector<__u32> out;
      for (__u32 i = 0; i < vlen; ++i) out.push_back(word(t, 3 + 3 * i + 1));
      return out;
    }
    default:
      return {};
  }
}

// Whether `walk` ends on every type: no reference past the last type (1.1
// has no sanity pass and would follow it into a null record) and, unless the
// walk is bounded (Resolve), no cycle along its references (on which it
// recurses until the stack overflows). These inputs are kept away from
// libbpf so that campaigns look for new bugs.
bool walk_ends(const struct btf* btf, Walk walk) {
  const __u32 n = btf__type_cnt(btf);
  enum : char { kNew, kOpen, kDone };
  std::vector<char> state(n, kNew);
  std::vector<std::pair<__u32, std::vector<__u32>>> stack;
  for (__u32 root = 1; root < n; ++root) {
    if (state[root] != kNew) continue;
    state[root] = kOpen;
    stack.push_back({root, references(btf__type_by_id(btf, root), walk)});
    while (!stack.empty()) {
      auto& [id, next] = stack.back();
      if (next.empty()) {
        state[id] = kDone;
        stack.pop_back();
        continue;
      }
      const __u32 to = next.back();
      next.pop_back();
      if (to == 0) continue;
      if (to >= n || (state[to] == kOpen && walk != Walk::Resolve)) return false;
      if (state[to] != kNew) continue;
      state[to] = kOpen;
      stack.push_back({to, references(btf__type_by_id(btf, to), walk)});
    }
  }
  return true;
}

// Whether every reference names a type: libbpf's sanity pass (1.3+) does
// not check a prototype's return type (BTF-LIBBPF-016), and btf_dump follows
// it to a null record.
bool references_in_range(const struct btf* btf) {
  const __u32 n = btf__type_cnt(btf);
  for (__u32 id = 1; id < n; ++id) {
    const struct btf_type* t = btf__type_by_id(btf, id);
    const __u32 info = word(t, 1), kind = (info >> 24) & 0x1f, vlen = info & 0xffff;
    switch (kind) {
      case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
      case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG: case BTF_KIND_FUNC: case BTF_KIND_VAR:
        if (word(t, 2) >= n) return false;
        break;
      case BTF_KIND_ARRAY:
        if (word(t, 3) >= n || word(t, 4) >= n) return false;
        break;
      case BTF_KIND_STRUCT: case BTF_KIND_UNION:
        for (__u32 i = 0; i < vlen; ++i)
          if (word(t, 3 + 3 * i + 1) >= n) return false;
        break;
      case BTF_KIND_FUNC_PROTO:
        if (word(t, 2) >= n) return false;
        for (__u32 i = 0; i < vlen; ++i)
          if (word(t, 3 + 2 * i + 1) >= n) return false;
        break;
      default:
        break;
    }
  }
  return true;
}

// Whether every struct and union and each of their members has an
// alignment: btf__align_of gives 0 for a kind it does not know (a function,
// a variable, void) and for a scalar of size 0, and btf_dump divides by it
// when it pads up to such a member or a struct's end
// (regress/known-bugs/libbpf-1.7/dump-padding-divide-by-zero). Only where
// btf__align_of ends.
bool members_aligned(const struct btf* btf) {
  const __u32 n = btf__type_cnt(btf);
  for (__u32 id = 1; id < n; ++id) {
    const struct btf_type* t = btf__type_by_id(btf, id);
    const __u32 info = word(t, 1);
    const __u32 kind = (info >> 24) & 0x1f, vlen = info & 0xffff;
    if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION) continue;
    if (btf__align_of(btf, id) <= 0) return false;
    for (__u32 i = 0; i < vlen; ++i)
      if (btf__align_of(btf, word(t, 3 + 3 * i + 1)) <= 0) return false;
  }
  return true;
}

// Whether elfmeta's model of the libbpf linked lets btf_dump run: it
// accepts the blob as that libbpf does (fuzz_btf_libbpf_sid_diff holds them
// equal), and none of the rules of what btf_dump does with accepted BTF
// fires: BTF-LIBBPF-019 (a reference cycle its ordering recurses along
// without end: regress/known-bugs/libbpf-1.7/dump-pointer-cycle), -020 (a
// type cycle it refuses, after which dumping the next types reaches a struct
// left half-ordered: dump-anonymous-struct-recursion) and -018 (declarations
// that take its shared stack past its first allocation under a view it reads
// again: dump-nested-anonymous-decl-stack). Those rules are the only guard
// of btf_dump here, so a crash of btf_dump that this lets through is a
// finding about them as much as about libbpf. Before, the harness kept its
// own, stricter model (no cycle at all, no stack past 16 entries), so a
// struct list_head { struct list_head *next; } was never dumped.
bool dump_is_modelled_safe(const uint8_t* data, size_t size) {
  elfmeta::btf::CheckOptions options;
  options.concurrent = false;
  options.lints = false;
  options.consumer = elfmeta::kLibbpf;
  options.libbpf = {static_cast<uint16_t>(libbpf_major_version()), static_cast<uint16_t>(libbpf_minor_version())};
  elfmeta::DiagnosticList list;
  const elfmeta::btf::CheckedBtf checked = elfmeta::btf::check_btf({data, size}, nullptr, options, "fuzz", "", list);
  // The rules ran only on records elfmeta read whole: a record whose info
  // word has bits libbpf 1.7 ignores (its kind is 5 bits, Linux 7.2's 7) is
  // not read as libbpf reads it, and its BTF gets a note instead.
  if (checked.errors != 0 || !checked.btf || !checked.btf->types_complete()) return false;
  for (const auto& d : list.items())
    if (d.rule && (d.rule->id == "BTF-LIBBPF-018" || d.rule->id == "BTF-LIBBPF-019" || d.rule->id == "BTF-LIBBPF-020"))
      return false;
  return true;
}

// Lines of padding btf_dump__dump_type writes, over all types, saturating
// and over-estimated (every type counted as dumped on its own):
// btf_dump_emit_bit_padding writes a `long: 64;` per 64 bits of a gap, and an
// anonymous struct is emitted again wherever it is referred to, so a few
// small types can make millions of lines: a timeout rather than a finding.
// It follows what btf_dump emits inline (anonymous structs, a prototype's
// parameters), whose cycles are BTF-LIBBPF-019's and -020's: only on BTF
// dump_is_modelled_safe let through.
class PaddingEstimate {
 public:
  explicit PaddingEstimate(const struct btf* btf)
      : btf_(btf), n_(btf__type_cnt(btf)), decl_(n_), body_(n_), known_decl_(n_), known_body_(n_) {}

  uint64_t whole() {
    uint64_t all = 0;
    for (__u32 id = 1; id < n_; ++id) {
      const struct btf_type* t = btf__type_by_id(btf_, id);
      const __u32 kind = (word(t, 1) >> 24) & 0x1f;
      all = sum(all, decl(id));
      if (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION) all = sum(all, body(id));
      if (kind == BTF_KIND_TYPEDEF && word(t, 2) < n_) all = sum(all, decl(word(t, 2)));
    }
    return all;
  }

 private:
  static constexpr uint64_t kSaturated = uint64_t(1) << 40;
  static uint64_t sum(uint64_t a, uint64_t b) { return std::min(kSaturated, a + b); }

  // btf_dump_emit_type_decl(id): what its declarator chain emits inline.
  uint64_t decl(__u32 id) {
    if (known_decl_[id]) return decl_[id];
    uint64_t lines = 0;
    for (__u32 at = id, steps = 0; steps < n_ && at != 0 && at < n_; ++steps) {
      const struct btf_type* t = btf__type_by_id(btf_, at);
      const __u32 info = word(t, 1), kind = (info >> 24) & 0x1f, vlen = info & 0xffff;
      if (kind == BTF_KIND_FUNC_PROTO) {
        for (__u32 i = 0; i < vlen; ++i) {
          const __u32 param = word(t, 3 + 2 * i + 1);
          if (i == vlen - 1 && param == 0) break;  // varargs
          if (param < n_) lines = sum(lines, decl(param));
        }
      }
      if (kind == BTF_KIND_PTR || kind == BTF_KIND_CONST || kind == BTF_KIND_VOLATILE || kind == BTF_KIND_RESTRICT ||
          kind == BTF_KIND_TYPE_TAG || kind == BTF_KIND_FUNC_PROTO) {
        at = word(t, 2);
      } else if (kind == BTF_KIND_ARRAY) {
        at = word(t, 3);
      } else {
        if ((kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION) && word(t, 0) == 0) lines = sum(lines, body(at));
        break;
      }
    }
    known_decl_[id] = true;
    return decl_[id] = lines;
  }

  // btf_dump_emit_struct_def(id): padding up to each member and to the end,
  // by 64 bits (a few lines more where it first aligns), and what each
  // member's declaration emits inline. Bit offsets as libbpf keeps them, in
  // int: a member resolving to gigabytes wraps the offset after it below
  // zero, and the padding from there to the end is billions of bits.
  uint64_t body(__u32 id) {
    if (known_body_[id]) return body_[id];
    const struct btf_type* t = btf__type_by_id(btf_, id);
    const __u32 info = word(t, 1), vlen = info & 0xffff;
    const bool bitfields = (info >> 31) != 0;
    const auto as_int = [](uint64_t bits) { return static_cast<int32_t>(static_cast<uint32_t>(bits)); };
    uint64_t lines = 0;
    const auto pad = [&](int32_t from, int32_t to) {
      if (from < to) lines = sum(lines, uint64_t(int64_t(to) - from) / 64 + 12);
    };
    int32_t off = 0;
    for (__u32 i = 0; i < vlen; ++i) {
      const __u32 type = word(t, 3 + 3 * i + 1), offset = word(t, 3 + 3 * i + 2);
      const int32_t member_off = as_int(bitfields ? offset & 0xffffff : offset);
      const __u32 bitfield_size = bitfields ? offset >> 24 : 0;
      pad(off, member_off);
      if (type < n_) lines = sum(lines, decl(type));
      if (bitfield_size) {
        off = as_int(uint64_t(uint32_t(member_off)) + bitfield_size);
      } else {
        const uint32_t size = static_cast<uint32_t>(std::max<int64_t>(0, btf__resolve_size(btf_, type)));
        off = as_int(uint64_t(uint32_t(member_off)) + uint64_t(size) * 8);
      }
    }
    if (((info >> 24) & 0x1f) == BTF_KIND_STRUCT) pad(off, as_int(uint64_t(word(t, 2)) * 8));
    known_body_[id] = true;
    return body_[id] = lines;
  }

  const struct btf* btf_;
  const __u32 n_;
  std::vector<uint64_t> decl_, body_;
  std::vector<bool> known_decl_, known_body_;
};

// Per type: its name, size, alignment, the type behind its modifiers, a
// lookup by its name and its C declaration (btf_dump, which orders and
// emits what it depends on); then the blob written out again and parsed.
// Before 1.3 (bookworm's 1.1) btf__new has no sanity pass: names and
// references may point anywhere, and libbpf's walks follow them into null
// pointers. There, only names are looked up.
void walk(struct btf* btf, const uint8_t* data, size_t size) {
  const __u32 n = btf__type_cnt(btf);
  static const bool sanity_pass = libbpf_major_version() > 1 || libbpf_minor_version() >= 3;
  if (!sanity_pass) {
    for (__u32 id = 1; id < n; ++id)
      if (const struct btf_type* t = btf__type_by_id(btf, id)) btf__name_by_offset(btf, word(t, 0));
    return;
  }
  const bool align_of = walk_ends(btf, Walk::AlignOf), resolve = walk_ends(btf, Walk::Resolve);
  // btf_dump only where every reference and alignment is known, elfmeta's rules of
  // btf_dump see nothing wrong, and the padding is at most 2^18 lines.
  constexpr uint64_t kMaxPaddingLines = uint64_t(1) << 18;
  const bool dumps = align_of && references_in_range(btf) && members_aligned(btf) && dump_is_modelled_safe(data, size) &&
                     PaddingEstimate(btf).whole() <= kMaxPaddingLines;
  struct btf_dump* dump = dumps ? btf_dump__new(btf, discard, nullptr, nullptr) : nullptr;
  if (libbpf_get_error(dump)) dump = nullptr;
  for (__u32 id = 1; id < n; ++id) {
    const struct btf_type* t = btf__type_by_id(btf, id);
    if (!t) continue;
    const char* name = btf__name_by_offset(btf, word(t, 0));
    if (resolve) btf__resolve_size(btf, id);
    if (resolve) btf__resolve_type(btf, id);
    if (align_of) btf__align_of(btf, id);
    if (name && *name) btf__find_by_name(btf, name);
    if (dump) btf_dump__dump_type(dump, id);
  }
  if (dump) btf_dump__free(dump);
  __u32 raw_size = 0;
  const void* raw = btf__raw_data(btf, &raw_size);
  if (raw) btf__free(btf__new(raw, raw_size));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool silenced = (libbpf_set_print(quiet), true);
  (void)silenced;
  struct btf* btf = btf__new(data, static_cast<__u32>(size));
  if (!btf || libbpf_get_error(btf)) return 0;
  walk(btf, data, size);
  btf__free(btf);
  return 0;
}

ELFMETA_FUZZ_CUSTOM_MUTATOR(elfmeta::fuzz::mutate_btf, elfmeta::fuzz::cross_over_btf)
