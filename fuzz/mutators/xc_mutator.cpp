#include "fuzz/mutators/xc_mutator.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "fuzz/mutators/btf_mutator.h"
#include "synth/xc_image.h"

namespace elfmeta::fuzz {
namespace {

std::optional<std::span<const uint8_t>> take_prefixed(std::span<const uint8_t>& input) {
  if (input.size() < 2) return std::nullopt;
  const size_t n = size_t(input[0]) | size_t(input[1]) << 8;
  if (n > input.size() - 2) return std::nullopt;
  const auto head = input.subspan(2, n);
  input = input.subspan(2 + n);
  return head;
}

void put_prefixed(std::vector<uint8_t>& out, const std::vector<uint8_t>& part) {
  out.push_back(static_cast<uint8_t>(part.size()));
  out.push_back(static_cast<uint8_t>(part.size() >> 8));
  out.insert(out.end(), part.begin(), part.end());
}

uint32_t word_at(const std::vector<uint8_t>& b, size_t i) {
  uint32_t v;
  std::memcpy(&v, b.data() + 4 * i, 4);
  return v;
}
void set_word(std::vector<uint8_t>& b, size_t i, uint32_t v) { std::memcpy(b.data() + 4 * i, &v, 4); }

// One word of the BTF id sets: ids near the seed's (a few dozen types), the
// counts' boundaries, or a reordering.
bool mutate_btf_ids(std::vector<uint8_t>& ids, Rng& rng) {
  const size_t words = ids.size() / 4;
  switch (pick(rng, 5)) {
    case 0:  // an entry's id: absent, a neighbour, past the last type
      if (!words) return false;
      set_word(ids, pick(rng, words), pick_of(rng, {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 40u, 0x7fffffffu}) + pick(rng, 3));
      return true;
    case 1:  // a count word
      if (!words) return false;
      set_word(ids, 0, pick_of(rng, {0u, 1u, 2u, 3u, 64u, 0xffffffffu}));
      return true;
    case 2: {  // two words swapped (unsorts a set)
      if (words < 2) return false;
      const size_t a = pick(rng, words), b = pick(rng, words);
      const uint32_t x = word_at(ids, a);
      set_word(ids, a, word_at(ids, b));
      set_word(ids, b, x);
      return true;
    }
    case 3:  // an entry pair added
      for (uint32_t v : {1u + pick(rng, 8), 0u}) ids.insert(ids.end(), reinterpret_cast<uint8_t*>(&v), reinterpret_cast<uint8_t*>(&v) + 4);
      return true;
    default:  // the end cut (at any byte)
      if (ids.empty()) return false;
      ids.resize(pick(rng, ids.size()));
      return true;
  }
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    lines.push_back(text.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return lines;
}

struct Line {
  uint64_t address = 0;
  char type = 'T';
  std::string name;
};
std::optional<Line> parse_line(const std::string& s) {
  Line l;
  char type = 0;
  int used = 0;
  unsigned long long address = 0;
  if (std::sscanf(s.c_str(), "%llx %c %n", &address, &type, &used) < 2 || used <= 0) return std::nullopt;
  l.address = address;
  l.type = type;
  l.name = s.substr(static_cast<size_t>(used));
  return l;
}
std::string format_line(const Line& l) {
  char head[32];
  std::snprintf(head, sizeof head, "%016" PRIx64 " %c ", l.address, l.type);
  return head + l.name;
}

// One kallsyms line changed so that it nearly agrees with the BTF.
bool mutate_kallsyms(std::string& text, Rng& rng) {
  auto lines = lines_of(text);
  if (lines.empty()) return false;
  const size_t k = pick(rng, lines.size());
  auto line = parse_line(lines[k]);
  const auto other = parse_line(lines[pick(rng, lines.size())]);
  switch (pick(rng, 8)) {
    case 0:
      lines.erase(lines.begin() + static_cast<long>(k));
      break;
    case 1:
      lines.insert(lines.begin() + static_cast<long>(k), lines[k]);
      break;
    case 2:  // onto another symbol's address, or a few bytes off its own
      if (!line) return false;
      line->address = other && chance(rng, 2) ? other->address : line->address + pick_of(rng, {uint64_t(1), uint64_t(4), uint64_t(8), uint64_t(16), uint64_t(-4)});
      lines[k] = format_line(*line);
      break;
    case 3:
      if (!line) return false;
      line->type = pick_of(rng, {'T', 't', 'D', 'd', 'B', 'b', 'R', 'r', 'W', 'A', 'U'});
      lines[k] = format_line(*line);
      break;
    case 4:  // a compiler clone or fragment of the same function
      if (!line) return false;
      line->name += pick_of(rng, {".isra.0", ".constprop.0", ".cold", ".part.0", ".llvm.123"});
      lines[k] = format_line(*line);
      break;
    case 5:  // another line's name (a same-named static elsewhere)
      if (!line || !other) return false;
      line->name = other->name;
      line->address += 0x100;
      lines[k] = format_line(*line);
      break;
    case 6: {  // an id-set symbol at a word of .BTF_ids
      Line l{synth::kXcBtfIds + 4 * pick(rng, 8), 'r',
             pick_of(rng, {"__BTF_ID__set8__", "__BTF_ID__set__", "__BTF_ID__func__"}) +
                 std::string(other ? other->name : "x") + "__" + std::to_string(pick(rng, 100))};
      lines.insert(lines.begin() + static_cast<long>(k), format_line(l));
      break;
    }
    default:  // a module's symbol
      lines[k] += pick_of(rng, {"\t[mod]", " [other_mod]"});
      break;
  }
  text.clear();
  for (const auto& l : lines) text += l + "\n";
  return true;
}

}  // namespace

std::optional<XcInput> decode_xc_input(std::span<const uint8_t> input) {
  const auto btf = take_prefixed(input);
  if (!btf) return std::nullopt;
  const auto ids = take_prefixed(input);
  if (!ids) return std::nullopt;
  return XcInput{{btf->begin(), btf->end()}, {ids->begin(), ids->end()}, {input.begin(), input.end()}};
}

std::vector<uint8_t> encode_xc_input(const XcInput& x) {
  std::vector<uint8_t> out;
  put_prefixed(out, x.btf);
  put_prefixed(out, x.btf_ids);
  out.insert(out.end(), x.kallsyms.begin(), x.kallsyms.end());
  return out;
}

std::optional<std::vector<uint8_t>> mutate_btf_xc(std::span<const uint8_t> input, Rng& rng) {
  auto x = decode_xc_input(input);
  if (!x) return std::nullopt;
  switch (pick(rng, 4)) {
    case 0:
    case 1: {
      auto btf = mutate_btf(x->btf, rng);
      if (!btf || btf->size() > 0xffff) return std::nullopt;
      x->btf = std::move(*btf);
      break;
    }
    case 2:
      if (!mutate_btf_ids(x->btf_ids, rng) || x->btf_ids.size() > 0xffff) return std::nullopt;
      break;
    default:
      if (!mutate_kallsyms(x->kallsyms, rng)) return std::nullopt;
      break;
  }
  return encode_xc_input(*x);
}

}  // namespace elfmeta::fuzz
