// Properties of the SFrame verifier over generated sections (RapidCheck;
// ctest runs 1,000 cases each): plans of every version, byte order and ABI,
// raw, in objects and linked, with FDEs of every shape the format allows.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "core/diagnostic.h"
#include "input/artifact.h"
#include "sframe/lookup.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"
#include "synth/sframe_builder.h"

namespace elfmeta::testing {
namespace {

using synth::SframeFile;
using synth::SframeFrePlan;
using synth::SframePlan;

struct Generated {
  SframePlan plan;
  SframeFile kind = SframeFile::Raw;
};

bool aarch64(uint8_t abi) { return abi == sframe::kAarch64Be || abi == sframe::kAarch64Le; }

// The data words of one valid FRE: AMD64 CFA (SP+8 and up, or FP-based)
// then a negative FP save; elsewhere CFA, RA and FP.
std::vector<int32_t> words(uint8_t abi, bool base_sp) {
  const auto offset = rc::gen::oneOf(rc::gen::inRange<int32_t>(8, 128), rc::gen::inRange<int32_t>(128, 40000),
                                     rc::gen::inRange<int32_t>(40000, 1 << 20));
  const int32_t cfa = base_sp ? *offset : *rc::gen::inRange<int32_t>(16, 4096);
  if (abi == sframe::kAmd64Le) {
    if (*rc::gen::arbitrary<bool>()) return {cfa};
    return {cfa, -*rc::gen::inRange<int32_t>(8, 300)};
  }
  const size_t n = *rc::gen::inRange<size_t>(1, 4);
  std::vector<int32_t> w{cfa};
  while (w.size() < n) w.push_back(-8 * *rc::gen::inRange<int32_t>(1, 40));  // slots (an odd s390x word is a register)
  return w;
}

rc::Gen<Generated> sections() {
  return rc::gen::exec([] {
    Generated g;
    SframePlan& p = g.plan;
    p.version = *rc::gen::inRange<uint8_t>(1, 4);
    const std::vector<uint8_t> abis = p.version == 1 ? std::vector<uint8_t>{sframe::kAmd64Le, sframe::kAarch64Le, sframe::kAarch64Be}
                                                     : std::vector<uint8_t>{sframe::kAmd64Le, sframe::kAarch64Le, sframe::kAarch64Be, sframe::kS390xBe};
    p.abi = *rc::gen::elementOf(abis);
    p.endian = sframe::abi_big_endian(p.abi) ? Endian::Big : Endian::Little;
    g.kind = p.endian == Endian::Big || p.abi == sframe::kS390xBe
                 ? SframeFile::Raw
                 : *rc::gen::element(SframeFile::Raw, SframeFile::Object, SframeFile::Linked);
    if (p.version == 2 && *rc::gen::arbitrary<bool>()) p.flags = uint8_t(g.kind == SframeFile::Object ? 0 : sframe::kFdeSorted) | sframe::kFuncStartPcrel;
    const size_t n = *rc::gen::inRange<size_t>(1, 24);
    uint64_t at = 0;
    for (size_t i = 0; i < n; ++i) {
      synth::SframeFdePlan d;
      at += *rc::gen::inRange<uint64_t>(0, 64);
      d.offset = at;
      d.size = *rc::gen::oneOf(rc::gen::inRange<uint32_t>(1, 255), rc::gen::inRange<uint32_t>(256, 70000),
                               rc::gen::inRange<uint32_t>(65536, 200000));
      const bool mask = p.version >= 2 && *rc::gen::inRange(0, 8) == 0;  // v1 masks are notes (FDE-006)
      uint32_t reach = d.size;
      if (mask) {
        d.pc_type = sframe::kPcMask;
        d.rep_size = p.version == 1 ? 0 : *rc::gen::inRange<uint8_t>(2, 255);
        reach = p.version == 1 ? 16 : d.rep_size;
        d.size = reach * *rc::gen::inRange<uint32_t>(1, 8);
      }
      d.pauth_key_b = aarch64(p.abi) && *rc::gen::arbitrary<bool>();
      d.signal = p.version == 3 && *rc::gen::arbitrary<bool>();
      const size_t count = *rc::gen::inRange<size_t>(1, std::min<size_t>(reach, 9) + 1);
      std::set<uint32_t> starts{0};
      while (starts.size() < count) starts.insert(*rc::gen::inRange<uint32_t>(1, reach));
      d.fres.clear();
      for (uint32_t s : starts) {
        SframeFrePlan r;
        r.start = s;
        r.base_sp = *rc::gen::inRange(0, 4) != 0;
        r.words = words(p.abi, r.base_sp);
        r.mangled_ra = aarch64(p.abi) && *rc::gen::arbitrary<bool>();
        // gas merges rows that say the same (SFRAME-FRE-013): so do we.
        if (!d.fres.empty() && d.fres.back().base_sp == r.base_sp && d.fres.back().words == r.words &&
            d.fres.back().mangled_ra == r.mangled_ra)
          r.words[0] += 8;
        d.fres.push_back(r);
      }
      // The outermost frame (no data words), where the version has it.
      if ((p.version == 3 || (p.flags && (*p.flags & sframe::kFuncStartPcrel))) && *rc::gen::inRange(0, 10) == 0)
        d.fres.front().words.clear(), d.fres.front().base_sp = false, d.fres.front().mangled_ra = false;
      at += d.size;
      p.fdes.push_back(d);
    }
    return g;
  });
}

void showValue(const Generated& g, std::ostream& os) {
  os << "v" << int(g.plan.version) << " " << sframe::abi_name(g.plan.abi) << " "
     << (g.kind == SframeFile::Raw ? "raw" : g.kind == SframeFile::Object ? "object" : "linked") << ", " << g.plan.fdes.size()
     << " FDEs:";
  for (const auto& d : g.plan.fdes) os << " [" << d.offset << "+" << d.size << (d.pc_type ? " mask" : "") << " " << d.fres.size() << "]";
}

std::vector<uint8_t> file_of(const Generated& g) {
  return g.kind == SframeFile::Raw ? synth::encode_sframe(g.plan, g.kind).bytes : synth::sframe_elf(g.plan, g.kind);
}

std::pair<std::set<std::string>, std::string> fired(const std::vector<uint8_t>& file) {
  auto opened = input::open_bytes("generated", file);
  RC_ASSERT(opened.artifact != nullptr);
  DiagnosticList list;
  sframe::check_sframe(*opened.artifact, {}, list);
  std::set<std::string> rules;
  std::string listing;
  for (const auto& d : list.items())
    if (d.rule) {
      rules.insert(std::string(d.rule->id));
      listing += d.message + " [" + std::string(d.rule->id) + "]\n";
    }
  return {rules, listing};
}

RC_GTEST_PROP(SframeProperty, GeneratedValidSectionHasNoDiagnostics, ()) {
  const Generated g = *sections();
  const auto [rules, listing] = fired(file_of(g));
  if (!rules.empty()) RC_FAIL(listing);
}

// Reading gives the plan back, encoding the plan gives the section's bytes,
// and a lookup at every FRE's first PC finds that FRE.
RC_GTEST_PROP(SframeProperty, ParseEncodeAndLookupAgree, ()) {
  const Generated g = *sections();
  const auto file = file_of(g);
  auto opened = input::open_bytes("generated", file);
  RC_ASSERT(opened.artifact != nullptr);
  DiagnosticList discard;
  sframe::SframeFindings f("generated", discard, kNoConsumer);
  const auto t = sframe::read_sframe(*opened.artifact, f);
  RC_ASSERT(t && t->usable);
  RC_ASSERT(t->fdes.size() == g.plan.fdes.size());
  const auto raw = t->section ? t->section->data : opened.artifact->raw;
  const auto again = synth::encode_sframe(g.plan, g.kind).bytes;
  RC_ASSERT(std::equal(raw.begin(), raw.end(), again.begin(), again.end()));
  for (size_t i = 0; i < g.plan.fdes.size(); ++i) {
    const auto& want = g.plan.fdes[i];
    RC_ASSERT(t->blocks[i].count == want.fres.size());
    for (size_t k = 0; k < want.fres.size(); ++k) {
      const auto fre = t->fre(i, k);
      RC_ASSERT(fre.start == want.fres[k].start);
      RC_ASSERT(fre.count() == want.fres[k].words.size());
      for (size_t w = 0; w < want.fres[k].words.size(); ++w) RC_ASSERT(fre.words[w] == want.fres[k].words[w]);
      if (g.kind == SframeFile::Object || want.pc_type == sframe::kPcMask) continue;
      const auto hit = sframe::find_fre(*t, t->starts[i].address + want.fres[k].start);
      RC_ASSERT(hit.has_value());
      RC_ASSERT(hit->fde == i);
      RC_ASSERT(hit->fre == k);
    }
  }
}

// Mutations of a generated plan, each making exactly its rule fire.
struct Mutation {
  std::string_view rule;
  std::function<bool(Generated&)> apply;  // false: the plan has nothing to mutate
};

const std::vector<Mutation>& mutations() {
  static const std::vector<Mutation> all = {
      {"SFRAME-HDR-005", [](Generated& g) {
         const uint8_t usual = uint8_t(g.kind == SframeFile::Object ? 0 : sframe::kFdeSorted) |
                               uint8_t(g.plan.version == 3 ? sframe::kFuncStartPcrel : 0);
         g.plan.flags = uint8_t(g.plan.flags.value_or(usual) | 0x80);
         return true;
       }},
      {"SFRAME-HDR-012", [](Generated& g) { g.plan.tail = {0, 9}; return true; }},
      {"SFRAME-HDR-013", [](Generated& g) {
         uint32_t total = 0;
         for (const auto& d : g.plan.fdes) total += static_cast<uint32_t>(d.fres.size());
         g.plan.num_fres = total + 1;
         return true;
       }},
      {"SFRAME-FDE-002", [](Generated& g) { g.plan.fdes.back().fre_type = 7; return true; }},
      {"SFRAME-FRE-002", [](Generated& g) {
         for (auto& d : g.plan.fdes)
           for (auto& r : d.fres)
             if (!r.words.empty()) {
               r.size_code = 3;
               return true;
             }
         return false;
       }},
      {"SFRAME-FRE-004", [](Generated& g) {
         for (auto& d : g.plan.fdes)
           if (d.fres.size() >= 3) {
             std::swap(d.fres[1].start, d.fres[2].start);
             return true;
           }
         return false;
       }},
      {"SFRAME-FRE-006", [](Generated& g) {
         for (auto& d : g.plan.fdes)
           if (d.pc_type == sframe::kPcInc && d.size > 1 && (d.fres.size() == 1 || d.fres[1].start > 1)) {
             d.fres[0].start = 1;
             return true;
           }
         return false;
       }},
  };
  return all;
}

void showValue(const Mutation& m, std::ostream& os) { os << m.rule; }

RC_GTEST_PROP(SframeProperty, EachMutationFiresExactlyItsRule, ()) {
  const Mutation& m = *rc::gen::elementOf(mutations());
  Generated g = *sections();
  RC_PRE(m.apply(g));
  const auto [rules, listing] = fired(file_of(g));
  if (rules != std::set<std::string>{std::string(m.rule)}) RC_FAIL(std::string(m.rule) + ":\n" + listing);
}

// Hostile sections: random bytes written over a generated one (header,
// FDEs, FREs, ELF headers alike) give findings, never a crash or a hang.
RC_GTEST_PROP(SframeProperty, CorruptedSectionsGetFindingsNotCrashes, ()) {
  const Generated g = *sections();
  auto file = file_of(g);
  const size_t edits = *rc::gen::inRange<size_t>(1, 16);
  for (size_t k = 0; k < edits; ++k) {
    const size_t at = *rc::gen::inRange<size_t>(0, file.size());
    file[at] = *rc::gen::arbitrary<uint8_t>();
  }
  auto opened = input::open_bytes("corrupted", file);
  if (!opened.artifact) return;  // no longer recognisable: exit 2 territory
  DiagnosticList list;
  sframe::check_sframe(*opened.artifact, {}, list);
  RC_SUCCEED("checked");
}

}  // namespace
}  // namespace elfmeta::testing
