// SFrame sections of every version: raw (either byte order, as the bytes
// say) and, when the first byte is odd, as the .sframe of a linked file.
#include <elf.h>

#include "core/diagnostic.h"
#include "fuzz_support.h"
#include "sframe/lookup.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  if (size < 1) return 0;
  std::vector<uint8_t> section(data + 1, data + size);
  std::unique_ptr<input::Artifact> a;
  if (data[0] & 1) {
    auto opened = input::open_bytes("fuzz", fuzz::linked_elf({{".sframe", section, SHF_ALLOC}}, ET_DYN));
    a = std::move(opened.artifact);
  } else {
    a = std::make_unique<input::Artifact>();
    a->kind = input::ArtifactKind::RawSframe;
    auto bytes = std::make_shared<std::vector<uint8_t>>(std::move(section));
    a->raw = a->content = *bytes;
    a->storage.push_back(bytes);
  }
  if (!a) return 0;
  NullSink sink;
  sframe::check_sframe(*a, {kLibsframe, true}, sink);
  sframe::check_sframe(*a, {kSframeKernel, false}, sink);
  // Lookups over the model the checks read.
  DiagnosticList discard;
  sframe::SframeFindings f("fuzz", discard, kNoConsumer);
  if (const auto t = sframe::read_sframe(*a, f); t && t->usable)
    for (size_t i = 0; i < t->fdes.size() && i < 64; ++i) {
      sframe::find_fre(*t, t->starts[i].address);
      sframe::find_fre(*t, t->starts[i].address + t->fdes[i].size / 2);
    }
  return 0;
}
