#include "fuzz_support.h"

#include <elf.h>

#include "btf/artifact_check.h"
#include "core/diagnostic.h"
#include "orc/verifier.h"
#include "sframe/verifier.h"
#include "synth/elf_writer.h"

namespace elfmeta::fuzz {

void check_everything(const input::Artifact& a) {
  NullSink sink;
  btf::CheckOptions options;
  options.concurrent = false;
  options.kernel = btf::KernelProfile(btf::kernel_of(a).release);
  btf::check_artifact_btf(a, nullptr, options, sink);
  orc::check_orc(a, orc::OrcOptions{}, sink);
  sframe::check_sframe(a, sframe::SframeOptions{}, sink);
}

std::vector<uint8_t> linked_elf(const std::vector<SectionSpec>& sections, uint16_t type) {
  synth::ElfWriter w(type, EM_X86_64);
  w.add_section({".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, 16, 0, std::vector<uint8_t>(0x1000, 0xcc)});
  uint64_t addr = 0x10000;
  for (const auto& s : sections) {
    w.add_section({s.name, SHT_PROGBITS, s.flags ? s.flags : SHF_ALLOC, addr, 8, 0, s.data});
    addr += (s.data.size() + 0xfff) & ~uint64_t(0xfff);
  }
  return w.write();
}

std::pair<std::span<const uint8_t>, std::span<const uint8_t>> split(const uint8_t* data, size_t size) {
  if (size < 2) return {{}, {data, size}};
  const size_t head = std::min<size_t>(size - 2, size_t(data[0]) | size_t(data[1]) << 8);
  return {{data + 2, head}, {data + 2 + head, size - 2 - head}};
}

}  // namespace elfmeta::fuzz
