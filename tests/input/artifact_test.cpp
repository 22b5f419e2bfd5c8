// Inputs are recognised by content: raw BTF in either byte order, ELF, a
// bzImage with any kernel compression, compressed modules; anything else is
// a clear one-line error.
#include "input/artifact.h"

#include <gtest/gtest.h>

#include <cstring>

#include "input/kernel_release.h"
#include "synth/btf_builder.h"
#include "tests/support/compressors.h"
#include "tests/support/elf_builder.h"

namespace elfmeta::input {
namespace {

using namespace elfmeta::testing;
using namespace elfmeta::testing::compressors;

Bytes small_btf() {
  synth::BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  return b.build();
}

// An x86 boot image: setup header "HdrS" protocol 2.15 and a payload.
Bytes bzimage(const Bytes& payload) {
  Bytes img(2 * 512, 0);
  img[0] = 'M';
  img[1] = 'Z';
  img[0x1f1] = 1;  // setup_sects: the payload area starts at (1 + 1) * 512
  std::memcpy(img.data() + 0x202, "HdrS", 4);
  img[0x206] = 0x0f;
  img[0x207] = 0x02;
  const uint32_t off = 0, len = static_cast<uint32_t>(payload.size());
  std::memcpy(img.data() + 0x248, &off, 4);
  std::memcpy(img.data() + 0x24c, &len, 4);
  // Not insert(): GCC 12 reports a bogus array-bounds overflow for it here.
  const size_t at = img.size();
  img.resize(at + payload.size());
  if (!payload.empty()) std::memcpy(img.data() + at, payload.data(), payload.size());
  return img;
}

TEST(OpenInput, RawBtfInEitherByteOrder) {
  auto le = open_bytes("blob.btf", small_btf());
  ASSERT_TRUE(le.artifact) << le.error;
  EXPECT_EQ(le.artifact->kind, ArtifactKind::RawBtf);
  EXPECT_EQ(le.artifact->endian, Endian::Little);
  Bytes be = small_btf();
  std::swap(be[0], be[1]);
  auto big = open_bytes("blob.btf", be);
  ASSERT_TRUE(big.artifact);
  EXPECT_EQ(big.artifact->endian, Endian::Big);
}

TEST(OpenInput, ElfSectionsAreFound) {
  auto opened = open_bytes("vmlinux", make_elf({{".text", {0x90, 0x90}}, {".BTF", small_btf()}}));
  ASSERT_TRUE(opened.artifact) << opened.error;
  const Artifact& a = *opened.artifact;
  EXPECT_EQ(a.kind, ArtifactKind::Elf);
  ASSERT_NE(a.section(".BTF"), nullptr);
  EXPECT_EQ(Bytes(a.section(".BTF")->data.begin(), a.section(".BTF")->data.end()), small_btf());
  EXPECT_TRUE(a.is_vmlinux());
  EXPECT_FALSE(a.is_kernel_module());
}

TEST(OpenInput, CompressedModuleAndItsVermagic) {
  const std::string modinfo("license=GPL\0vermagic=6.12.9-cloud-amd64 SMP mod_unload \0", 53);
  const Bytes ko = make_elf({{".BTF", small_btf()}, {".modinfo", Bytes(modinfo.begin(), modinfo.end())}}, ET_REL);
  for (const Bytes& packed : {xz(ko, false), zstd(ko), gzip(ko)}) {
    auto opened = open_bytes("mod.ko.x", packed);
    ASSERT_TRUE(opened.artifact) << opened.error;
    EXPECT_TRUE(opened.artifact->is_kernel_module());
    EXPECT_EQ(module_vermagic_release(*opened.artifact), "6.12.9-cloud-amd64");
    EXPECT_FALSE(opened.artifact->origin.empty());
  }
}

TEST(OpenInput, BootImageWithEveryKernelCompression) {
  const Bytes vmlinux = make_elf({{".BTF", small_btf()}, {"__ksymtab_strings", {'a', 0}}});
  for (const Bytes& payload : {zstd(vmlinux), lz4_legacy(vmlinux), gzip(vmlinux), xz(vmlinux, false), xz(vmlinux, true),
                               bzip2(vmlinux), lz4_frame(vmlinux)}) {
    auto opened = open_bytes("vmlinuz", bzimage(payload));
    ASSERT_TRUE(opened.artifact) << opened.error;
    EXPECT_TRUE(opened.artifact->is_vmlinux());
    EXPECT_NE(opened.artifact->origin.find("bzImage payload"), std::string::npos) << opened.artifact->origin;
  }
}

TEST(OpenInput, UnrecognisedInputIsOneLine) {
  auto opened = open_bytes("notes.txt", Bytes{'h', 'e', 'l', 'l', 'o'});
  EXPECT_FALSE(opened.artifact);
  EXPECT_NE(opened.error.find("notes.txt"), std::string::npos);
  EXPECT_EQ(opened.error.find('\n'), std::string::npos);
  auto missing = open_input("/nonexistent/elfmeta-input");
  EXPECT_FALSE(missing.artifact);
  EXPECT_NE(missing.error.find("No such file"), std::string::npos);
}

TEST(OpenInput, CorruptCompressionIsAnError) {
  Bytes packed = zstd(small_btf());
  packed.resize(packed.size() - 3);
  auto opened = open_bytes("blob.zst", packed);
  EXPECT_FALSE(opened.artifact);
  EXPECT_NE(opened.error.find("zstd"), std::string::npos) << opened.error;
}

TEST(OpenInput, DamagedElfIsAnError) {
  Bytes elf = make_elf({{".BTF", small_btf()}});
  elf.resize(80);  // section headers cut off
  auto opened = open_bytes("broken.o", elf);
  EXPECT_FALSE(opened.artifact);
  EXPECT_NE(opened.error.find("broken.o"), std::string::npos);
}

// section() and section_at() answer from an index built once, as the
// linear search did: the first section of a name or ELF index. A copy of the
// artifact answers with its own sections; one whose section list changed
// afterwards searches linearly again.
TEST(OpenInput, SectionLookupsFindTheFirstOfANameOrIndex) {
  auto opened = open_bytes("dup.o", make_elf({{".text", {1}}, {".data", {2}}, {".text", {3}}, {".BTF", small_btf()}},
                                             ET_REL));
  ASSERT_TRUE(opened.artifact) << opened.error;
  const Artifact& a = *opened.artifact;
  ASSERT_EQ(a.sections.size(), 5u);  // and .shstrtab
  EXPECT_EQ(a.section(".text"), &a.sections[0]);
  EXPECT_EQ(a.section(".data"), &a.sections[1]);
  EXPECT_EQ(a.section(".shstrtab"), &a.sections[4]);
  EXPECT_EQ(a.section(".nothing"), nullptr);
  EXPECT_EQ(a.section(""), nullptr);
  for (uint32_t i = 1; i <= 5; ++i) EXPECT_EQ(a.section_at(i), &a.sections[i - 1]) << i;
  EXPECT_EQ(a.section_at(0), nullptr);
  EXPECT_EQ(a.section_at(6), nullptr);
  EXPECT_EQ(a.section_at(0xffffffffu), nullptr);
  EXPECT_FALSE(a.is_vmlinux());
  EXPECT_FALSE(a.is_kernel_module());

  Artifact copy = a;
  EXPECT_EQ(copy.section(".text"), &copy.sections[0]);
  EXPECT_EQ(copy.section_at(3), &copy.sections[2]);
  Section modinfo;
  modinfo.name = ".modinfo";
  modinfo.index = 9;
  copy.sections.insert(copy.sections.begin(), modinfo);
  EXPECT_EQ(copy.section(".text"), &copy.sections[1]);
  EXPECT_EQ(copy.section_at(9), &copy.sections[0]);
  EXPECT_TRUE(copy.is_kernel_module());
  copy.index_sections();
  EXPECT_EQ(copy.section(".modinfo"), &copy.sections[0]);
  EXPECT_EQ(copy.section_at(9), &copy.sections[0]);  // an index past the count: linear search
  EXPECT_TRUE(copy.is_kernel_module());
}

// S section headers that all name one L-byte string: names are copied
// whole up to a budget of four times the file's size, then cut at 256
// bytes (S x L bytes otherwise: 2 GB for 2,000 sections of one 1 MB name).
Bytes sections_of_one_name(uint32_t sections, size_t length) {
  std::string shstrtab = std::string(1, '\0') + std::string(length, 'a') + '\0' + ".shstrtab" + '\0';
  // resize and memcpy, not insert(): GCC 12's bogus array-bounds warning.
  Bytes out(sizeof(Elf64_Ehdr) + (shstrtab.size() + 7) / 8 * 8, 0);
  const uint64_t table = sizeof(Elf64_Ehdr);
  std::memcpy(out.data() + table, shstrtab.data(), shstrtab.size());
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_REL;
  eh.e_machine = EM_X86_64;
  eh.e_version = EV_CURRENT;
  eh.e_shoff = out.size();
  eh.e_ehsize = sizeof eh;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = static_cast<Elf64_Half>(sections + 2);
  eh.e_shstrndx = static_cast<Elf64_Half>(sections + 1);
  std::memcpy(out.data(), &eh, sizeof eh);
  const auto put = [&](const Elf64_Shdr& h) {
    const size_t at = out.size();
    out.resize(at + sizeof h);
    std::memcpy(out.data() + at, &h, sizeof h);
  };
  put(Elf64_Shdr{});
  for (uint32_t i = 0; i < sections; ++i) {
    Elf64_Shdr h{};
    h.sh_name = 1;
    h.sh_type = SHT_PROGBITS;
    put(h);
  }
  Elf64_Shdr names{};
  names.sh_name = static_cast<Elf64_Word>(length + 2);
  names.sh_type = SHT_STRTAB;
  names.sh_offset = table;
  names.sh_size = shstrtab.size();
  put(names);
  return out;
}

TEST(OpenInput, SectionNamesHaveABudget) {
  const Bytes elf = sections_of_one_name(2000, 1 << 20);
  auto opened = open_bytes("names.o", elf);
  ASSERT_TRUE(opened.artifact) << opened.error;
  const auto& sections = opened.artifact->sections;
  ASSERT_EQ(sections.size(), 2001u);
  size_t total = 0;
  for (const auto& s : sections) total += s.name.size();
  EXPECT_EQ(sections.front().name.size(), size_t{1} << 20);  // within the budget: whole
  EXPECT_EQ(sections[1999].name.size(), 256u);
  EXPECT_LE(total, 4 * elf.size() + (1 << 20) + 2001 * 256);
  EXPECT_EQ(sections.back().name, ".shstrtab");
  EXPECT_EQ(opened.artifact->section(".shstrtab"), &sections.back());
}

// Walk audit T13: the banner ends at its newline, at any other control
// byte (it is printed as it is) or after 512 bytes, however far the
// section runs without one.
TEST(OpenInput, KernelBannerIsOneBoundedLine) {
  const auto banner_of = [](const std::string& rodata) {
    auto opened =
        open_bytes("vmlinux", make_elf({{".rodata", Bytes(rodata.begin(), rodata.end())}, {".BTF", small_btf()}}));
    EXPECT_TRUE(opened.artifact) << opened.error;
    return std::pair(kernel_image_banner(*opened.artifact), kernel_image_release(*opened.artifact));
  };
  const auto [plain, release] = banner_of(std::string("junk\0Linux version 6.1.0-56-cloud-amd64 (gcc-12)\nrest", 53));
  EXPECT_EQ(plain, "Linux version 6.1.0-56-cloud-amd64 (gcc-12)");
  EXPECT_EQ(release, "6.1.0-56-cloud-amd64");
  const auto [endless, endless_release] = banner_of("Linux version 6.1.0" + std::string(1 << 20, 'x'));
  ASSERT_TRUE(endless);
  EXPECT_EQ(endless->size(), 512u);
  EXPECT_EQ(endless_release->size(), 512u - std::string("Linux version ").size());
  const auto [escaped, _] = banner_of("Linux version 6.1.0 \x1b[2J(gcc)");
  EXPECT_EQ(escaped, "Linux version 6.1.0 ");
}

TEST(OpenInput, SysfsModuleBlobImpliesTheVmlinuxBase) {
  auto opened = open_bytes("/sys/kernel/btf/ext4", small_btf());
  ASSERT_TRUE(opened.artifact);
  EXPECT_EQ(opened.artifact->implied_btf_base, "/sys/kernel/btf/vmlinux");
  auto base = open_bytes("/sys/kernel/btf/vmlinux", small_btf());
  EXPECT_FALSE(base.artifact->implied_btf_base);
}

}  // namespace
}  // namespace elfmeta::input
