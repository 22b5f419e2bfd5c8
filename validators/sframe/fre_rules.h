// The FRE rules (SFRAME-FRE-003 to -014) over the FREs of one FDE, taken
// in order. One set of rules serves two passes: read_sframe screens every
// FRE as it decodes it (a yes/no per FRE, no message formatted: the clean
// path of a section with hundreds of thousands of FREs), and check_fres
// walks the blocks the screen marked again to report each finding. Defined
// here, inline, so that the screen compiles into read_sframe's loop.
#pragma once

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/text.h"
#include "sframe/sframe_findings.h"
#include "sframe/fre_state.h"
#include "sframe/sframe_abi.h"
#include "sframe/sframe_format.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {

// The rules, as functions of one FRE.
namespace fre_rules {

// Word counts a default FDE may use: CFA, then RA where the header does not
// fix it, then FP where the header does not fix it (as readers count them).
inline bool default_shape(const Header& h, uint8_t count) {
  return count >= 1 && count <= 1 + (h.fixed_ra == 0) + (h.fixed_fp == 0);
}

// The rule bodies below call report(rule, fre, message, severity), where
// `message` is a callable giving the text: a screening Report never calls it.

// The words of a FLEX FRE: the CFA's pair (naming a register), then RA and
// FP each as a pair or a lone 0 ("no rule"), nothing left over.
// SFRAME-FRE-003 (the word count), SFRAME-FRE-011 (a control word).
template <typename Report>
void check_flex(const Fre& fre, Report& report) {
  const FlexWords f = read_flex(fre);
  if (!f.shape.empty()) report(rules::FRE_003, fre, [&] { return f.shape; });
  if (!f.control.empty()) report(rules::FRE_011, fre, [&] { return f.control; });
}

// gas's choice of word size: the smallest holding every word. gas 2.46+
// (version 3) uses the whole signed range of a size and reads FLEX control
// words as unsigned; older gas used -127..127 and -32767..32767.
inline uint8_t minimal_size_code(const Header& h, bool flex, const Fre& fre) {
  uint8_t code = 0;
  size_t next_control = 0;  // FLEX: control words at 0, then after each pair or lone 0
  for (size_t w = 0; w < fre.count(); ++w) {
    const int64_t v = fre.words[w];
    const uint32_t size = word_size(fre.size_code());
    const int64_t u = size >= 4 ? int64_t(uint32_t(v)) : int64_t(uint32_t(v) & ((1u << (8 * size)) - 1));
    const bool control = flex && w == next_control;
    if (control) next_control = w + (u == 0 && w > 0 ? 1 : 2);
    uint8_t need;
    if (control)
      need = u <= 0xff ? 0 : u <= 0xffff ? 1 : 2;
    else if (h.version >= 3)
      need = v == int8_t(v) ? 0 : v == int16_t(v) ? 1 : 2;
    else
      need = (v >= -127 && v <= 127) ? 0 : (v >= -32767 && v <= 32767) ? 1 : 2;
    code = std::max(code, need);
  }
  return code;
}

// SFRAME-FRE-014. Words an ABI stores in its own way: s390x's CFA offset (offset - 160) / 8,
// in default and FLEX FREs alike, must decode within 32 bits (libsframe 3
// multiplies in 32-bit int: an overflow there); its version 2 register words
// (odd RA/FP words) must name a register, and version 3 has FLEX FDEs
// instead.
template <typename Report>
void check_abi_words(const Header& h, const AbiFacts& abi, bool flex, const Fre& fre, Report& report) {
  const size_t cfa_word = flex ? 1 : 0;
  if (fre.count() <= cfa_word) return;
  if (abi.cfa.scale != 1) {
    const int64_t cfa = abi.cfa.decode(fre.words[cfa_word]);
    if (cfa > INT32_MAX || cfa < INT32_MIN)
      report(rules::FRE_014, fre, [&] {
        return "CFA word " + std::to_string(fre.words[cfa_word]) + " decodes to " + std::to_string(cfa);
      });
  }
  if (flex || !abi.v2_register_words) return;
  for (size_t w = 1; w < fre.count(); ++w) {
    if (!(fre.words[w] & 1)) continue;
    if (h.version != 2)
      report(rules::FRE_014, fre, [&] {
        return "word " + std::to_string(w) + " names a register in version " + std::to_string(h.version);
      });
    else if (fre.words[w] < 0)
      report(rules::FRE_014, fre, [&] {
        return "word " + std::to_string(w) + " (" + std::to_string(fre.words[w]) + ") names register " +
               std::to_string(fre.words[w] >> 1);
      });
  }
}

// The rules on one FRE alone: its words and info bits. `abi` is null for an
// ABI the table does not know (SFRAME-HDR-006 said so): the rules that need
// its facts are skipped.
template <typename Report>
void check_fre(const Header& h, const AbiFacts* abi, bool flex, const Fre& fre, Report& report) {
  if (fre.count() == 0) {
    // RA undefined (the outermost frame): version 2's erratum 2 and version
    // 3 define it; gas writes the info byte as 0.
    if (h.version < 2)
      report(rules::FRE_008, fre, [&] { return "no data words in version " + std::to_string(h.version); });
    else if (fre.info != 0)
      report(rules::FRE_008, fre, [&] { return "outermost FRE with info " + hex(fre.info); }, Severity::Warning);
  } else if (flex) {
    check_flex(fre, report);
  } else if (!default_shape(h, fre.count())) {
    report(rules::FRE_003, fre, [&] {
      return std::to_string(fre.count()) + " data words in a " + std::string(abi_name(h.abi)) + " FRE";
    });
  }
  if (abi) check_abi_words(h, *abi, flex, fre, report);
  if (fre.count() && fre.size_code() != 0 && fre.size_code() > minimal_size_code(h, flex, fre))  // 1-byte words are minimal
    report(rules::FRE_012, fre, [&] {
      return std::to_string(word_size(fre.size_code())) + "-byte words for " + describe(h, flex, fre);
    });
  if (fre.mangled_ra() && abi && !abi->pauth)
    report(rules::FRE_010, fre, [&] { return "info " + hex(fre.info) + " on " + std::string(abi_name(h.abi)); });
  if (flex || fre.count() == 0 || !abi || !abi->min_sp_cfa) return;
  if (fre.base_sp() && fre.words[0] < abi->min_sp_cfa)
    report(rules::FRE_009, fre, [&] {
      return "CFA at sp" + std::string(fre.words[0] < 0 ? "" : "+") + std::to_string(fre.words[0]);
    });
  if (fre.count() == 2 && fre.words[1] >= 0)
    report(rules::FRE_009, fre, [&] { return "FP saved at cfa+" + std::to_string(fre.words[1]); });
}

// The same info byte and data words as the previous FRE (a handful:
// compared in place, not by a library call per FRE).
inline bool same_state(const Fre& a, const Fre& b) {
  if (a.info != b.info) return false;
  for (size_t w = 0; w < a.count(); ++w)
    if (a.words[w] != b.words[w]) return false;
  return true;
}

// Screening: whether any rule fails, nothing formatted.
struct Screen {
  bool failed = false;
  template <typename Message>
  void operator()(const Rule&, const Fre&, Message&&, std::optional<Severity> = std::nullopt) {
    failed = true;
  }
};

struct Emit {
  SframeFindings& f;
  size_t i, k;
  template <typename Message>
  void operator()(const Rule& rule, const Fre& fre, Message&& message, std::optional<Severity> severity = std::nullopt) {
    f.at_fre(rule, i, k, fre.at, message(), severity);
  }
};

}  // namespace fre_rules

class FreRules {
 public:
  // `consumer` decides the severity of the findings whose severity depends
  // on it; `fde` is the FDE whose FREs follow (its v3 record already read).
  FreRules(const Header& h, const Fde& fde, uint32_t consumer)
      : h_(h), d_(fde), abi_(abi_facts(h.abi)), consumer_(consumer), flex_(h.version == 3 && (fde.info2 & 0x1f) == kFlex) {}

  // True when FRE k breaks a rule; `previous` is FRE k - 1 (null for the
  // first). The caller keeps it: decoding into two alternating buffers
  // costs nothing, copying the words of every FRE did.
  inline bool screen(size_t k, const Fre& fre, const Fre* previous);
  // Reports FRE k of FDE i into `f`.
  inline void report(size_t i, size_t k, const Fre& fre, const Fre* previous, SframeFindings& f);

 private:
  template <typename Report>
  void apply(size_t k, const Fre& fre, const Fre* previous, Report& report);

  // Copies: no store into an FRE being decoded can alias them, so the
  // compiler keeps them in registers over the loop.
  const Header h_;
  const Fde d_;
  const AbiFacts* abi_;
  uint32_t consumer_;
  bool flex_;
};


// The rules on FRE k, then those against FRE k - 1 and the FDE.
template <typename Report>
inline void FreRules::apply(size_t k, const Fre& fre, const Fre* previous, Report& report) {
  fre_rules::check_fre(h_, abi_, flex_, fre, report);
  if (previous && fre_rules::same_state(fre, *previous))
    report(rules::FRE_013, fre, [&] {
      return "the same state as FRE " + std::to_string(k - 1) + ": " + describe(h_, flex_, fre);
    });
  if (previous && fre.start <= previous->start)
    report(rules::FRE_004, fre, [&] {
      return "starts at " + std::to_string(fre.start) + ", FRE " + std::to_string(k - 1) + " at " +
             std::to_string(previous->start);
    });
  if (d_.pc_type() == kPcMask) {
    // v1 has no block size; its only PC-mask FDEs are AMD64 PLT entries of 16 bytes.
    const uint32_t block = h_.version == 1 ? 16 : d_.rep_size;
    if (block && fre.start >= block)
      report(rules::FRE_007, fre, [&] {
        return "starts at " + std::to_string(fre.start) + " in a " + std::to_string(block) + "-byte block";
      });
    // libsframe 2.40 asserts every FRE starts before the function's end
    // (at 0 in a function of size 0), block-relative starts of PC-mask FDEs
    // included (found by fuzz_libsframe with the SFrame mutator).
    if (consumer_ & kLibsframe && fre.start >= d_.size && (d_.size || fre.start))
      report(rules::FRE_005, fre, [&] {
        return "starts at " + std::to_string(fre.start) + " in a PC-mask FDE of a " + std::to_string(d_.size) +
               "-byte function: libsframe 2.40 asserts on it";
      }, Severity::Error);
    return;
  }
  if (fre.start > d_.size)
    report(rules::FRE_005, fre, [&] {
      return "starts at " + std::to_string(fre.start) + " in a " + std::to_string(d_.size) + "-byte function";
    });
  else if (fre.start == d_.size && d_.size)  // libsframe 2.40 asserts on it (relaxed in PR 33131)
    report(rules::FRE_005, fre, [&] { return "starts at the function's end (" + std::to_string(d_.size) + ")"; },
           consumer_ & kLibsframe ? Severity::Error : Severity::Warning);
  if (k == 0 && fre.start != 0)
    report(rules::FRE_006, fre, [&] { return "first FRE starts at " + std::to_string(fre.start); });
}

inline bool FreRules::screen(size_t k, const Fre& fre, const Fre* previous) {
  fre_rules::Screen s;
  apply(k, fre, previous, s);
  return s.failed;
}

inline void FreRules::report(size_t i, size_t k, const Fre& fre, const Fre* previous, SframeFindings& f) {
  fre_rules::Emit e{f, i, k};
  apply(k, fre, previous, e);
}

}  // namespace elfmeta::sframe
