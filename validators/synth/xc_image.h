// A kernel-like image for the BTF cross-checks (spec btf.md §3): .BTF and
// .BTF_ids in an x86-64 vmlinux-shaped ELF whose text, data and percpu
// sections sit where a kernel's do, and a consistent set of kallsyms lines
// for it. fuzz_btf_xc wraps its input this way; the seed generator and the
// mutator tests start from xc_seed().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace elfmeta::synth {

// Section addresses of xc_image(); each section but .BTF_ids and .BTF is
// kXcSectionSize bytes.
inline constexpr uint64_t kXcText = 0xffffffff81000000, kXcData = 0xffffffff82000000,
                          kXcBtfIds = 0xffffffff82800000, kXcBtf = 0xffffffff83000000, kXcPercpu = 0;
inline constexpr uint64_t kXcSectionSize = 0x1000;

// The image: .text, .data..percpu (at 0, as in vmlinux), .data, .BTF_ids
// holding `btf_ids` and .BTF holding `btf`.
std::vector<uint8_t> xc_image(std::span<const uint8_t> btf, std::span<const uint8_t> btf_ids);

// A clean starting point: BTF with functions (one a kfunc pair in a
// BTF_SET8), a percpu and a global variable in their DATASECs, a struct, a
// typedef and a FWD of another struct; the .BTF_ids bytes of the set; and
// kallsyms lines that back every name with the address the DATASEC gives.
struct XcParts {
  std::vector<uint8_t> btf, btf_ids;
  std::string kallsyms;
};
XcParts xc_seed();

}  // namespace elfmeta::synth
