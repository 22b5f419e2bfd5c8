#include "sframe/fre_state.h"

namespace elfmeta::sframe {
namespace {

// Data word w as the unsigned value of its size (control words are
// unsigned: a 1-byte 0x81, s390x's f0, is register 16, not -127 >> 3).
uint32_t unsigned_word(const Fre& fre, size_t w) {
  const uint32_t size = word_size(fre.size_code());
  const uint32_t mask = size >= 4 ? ~0u : (1u << (8 * size)) - 1;
  return static_cast<uint32_t>(fre.words[w]) & mask;
}

std::string signed_offset(int64_t v) { return (v < 0 ? "" : "+") + std::to_string(v); }

// RA or FP of a FLEX FRE: absent (the fixed offset, if the header has
// one, else unchanged), saved at CFA + k, held in a register, or other.
Location flex_location(const FlexEntity& e, int8_t fixed) {
  if (!e.present) return fixed ? Location{Location::kAtCfa, fixed, 0} : Location{};
  if (!e.reg_p() && e.deref_p()) return {Location::kAtCfa, e.offset, 0};
  if (e.reg_p() && !e.deref_p() && e.offset == 0) return {Location::kInRegister, 0, e.regnum()};
  return {Location::kOther, e.offset, e.regnum()};
}

// RA or FP of a default FRE, from the word at `w` (if there is one).
Location default_location(const Header& h, const AbiFacts& abi, const Fre& fre, size_t w, bool ra) {
  if (w >= fre.count()) return {};
  const int32_t word = fre.words[w];
  if (ra && abi.ra_padding && word == 0) return {};  // s390x: FP saved, RA not
  if (h.version == 2 && abi.v2_register_words && (word & 1))  // (regnum << 1) | 1; a negative one is FRE-014's
    return {Location::kInRegister, 0, static_cast<uint32_t>(word >> 1)};
  return {Location::kAtCfa, word, 0};
}

}  // namespace

FlexWords read_flex(const Fre& fre) {
  FlexWords out;
  const size_t n = fre.count();
  if (n < 2) {
    out.shape = std::to_string(n) + " data word" + (n == 1 ? "" : "s") + ": a FLEX FRE starts with the CFA's pair";
    return out;
  }
  size_t w = 0;
  const auto pair = [&](FlexEntity& e) {
    e.present = true;
    e.control = unsigned_word(fre, w);
    e.offset = fre.words[w + 1];
    w += 2;
  };
  pair(out.cfa);
  if (!out.cfa.reg_p()) out.control = "CFA control word " + std::to_string(out.cfa.control) + " without reg_p";
  for (auto [e, name] : {std::pair{&out.ra, "RA"}, std::pair{&out.fp, "FP"}}) {
    if (w >= n) break;
    if (unsigned_word(fre, w) == 0) {  // no rule for this entity: the word stands alone
      ++w;
      continue;
    }
    if (w + 1 >= n) {
      out.shape = std::string(name) + " control word " + std::to_string(unsigned_word(fre, w)) + " without its offset word";
      return out;
    }
    pair(*e);
  }
  if (w < n) out.shape = std::to_string(n - w) + " data word(s) after the CFA, RA and FP rules";
  for (auto [e, name] : {std::pair{&out.cfa, "CFA"}, std::pair{&out.ra, "RA"}, std::pair{&out.fp, "FP"}})
    if (e->present && e->reserved() && out.control.empty())
      out.control = std::string(name) + " control word " + std::to_string(e->control) + " with the unused bit 2 set";
  return out;
}

std::optional<FreState> state_of(const Header& h, bool flex, const Fre& fre) {
  const AbiFacts* abi = abi_facts(h.abi);
  if (!abi) return std::nullopt;
  FreState s;
  if (fre.count() == 0) {
    s.outermost = true;
    return s;
  }
  if (flex) {
    const FlexWords f = read_flex(fre);
    if (!f.shape.empty() || !f.cfa.reg_p()) return std::nullopt;
    s.cfa_reg = f.cfa.regnum();
    s.cfa_deref = f.cfa.deref_p();
    s.cfa_offset = abi->cfa.decode(f.cfa.offset);
    s.ra = flex_location(f.ra, h.fixed_ra);
    s.fp = flex_location(f.fp, h.fixed_fp);
    return s;
  }
  s.cfa_reg = static_cast<uint32_t>(fre.base_sp() ? abi->sp : abi->fp);
  s.cfa_offset = abi->cfa.decode(fre.words[0]);
  size_t w = 1;
  if (h.fixed_ra)
    s.ra = {Location::kAtCfa, h.fixed_ra, 0};
  else
    s.ra = default_location(h, *abi, fre, w++, true);
  if (h.fixed_fp)
    s.fp = {Location::kAtCfa, h.fixed_fp, 0};
  else
    s.fp = default_location(h, *abi, fre, w, false);
  return s;
}

std::string describe(const FreState& s, const AbiFacts* abi) {
  if (s.outermost) return "outermost (RA undefined)";
  const auto reg = [&](uint32_t r) -> std::string {
    if (abi && r == static_cast<uint32_t>(abi->sp)) return "sp";
    if (abi && r == static_cast<uint32_t>(abi->fp)) return "fp";
    return "r" + std::to_string(r);
  };
  std::string out = (s.cfa_deref ? "*(" : "") + reg(s.cfa_reg) + signed_offset(s.cfa_offset) + (s.cfa_deref ? ")" : "");
  for (auto [l, name] : {std::pair{&s.ra, " ra"}, std::pair{&s.fp, " fp"}}) {
    switch (l->kind) {
      case Location::kUnchanged: break;
      case Location::kAtCfa: out += name + std::string("@cfa") + signed_offset(l->offset); break;
      case Location::kInRegister: out += name + std::string(" in ") + reg(l->reg); break;
      case Location::kOther: out += name + std::string(" by r") + std::to_string(l->reg) + signed_offset(l->offset); break;
    }
  }
  return out;
}

std::string describe(const Header& h, bool flex, const Fre& fre) {
  const auto s = state_of(h, flex, fre);
  std::string out;
  if (s) {
    out = describe(*s, abi_facts(h.abi));
  } else {
    out = std::to_string(fre.count()) + " words:";
    for (size_t w = 0; w < fre.count(); ++w) out += " " + std::to_string(fre.words[w]);
  }
  const AbiFacts* abi = abi_facts(h.abi);
  if (fre.mangled_ra() && abi && abi->pauth) out += " ra-mangled";
  return out;
}

}  // namespace elfmeta::sframe
