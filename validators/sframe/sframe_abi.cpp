#include "sframe/sframe_abi.h"

#include <elf.h>

#include <algorithm>

#include "sframe/sframe_format.h"

namespace elfmeta::sframe {
namespace {

// ld's AMD64 PLT FDEs (binutils 2.40 to 2.47.50; the rows of
// bfd/elf64-x86-64.c): plt0 pushes twice; a lazy pltN entry jumps through
// the GOT, then pushes its index before jumping to plt0 (at 11, at 9 in the
// IBT layout, whose entries start with endbr64); a non-lazy entry, a
// .plt.sec entry and a .plt.got entry only jump.
constexpr std::string_view kPltGotDefect =
    "ld (2.44 and 2.47.50 seen) describes .plt.got entries as CFA = SP+16; an entry is a `jmp *GOT(%rip)` "
    "reached by a call, so CFA = SP+8, as ld's own .eh_frame for the same bytes says (its CIE's rsp+8, no "
    "instructions); the binutils tests ld-x86-64/sframe-pltgot-1 and -2 expect the wrong row";
constexpr PltShape kAmd64Plt[] = {
    {".plt", false, {{0, 16}, {6, 24}}, 2, "plt0", ""},
    {".plt", true, {{0, 8}, {11, 16}}, 2, "lazy PLT entries", ""},
    {".plt", true, {{0, 8}, {9, 16}}, 2, "IBT lazy PLT entries", ""},
    {".plt", true, {{0, 8}}, 1, "non-lazy PLT entries", ""},
    {".plt.sec", true, {{0, 8}}, 1, "second PLT entries", ""},
    {".plt.got", true, {{0, 16}}, 1, ".plt.got entries", kPltGotDefect},
    {".plt.got", true, {{0, 8}}, 1, ".plt.got entries", ""},
};

// ld's s390x PLT (bfd/elf64-s390.c, binutils 2.45+): PLT0 and every PLTn
// keep the caller's frame, CFA = r15 + 160.
constexpr PltShape kS390xPlt[] = {
    {".plt", false, {{0, 160}}, 1, "PLT0", ""},
    {".plt", true, {{0, 160}}, 1, "PLT entries", ""},
};

// ld 2.47.50 for s390x decides whether to describe the PLT while it reads
// the first input file (it asks whether the inputs read so far have
// .sframe): a link whose first object has none (crti.o in every gcc link)
// gets no PLT FDEs. Reproduced: `ld -shared crti.o f.o` 8 FDEs, `ld -shared
// f.o crti.o` 10 (tools/sid-sframe-data's corpus has the first kind).
constexpr std::string_view kS390xPltGap =
    "ld (2.47.50 seen) writes no s390x PLT FDEs when the link's first input has no .sframe, as crti.o in every "
    "gcc link: ld -shared crti.o f.o has no PLT FDEs, ld -shared f.o crti.o has them";

// AArch64: ld writes no SFrame for its PLT (bfd/elfnn-aarch64.c has none).
constexpr StartRelocations kX86_64Relocations{R_X86_64_PC32, R_X86_64_PC64, R_X86_64_NONE};
constexpr StartRelocations kAarch64Relocations{R_AARCH64_PREL32, R_AARCH64_PREL64, R_AARCH64_NONE};
constexpr StartRelocations kS390Relocations{R_390_PC32, R_390_PC64, R_390_NONE};

// In id order (abi_facts indexes it by id - 1).
constexpr AbiFacts kAbis[] = {
    {.id = kAarch64Be, .name = "aarch64-be", .endian = Endian::Big, .machine = EM_AARCH64, .sp = 31, .fp = 29, .ra = 30,
     .fixed_ra = 0, .pauth = true, .insn_align = 4, .relocations = kAarch64Relocations, .since = "binutils 2.40"},
    {.id = kAarch64Le, .name = "aarch64-le", .endian = Endian::Little, .machine = EM_AARCH64, .sp = 31, .fp = 29, .ra = 30,
     .fixed_ra = 0, .pauth = true, .insn_align = 4, .relocations = kAarch64Relocations, .since = "binutils 2.40"},
    // RA at CFA-8 always (the call pushed it): the header's fixed RA offset.
    {.id = kAmd64Le, .name = "amd64", .endian = Endian::Little, .machine = EM_X86_64, .sp = 7, .fp = 6, .ra = 16,
     .fixed_ra = -8, .flex = true, .min_sp_cfa = 8, .relocations = kX86_64Relocations, .plt = kAmd64Plt,
     .since = "binutils 2.40"},
    // CFA = r15 + 160 at entry (the register save area the caller
    // allocates), stored as (offset - 160) / 8; r14 holds the return address.
    {.id = kS390xBe, .name = "s390x", .endian = Endian::Big, .machine = EM_S390, .sp = 15, .fp = 11, .ra = 14,
     .fixed_ra = 0, .cfa = {8, 160}, .ra_padding = true, .v2_register_words = true, .flex = true, .insn_align = 2,
     .relocations = kS390Relocations, .plt = kS390xPlt, .plt_gap = kS390xPltGap, .since = "binutils 2.45"},
};

}  // namespace

const AbiFacts* abi_facts(uint8_t abi) {
  if (abi == 0 || abi > std::size(kAbis)) return nullptr;
  return &kAbis[abi - 1];
}

std::span<const AbiFacts> all_abis() { return kAbis; }

std::span<const AbiFacts> abis_of_machine(uint16_t machine) {
  const auto first = std::find_if(std::begin(kAbis), std::end(kAbis), [&](const AbiFacts& a) { return a.machine == machine; });
  const auto last = std::find_if(first, std::end(kAbis), [&](const AbiFacts& a) { return a.machine != machine; });
  return {first, last};
}

const PltShape* match_plt(const AbiFacts& abi, std::string_view section, bool mask, std::span<const PltRow> rows,
                          bool& any) {
  any = false;
  for (const PltShape& s : abi.plt) {
    if (s.section != section || s.mask != mask) continue;
    any = true;
    const auto want = s.row_span();
    if (std::equal(want.begin(), want.end(), rows.begin(), rows.end(),
                   [](const PltRow& a, const PltRow& b) { return a.start == b.start && a.cfa == b.cfa; }))
      return &s;
  }
  return nullptr;
}

}  // namespace elfmeta::sframe
