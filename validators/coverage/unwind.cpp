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

// Sorted, one point per address: the last of each run of ties.
void settle(std::vector<Point>& points) {
  std::stable_sort(points.begin(), points.end(), before);
  std::vector<Point> out;
  out.reserve(points.size());
  for (const Point& p : points) {
    if (!out.empty() && out.back().section == p.section && out.back().address == p.address)
      out.back() = p;
    else
      out.push_back(p);
  }
  points = std::move(out);
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

// The regions of one function: [start, end) described or not, merged.
struct Region {
  uint64_t start = 0, end = 0;
  bool defined = false;
};

std::vector<Region> regions_of(const std::vector<Point>& points, const Extent& f) {
  std::vector<Region> out;
  // The point that holds at the start: the last at or below it.
  auto it = std::upper_bound(points.begin(), points.end(), Point{f.section, f.start, false}, before);
  const Point* holding = it == points.begin() || std::prev(it)->section != f.section ? nullptr : &*std::prev(it);
  uint64_t at = f.start;
  while (at < f.end) {
    const bool next_here = it != points.end() && it->section == f.section && it->address < f.end;
    const uint64_t until = next_here ? it->address : f.end;
    const bool defined = holding && holding->defined;
    if (until > at) {
      if (!out.empty() && out.back().defined == defined)
        out.back().end = until;
      else
        out.push_back({at, until, defined});
    }
    at = until;
    if (next_here) holding = &*it++;
  }
  return out;
}

void walk(const std::vector<Point>& points, const std::vector<Extent>& functions, UnwindCoverage& c) {
  for (const Extent& f : functions) {
    std::vector<Region> regions = regions_of(points, f);
    // Without a size the function runs to the next symbol, over the padding
    // in front of it, which objtool leaves undefined: a trailing undefined
    // region after described code is that padding, not the function's.
    if (!f.sized && regions.size() > 1 && !regions.back().defined) regions.pop_back();
    ++c.total;
    uint64_t described = 0, size = 0;
    for (const Region& r : regions) {
      size += r.end - r.start;
      if (r.defined) {
        described += r.end - r.start;
      } else {
        ++c.undefined_regions;
        c.undefined_bytes += r.end - r.start;
      }
    }
    c.text_bytes += size;
    c.covered_bytes += described;
    if (described == size) {
      ++c.covered;
    } else if (described == 0) {
      ++c.without_entry;
    } else {
      ++c.partial;
      // Undefined only at the end: the int3 objtool leaves undescribed
      // after a function's last jump or return (straight-line speculation),
      // which no unwinder meets on a stack (bytes are not decoded here).
      c.tail_only += regions.back().end - regions.back().start <= kTail &&
                     std::count_if(regions.begin(), regions.end(), [](const Region& r) { return !r.defined; }) == 1 &&
                     !regions.back().defined;
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
  walk(points, function_extents(a, *in.symbols, a.elf_type == ET_REL), c);
  return c;
}

}  // namespace elfmeta::coverage
