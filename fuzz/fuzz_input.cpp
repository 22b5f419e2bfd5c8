// The CLI's own entry: any bytes opened by content (ELF, vmlinuz, raw BTF
// or SFrame, compressed data) and checked by every verifier.
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto opened = elfmeta::input::open_bytes("fuzz", std::vector<uint8_t>(data, data + size));
  if (opened.artifact) elfmeta::fuzz::check_everything(*opened.artifact);
  return 0;
}
