// Symbol sources: kallsyms text (as /proc/kallsyms or System.map), and the
// compressed kallsyms tables of an image (the input as its .rodata).
#include <elf.h>

#include "fuzz_support.h"
#include "input/symbols.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elfmeta;
  std::string why;
  input::symbols_from_kallsyms_text({reinterpret_cast<const char*>(data), size}, "fuzz", why);
  auto opened = input::open_bytes(
      "fuzz", fuzz::linked_elf({{".rodata", {data, data + size}, SHF_ALLOC}, {"__ksymtab", std::vector<uint8_t>(16, 0), SHF_ALLOC}},
                               ET_EXEC));
  if (opened.artifact) input::symbols_from_image_kallsyms(*opened.artifact, why);
  return 0;
}
