// ORC tables: the length-prefixed head is .orc_unwind_ip, the rest
// .orc_unwind, in a kernel-like linked image (so every image rule runs);
// the first byte of the rest chooses the layout through an .orc_header.
#include <elf.h>

#include "core/diagnostic.h"
#include "fuzz_support.h"
#include "orc/orc_format.h"
#include "orc/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  const auto [ip, rest] = fuzz::split(data, size);
  if (rest.empty()) return 0;
  std::vector<fuzz::SectionSpec> sections{{".orc_unwind_ip", {ip.begin(), ip.end()}, SHF_ALLOC},
                                          {".orc_unwind", {rest.begin() + 1, rest.end()}, SHF_ALLOC},
                                          {"__ksymtab", std::vector<uint8_t>(16, 0), SHF_ALLOC},
                                          {".orc_lookup", std::vector<uint8_t>(64, 0), SHF_ALLOC}};
  if (rest[0] & 1) sections.push_back({".orc_header", std::vector<uint8_t>(orc::kHeaderSize, rest[0]), SHF_ALLOC});
  auto opened = input::open_bytes("fuzz", fuzz::linked_elf(sections, ET_EXEC));
  if (!opened.artifact) return 0;
  NullSink sink;
  orc::OrcOptions options;
  options.cfi = false;
  if (rest[0] & 2) options.kernel = Release{6, 1};
  orc::check_orc(*opened.artifact, options, sink);
  return 0;
}
