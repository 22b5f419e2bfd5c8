#include "synth/xc_image.h"

#include <elf.h>

#include <cstdio>

#include "synth/btf_builder.h"
#include "synth/elf_writer.h"

namespace elfmeta::synth {

std::vector<uint8_t> xc_image(std::span<const uint8_t> btf, std::span<const uint8_t> btf_ids) {
  ElfWriter w(ET_EXEC, EM_X86_64);
  const std::vector<uint8_t> zeros(kXcSectionSize, 0);
  w.add_section({".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, kXcText, 16, 0, zeros});
  w.add_section({".data..percpu", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, kXcPercpu, 64, 0, zeros});
  w.add_section({".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, kXcData, 64, 0, zeros});
  w.add_section({".BTF_ids", SHT_PROGBITS, SHF_ALLOC, kXcBtfIds, 4, 0, {btf_ids.begin(), btf_ids.end()}});
  w.add_section({".BTF", SHT_PROGBITS, SHF_ALLOC, kXcBtf, 4, 0, {btf.begin(), btf.end()}});
  return w.write();
}

namespace {

std::string kallsyms_line(uint64_t address, char type, const std::string& name) {
  char head[32];
  std::snprintf(head, sizeof head, "%016llx %c ", static_cast<unsigned long long>(address), type);
  return head + name + "\n";
}

void put32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

}  // namespace

XcParts xc_seed() {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.add_func_proto(int_id, {{"x", int_id}});
  const uint32_t do_work = b.add_func("do_work", proto, 1);
  b.add_func("helper", proto, 0);
  const uint32_t kf_a = b.add_func("kf_a", proto, 1);
  const uint32_t kf_b = b.add_func("kf_b", proto, 1);
  b.add_decl_tag("bpf_kfunc", kf_a);
  b.add_decl_tag("bpf_kfunc", kf_b);
  const uint32_t other = b.add_fwd("other");
  const uint32_t thing = b.add_struct("thing", 16, {{"count", int_id, 0}, {"next", b.add_ptr(other), 64}});
  b.add_typedef("thing_t", thing);
  const uint32_t runqueues = b.add_var("runqueues", int_id, 1);
  const uint32_t jiffies = b.add_var("jiffies", int_id, 1);
  b.add_datasec(".data..percpu", 4, {{runqueues, 0, 4}});
  b.add_datasec(".data", 4, {{jiffies, 0, 4}});
  (void)do_work;

  XcParts parts;
  parts.btf = b.build();
  // BTF_SET8 "kfuncs": cnt, flags, then {id, flags} sorted by id.
  put32(parts.btf_ids, 2);
  put32(parts.btf_ids, 0);
  for (uint32_t id : {kf_a, kf_b}) {
    put32(parts.btf_ids, id);
    put32(parts.btf_ids, 0);
  }
  parts.kallsyms = kallsyms_line(kXcPercpu, 'D', "__per_cpu_start") + kallsyms_line(kXcPercpu, 'D', "runqueues") +
                   kallsyms_line(kXcPercpu + 4, 'D', "__per_cpu_end") + kallsyms_line(kXcText, 'T', "_stext") +
                   kallsyms_line(kXcText, 'T', "do_work") + kallsyms_line(kXcText + 0x10, 't', "helper") +
                   kallsyms_line(kXcText + 0x20, 'T', "kf_a") + kallsyms_line(kXcText + 0x30, 'T', "kf_b") +
                   kallsyms_line(kXcText + 0x40, 'T', "_etext") + kallsyms_line(kXcData, 'D', "jiffies") +
                   kallsyms_line(kXcBtfIds, 'r', "__BTF_ID__set8__kfuncs") +
                   kallsyms_line(kXcBtfIds + 8, 'r', "__BTF_ID__func__kf_a__1") +
                   kallsyms_line(kXcBtfIds + 16, 'r', "__BTF_ID__func__kf_b__2");
  return parts;
}

}  // namespace elfmeta::synth
