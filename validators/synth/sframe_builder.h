// Builds SFrame sections of every version, byte order and ABI from a plan
// of functions and their FREs, raw or inside an ELF object (with the FDE
// start relocations) or a linked file (with PT_GNU_SFRAME). Valid versions 2
// and 3 as producers write them come from the producers themselves
// (tests/sframe/data/binutils-2.44 and binutils-2.47.50, and the sid root's
// gas and ld in tests/sframe/sid/); this builder makes what no producer
// writes: a section with one field broken for each rule case, and the
// generated sections of the property tests and the fuzzers' seeds. Every
// field can be overridden.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/byte_reader.h"
#include "sframe/sframe_format.h"

namespace elfmeta::synth {

struct SframeFrePlan {
  uint32_t start = 0;
  bool base_sp = true;
  std::vector<int32_t> words{8};  // CFA offset, then RA (when tracked), then FP
  bool mangled_ra = false;
  std::optional<uint8_t> size_code;  // default: the smallest that holds the words, as gas picks it
  std::optional<uint8_t> info;       // the whole info byte, as written
};

struct SframeFdePlan {
  uint64_t offset = 0;  // in the code section
  uint32_t size = 16;
  uint8_t pc_type = sframe::kPcInc;
  uint8_t rep_size = 0;
  bool pauth_key_b = false;
  bool signal = false;  // v3
  uint8_t v3_kind = sframe::kDefault;
  std::vector<SframeFrePlan> fres{SframeFrePlan{}};
  std::optional<uint8_t> fre_type;  // default: the smallest for the size
  std::optional<uint8_t> info, info2;
  std::optional<uint32_t> num_fres, fre_off;
  uint16_t padding = 0;
};

enum class SframeFile { Raw, Object, Linked };

struct SframePlan {
  uint8_t version = 2;
  Endian endian = Endian::Little;
  uint8_t abi = sframe::kAmd64Le;
  std::optional<uint8_t> flags;    // default: FDE_SORTED when linked, FDE_FUNC_START_PCREL in v3
  int8_t fixed_fp = 0;
  std::optional<int8_t> fixed_ra;  // default: -8 on AMD64, else 0
  uint8_t auxhdr_len = 0;
  std::vector<SframeFdePlan> fdes;
  std::optional<uint32_t> num_fdes, num_fres, fre_len, fdeoff, freoff;
  std::vector<uint8_t> tail;  // bytes after the FREs
  uint64_t text_addr = 0x1000, sframe_addr = 0x8000;  // linked files
  std::vector<uint64_t> dynamic_relocations;          // linked: R_X86_64_RELATIVE at these .sframe offsets
  std::string code_section = ".text";                 // ".plt": the functions are PLT entries
  // Linked AMD64 files: an .eh_frame saying what the FREs say (CFA, saved
  // RBP, outermost frames), with the 'S' (signal frame) augmentation when
  // `signal_cie`; for the CFI differential of versions 2 and 3.
  bool eh_frame = false;
  bool signal_cie = false;
};

struct SframeBytes {
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> fde_at;    // each FDE's offset in the section
  std::vector<uint64_t> block_at;  // each FDE's FRE block (v3: its attribute record)
};

// The section's bytes. Start fields: 0 for an object (relocated); for a
// linked file or a raw section (at address 0), the function's address from
// the section (v1, v2) or from the field (v3, FDE_FUNC_START_PCREL).
SframeBytes encode_sframe(const SframePlan& plan, SframeFile kind);
// A little-endian ELF file with .text, the functions as symbols, and .sframe.
std::vector<uint8_t> sframe_elf(const SframePlan& plan, SframeFile kind);

// A plan gas would make for `count` small functions (push rbp style CFA
// changes) of the given version and ABI.
SframePlan typical_sframe(uint8_t version, uint8_t abi, size_t count);

}  // namespace elfmeta::synth
