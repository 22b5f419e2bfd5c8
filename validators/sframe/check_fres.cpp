// SFRAME-FRE-*: the FREs of each FDE.
#include <algorithm>
#include <climits>

#include "core/text.h"
#include "sframe/sframe_checks.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {
namespace {

bool aarch64(uint8_t abi) { return abi == kAarch64Be || abi == kAarch64Le; }

// Word counts a default FDE may use: CFA, then RA when it is tracked, then FP.
bool default_shape(const Header& h, uint8_t count) { return count >= 1 && count <= (h.fixed_ra != 0 ? 2 : 3); }
// FLEX: a CFA pair, RA as nothing, one padding word (only before FP) or a pair, FP as nothing or a pair.
bool flex_shape(uint8_t count) { return count == 2 || count == 4 || count == 5 || count == 6; }

// The control words of a FLEX FRE: CFA pair, then RA and FP as a pair, a
// lone padding 0 (RA only, before FP) or nothing.
void check_flex(size_t i, size_t k, const Fre& fre, SframeFindings& f) {
  const auto control = [&](size_t w) { return static_cast<uint32_t>(fre.words[w]); };
  if (fre.count() < 2) return;  // FRE-003
  if (!(control(0) & 1)) f.at_fre(rules::FRE_011, i, k, fre.at, "CFA control word " + hex(control(0)) + " without reg_p");
  size_t w = 0;
  for (const char* what : {"CFA", "RA", "FP"}) {
    if (w >= fre.count()) break;
    const uint32_t c = control(w);
    if (c & 4) f.at_fre(rules::FRE_011, i, k, fre.at, std::string(what) + " control word " + hex(c) + " with bit 2 set");
    if (c == 0 && std::string_view(what) != "CFA") {
      if (std::string_view(what) == "FP" || w + 1 >= fre.count())
        f.at_fre(rules::FRE_011, i, k, fre.at, std::string(what) + " padding word where none may stand");
      w += 1;
      continue;
    }
    w += 2;
  }
}

// gas's choice of word size (1-byte window -127..127).
uint8_t minimal_size_code(const Fre& fre) {
  int64_t most = 0;
  for (size_t w = 0; w < fre.count(); ++w) most = std::max<int64_t>(most, fre.words[w] < 0 ? -int64_t(fre.words[w]) : fre.words[w]);
  return most <= 127 ? 0 : most <= 32767 ? 1 : 2;
}

void check_s390x(const SframeTable& t, size_t i, size_t k, const Fre& fre, SframeFindings& f) {
  if (fre.count() == 0) return;
  const int64_t cfa = int64_t(fre.words[0]) * 8 + 160;
  if (cfa > INT32_MAX || cfa < INT32_MIN)
    f.at_fre(rules::FRE_014, i, k, fre.at, "CFA word " + std::to_string(fre.words[0]) + " decodes to " + std::to_string(cfa));
  for (size_t w = 1; w < fre.count(); ++w)
    if ((fre.words[w] & 1) && t.header.version != 2)
      f.at_fre(rules::FRE_014, i, k, fre.at, "word " + std::to_string(w) + " names a register in version " +
                                                 std::to_string(t.header.version));
}

// The same info byte and data words (a handful: compared in place, not by
// a library call per FRE).
bool same_state(const Fre& a, const Fre& b) {
  if (a.info != b.info) return false;
  for (size_t w = 0; w < a.count(); ++w)
    if (a.words[w] != b.words[w]) return false;
  return true;
}

void check_fre(const SframeTable& t, size_t i, size_t k, const Fre& fre, SframeFindings& f) {
  const Header& h = t.header;
  const Fde& d = t.fdes[i];
  const bool flex = h.version == 3 && (d.info2 & 0x1f) == kFlex;
  if (flex) check_flex(i, k, fre, f);
  if (h.abi == kS390xBe && !flex) check_s390x(t, i, k, fre, f);
  if (fre.count() && fre.size_code() > minimal_size_code(fre))
    f.at_fre(rules::FRE_012, i, k, fre.at, std::to_string(word_size(fre.size_code())) + "-byte words for " +
                                               describe(fre, h.fixed_ra, h.abi));
  if (fre.count() == 0) {
    if (!(h.version == 3 || (h.version == 2 && (h.flags & kFuncStartPcrel))))
      f.at_fre(rules::FRE_008, i, k, fre.at, "no data words in version " + std::to_string(h.version) +
                                                 (h.version == 2 ? " without FDE_FUNC_START_PCREL" : ""));
    else if (fre.info != 0)
      f.at_fre(rules::FRE_008, i, k, fre.at, "outermost FRE with info " + hex(fre.info), Severity::Warning);
  } else if (flex ? !flex_shape(fre.count()) : !default_shape(h, fre.count())) {
    f.at_fre(rules::FRE_003, i, k, fre.at, std::to_string(fre.count()) + " data words in a " +
                                               (flex ? "FLEX" : std::string(abi_name(h.abi))) + " FRE");
  }
  if (fre.mangled_ra() && !aarch64(h.abi))
    f.at_fre(rules::FRE_010, i, k, fre.at, "info " + hex(fre.info) + " on " + std::string(abi_name(h.abi)));
  if (flex || fre.count() == 0 || h.abi != kAmd64Le) return;
  if (fre.base_sp() && fre.words[0] < 8)
    f.at_fre(rules::FRE_009, i, k, fre.at, "CFA at sp" + std::string(fre.words[0] < 0 ? "" : "+") + std::to_string(fre.words[0]));
  if (fre.count() == 2 && fre.words[1] >= 0)
    f.at_fre(rules::FRE_009, i, k, fre.at, "FP saved at cfa+" + std::to_string(fre.words[1]));
}

}  // namespace

void check_fres(const SframeTable& t, SframeFindings& f) {
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    const Fde& d = t.fdes[i];
    const bool mask = d.pc_type() == kPcMask;
    // v1 has no block size; its only PC-mask FDEs are AMD64 PLT entries of 16 bytes.
    const uint32_t block = t.header.version == 1 ? 16 : d.rep_size;
    uint32_t previous = 0;
    Fre last;
    for (FreCursor c(t, i); !c.done(); c.next()) {
      const Fre& fre = *c;
      const size_t k = c.index();
      check_fre(t, i, k, fre, f);
      if (k && same_state(fre, last))
        f.at_fre(rules::FRE_013, i, k, fre.at, "the same state as FRE " + std::to_string(k - 1) + ": " +
                                                   describe(fre, t.header.fixed_ra, t.header.abi));
      last = fre;
      if (k && fre.start <= previous)
        f.at_fre(rules::FRE_004, i, k, fre.at, "starts at " + std::to_string(fre.start) + ", FRE " + std::to_string(k - 1) +
                                                   " at " + std::to_string(previous));
      previous = fre.start;
      if (mask) {
        if (block && fre.start >= block)
          f.at_fre(rules::FRE_007, i, k, fre.at, "starts at " + std::to_string(fre.start) + " in a " +
                                                     std::to_string(block) + "-byte block");
        continue;
      }
      if (fre.start > d.size)
        f.at_fre(rules::FRE_005, i, k, fre.at, "starts at " + std::to_string(fre.start) + " in a " + std::to_string(d.size) + "-byte function");
      else if (fre.start == d.size && d.size)  // libsframe 2.40 asserts on it (relaxed in PR 33131)
        f.at_fre(rules::FRE_005, i, k, fre.at, "starts at the function's end (" + std::to_string(d.size) + ")",
                 f.consumer() & kLibsframe ? Severity::Error : Severity::Warning);
      if (k == 0 && fre.start != 0) f.at_fre(rules::FRE_006, i, k, fre.at, "first FRE starts at " + std::to_string(fre.start));
    }
  }
}

}  // namespace elfmeta::sframe
