// Every SFrame rule has an input that makes exactly it fire: a generated
// section (raw, in an object, or linked) with one thing broken. Valid
// sections of every version, byte order and ABI are clean and read back as
// they were planned.
#include <gtest/gtest.h>

#include <elf.h>

#include <cstring>
#include <functional>
#include <set>

#include "core/diagnostic.h"
#include "core/rule.h"
#include "input/artifact.h"
#include "sframe/sframe_rules.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"
#include "synth/sframe_builder.h"

namespace elfmeta::testing {
namespace {

using synth::SframeFile;
using synth::SframePlan;

struct Fired {
  std::set<std::string> rules;
  std::string listing;
  size_t errors = 0;
};

Fired check_bytes(std::vector<uint8_t> bytes, uint32_t consumer = kNoConsumer) {
  auto opened = input::open_bytes("case", std::move(bytes));
  EXPECT_TRUE(opened.artifact) << opened.error;
  Fired out;
  if (!opened.artifact) return out;
  DiagnosticList list;
  const auto result = sframe::check_sframe(*opened.artifact, sframe::SframeOptions{consumer}, list);
  EXPECT_TRUE(result.present);
  for (const auto& d : list.items()) {
    if (d.rule) out.rules.insert(std::string(d.rule->id));
    out.listing += d.message + (d.rule ? " [" + std::string(d.rule->id) + "]\n" : "\n");
  }
  out.errors = result.errors;
  return out;
}

Fired check_plan(const SframePlan& p, SframeFile kind, uint32_t consumer = kNoConsumer) {
  return check_bytes(kind == SframeFile::Raw ? synth::encode_sframe(p, kind).bytes : synth::sframe_elf(p, kind), consumer);
}

// The generated file with one section header or program header edited.
std::vector<uint8_t> edit_shdr(std::vector<uint8_t> elf, const std::string& name, const std::function<void(Elf64_Shdr&)>& edit) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, elf.data(), sizeof eh);
  Elf64_Shdr names;
  std::memcpy(&names, elf.data() + eh.e_shoff + eh.e_shstrndx * sizeof(Elf64_Shdr), sizeof names);
  for (size_t i = 1; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    uint8_t* at = elf.data() + eh.e_shoff + i * sizeof(Elf64_Shdr);
    std::memcpy(&sh, at, sizeof sh);
    if (name != reinterpret_cast<const char*>(elf.data() + names.sh_offset + sh.sh_name)) continue;
    edit(sh);
    std::memcpy(at, &sh, sizeof sh);
  }
  return elf;
}

std::vector<uint8_t> edit_phdr(std::vector<uint8_t> elf, uint32_t type, const std::function<void(Elf64_Phdr&)>& edit) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, elf.data(), sizeof eh);
  for (size_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    uint8_t* at = elf.data() + eh.e_phoff + i * sizeof(Elf64_Phdr);
    std::memcpy(&ph, at, sizeof ph);
    if (ph.p_type != type) continue;
    edit(ph);
    std::memcpy(at, &ph, sizeof ph);
  }
  return elf;
}

constexpr uint32_t kPtGnuSframe = 0x6474e554;

SframePlan plan(uint8_t version = 2, size_t count = 3) { return synth::typical_sframe(version, sframe::kAmd64Le, count); }

// ------------------------------------------------------------ valid sections

struct Variant {
  uint8_t version;
  Endian endian;
  uint8_t abi;
};

class ValidSframe : public ::testing::TestWithParam<Variant> {};

TEST_P(ValidSframe, IsCleanAndReadsBackAsPlanned) {
  const Variant v = GetParam();
  SframePlan p = synth::typical_sframe(v.version, v.abi, 5);
  if (v.version == 3 && v.abi == sframe::kAmd64Le) {  // a FLEX FDE: CFA = *(r10 - 8) style rules
    p.fdes[4].v3_kind = sframe::kFlex;
    p.fdes[4].fres.resize(2);
    p.fdes[4].fres[0].words = {(7 << 3) | 1, 8};
    p.fdes[4].fres[1].words = {(10 << 3) | 1 | 2, -8, 0, (6 << 3) | 1, -16};
  }
  p.endian = v.endian;
  std::vector<SframeFile> kinds{SframeFile::Raw};
  if (v.endian == Endian::Little) kinds = {SframeFile::Raw, SframeFile::Object, SframeFile::Linked};
  for (SframeFile kind : kinds) {
    const auto bytes = kind == SframeFile::Raw ? synth::encode_sframe(p, kind).bytes : synth::sframe_elf(p, kind);
    const Fired fired = check_bytes(bytes);
    EXPECT_TRUE(fired.rules.empty()) << int(kind) << ":\n" << fired.listing;
    auto opened = input::open_bytes("valid", bytes);
    ASSERT_TRUE(opened.artifact);
    DiagnosticList discard;
    sframe::SframeFindings f("valid", discard, kNoConsumer);
    const auto t = sframe::read_sframe(*opened.artifact, f);
    ASSERT_TRUE(t && t->usable);
    EXPECT_EQ(t->bytes.endian(), v.endian);
    ASSERT_EQ(t->fdes.size(), p.fdes.size());
    for (size_t i = 0; i < p.fdes.size(); ++i) {
      const auto& b = t->blocks[i];
      ASSERT_EQ(b.count, p.fdes[i].fres.size());
      EXPECT_EQ(t->fdes[i].size, p.fdes[i].size);
      EXPECT_TRUE(t->starts[i].resolved);
      // Objects give the offset in .text; linked files and raw sections the address.
      EXPECT_EQ(t->starts[i].address, (kind == SframeFile::Object ? 0 : p.text_addr) + p.fdes[i].offset);
      for (size_t k = 0; k < b.count; ++k) {
        const auto fre = t->fre(i, k);
        const auto& want = p.fdes[i].fres[k];
        EXPECT_EQ(fre.start, want.start);
        EXPECT_EQ(fre.base_sp(), want.base_sp);
        ASSERT_EQ(fre.count(), want.words.size());
        for (size_t w = 0; w < want.words.size(); ++w) EXPECT_EQ(fre.words[w], want.words[w]);
      }
    }
    // encode(parse(x)) == x: the section's bytes are exactly the plan's.
    const auto* section = opened.artifact->section(".sframe");
    const auto raw = section ? section->data : opened.artifact->raw;
    const auto again = synth::encode_sframe(p, kind).bytes;
    EXPECT_TRUE(std::equal(raw.begin(), raw.end(), again.begin(), again.end()));
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryVersionOrderAndAbi, ValidSframe,
    ::testing::Values(Variant{1, Endian::Little, sframe::kAmd64Le}, Variant{2, Endian::Little, sframe::kAmd64Le},
                      Variant{3, Endian::Little, sframe::kAmd64Le}, Variant{1, Endian::Little, sframe::kAarch64Le},
                      Variant{2, Endian::Little, sframe::kAarch64Le}, Variant{3, Endian::Little, sframe::kAarch64Le},
                      Variant{1, Endian::Big, sframe::kAarch64Be}, Variant{2, Endian::Big, sframe::kAarch64Be},
                      Variant{3, Endian::Big, sframe::kAarch64Be}, Variant{2, Endian::Big, sframe::kS390xBe}),
    [](const auto& info) {
      std::string name = "v" + std::to_string(info.param.version) + "_" + std::string(sframe::abi_name(info.param.abi)) +
                         "_" + (info.param.endian == Endian::Big ? "be" : "le");
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

// ---------------------------------------------------------------- rule cases

struct RuleCase {
  std::string_view rule;
  std::function<Fired()> make;
  std::set<std::string> also = {};
};

Fired patched(SframePlan p, SframeFile kind, const std::function<void(std::vector<uint8_t>&, const synth::SframeBytes&)>& edit) {
  auto s = synth::encode_sframe(p, kind);
  if (kind == SframeFile::Raw) {
    edit(s.bytes, s);
    return check_bytes(s.bytes);
  }
  auto elf = synth::sframe_elf(p, kind);
  // The section's bytes are in the file as encoded: find and edit them there.
  auto at = std::search(elf.begin(), elf.end(), s.bytes.begin(), s.bytes.end());
  EXPECT_NE(at, elf.end());
  std::vector<uint8_t> copy = s.bytes;
  edit(copy, s);
  std::copy(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(std::min(copy.size(), s.bytes.size())), at);
  return check_bytes(elf);
}

const std::vector<RuleCase>& cases() {
  static const std::vector<RuleCase> all = {
      {"SFRAME-HDR-001", [] { return patched(plan(), SframeFile::Raw, [](auto& b, auto&) { b.resize(40); b[7] = 200; }); }},
      {"SFRAME-HDR-002", [] {
         auto p = plan();
         return patched(p, SframeFile::Linked, [](auto& b, auto&) { b[0] = 0x12; });
       }},
      {"SFRAME-HDR-003", [] { auto p = plan(); p.abi = sframe::kAarch64Be; p.fixed_ra = 0; return check_plan(p, SframeFile::Raw); }},
      {"SFRAME-HDR-004", [] { return patched(plan(), SframeFile::Linked, [](auto& b, auto&) { b[2] = 9; }); }},
      {"SFRAME-HDR-005", [] { auto p = plan(1); p.flags = 0x5; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-HDR-006", [] { auto p = plan(); p.abi = 7; return check_plan(p, SframeFile::Raw); }},
      {"SFRAME-HDR-007", [] { auto p = plan(); p.fixed_ra = 0; return check_plan(p, SframeFile::Linked); }, {"SFRAME-FRE-009"}},
      // Its FREs keep FP words, which a reader of a fixed FP offset does not expect (FRE-003).
      {"SFRAME-HDR-008", [] { auto p = plan(); p.fixed_fp = -16; return check_plan(p, SframeFile::Linked); }, {"SFRAME-FRE-003"}},
      {"SFRAME-HDR-009", [] { auto p = plan(); p.auxhdr_len = 4; return check_plan(p, SframeFile::Raw); }},
      // The FDE array read one record late: the last "FDE" is FRE bytes.
      {"SFRAME-HDR-010", [] { auto p = plan(); p.fdeoff = 20; return check_plan(p, SframeFile::Raw); },
       {}},
      {"SFRAME-HDR-011", [] { auto p = plan(); p.fre_len = 4000; return check_plan(p, SframeFile::Raw); }, {"SFRAME-HDR-014"}},
      {"SFRAME-HDR-012", [] { auto p = plan(); p.tail = {0, 0, 7}; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-HDR-013", [] { auto p = plan(); p.num_fres = 99; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-HDR-014", [] { auto p = plan(); p.fdes[1].fre_off = 0; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-HDR-015", [] { auto p = plan(); p.fdes.clear(); return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-HDR-016", [] { return patched(plan(), SframeFile::Raw, [](auto& b, auto&) { b[11] = 0x10; }); }, {"SFRAME-HDR-010"}},
      {"SFRAME-HDR-020", [] { auto p = plan(); p.flags = sframe::kFdeSorted | sframe::kFramePointer; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-HDR-017", [] { auto p = plan(); p.flags = 0; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-HDR-018", [] { auto p = plan(); p.flags = sframe::kFdeSorted; return check_plan(p, SframeFile::Object); }},
      {"SFRAME-HDR-019", [] { auto p = plan(3); p.flags = sframe::kFdeSorted; return check_plan(p, SframeFile::Raw); }},
      {"SFRAME-FDE-001", [] { auto p = plan(3); p.fdes[2].fre_off = 500; return check_plan(p, SframeFile::Linked); }, {"SFRAME-HDR-013"}},
      {"SFRAME-FDE-002", [] { auto p = plan(); p.fdes[1].fre_type = 5; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FDE-003", [] { auto p = plan(3); p.fdes[0].info2 = 3; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FDE-004", [] { auto p = plan(); p.fdes[0].padding = 1; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FDE-005", [] {
         auto p = plan();
         p.fdes[0].pc_type = sframe::kPcMask;
         p.fdes[0].rep_size = 0;
         p.fdes[0].fres = {p.fdes[0].fres[0]};
         return check_plan(p, SframeFile::Linked);
       }},
      {"SFRAME-FDE-007", [] {
         return patched(plan(), SframeFile::Linked, [](auto& b, auto& s) { b[s.fde_at[2] + 2] += 0x10; });
       },
       {"SFRAME-ELF-006", "SFRAME-FDE-014"}},  // outside the code section: outside its segment, at no symbol
      {"SFRAME-FDE-008", [] {
         auto p = plan();
         std::swap(p.fdes[0].offset, p.fdes[1].offset);
         return check_plan(p, SframeFile::Linked);
       }},
      {"SFRAME-FDE-009", [] { auto p = plan(); p.fdes[1].offset = 16; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FDE-010", [] { auto p = plan(); p.fdes[1].fres.clear(); return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FDE-011", [] { auto p = plan(); p.fdes[2].fre_off = 4000; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FDE-013", [] { auto p = plan(); p.fdes[1].fre_type = sframe::kAddr4; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FRE-011", [] {
         auto p = plan(3);
         p.fdes[1].v3_kind = sframe::kFlex;
         p.fdes[1].fres.resize(1);
         p.fdes[1].fres[0].words = {7 << 3, 8};  // rsp, but reg_p clear
         return check_plan(p, SframeFile::Linked);
       }},
      {"SFRAME-FRE-012", [] { auto p = plan(); p.fdes[1].fres[1].size_code = 1; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FRE-013", [] { auto p = plan(); p.fdes[1].fres[2] = p.fdes[1].fres[1]; p.fdes[1].fres[2].start = 4; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FRE-014", [] {
         auto p = synth::typical_sframe(3, sframe::kS390xBe, 3);
         p.endian = Endian::Big;
         p.fdes[1].fres[1].words = {2, -7, -16};  // RA in a register (low bit), which v3 leaves to FLEX
         return check_plan(p, SframeFile::Raw);
       }},
      {"SFRAME-FRE-001", [] { auto p = plan(); p.fdes[2].num_fres = 6; return check_plan(p, SframeFile::Linked); }, {"SFRAME-HDR-013"}},
      {"SFRAME-FRE-002", [] { auto p = plan(); p.fdes[1].fres[1].size_code = 3; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FRE-003", [] { auto p = plan(); p.fdes[1].fres[1].words = {16, -16, -24}; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FRE-004", [] { auto p = plan(); p.fdes[1].fres[2].start = 1; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FRE-005", [] { auto p = plan(); p.fdes[1].fres[3].start = 30; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FRE-006", [] { auto p = plan(); p.fdes[1].fres[0].start = 1; p.fdes[1].fres[1].start = 2; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FRE-007", [] {
         auto p = plan();
         p.fdes[0].pc_type = sframe::kPcMask;
         p.fdes[0].rep_size = 16;
         p.fdes[0].fres[3].start = 17;
         return check_plan(p, SframeFile::Linked);
       }},
      {"SFRAME-FRE-008", [] { auto p = plan(1); p.fdes[0].fres[3].words.clear(); return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FRE-009", [] { auto p = plan(); p.fdes[0].fres[0].words = {0}; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-FRE-010", [] { auto p = plan(); p.fdes[0].fres[1].mangled_ra = true; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-ELF-001", [] {
         return check_bytes(edit_shdr(synth::sframe_elf(plan(), SframeFile::Linked), ".sframe",
                                      [](Elf64_Shdr& sh) { sh.sh_flags |= SHF_WRITE; }));
       }},
      {"SFRAME-ELF-002", [] {
         return check_bytes(edit_phdr(synth::sframe_elf(plan(), SframeFile::Linked), kPtGnuSframe,
                                      [](Elf64_Phdr& ph) { ph.p_vaddr += 8; }));
       }},
      {"SFRAME-FDE-006", [] {
         auto p = plan(1);
         p.fdes[0].pc_type = sframe::kPcMask;
         p.fdes[0].fres = {p.fdes[0].fres[0]};
         return check_plan(p, SframeFile::Linked);
       }},
      // The three blocks are alike (14 bytes): FDEs can point at any of them.
      {"SFRAME-FDE-012", [] { auto p = plan(); p.fdes[0].fre_off = 28; p.fdes[1].fre_off = 0; p.fdes[2].fre_off = 14; return check_plan(p, SframeFile::Raw); }},
      {"SFRAME-FDE-014", [] {
         // The FDE one byte into fn1: no symbol starts there.
         return patched(plan(), SframeFile::Linked, [](auto& b, auto& s) { b[s.fde_at[1]] += 1; b[s.fde_at[1] + 4] -= 1; });
       }},
      {"SFRAME-ELF-005", [] { auto p = plan(); p.dynamic_relocations = {28}; return check_plan(p, SframeFile::Linked); }},
      {"SFRAME-ELF-006", [] {
         return check_bytes(edit_phdr(synth::sframe_elf(plan(), SframeFile::Linked), PT_LOAD,
                                      [](Elf64_Phdr& ph) { ph.p_flags &= ~uint32_t(PF_X); }));
       }},
      {"SFRAME-ELF-009", [] {  // plt0 with a function's rows, not ld's
         auto p = plan(2, 1);
         p.code_section = ".plt";
         return check_plan(p, SframeFile::Linked);
       }},
      {"SFRAME-ELF-010", [] {
         // As a linker that does not know SFrame lays out two inputs: the
         // second at the next 8-byte boundary.
         auto p = plan();
         const size_t size = synth::encode_sframe(p, SframeFile::Linked).bytes.size();
         p.tail.assign((8 - size % 8) % 8, 0);
         const auto second = synth::encode_sframe(plan(), SframeFile::Raw).bytes;
         p.tail.insert(p.tail.end(), second.begin(), second.end());
         return check_plan(p, SframeFile::Linked);
       }},
      {"SFRAME-ELF-003", [] {
         auto p = plan();
         return patched(p, SframeFile::Object, [](auto& b, auto& s) { b[s.fde_at[1]] = 4; });
       }},
  };
  return all;
}

// The consumer's version: libsframe 2.40 reads v1 only, the kernel v3 only;
// every rule set (the default) accepts each.
TEST(SframeConsumer, VersionIsCheckedForTheSelectedReader) {
  for (uint8_t version : {1, 2, 3}) {
    const auto p = plan(version);
    EXPECT_TRUE(check_plan(p, SframeFile::Linked).rules.empty());
    const Fired ls = check_plan(p, SframeFile::Linked, kLibsframe), k = check_plan(p, SframeFile::Linked, kSframeKernel);
    EXPECT_EQ(ls.rules.count("SFRAME-HDR-004"), version != 1u) << ls.listing;
    EXPECT_EQ(k.rules.count("SFRAME-HDR-004"), version != 3u) << k.listing;
    EXPECT_EQ(ls.errors, version != 1u ? 1u : 0u) << ls.listing;
  }
  // Zero bytes after a byte-swapped section: only libsframe 2.40 refuses
  // them (its byte-swapping path allows no tail).
  auto swapped = synth::typical_sframe(1, sframe::kAarch64Be, 2);
  swapped.endian = Endian::Big;
  swapped.tail = {0, 0, 0, 0};
  EXPECT_TRUE(check_plan(swapped, SframeFile::Raw).rules.empty());
  const Fired tail = check_plan(swapped, SframeFile::Raw, kLibsframe);
  EXPECT_EQ(tail.rules, std::set<std::string>{"SFRAME-HDR-012"}) << tail.listing;
  EXPECT_EQ(tail.errors, 1u);
  swapped.endian = Endian::Little;
  swapped.abi = sframe::kAarch64Le;
  EXPECT_TRUE(check_plan(swapped, SframeFile::Raw, kLibsframe).rules.empty());
  // A header num_fres or fre_len that disagrees with the FREs: refused by
  // libsframe 2.40 only when it byte-swaps the section (found by
  // fuzz_sframe_libsframe_diff with the SFrame mutator).
  for (const bool big : {true, false}) {
    auto counts = synth::typical_sframe(1, big ? sframe::kAarch64Be : sframe::kAarch64Le, 2);
    counts.endian = big ? Endian::Big : Endian::Little;
    counts.num_fres = 7;
    const Fired fres = check_plan(counts, SframeFile::Raw, kLibsframe);
    EXPECT_EQ(fres.rules, std::set<std::string>{"SFRAME-HDR-013"}) << fres.listing;
    EXPECT_EQ(fres.errors, big ? 1u : 0u) << fres.listing;
    counts.num_fres.reset();
    counts.fre_len = static_cast<uint32_t>(synth::encode_sframe(counts, SframeFile::Raw).bytes.size() - 28 - 2 * 17 + 4);
    counts.tail = {0, 0, 0, 0};  // the bytes fre_len claims
    const Fired len = check_plan(counts, SframeFile::Raw, kLibsframe);
    EXPECT_EQ(len.rules.count("SFRAME-HDR-014"), 1u) << len.listing;
    EXPECT_EQ(len.errors, big ? 1u : 0u) << len.listing;
  }
  // An FRE of a PC-mask FDE starting at the function's size: its start is
  // block-relative, but libsframe 2.40 asserts it is below the size.
  auto mask = synth::typical_sframe(1, sframe::kAmd64Le, 1);
  mask.fdes[0].pc_type = sframe::kPcMask;
  mask.fdes[0].fres.resize(2);
  mask.fdes[0].size = mask.fdes[0].fres[1].start;
  EXPECT_EQ(check_plan(mask, SframeFile::Raw).rules.count("SFRAME-FRE-005"), 0u);
  const Fired masked = check_plan(mask, SframeFile::Raw, kLibsframe);
  EXPECT_EQ(masked.rules.count("SFRAME-FRE-005"), 1u) << masked.listing;
  EXPECT_GE(masked.errors, 1u) << masked.listing;
  mask.fdes[0].size = 0;  // in a function of size 0 only a start of 0 passes
  EXPECT_EQ(check_plan(mask, SframeFile::Raw, kLibsframe).rules.count("SFRAME-FRE-005"), 1u);
  // A tie of FDE starts: refused by the kernel only.
  auto p = plan(3);
  p.fdes[1].offset = p.fdes[0].offset;
  p.fdes[0].size = 0;
  p.fdes[0].fres.resize(1);
  EXPECT_EQ(check_plan(p, SframeFile::Linked, kSframeKernel).errors, 1u);
  EXPECT_EQ(check_plan(p, SframeFile::Linked, kLibsframe).errors, 1u);  // version 3 for libsframe 2.40
  auto v1 = plan(1);
  v1.fdes[1].offset = v1.fdes[0].offset;
  v1.fdes[0].size = 0;
  v1.fdes[0].fres.resize(1);
  const Fired tie = check_plan(v1, SframeFile::Linked, kLibsframe);
  EXPECT_EQ(tie.errors, 0u) << tie.listing;
  EXPECT_TRUE(tie.rules.count("SFRAME-FDE-008")) << tie.listing;
}

// Versions 2 and 3 against an .eh_frame that says the same: clean; with one
// FRE changed, exactly the CFI rule of what changed.
TEST(SframeSyntheticCfi, Versions2And3AgreeWithTheirEhFrame) {
  for (uint8_t version : {2, 3}) {
    auto p = plan(version, 4);
    p.eh_frame = true;
    p.fdes[3].fres[0].words.clear();  // an outermost function (RA undefined)
    if (version == 2) p.flags = sframe::kFdeSorted | sframe::kFuncStartPcrel;
    p.fdes[3].fres[0].base_sp = false;
    p.fdes[3].fres[1].words = {16};
    const Fired clean = check_plan(p, SframeFile::Linked);
    EXPECT_TRUE(clean.rules.empty()) << int(version) << ":\n" << clean.listing;
    auto moved = p;
    moved.fdes[1].fres[2].words[0] = 24;  // CFA fp+24, the CFI says fp+16
    // (the .eh_frame is written from the plan: change only the section)
    auto bytes = synth::sframe_elf(p, SframeFile::Linked);
    const auto want = synth::encode_sframe(p, SframeFile::Linked).bytes, got = synth::encode_sframe(moved, SframeFile::Linked).bytes;
    auto at = std::search(bytes.begin(), bytes.end(), want.begin(), want.end());
    ASSERT_NE(at, bytes.end());
    std::copy(got.begin(), got.end(), at);
    const Fired changed = check_bytes(bytes);
    EXPECT_EQ(changed.rules, std::set<std::string>{"SFRAME-CFI-001"}) << changed.listing;
  }
  // FLEX rows (CFA = rsp+8; then CFA = rbp+16 with FP at CFA-16) against
  // the CFI: equal, then one offset changed.
  for (int32_t fp_save : {-16, -24}) {
    auto flex = plan(3, 2);
    flex.eh_frame = true;
    flex.fdes[1].v3_kind = sframe::kFlex;
    flex.fdes[1].fres.resize(2);
    flex.fdes[1].fres[0].words = {(7 << 3) | 1, 8};
    flex.fdes[1].fres[1].words = {(6 << 3) | 1, 16, 0, 2, -16};
    auto bytes = synth::sframe_elf(flex, SframeFile::Linked);
    if (fp_save != -16) {  // the section says -24, the .eh_frame (from the plan) -16
      auto moved = flex;
      moved.fdes[1].fres[1].words[4] = fp_save;
      const auto want = synth::encode_sframe(flex, SframeFile::Linked).bytes, got = synth::encode_sframe(moved, SframeFile::Linked).bytes;
      std::copy(got.begin(), got.end(), std::search(bytes.begin(), bytes.end(), want.begin(), want.end()));
    }
    const Fired fired = check_bytes(bytes);
    EXPECT_EQ(fired.rules, fp_save == -16 ? std::set<std::string>{} : std::set<std::string>{"SFRAME-CFI-002"}) << fired.listing;
    EXPECT_EQ(fired.listing.find("not compared"), std::string::npos) << fired.listing;
  }
  auto p = plan(3, 2);
  p.eh_frame = true;
  p.fdes[0].signal = true;  // the CIE has no 'S'
  const Fired signal = check_plan(p, SframeFile::Linked);
  EXPECT_EQ(signal.rules, std::set<std::string>{"SFRAME-CFI-007"}) << signal.listing;
  p.signal_cie = true;
  p.fdes[1].signal = true;
  EXPECT_TRUE(check_plan(p, SframeFile::Linked).rules.empty());
}

// Version 3 as binutils 2.46+ defines it, on what no producer here writes:
// a FLEX control word of 0 means "no rule" for RA or FP wherever it stands
// (libsframe's own findfre-flex-1 writes CFA, 0, 0), trailing or not;
// leftover words and the unused control bit are findings; an FDE without
// FREs marks an outermost frame (a note), or a signal frame gas could not
// describe.
TEST(SframeVersion3, FlexZeroWordsAreNoRule) {
  const auto flex = [](std::vector<int32_t> words) {
    auto p = plan(3, 2);
    p.fdes[1].v3_kind = sframe::kFlex;
    p.fdes[1].fres.resize(1);
    p.fdes[1].fres[0].words = std::move(words);
    return check_plan(p, SframeFile::Linked);
  };
  for (const auto& words : std::vector<std::vector<int32_t>>{{(7 << 3) | 1, 8},             // CFA only
                                                             {(7 << 3) | 1, 8, 0},          // RA: no rule
                                                             {(7 << 3) | 1, 8, 0, 0},       // RA and FP: no rule
                                                             {(7 << 3) | 1, 8, 2, -8},      // RA at CFA-8
                                                             {(7 << 3) | 1, 8, 2, -8, 0},   // FP: no rule
                                                             {(7 << 3) | 1, 8, 0, 2, -16},  // RA none, FP at CFA-16
                                                             {(7 << 3) | 1, 8, 2, -8, 2, -16}}) {
    const Fired f = flex(words);
    EXPECT_TRUE(f.rules.empty()) << words.size() << " words:\n" << f.listing;
  }
  EXPECT_EQ(flex({(7 << 3) | 1, 8, 2}).rules, std::set<std::string>{"SFRAME-FRE-003"});           // RA without its offset
  EXPECT_EQ(flex({(7 << 3) | 1, 8, 2, -8, 2, -16, 0}).rules, std::set<std::string>{"SFRAME-FRE-003"});  // a word too many
  EXPECT_EQ(flex({(7 << 3) | 1 | 4, 8}).rules, std::set<std::string>{"SFRAME-FRE-011"});           // the unused bit
}

// s390x stores the CFA offset as (offset - 160) / 8 in FLEX FREs too: a
// word that decodes beyond 32 bits is SFRAME-FRE-014 there as well (libsframe
// 3 overflows an int decoding it: regress/known-bugs/libsframe-3); and a
// version 2 register word must name a register (not negative).
TEST(SframeVersion3, S390xWordsOutOfRange) {
  auto p = synth::typical_sframe(3, sframe::kS390xBe, 2);
  p.endian = Endian::Big;
  EXPECT_TRUE(check_plan(p, SframeFile::Raw).rules.empty()) << check_plan(p, SframeFile::Raw).listing;
  p.fdes[1].v3_kind = sframe::kFlex;
  p.fdes[1].fres.resize(1);
  p.fdes[1].fres[0].words = {(15 << 3) | 1, 0};  // r15 + 160
  EXPECT_TRUE(check_plan(p, SframeFile::Raw).rules.empty()) << check_plan(p, SframeFile::Raw).listing;
  p.fdes[1].fres[0].words = {(15 << 3) | 1, 0x30000000};
  EXPECT_EQ(check_plan(p, SframeFile::Raw).rules, std::set<std::string>{"SFRAME-FRE-014"});
  auto v2 = synth::typical_sframe(2, sframe::kS390xBe, 2);
  v2.endian = Endian::Big;
  v2.fdes[1].fres[1].words = {2, 33};  // RA in f0 (DWARF 16): (16 << 1) | 1
  EXPECT_TRUE(check_plan(v2, SframeFile::Raw).rules.empty()) << check_plan(v2, SframeFile::Raw).listing;
  v2.fdes[1].fres[1].words = {2, -119};  // "register -60"
  EXPECT_EQ(check_plan(v2, SframeFile::Raw).rules, std::set<std::string>{"SFRAME-FRE-014"});
}

// gas 2.46+ (version 3) stores -128 in one byte and FLEX control words as
// unsigned; older gas kept one byte for -127..127.
TEST(SframeVersion3, WordSizesAreGas246s) {
  for (const uint8_t version : {2, 3}) {
    auto p = plan(version, 2);
    p.fdes[1].fres[1].words = {16, -128};
    p.fdes[1].fres[1].size_code = 1;  // two bytes
    const Fired f = check_plan(p, SframeFile::Linked);
    EXPECT_EQ(f.rules.count("SFRAME-FRE-012"), version == 3 ? 1u : 0u) << int(version) << ":\n" << f.listing;
  }
  auto p = plan(3, 2);
  p.fdes[1].v3_kind = sframe::kFlex;
  p.fdes[1].fres.resize(1);
  p.fdes[1].fres[0].words = {(20 << 3) | 1, 8};  // r20: control word 161, one byte unsigned
  p.fdes[1].fres[0].size_code = 0;
  EXPECT_TRUE(check_plan(p, SframeFile::Linked).rules.empty()) << check_plan(p, SframeFile::Linked).listing;
  p.fdes[1].fres[0].size_code = 1;
  EXPECT_EQ(check_plan(p, SframeFile::Linked).rules, std::set<std::string>{"SFRAME-FRE-012"});
}

TEST(SframeVersion3, AnFdeWithoutFresIsAnOutermostFrameNotAnError) {
  auto p = plan(3, 3);
  p.fdes[1].fres.clear();
  Fired f = check_plan(p, SframeFile::Linked);
  EXPECT_EQ(f.rules, std::set<std::string>{"SFRAME-FDE-010"}) << f.listing;
  EXPECT_EQ(f.errors, 0u) << f.listing;
  EXPECT_NE(f.listing.find("outermost frame"), std::string::npos) << f.listing;
  p.fdes[1].signal = true;  // what gas 2.46+ writes for a signal frame it cannot describe
  f = check_plan(p, SframeFile::Linked);
  EXPECT_EQ(f.errors, 0u) << f.listing;
  EXPECT_NE(f.listing.find("signal frame without FREs"), std::string::npos) << f.listing;
  p.fdes[1].v3_kind = sframe::kFlex;  // no meaning defined: a warning
  f = check_plan(p, SframeFile::Linked);
  EXPECT_EQ(f.errors, 0u) << f.listing;
  EXPECT_EQ(f.rules, std::set<std::string>{"SFRAME-FDE-010"}) << f.listing;
  auto v2 = plan(2, 3);  // version 2: every PC of the function without a rule
  v2.fdes[1].fres.clear();
  EXPECT_EQ(check_plan(v2, SframeFile::Linked).errors, 1u);
}

// FDE_FUNC_START_PCREL decides in version 3 as in version 2: without it a
// start counts from the section (SFRAME-HDR-019 still reports the section).
TEST(SframeVersion3, StartsWithoutPcrelCountFromTheSection) {
  auto p = plan(3, 3);
  p.flags = sframe::kFdeSorted;
  const auto bytes = synth::sframe_elf(p, SframeFile::Linked);
  auto opened = input::open_bytes("v3", bytes);
  ASSERT_TRUE(opened.artifact);
  DiagnosticList discard;
  sframe::SframeFindings f("v3", discard, kNoConsumer);
  const auto t = sframe::read_sframe(*opened.artifact, f);
  ASSERT_TRUE(t && t->usable);
  for (size_t i = 0; i < p.fdes.size(); ++i) EXPECT_EQ(t->starts[i].address, p.text_addr + p.fdes[i].offset);
  EXPECT_EQ(check_bytes(bytes).rules, std::set<std::string>{"SFRAME-HDR-019"});
}

// ld's PLT FDEs by the ABI table's shapes: the IBT layout's second row at 9
// is one of them; .plt.got's sp+16 is one too, and the known ld defect.
TEST(SframePltShapes, AreTheAbiTables) {
  auto p = plan(3, 1);
  p.code_section = ".plt";
  p.fdes[0].pc_type = sframe::kPcMask;
  p.fdes[0].rep_size = 16;
  p.fdes[0].size = 64;
  p.fdes[0].fres.resize(2);
  p.fdes[0].fres[0] = {};
  p.fdes[0].fres[0].words = {8};
  p.fdes[0].fres[1].start = 9;
  p.fdes[0].fres[1].words = {16};
  EXPECT_TRUE(check_plan(p, SframeFile::Linked).rules.empty()) << check_plan(p, SframeFile::Linked).listing;
  p.fdes[0].fres[1].start = 10;  // no layout of ld's
  EXPECT_EQ(check_plan(p, SframeFile::Linked).rules, std::set<std::string>{"SFRAME-ELF-009"});
  p.code_section = ".plt.got";
  p.fdes[0].rep_size = 8;
  p.fdes[0].fres.resize(1);
  p.fdes[0].fres[0].words = {16};
  const Fired got = check_plan(p, SframeFile::Linked);
  EXPECT_EQ(got.rules, std::set<std::string>{"SFRAME-ELF-009"}) << got.listing;
  EXPECT_NE(got.listing.find("known producer defect"), std::string::npos) << got.listing;
  p.fdes[0].fres[0].words = {8};  // what the code does
  EXPECT_TRUE(check_plan(p, SframeFile::Linked).rules.empty());
}

class SframeRuleCase : public ::testing::TestWithParam<std::string_view> {};

// A gap between the FDE array and the FREs is legal, but libsframe 2.40
// ignores freoff and decodes the bytes after the FDEs as FREs (found by
// fuzz_sframe_libsframe_diff; regress/known-bugs/libsframe-2.40).
TEST(SframeRules, GapBeforeTheFresIsHdr010) {
  auto p = plan();
  p.freoff = 20 * static_cast<uint32_t>(p.fdes.size()) + 16;
  const Fired fired = check_plan(p, SframeFile::Raw);
  EXPECT_TRUE(fired.rules.count("SFRAME-HDR-010")) << fired.listing;
  EXPECT_NE(fired.listing.find("libsframe 2.40 ignores freoff"), std::string::npos) << fired.listing;
}

// Overlaps are found whether the FDEs lie in start order (walked in place)
// or not (walked through a sorted index): the same finding, on the same FDE.
TEST(SframeRules, OverlapIsFoundInEitherFdeOrder) {
  auto p = plan(2, 4);
  p.flags = 0;  // unsorted FDEs are legal without FDE_SORTED (no FDE-008)
  p.fdes[2].offset = p.fdes[1].offset + 4;  // inside FDE 1
  const Fired in_order = check_plan(p, SframeFile::Linked);
  EXPECT_EQ(in_order.rules, (std::set<std::string>{"SFRAME-FDE-009", "SFRAME-HDR-017"})) << in_order.listing;
  std::swap(p.fdes[0], p.fdes[3]);  // FDE 3 first: the starts are out of order
  const Fired shuffled = check_plan(p, SframeFile::Linked);
  EXPECT_EQ(shuffled.rules, in_order.rules) << shuffled.listing;
  EXPECT_NE(shuffled.listing.find("inside FDE 1"), std::string::npos) << shuffled.listing;
  EXPECT_NE(in_order.listing.find("inside FDE 1"), std::string::npos) << in_order.listing;
}

// A raw section of a linked file starts its functions before itself (start
// fields are negative): an FDE whose size reaches over the next one still
// overlaps it, though start + size wraps past 2^64 (found by the libsframe 3
// differential on a mutated size).
TEST(SframeRules, OverlapIsFoundWhereStartsPrecedeTheSection) {
  auto p = plan(3, 3);
  p.text_addr = ~uint64_t(0) - 0x100000;  // 1 MiB before the section
  EXPECT_TRUE(check_plan(p, SframeFile::Raw).rules.empty()) << check_plan(p, SframeFile::Raw).listing;
  p.fdes[1].size = 0x70000000;
  const Fired fired = check_plan(p, SframeFile::Raw);
  EXPECT_TRUE(fired.rules.count("SFRAME-FDE-009")) << fired.listing;
  EXPECT_NE(fired.listing.find("inside FDE 1"), std::string::npos) << fired.listing;
}

// ... and its starts are signed offsets from the section, which readers
// sort as such: a start moved past the section (positive) before ones that
// precede it (negative) is out of order, though not as unsigned numbers
// (found by the libsframe 3 differential: its search missed every function).
TEST(SframeRules, RawStartsAreOrderedAsSignedOffsets) {
  auto p = plan(3, 3);
  p.text_addr = ~uint64_t(0) - 0x100000;  // 1 MiB before the section
  p.fdes[0].offset = 0;
  p.fdes[1].offset = 0x100;
  p.fdes[2].offset = 0x200000;  // 1 MiB past it
  EXPECT_TRUE(check_plan(p, SframeFile::Raw).rules.empty()) << check_plan(p, SframeFile::Raw).listing;
  // FDE 0 past the section, then the two before it: ascending as unsigned
  // numbers (0x100000, 0xfff...), not as the offsets they are.
  p.fdes[0].offset = 0x200000;
  p.fdes[1].offset = 0;
  p.fdes[2].offset = 0x100;
  const Fired fired = check_plan(p, SframeFile::Raw);
  EXPECT_TRUE(fired.rules.count("SFRAME-FDE-008")) << fired.listing;
}

TEST_P(SframeRuleCase, FiresExactlyItsRule) {
  const auto& all = cases();
  auto it = std::find_if(all.begin(), all.end(), [&](const RuleCase& c) { return c.rule == GetParam(); });
  ASSERT_NE(it, all.end());
  const Fired fired = it->make();
  EXPECT_TRUE(fired.rules.count(std::string(it->rule))) << it->rule << " did not fire:\n" << fired.listing;
  for (const auto& r : fired.rules)
    EXPECT_TRUE(r == it->rule || it->also.count(r)) << it->rule << " also fired " << r << ":\n" << fired.listing;
}

// Rules about agreement with DWARF CFI need .eh_frame: gas_corpus_test.cpp
// triggers each with what gas 2.40 really writes and with mutated FREs of a
// real executable; CFI-007 (version 3 only) SframeSyntheticCfi above.
const std::set<std::string_view> kCasesFromGas = {"SFRAME-CFI-001", "SFRAME-CFI-002", "SFRAME-CFI-003", "SFRAME-CFI-004",
                                                  "SFRAME-CFI-005", "SFRAME-CFI-006", "SFRAME-CFI-007", "SFRAME-CFI-008",
                                                  "SFRAME-ELF-004", "SFRAME-ELF-007", "SFRAME-ELF-008"};

std::vector<std::string_view> rule_ids() {
  std::vector<std::string_view> ids;
  for (const Rule* r : sframe::rules::table())
    if (!kCasesFromGas.count(r->id)) ids.push_back(r->id);
  return ids;
}

TEST(SframeRules, EveryRuleHasACase) {
  for (const Rule* r : sframe::rules::table()) {
    const bool generated = std::any_of(cases().begin(), cases().end(), [&](const RuleCase& c) { return c.rule == r->id; });
    EXPECT_TRUE(generated || kCasesFromGas.count(r->id)) << r->id << " has no case";
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, SframeRuleCase, ::testing::ValuesIn(rule_ids()), [](const auto& info) {
  std::string name(info.param);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
});

}  // namespace
}  // namespace elfmeta::testing
