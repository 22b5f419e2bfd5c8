#include "sframe/lookup.h"

namespace elfmeta::sframe {

std::optional<FreHit> find_fre(const SframeTable& t, uint64_t pc) {
  // The last FDE starting at or below pc (sorted tables; others are searched
  // the same way, which is what a reader trusting the flag does).
  size_t lo = 0, hi = t.fdes.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (t.order_of(t.starts[mid].address) <= t.order_of(pc))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return std::nullopt;
  const size_t i = lo - 1;
  const Fde& d = t.fdes[i];
  const uint64_t start = t.starts[i].address;
  if (!t.starts[i].resolved || pc - start >= d.size) return std::nullopt;
  uint64_t offset = pc - start;
  if (d.pc_type() == kPcMask) {
    const uint32_t block = t.header.version == 1 ? 16 : d.rep_size;
    if (!block) return std::nullopt;  // SFRAME-FDE-005
    offset %= block;
  }
  std::optional<FreHit> hit;
  for (FreCursor c(t, i); !c.done() && c->start <= offset; c.next()) hit = FreHit{i, c.index()};
  return hit;
}

}  // namespace elfmeta::sframe
