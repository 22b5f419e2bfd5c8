// Hostile input as a user meets it (issue 27): whole `elfmeta` processes on
// the shapes that crashed, hung or exhausted it, under resource limits that
// end a hang or a blow-up, and the verdicts at the edges of the input
// classes (raw blobs are what BPF_BTF_LOAD takes; --as says what an input
// is), each with the running kernel's own verdict where it can give one.
#include <elf.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "btf/parse.h"
#include "oracle/kernel_btf_oracle.h"
#include "synth/btf_builder.h"
#include "synth/hostile_btf.h"
#include "tests/support/cli_run.h"
#include "tests/support/compressors.h"
#include "tests/support/elf_file_edit.h"
#include "tests/support/measured_run.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

std::string write_blob(const std::string& name, const std::vector<uint8_t>& bytes) {
  const fs::path p = scratch_dir("hostile") / name;
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return p.string();
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// ------------------------------------------------------------ §1: the shapes

// (a) on the two-thread path (4,200 types) and on one (-j1 changes nothing
// for one blob; the special-field pass runs beside the reference pass at
// any size in the library tests): refused, within bounds.
TEST(HostileInputCli, KptrArrayRepeatWrapIsRefusedNotACrash) {
  for (const bool lock : {false, true}) {
    const std::string blob = write_blob(lock ? "wrap-lock.btf" : "wrap-kptr.btf", synth::kptr_array_repeat_wrap(lock).build());
    const MeasuredRun r = run_cli_measured({"check", blob}, 20, 2048);
    EXPECT_EQ(r.signal, 0) << r.err;
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "[BTF-ARRAY-008]")) << r.out;
    EXPECT_LT(r.max_rss_mb, 100) << "MB";
  }
}

// (b) depth 30: valid, accepted, a BTF-FIELD-022 warning, within bounds.
TEST(HostileInputCli, ThreeWayNestingDepth30IsCheckedAtOnce) {
  const std::string blob = write_blob("nested-30.btf", synth::nested_three_way(30).build());
  const MeasuredRun r = run_cli_measured({"check", blob}, 20, 2048);
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "[BTF-FIELD-022]")) << r.out;
  EXPECT_LT(r.max_rss_mb, 100) << "MB";
}

// (c) `elfmeta diff` of a 300-parameter self-referential prototype with
// itself (and of the invalid variant whose parameters are the prototype).
TEST(HostileInputCli, DiffOfSelfReferentialPrototypesIsBounded) {
  for (const bool direct : {false, true}) {
    const std::string blob =
        write_blob(direct ? "proto-direct.btf" : "proto-cycle.btf", synth::self_referential_proto(300, direct).build());
    const MeasuredRun r = run_cli_measured({"diff", "--only", "btf", blob, blob}, 20, 2048);
    EXPECT_EQ(r.signal, 0) << r.err;
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_LT(r.max_rss_mb, 200) << "MB";
  }
}

// ---------------------------------------------------- §2: edges of input classes

// The kernel's verdict on a blob, when the running kernel can give one.
std::optional<oracle::KernelVerdict> kernel_on(const std::vector<uint8_t>& blob) {
  if (!oracle::kernel_btf_oracle_available()) return std::nullopt;
  return oracle::kernel_btf_load(blob);
}

std::vector<uint8_t> small_btf() {
  synth::BtfBuilder b;
  const uint32_t i = b.add_int("int", 4, 32, 1);
  b.add_ptr(i);
  return b.build();
}

void set32(std::vector<uint8_t>& b, size_t off, uint32_t v) { std::memcpy(b.data() + off, &v, 4); }

// A raw blob without --base-btf is what BPF_BTF_LOAD takes: base BTF. Each
// malformed header or string section gets the kernel's verdict (refused,
// exit 1), never "split BTF needs its base" with exit 0.
TEST(HostileInputCli, RawBlobWithoutABaseIsStandaloneBtf) {
  struct Case {
    std::string name, rule, kernel_log;
    std::vector<uint8_t> blob;
  };
  std::vector<Case> cases;
  {  // hdr_len 20: below the 24 bytes of the header
    auto b = small_btf();
    set32(b, 4, 20);
    cases.push_back({"hdr-len-20", "", "", b});
  }
  {  // hdr_len 32 with bytes 24-31 of the blob's type section
    auto b = small_btf();
    set32(b, 4, 32);
    cases.push_back({"hdr-len-32", "", "", b});
  }
  {  // the string section overlaps the type section
    auto b = small_btf();
    set32(b, 16, 0);  // str_off 0: over the types
    cases.push_back({"overlap", "", "", b});
  }
  {  // the string section does not start with NUL (as split BTF's does not)
    synth::BtfBuilder sb;
    sb.add_int("int", 4, 32, 1);
    auto parts = sb.parts();
    parts.strings.insert(parts.strings.begin(), 'x');
    auto b = parts.assemble();
    cases.push_back({"strings-not-nul", "", "", b});
  }
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const CliRun r = run_cli("check --only btf " + write_blob(c.name + ".btf", c.blob));
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_FALSE(has(r.out, "needs its base")) << r.out;
    if (const auto k = kernel_on(c.blob)) {
      EXPECT_FALSE(k->accepted) << c.name;
      // The kernel's reason is the log line of one of our findings.
      EXPECT_TRUE(has(r.out, "kernel log: \"" + k->reason)) << "kernel: " << k->reason << "\n" << r.out;
    }
  }
}

// BTF in the other byte order: BPF_BTF_LOAD does not swap it.
TEST(HostileInputCli, RawBlobInTheOtherByteOrderIsRefusedUnderBpfLoad) {
  const auto swapped = btf::swap_byte_order(small_btf(), true);
  const std::string path = write_blob("big-endian.btf", swapped);
  const CliRun r = run_cli("check --only btf " + path);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  if (const auto k = kernel_on(swapped)) {
    EXPECT_FALSE(k->accepted);
    EXPECT_TRUE(has(r.out, "kernel log: \"" + k->reason)) << "kernel: " << k->reason << "\n" << r.out;
  }
  // libbpf swaps it: clean for --libbpf.
  const CliRun lib = run_cli("check --only btf --libbpf 1.1 " + path);
  EXPECT_EQ(lib.status, 0) << lib.out << lib.err;
}

// --as says what an input is: then a bad magic, an empty file or a cut
// header are header findings (exit 1), not "not recognised" (exit 2).
TEST(HostileInputCli, AsBtfAndAsSframeMakeHeaderFindings) {
  const std::string empty = write_blob("empty", {});
  const std::string junk = write_blob("junk", {'h', 'e', 'l', 'l', 'o', '\n'});
  const std::string short_btf = write_blob("short-btf", {0x9f, 0xeb, 1, 0, 24});
  for (const std::string& input : {empty, junk}) {
    const CliRun plain = run_cli("check " + input);
    EXPECT_EQ(plain.status, 2) << input << "\n" << plain.out << plain.err;
    const CliRun as_btf = run_cli("check --as btf " + input);
    EXPECT_EQ(as_btf.status, 1) << input << "\n" << as_btf.out << as_btf.err;
    EXPECT_TRUE(has(as_btf.out, "[BTF-HDR-00")) << as_btf.out;
    const CliRun as_sframe = run_cli("check --as sframe " + input);
    EXPECT_EQ(as_sframe.status, 1) << input << "\n" << as_sframe.out << as_sframe.err;
    EXPECT_TRUE(has(as_sframe.out, "[SFRAME-HDR-00")) << as_sframe.out;
  }
  const CliRun cut = run_cli("check " + short_btf);
  EXPECT_EQ(cut.status, 1) << cut.out << cut.err;
  EXPECT_TRUE(has(cut.out, "[BTF-HDR-001]")) << cut.out;
  EXPECT_EQ(run_cli("check --as elf " + junk).status, 2);
}

// A raw SFrame section whose magic is right is SFrame, whatever its version
// or length: findings, not unrecognised input.
TEST(HostileInputCli, RawSframeWithAnUnknownVersionOrACutHeaderIsSframe) {
  std::vector<uint8_t> header(28, 0);
  header[0] = 0xe2;
  header[1] = 0xde;
  header[2] = 9;  // no such version
  header[4] = 3;  // AMD64
  const CliRun unknown = run_cli("check " + write_blob("v9.sframe", header));
  EXPECT_EQ(unknown.status, 1) << unknown.out << unknown.err;
  EXPECT_TRUE(has(unknown.out, "[SFRAME-HDR-004]")) << unknown.out;
  header[2] = 2;
  header.resize(12);
  const CliRun cut = run_cli("check " + write_blob("cut.sframe", header));
  EXPECT_EQ(cut.status, 1) << cut.out << cut.err;
  EXPECT_TRUE(has(cut.out, "[SFRAME-HDR-001]")) << cut.out;
}

// ------------------------------------------------------- issue 33: package bombs

// The package of the issue, made as its author made it (dpkg-deb -Zxz
// --build): `members` files lib/modules/6.12.0-bomb/kernel/mN.ko.xz, each
// the same xz stream of a 200 MiB file (an ELF64 relocatable header, then
// zeros). The .deb is a few kilobytes.
std::string package_bomb(size_t members) {
  const fs::path root = scratch_dir("bomb-" + std::to_string(members));
  fs::create_directories(root / "DEBIAN");
  std::ofstream(root / "DEBIAN" / "control") << "Package: linux-image-6.12.0-bomb\nVersion: 1\nArchitecture: amd64\n"
                                                "Maintainer: elfmeta tests <tests@elfmeta.invalid>\nDescription: bomb\n";
  const fs::path dir = root / "lib/modules/6.12.0-bomb/kernel";
  fs::create_directories(dir);
  static const compressors::Bytes stream = compressors::xz_of_zero_elf(uint64_t(200) << 20);
  for (size_t i = 0; i < members; ++i)
    std::ofstream(dir / ("m" + std::to_string(i) + ".ko.xz"), std::ios::binary)
        .write(reinterpret_cast<const char*>(stream.data()), std::streamsize(stream.size()));
  const std::string deb = (scratch_dir() / ("bomb-" + std::to_string(members) + ".deb")).string();
  const std::string cmd = "dpkg-deb -Zxz --build " + root.string() + " " + deb + " >/dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return deb;
}

// Each member is refused with INPUT-001 after its first mebibyte, the rest
// of the package still checked; exit 1 within 300 MB and 10 s of CPU (the
// limits end the process otherwise). The thousand-member variant too.
TEST(HostileInputCli, PackageBombIsAFindingNotAnAbort) {
  for (const size_t members : {size_t(60), size_t(1000)}) {
    SCOPED_TRACE(std::to_string(members) + " members");
    const std::string deb = package_bomb(members);
    EXPECT_LT(fs::file_size(deb), 64u << 10);
    const MeasuredRun r = run_cli_measured({"check", deb}, 10, 4096);
    EXPECT_EQ(r.signal, 0) << r.err;
    EXPECT_EQ(r.status, 1) << r.err;
    size_t refused = 0;
    for (size_t at = 0; (at = r.out.find("[INPUT-001]", at)) != std::string::npos; ++at) ++refused;
    EXPECT_EQ(refused, members) << r.out.substr(0, 2000);
    EXPECT_TRUE(has(r.out, "expand to 1.0 MiB")) << r.out.substr(0, 2000);
    EXPECT_LT(r.max_rss_mb, 300) << "MB";
  }
}

// The budget of the whole run as an option: a smaller --max-decompressed
// stops the bomb's members with INPUT-003 once spent.
TEST(HostileInputCli, RunBudgetIsAnOption) {
  const std::string deb = package_bomb(60);
  const MeasuredRun r = run_cli_measured({"check", "--max-decompressed", "8M", deb}, 10, 4096);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.out, "[INPUT-003]")) << r.out.substr(0, 2000);
  EXPECT_EQ(run_cli("check --max-decompressed lots " + deb).status, 2);
  EXPECT_EQ(run_cli("check --max-expansion 0 " + deb).status, 2);
}

// ------------------------------------------- compressed sections (SHF_COMPRESSED)

// `source` with each of `sections` compressed (elf_file_edit.h), written to
// the scratch directory as `name`.
std::string with_compressed_sections(const fs::path& source, const std::vector<std::string>& sections, uint64_t claimed,
                                     const std::vector<uint8_t>& payload, const std::string& name) {
  std::vector<uint8_t> bytes = read_bytes(source);
  std::vector<SectionPlace> places;
  for (const std::string& section : sections) places.push_back(section_place(bytes, section));
  for (const SectionPlace& place : places) EXPECT_TRUE(compress_section(bytes, place, claimed, payload)) << source;
  const fs::path out = scratch_dir() / name;
  std::ofstream(out, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return out.string();
}

// The bombs' payload: made once per size (2 s for 256 MiB).
const std::vector<uint8_t>& zlib_of_zeros(uint64_t n) {
  static std::map<uint64_t, std::vector<uint8_t>> made;
  if (const auto it = made.find(n); it != made.end()) return it->second;
  return made[n] = compressors::zlib_of_zeros(n);
}

constexpr uint64_t kBomb = uint64_t(256) << 20;

const fs::path kSframeData = fs::path(ELFMETA_SOURCE_DIR) / "tests" / "sframe" / "data" / "binutils-2.47.50";
const fs::path kDwarfObject = fs::path(ELFMETA_SOURCE_DIR) / "fuzz" / "corpus" / "fuzz_input" / "dwarf-layouts-gcc12.o";

// Compressed DWARF of 256 KiB claiming (and holding) 256 MiB, twice: the
// file was opened by expanding every compressed section (1 GiB twice: 2.1
// GB and 3.6 s for a 9 MiB file); now DWARF stays compressed, the CFI
// reader hides it from libdw, and the SFrame differential runs on
// .debug_frame as before.
TEST(HostileInputCli, CompressedDwarfBombIsNotExpanded) {
  const std::string bomb = with_compressed_sections(kSframeData / "libframes-debug-frame-x86_64.so",
                                                    {".debug_info", ".debug_abbrev"}, kBomb, zlib_of_zeros(kBomb),
                                                    "dwarf-bomb.so");
  EXPECT_LT(fs::file_size(bomb), 1u << 20);
  const MeasuredRun r = run_cli_measured({"check", "--verbose", bomb}, 10, 4096);
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_LT(r.max_rss_mb, 200) << "MB";
  EXPECT_TRUE(has(r.out, "SFrame against DWARF CFI: 28 points, 28 equal")) << r.out.substr(0, 3000);
}

// XC-DW gives the file to libdw, which expands its DWARF whole: a section
// claiming more than 64 times its size leaves XC-DW not run, and says so
// (before: 1.0 GB for a 1 MiB object claiming 1 GiB). objcopy's own compression of the
// same object is read as before.
TEST(HostileInputCli, CompressedDwarfBombLeavesXcDwNotRun) {
  const std::string bomb = with_compressed_sections(kDwarfObject, {".debug_info"}, kBomb, zlib_of_zeros(kBomb), "xc-bomb.o");
  const MeasuredRun r = run_cli_measured({"check", "--verbose", bomb}, 10, 4096);
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_LT(r.max_rss_mb, 200) << "MB";
  EXPECT_TRUE(has(r.out, "XC-DW-* not checked: the DWARF is not read (.debug_info: ")) << r.out.substr(0, 3000);
  EXPECT_TRUE(has(r.out, "claiming 256.0 MiB, over 64 times its size)")) << r.out.substr(0, 3000);

  const std::string real = (scratch_dir() / "objcopy-z.o").string();
  ASSERT_EQ(std::system(("objcopy --compress-debug-sections=zlib " + kDwarfObject.string() + " " + real).c_str()), 0);
  const CliRun z = run_cli("check --verbose " + real);
  EXPECT_TRUE(has(z.out, "XC-DW: 35 BTF types compared with the DWARF of 1 compile units, 35 agree")) << z.out;
  // GNU's style is not read, and that is said.
  const std::string gnu = (scratch_dir() / "objcopy-z-gnu.o").string();
  ASSERT_EQ(std::system(("objcopy --compress-debug-sections=zlib-gnu " + kDwarfObject.string() + " " + gnu).c_str()), 0);
  const CliRun g = run_cli("check --verbose " + gnu);
  EXPECT_TRUE(has(g.out, "XC-DW-* not checked: the DWARF is not read (its DWARF is in GNU's .zdebug_* sections")) << g.out;
}

// Another compressed section is expanded as the file is opened, within the
// input limits of a compressed file: claiming more than 1000 times its
// size is INPUT-001, more than --max-artifact-size INPUT-002; the artifact
// is refused (exit 1), not expanded.
TEST(HostileInputCli, CompressedSectionPastTheLimitsIsRefused) {
  const std::string ratio = with_compressed_sections(kDwarfObject, {".BTF"}, uint64_t(1) << 30,
                                                     std::vector<uint8_t>(4096, 0), "btf-ratio.o");
  const MeasuredRun r = run_cli_measured({"check", ratio}, 10, 4096);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_LT(r.max_rss_mb, 100) << "MB";
  EXPECT_TRUE(has(r.out, "section .BTF: 4.0 KiB compressed, claiming 1.0 GiB, over 1000 times its size "
                         "(--max-expansion); not checked [INPUT-001]"))
      << r.out;
  const std::string size = with_compressed_sections(kDwarfObject, {".BTF"}, uint64_t(600) << 20,
                                                    std::vector<uint8_t>(uint64_t(1) << 20, 0), "btf-size.o");
  const MeasuredRun s = run_cli_measured({"check", size}, 10, 4096);
  EXPECT_EQ(s.status, 1) << s.err;
  EXPECT_TRUE(has(s.out, "past --max-artifact-size 512.0 MiB with the sections before it; not checked [INPUT-002]"))
      << s.out;
}

}  // namespace
}  // namespace elfmeta::testing
