// Writes the seed corpus of every fuzz target (fuzz/corpus/<target>/) from
// the builders the tests use: small valid inputs the fuzzers mutate from.
//
//   elfmeta-fuzz-seeds DIR
#include <elf.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "synth/fuzz_inputs.h"
#include "synth/xc_image.h"
#include "input/artifact.h"
#include "synth/btf_builder.h"
#include "synth/btf_generator.h"
#include "synth/hostile_btf.h"
#include "fuzz/orc_layout_byte.h"
#include "synth/orc_builder.h"
#include "synth/sframe_builder.h"

namespace fs = std::filesystem;
using namespace elfmeta;
using synth::length_prefixed;
using synth::section_of;

namespace {

fs::path g_dir;

void write(const std::string& target, const std::string& name, const std::vector<uint8_t>& bytes) {
  const fs::path dir = g_dir / target;
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}


void btf_seeds() {
  std::vector<uint8_t> previous;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    synth::Rng rng(seed);
    const auto blob = synth::random_type_graph(rng, seed % 2 == 0).build();
    for (const char* t : {"fuzz_btf", "fuzz_libbpf", "fuzz_btf_libbpf_diff", "fuzz_btf_kernel_diff", "fuzz_input"})
      write(t, "graph-" + std::to_string(seed), blob);
    // diff: two different graphs, and one against itself.
    if (!previous.empty()) write("fuzz_btf_diff", "graphs-" + std::to_string(seed - 1) + "-" + std::to_string(seed), length_prefixed(previous, blob));
    if (seed == 1) write("fuzz_btf_diff", "graph-1-itself", length_prefixed(blob, blob));
    previous = blob;
  }
  synth::Rng rng(7);
  write("fuzz_btf", "special-fields", synth::special_fields_graph(rng).build());
  // The shapes of issue 27, small: an array whose field count wraps in 32
  // bits, structs nested three ways, a prototype whose parameters point back
  // to it. The mutators grow them (nelems, depth, parameters).
  write("fuzz_btf", "kptr-array-repeat-wrap", synth::kptr_array_repeat_wrap(false, 16).build());
  write("fuzz_btf", "nested-three-way", synth::nested_three_way(6).build());
  write("fuzz_btf", "self-referential-proto", synth::self_referential_proto(8).build());
  write("fuzz_btf_diff", "self-referential-proto",
        length_prefixed(synth::self_referential_proto(8).build(), synth::self_referential_proto(9).build()));
  // Split BTF: a base and a module's types on it.
  synth::BtfBuilder base;
  const uint32_t i = base.add_int("int", 4, 32);
  base.add_ptr(i);
  const auto base_blob = base.build();
  synth::BtfBuilder module(2, static_cast<uint32_t>(base_blob.size()));
  module.add_typedef("module_int", 1);
  module.add_ptr(2);
  write("fuzz_btf_split", "base-and-module", length_prefixed(base_blob, module.build()));
}

void orc_seeds() {
  std::mt19937_64 rng(11);
  // A table of every layout, with the .orc_header of those that have one
  // (else --kernel of the layout's first release): fuzz/orc_layout_byte.h.
  for (const auto& row : orc::layout_table()) {
    const auto elf = synth::random_orc(rng, row.layout, true).build();
    auto unwind = section_of(elf, ".orc_unwind");
    unwind.insert(unwind.begin(), fuzz::orc_layout_byte_for(row.layout, row.fingerprint.has_value()));
    std::string name = "image-" + std::string(row.name);
    for (char& c : name) c = c == '+' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    write("fuzz_orc", name, length_prefixed(section_of(elf, ".orc_unwind_ip"), unwind));
    write("fuzz_input", "orc-" + name, elf);
  }
  write("fuzz_input", "orc-object", synth::random_orc(rng, orc::Layout::G4, false).build());
}

void sframe_seeds() {
  using synth::SframeFile;
  for (uint8_t version : {1, 2, 3})
    for (uint8_t abi : {sframe::kAmd64Le, sframe::kAarch64Le, sframe::kAarch64Be}) {
      auto p = synth::typical_sframe(version, abi, 4);
      p.endian = sframe::abi_big_endian(abi) ? Endian::Big : Endian::Little;
      const std::string name = "v" + std::to_string(version) + "-" + std::string(sframe::abi_name(abi));
      auto raw = synth::encode_sframe(p, SframeFile::Raw).bytes;
      if (version == 1 && abi != sframe::kAarch64Be) {
        write("fuzz_libsframe", name, raw);
        write("fuzz_sframe_libsframe_diff", name, raw);
      }
      raw.insert(raw.begin(), 0);
      write("fuzz_sframe", "raw-" + name, raw);
      if (p.endian == Endian::Little) {
        auto linked = synth::encode_sframe(p, SframeFile::Linked).bytes;
        linked.insert(linked.begin(), 1);
        write("fuzz_sframe", "linked-" + name, linked);
        write("fuzz_input", "sframe-" + name, synth::sframe_elf(p, SframeFile::Linked));
        write("fuzz_input", "sframe-object-" + name, synth::sframe_elf(p, SframeFile::Object));
      }
    }
}

void kallsyms_seeds() {
  const std::string text =
      "ffffffff81000000 T _stext\nffffffff81000010 T startup_64\nffffffff81000100 t helper\n"
      "ffffffff82000000 D jiffies\nffffffffc0000000 t module_fn\t[mod]\n";
  write("fuzz_kallsyms", "proc-kallsyms", std::vector<uint8_t>(text.begin(), text.end()));
}

// fuzz_btf_xc: the kernel-like BTF, id set and kallsyms lines of
// synth::xc_seed(), which the cross-checks find clean.
void xc_seeds() {
  const auto parts = synth::xc_seed();
  std::vector<uint8_t> input = length_prefixed(parts.btf, length_prefixed(parts.btf_ids, {}));
  input.insert(input.end(), parts.kallsyms.begin(), parts.kallsyms.end());
  write("fuzz_btf_xc", "kernel-like", input);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: elfmeta-fuzz-seeds DIR\n";
    return 2;
  }
  g_dir = argv[1];
  btf_seeds();
  orc_seeds();
  sframe_seeds();
  kallsyms_seeds();
  xc_seeds();
  return 0;
}
