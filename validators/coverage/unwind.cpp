// Unwind: how much of each function's code an unwinder can step through.
// The stack tables become a step function over addresses: ORC entries
// (defined unless their type is undefined; among entries of one address
// the last holds, as in the kernel's lookup), or SFrame FDEs (defined from
// their first FRE to their end). Each function, from its symbol's start to
// its size (or the next code start when the symbols give no sizes), is then
// walked region by region. Artifacts without either table count nothing:
// the running kernel's ORC is in its memory, not in /sys/kernel/btf.
#include <elf.h>

#include <algorithm>

#include "coverage/coverage.h"
#include "core/diagnostic.h"
#include "orc/orc_table.h"
#include "sframe/sframe_table.h"

namespace elfmeta::coverage {
namespace {

// From `address` on (in code section `section` of an object; 0 in a linked
// file) the code is described or not, up to the next point.
struct Point {
  uint32_t section = 0;
  uint64_t address = 0;
  bool defined = false;
};

bool before(const Point& a, const Point& b) {
  return a.section != b.section ? a.section < b.section : a.address < b.address;
}

// Sorted, one point per address (the last of each run of ties), and in each
// section described and undescribed points alternating (a point that
// repeats its predecessor's state is no boundary).
void settle(std::vector<Point>& points) {
  std::stable_sort(points.begin(), points.end(), before);
  std::vector<Point> tied;
  tied.reserve(points.size());
  for (const Point& p : points) {
    if (!tied.empty() && tied.back().section == p.section && tied.back().address == p.address)
      tied.back() = p;
    else
      tied.push_back(p);
  }
  points.clear();
  for (const Point& p : tied)
    if (points.empty() || points.back().section != p.section || points.back().defined != p.defined) points.push_back(p);
}

std::vector<Point> orc_points(const orc::OrcTable& t) {
  std::vector<Point> points;
  points.reserve(t.size());
  for (size_t i = 0; i < t.size(); ++i) {
    const orc::Site site = t.sites[i];
    if (!site.resolved) continue;
    const orc::Entry e = t.entries[i];
    const bool defined = t.layout_known && e.type != orc::kTypeUndefined && e.type != orc::kTypeInvalid;
    points.push_back({t.relocatable ? site.section : 0, site.address, defined});
  }
  settle(points);
  return points;
}

std::vector<Point> sframe_points(const sframe::SframeTable& t) {
  std::vector<Point> points;
  for (size_t i = 0; i < t.fdes.size() && i < t.starts.size() && i < t.blocks.size(); ++i) {
    const sframe::FunctionStart& start = t.starts[i];
    if (!start.resolved || t.blocks[i].count == 0) continue;
    const uint32_t section = t.relocatable ? start.section : 0;
    uint64_t first = 0;
    if (t.fdes[i].pc_type() == 0) {  // PCINC: from the first FRE's offset
      sframe::FreCursor cursor(t, i);
      if (cursor.done()) continue;
      first = cursor->start;
    }
    if (first >= t.fdes[i].size) continue;
    points.push_back({section, start.address + t.fdes[i].size, false});
    points.push_back({section, start.address + first, true});
  }
  // Ends before starts at one address: an FDE that begins where another
  // ends is what holds there.
  std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    if (a.section != b.section || a.address != b.address) return before(a, b);
    return a.defined < b.defined;
  });
  settle(points);
  return points;
}

// The longest undefined end of a function tail_only takes for padding.
constexpr uint64_t kTail = 3;

struct Extent {
  uint32_t section = 0;
  uint64_t start = 0, end = 0;
  bool sized = true;  // false: up to the next code start (kallsyms gives no sizes)
};

// Each function's [start, end): its size, else up to the next code start.
std::vector<Extent> function_extents(const input::Artifact& a, const input::SymbolIndex& symbols, bool relocatable) {
  struct Start {
    uint32_t section;
    uint64_t address, size;
    bool function;
    uint64_t section_end;  // where the code section holding it ends (~0: unknown)
  };
  std::vector<Start> starts;
  const SectionIndex sections(a);
  for (const input::CodeStart& c : symbols.code_starts()) {
    const input::Symbol& s = symbols.symbols()[c.symbol];
    const input::Section* sec = sections.holding(s);
    uint64_t section_end = ~uint64_t(0);
    if (sec) section_end = relocatable ? sec->size : sec->addr + sec->size;
    starts.push_back({relocatable ? s.section : 0, s.address, s.size,
                      c.role == input::CodeRole::Function && sections.in_code(s), section_end});
  }
  std::stable_sort(starts.begin(), starts.end(), [](const Start& a, const Start& b) {
    return a.section != b.section ? a.section < b.section : a.address < b.address;
  });
  std::vector<Extent> out;
  for (size_t i = 0; i < starts.size(); ++i) {
    const Start& s = starts[i];
    if (!s.function) continue;
    uint64_t end = s.address + s.size;
    bool sized = true;
    if (s.size == 0 || end < s.address) {
      // Up to the next code start, within the section (_fini, the last
      // symbol of .fini, would otherwise run into whatever follows).
      sized = false;
      size_t j = i + 1;
      while (j < starts.size() && starts[j].section == s.section && starts[j].address == s.address) ++j;
      end = j < starts.size() && starts[j].section == s.section ? starts[j].address : ~uint64_t(0);
      end = std::min(end, s.section_end);
      if (end == ~uint64_t(0) || end <= s.address) continue;  // no extent known
    }
    out.push_back({s.section, s.address, end, sized});
  }
  return out;
}

// The points with running sums, so that each function's figures take two
// binary searches however many entries it spans (functions of a hostile
// symbol table may all span the whole table).
class Steps {
 public:
  explicit Steps(std::vector<Point> points) : points_(std::move(points)) {
    described_before_.resize(points_.size());
    undescribed_before_.resize(points_.size());
    for (size_t i = 1; i < points_.size(); ++i) {
      const bool same = points_[i].section == points_[i - 1].section;
      const Point& prev = points_[i - 1];
      described_before_[i] = same ? described_before_[i - 1] + (prev.defined ? points_[i].address - prev.address : 0) : 0;
      undescribed_before_[i] = undescribed_before_[i - 1] + !prev.defined;
    }
  }

  // The index of the point holding at `address` (the last at or below it), or npos.
  size_t holding(uint32_t section, uint64_t address) const {
    auto it = std::upper_bound(points_.begin(), points_.end(), Point{section, address, false}, before);
    if (it == points_.begin() || std::prev(it)->section != section) return npos;
    return size_t(std::prev(it) - points_.begin());
  }
  // The index of the first point above `address` (of any section; size() at the end).
  size_t after(uint32_t section, uint64_t address) const {
    return size_t(std::upper_bound(points_.begin(), points_.end(), Point{section, address, false}, before) -
                  points_.begin());
  }
  // Described bytes of `section` below `address`.
  uint64_t described_below(uint32_t section, uint64_t address) const {
    const size_t k = holding(section, address);
    if (k == npos) return 0;
    return described_before_[k] + (points_[k].defined ? address - points_[k].address : 0);
  }
  bool defined(size_t k) const { return k != npos && points_[k].defined; }
  const Point& at(size_t k) const { return points_[k]; }
  // Undescribed points in [from, to].
  uint64_t undescribed_in(size_t from, size_t to) const {
    if (to == npos || to < from) return 0;
    return undescribed_before_[to] + !points_[to].defined - undescribed_before_[from];
  }
  static constexpr size_t npos = ~size_t(0);

 private:
  std::vector<Point> points_;
  std::vector<uint64_t> described_before_;    // per section, described bytes before point i
  std::vector<uint64_t> undescribed_before_;  // undescribed points before point i (all sections)
};

void walk(const Steps& steps, const std::vector<Extent>& functions, UnwindCoverage& c) {
  for (const Extent& f : functions) {
    uint64_t end = f.end;
    const size_t first = steps.holding(f.section, f.start);
    const size_t inside = steps.after(f.section, f.start);  // the first point after the start
    size_t last = steps.holding(f.section, end - 1);
    // Points alternate: the regions are the one holding at the start and
    // one per point inside, [inside, last].
    const auto points_inside = [&] { return last == Steps::npos || last < inside ? 0 : last - inside + 1; };
    uint64_t regions = 1 + points_inside();
    // Without a size the function runs to the next symbol, over the padding
    // in front of it, which objtool leaves undefined: a trailing undefined
    // region after described code is that padding, not the function's.
    if (!f.sized && regions > 1 && !steps.defined(last)) {
      end = steps.at(last).address;
      last = steps.holding(f.section, end - 1);
      --regions;
    }
    const uint64_t size = end - f.start;
    const uint64_t described = steps.described_below(f.section, end) - steps.described_below(f.section, f.start);
    const uint64_t holes = (steps.defined(first) ? 0 : 1) + (points_inside() ? steps.undescribed_in(inside, last) : 0);
    ++c.total;
    c.text_bytes += size;
    c.covered_bytes += described;
    c.undefined_regions += holes;
    c.undefined_bytes += size - described;
    if (described == size) {
      ++c.covered;
    } else if (described == 0) {
      ++c.without_entry;
    } else {
      ++c.partial;
      // Undefined only at the end: the int3 objtool leaves undescribed
      // after a function's last jump or return (straight-line speculation),
      // which no unwinder meets on a stack (bytes are not decoded here).
      c.tail_only += holes == 1 && !steps.defined(last) && end - steps.at(last).address <= kTail;
    }
  }
}

}  // namespace

UnwindCoverage unwind_coverage(const CoverageInput& in) {
  UnwindCoverage c;
  if (!in.symbols) return c;
  const input::Artifact& a = in.artifact;
  NullSink discard;
  std::vector<Point> points;
  bool any = false;
  if (a.section(".orc_unwind")) {
    orc::OrcFindings f(a.name, discard);
    if (auto t = orc::read_orc(a, std::nullopt, f, /*concurrent=*/false)) {
      ++c.orc_tables;
      points = orc_points(*t);
      any = true;
    }
  } else {
    sframe::SframeFindings f(a.name, discard, kNoConsumer);
    if (auto t = sframe::read_sframe(a, f, /*concurrent=*/false); t && t->usable) {
      ++c.sframe_sections;
      points = sframe_points(*t);
      any = true;
    }
  }
  if (!any) return c;
  walk(Steps(std::move(points)), function_extents(a, *in.symbols, a.elf_type == ET_REL), c);
  return c;
}

}  // namespace elfmeta::coverage
