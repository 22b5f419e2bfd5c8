// What an FRE says, in an unwinder's terms: the CFA rule and where the
// caller's return address and frame pointer are. Default FDEs keep one
// word per tracked entity (the ABI decides which are tracked and how the
// CFA word is stored); version 3 FLEX FDEs keep a control word and an
// offset word per entity, where a control word of 0 stands alone and says
// "no rule for this entity". The FRE rules, the CFI differential and the
// messages read FREs through here, so that all three read them alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sframe/sframe_abi.h"
#include "sframe/sframe_format.h"

namespace elfmeta::sframe {

// Where the caller's value of RA or FP is.
struct Location {
  enum Kind : uint8_t {
    kUnchanged,   // no rule: still in its register (the fixed offset applies where the header has one)
    kAtCfa,       // saved at CFA + offset
    kInRegister,  // held in register `reg`
    kOther,       // a FLEX rule beyond these (a register plus an offset, dereferenced or not)
  } kind = kUnchanged;
  int64_t offset = 0;
  uint32_t reg = 0;
  bool operator==(const Location&) const = default;
};

struct FreState {
  bool outermost = false;  // no data words: RA undefined, the last frame
  uint32_t cfa_reg = 0;    // DWARF number
  bool cfa_deref = false;  // CFA = *(reg + offset) (FLEX only)
  int64_t cfa_offset = 0;  // decoded (s390x: the offset, not the stored word)
  Location ra, fp;
};

// A FLEX FRE's words as (control, offset) pairs.
struct FlexEntity {
  bool present = false;  // a pair; else nothing or a lone 0 word
  uint32_t control = 0;  // unsigned, as wide as the FRE's words
  int32_t offset = 0;
  bool reg_p() const { return control & 1; }
  bool deref_p() const { return control & 2; }
  bool reserved() const { return control & 4; }
  uint32_t regnum() const { return control >> 3; }
};

struct FlexWords {
  FlexEntity cfa, ra, fp;
  // What does not read (empty when all does): `shape` for a word count the
  // pairs do not account for (SFRAME-FRE-003), `control` for a control word
  // the format forbids (SFRAME-FRE-011).
  std::string shape, control;
};

// The words of a FLEX FRE with at least one word.
FlexWords read_flex(const Fre& fre);

// nullopt when the words do not read (an unknown ABI, a FLEX FRE whose
// words do not pair up: the FRE rules report those).
std::optional<FreState> state_of(const Header& h, bool flex, const Fre& fre);

// "sp+16 ra@cfa-8 fp@cfa-16", "r10+0 (deref)", "outermost (RA undefined)".
std::string describe(const FreState& s, const AbiFacts* abi);
std::string describe(const Header& h, bool flex, const Fre& fre);

}  // namespace elfmeta::sframe
