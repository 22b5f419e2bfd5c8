// What the fuzz targets share: wrapping fuzzer bytes into the artifacts the
// verifiers read, and running the whole check of each format on them.
// Targets link only the elfmeta library and C libraries (no GoogleTest,
// no RapidCheck), so they build under ClusterFuzzLite's toolchain too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "btf/verifier.h"
#include "core/diagnostic.h"
#include "input/artifact.h"

namespace elfmeta::fuzz {

// Every verifier over one artifact (BTF as the running kernel's rules and
// its cross-checks, ORC, SFrame with its CFI differential), as `elfmeta
// check` runs them.
void check_everything(const input::Artifact& a);

// A linked ELF file (ET_EXEC, x86-64) with the given sections and a small
// .text (int3), where fuzz/fuzz_image.h says. `functions`: the .text holds
// 16 functions of 256 bytes, f0 to f15 in the symtab, each 128 bytes of
// code (a byte no decoder takes for fill) then 128 of int3, so that the ORC
// checks of function starts and bodies have functions, code and fill to
// judge.
struct SectionSpec {
  std::string name;
  std::vector<uint8_t> data;
  uint64_t flags = 0;
};
std::vector<uint8_t> linked_elf(const std::vector<SectionSpec>& sections, uint16_t type, bool functions = false);

// fuzz_orc's input (u16 length, .orc_unwind_ip, layout byte, .orc_unwind)
// checked as a kernel image; and fuzz_sframe's (mode byte, section) raw or
// in a linked file, by both consumers, with lookups. Here rather than in the
// targets so that the mutator tests see the same findings.
void check_orc_input(const uint8_t* data, size_t size, DiagnosticSink& sink);
void check_sframe_input(const uint8_t* data, size_t size, DiagnosticSink& sink);
// fuzz_btf_xc's (u16 length, BTF, u16 length, .BTF_ids, kallsyms text): the
// BTF cross-checks on synth::xc_image() with those symbols.
void check_xc_input(const uint8_t* data, size_t size, DiagnosticSink& sink);

// A check of a BTF blob with the shortcuts (the record screen and the fast
// resolver, resolve.cpp) and one without (every record's checks, and the
// reference resolver, resolve_reference.cpp), which must agree: the same
// findings, in any order, and the same resolve state. fuzz_btf aborts and
// the shortcut tests fail when they do not.
struct ShortcutComparison {
  std::string findings;    // the check with the shortcuts, every diagnostic as text
  bool resolved = false;   // its reference pass ran
  std::string difference;  // the first difference between the two checks, "" when none
};
ShortcutComparison compare_shortcuts(std::span<const uint8_t> blob, btf::CheckOptions options);

// The first difference between a check of a BTF blob on one core and one on
// two (CheckOptions::concurrent_always, whatever its size), "" when none:
// fuzz_btf aborts and the concurrency tests fail when there is one.
std::string compare_concurrency(std::span<const uint8_t> blob, btf::CheckOptions options);

// Splits fuzzer input into a length-prefixed head (first 2 bytes give its
// size) and the rest.
std::pair<std::span<const uint8_t>, std::span<const uint8_t>> split(const uint8_t* data, size_t size);

}  // namespace elfmeta::fuzz
