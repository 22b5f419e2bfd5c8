// XC-CTX: a --kallsyms file or a base BTF of another kernel is one finding,
// and the matching ones none; each kind of evidence on its own.
#include "btf/xc/check_context.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <sstream>

#include "btf/verifier.h"
#include "btf/xc/cross_check.h"
#include "core/report.h"
#include "input/artifact.h"
#include "input/kernel_release.h"
#include "synth/btf_builder.h"
#include "synth/elf_writer.h"
#include "tests/btf/xc/xc_test_support.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;

input::SymbolIndex kallsyms(const std::string& text) {
  std::string why;
  auto index = input::symbols_from_kallsyms_text(text, "kallsyms", why);
  EXPECT_TRUE(index) << why;
  return index ? std::move(*index) : input::SymbolIndex();
}

std::string text_of(const DiagnosticList& list) {
  std::ostringstream out;
  for (const auto& d : list.items()) write_text(out, d);
  return out.str();
}

// ------------------------------------------------------------ kallsyms

// An image whose symtab has four anchor functions 0x100 apart, and its
// kallsyms moved by `shift` (KASLR), or at unrelated addresses.
struct AnchoredImage {
  std::unique_ptr<input::Artifact> artifact;
  std::optional<input::SymbolIndex> own;
  AnchoredImage() {
    synth::ElfWriter elf(ET_EXEC);
    const uint32_t text = elf.add_section(
        {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0xffffffff81000000, 16, 0, std::vector<uint8_t>(0x1000)});
    uint64_t at = 0xffffffff81000000;
    for (const char* name : {"start_kernel", "schedule", "do_exit", "vfs_read"}) {
      elf.add_symbol(name, at, 0x80, STT_FUNC, STB_GLOBAL, text);
      at += 0x100;
    }
    auto opened = input::open_bytes("vmlinux", elf.write());
    EXPECT_TRUE(opened.artifact) << opened.error;
    artifact = std::move(opened.artifact);
    own = input::symbols_from_symtab(*artifact);
    EXPECT_TRUE(own);
  }
};

std::string anchors_at(uint64_t start_kernel, uint64_t schedule, uint64_t do_exit, uint64_t vfs_read) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%016llx T start_kernel\n%016llx T schedule\n%016llx T do_exit\n%016llx T vfs_read\n",
                (unsigned long long)start_kernel, (unsigned long long)schedule, (unsigned long long)do_exit,
                (unsigned long long)vfs_read);
  return buf;
}

TEST(XcContext, KallsymsOfAnotherKernelAreOneFinding) {
  AnchoredImage image;
  const auto file = kallsyms(anchors_at(0xffffffff81234560, 0xffffffff81001230, 0xffffffff8109a000, 0xffffffff81400010));
  DiagnosticList list;
  Findings findings("vmlinux", list);
  EXPECT_FALSE(btf::xc::check_kallsyms_context({file, "6.18.44", &*image.own, "6.12.117", nullptr}, findings).belongs);
  EXPECT_EQ(list.count("XC-CTX-001"), 1u) << text_of(list);
  EXPECT_EQ(list.count(Severity::Error), 1u);
  const std::string text = text_of(list);
  EXPECT_NE(text.find("kallsyms kallsyms (6.18.44) are not of this image (6.12.117): of 4 anchor functions found once "
                      "on both sides (start_kernel, schedule, do_exit, vfs_read), no two lie at one distance"),
            std::string::npos)
      << text;
  // The checks that did not run are named in a note.
  EXPECT_NE(text.find("note: not run, for want of this image's symbols: the XC-SYM checks"), std::string::npos) << text;
}

TEST(XcContext, KallsymsMovedByKaslrBelong) {
  AnchoredImage image;
  const uint64_t kaslr = 0x1e000000;
  const auto file = kallsyms(anchors_at(0xffffffff81000000 + kaslr, 0xffffffff81000100 + kaslr,
                                        0xffffffff81000200 + kaslr, 0xffffffff81000300 + kaslr));
  DiagnosticList list;
  Findings findings("vmlinux", list);
  // The anchors decide before the releases, which a rebuilt kernel may share or not.
  EXPECT_TRUE(btf::xc::check_kallsyms_context({file, "6.18.44", &*image.own, "6.12.117", nullptr}, findings).belongs);
  EXPECT_EQ(list.items().size(), 0u) << text_of(list);
  const auto v = btf::xc::judge_kallsyms({file, "", &*image.own, "", nullptr});
  EXPECT_TRUE(v.belongs);
  EXPECT_EQ(v.moved_by, kaslr);
  EXPECT_EQ(v.moved_from, image.own->symbols().front().address + kaslr);
  EXPECT_NE(v.evidence.find("4 of 4 anchor functions at one distance (0x1e000000)"), std::string::npos) << v.evidence;
}

// One anchor moved alone (a hand-edited file, a livepatched function) is a
// minority: the file still belongs.
TEST(XcContext, OneAnchorOffIsAMinority) {
  AnchoredImage image;
  const auto file = kallsyms(anchors_at(0xffffffff81000000, 0xffffffff81000100, 0xffffffff81000200, 0xffffffff81777000));
  EXPECT_TRUE(btf::xc::judge_kallsyms({file, "", &*image.own, "", nullptr}).belongs);
  // Two of four is not more than half.
  const auto half = kallsyms(anchors_at(0xffffffff81000000, 0xffffffff81000100, 0xffffffff81666000, 0xffffffff81777000));
  EXPECT_FALSE(btf::xc::judge_kallsyms({half, "", &*image.own, "", nullptr}).belongs);
}

// Fewer than four anchors on both sides: the releases decide.
TEST(XcContext, WithoutAnchorsDifferentReleasesDecide) {
  const auto file = kallsyms("ffffffff81000000 T alpha\n");
  const auto none = kallsyms("ffffffff81000000 T start_kernel\n");
  DiagnosticList list;
  Findings findings("vmlinux", list);
  EXPECT_FALSE(btf::xc::check_kallsyms_context({file, "6.18.44", &none, "6.12.117", nullptr}, findings).belongs);
  EXPECT_EQ(list.count("XC-CTX-001"), 1u);
  EXPECT_NE(text_of(list).find("the releases differ"), std::string::npos) << text_of(list);
  EXPECT_TRUE(btf::xc::judge_kallsyms({file, "6.12.117", &none, "6.12.117", nullptr}).belongs);
  EXPECT_TRUE(btf::xc::judge_kallsyms({file, "", nullptr, "6.12.117", nullptr}).belongs);  // one side unknown
}

// A raw blob (no symbols of its own, no release): the share of its FUNC
// names without a text symbol, of at least 100; clones count as present.
TEST(XcContext, FuncNamesWithoutSymbolsDecideLast) {
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.add_func_proto(int_id, {{"x", int_id}});
  for (int i = 0; i < 100; ++i) b.add_func("fn_" + std::to_string(i), proto);
  const auto blob = b.build();
  NullSink discard;
  const btf::CheckedBtf checked = btf::check_btf(blob, nullptr, {}, "blob", "", discard);
  ASSERT_TRUE(checked.btf);
  auto lines = [](int from, int to) {
    std::string text;
    for (int i = from; i < to; ++i) text += "ffffffff81" + std::to_string(100000 + i) + " t fn_" + std::to_string(i) + "\n";
    return text;
  };
  // 3 of 100 absent, and one present only as a clone: belongs.
  const auto most = kallsyms(lines(0, 96) + "ffffffff82000000 t fn_96.isra.0\n");
  EXPECT_TRUE(btf::xc::judge_kallsyms({most, "", nullptr, "", checked.btf.get()}).belongs);
  // 10 of 100 absent: another kernel.
  const auto fewer = kallsyms(lines(0, 90));
  DiagnosticList list;
  Findings findings("blob", list);
  EXPECT_FALSE(btf::xc::check_kallsyms_context({fewer, "", nullptr, "", checked.btf.get()}, findings).belongs);
  EXPECT_EQ(list.count("XC-CTX-001"), 1u);
  EXPECT_NE(text_of(list).find("10 of the BTF's 100 FUNC names have no text symbol of the name or a clone of it (10.0%"),
            std::string::npos)
      << text_of(list);
  // Fewer than 100 names say nothing.
  BtfBuilder small;
  small.add_func("lonely", small.add_func_proto(0, {}));
  const auto small_blob = small.build();
  const btf::CheckedBtf small_checked = btf::check_btf(small_blob, nullptr, {}, "blob", "", discard);
  EXPECT_TRUE(btf::xc::judge_kallsyms({fewer, "", nullptr, "", small_checked.btf.get()}).belongs);
}

TEST(XcContext, ReleaseOfAKallsymsFileFromItsPath) {
  EXPECT_EQ(btf::xc::kallsyms_file_release("/boot/System.map-6.1.0-56-cloud-amd64"), "6.1.0-56-cloud-amd64");
  EXPECT_EQ(btf::xc::kallsyms_file_release("/tmp/kallsyms.txt"), "");
  EXPECT_EQ(btf::xc::kallsyms_file_release("System.map-"), "");
  EXPECT_EQ(btf::xc::kallsyms_file_release("/proc/kallsyms"), input::running_kernel_release().value_or(""));
}

// The symbol family says why it did not run.
TEST(XcContext, WithheldSymbolsAreNotRunNotANoSymbolsNote) {
  BtfBuilder b;
  b.add_func("alpha", b.add_func_proto(0, {}));
  auto opened = input::open_bytes("vmlinux", b.build());
  ASSERT_TRUE(opened.artifact);
  NullSink discard;
  const btf::CheckedBtf checked = btf::check_btf(opened.artifact->raw, nullptr, {}, "vmlinux", "", discard);
  ASSERT_TRUE(checked.btf);
  DiagnosticList list;
  Findings findings("vmlinux", list);
  btf::xc::CrossCheckInput in{*opened.artifact, *checked.btf, nullptr};
  in.symbols_withheld = btf::xc::kKallsymsWithheld;
  const auto stats = btf::xc::cross_check(in, findings);
  EXPECT_FALSE(stats.symbols_checked);
  EXPECT_NE(text_of(list).find("XC-SYM checks not run: --kallsyms is not of this image, XC-CTX-001"), std::string::npos)
      << text_of(list);
  EXPECT_EQ(text_of(list).find("pass --kallsyms FILE"), std::string::npos) << text_of(list);
}

// ------------------------------------------------------------ base BTF

// A base of one INT named `int_name`, and a split blob built on it:
// STRUCT mod_s { int a; } and FUNC mod_f of a new prototype.
struct Base {
  std::vector<uint8_t> bytes;
  btf::CheckedBtf checked;
  explicit Base(std::string_view int_name) {
    BtfBuilder b;
    b.add_int(int_name, 4, 32, 1);
    bytes = b.build();
    NullSink discard;
    checked = btf::check_btf(bytes, nullptr, {}, "vmlinux", ".BTF", discard);
    EXPECT_TRUE(checked.btf);
  }
};

std::vector<uint8_t> module_on(const Base& base) {
  BtfBuilder split(base.checked.btf->type_count(), uint32_t(base.checked.btf->strings_end()));
  split.add_struct("mod_s", 4, {{"a", 1, 0}});
  split.add_func("mod_f", split.add_func_proto(1, {{"arg", 1}}));
  return split.build();
}

TEST(XcContext, SplitOnItsOwnBaseBelongs) {
  const Base base("int");
  const auto split = module_on(base);
  const auto v = btf::xc::judge_split_base({split, *base.checked.btf, "vmlinux", "6.12.117", "6.12.117"});
  EXPECT_TRUE(v.belongs) << v.evidence;
  // And the BTF verifier finds it clean there: the check is of the same reading.
  DiagnosticList list;
  EXPECT_EQ(btf::check_btf(split, &base.checked, {}, "m.ko", ".BTF", list).errors, 0u) << text_of(list);
}

// The trigger: built on "int", checked on "long int" (a longer string
// section); and on a shorter one. The reading on the wrong base is what the
// verifier would flood with findings.
TEST(XcContext, SplitOnAnotherBaseIsOneFinding) {
  const Base built("int"), longer("long int"), shorter("i");
  const auto split = module_on(built);
  for (const Base* other : {&longer, &shorter}) {
    const auto v = btf::xc::judge_split_base({split, *other->checked.btf, "other", "6.12.117", "6.1.0-56"});
    EXPECT_FALSE(v.belongs);
    EXPECT_NE(v.evidence.find("its names fit a base of 5 bytes of strings"), std::string::npos) << v.evidence;
    EXPECT_NE(v.evidence.find("module of 6.12.117, base of 6.1.0-56"), std::string::npos) << v.evidence;
  }
  DiagnosticList list;
  Findings findings("m.ko", list);
  const auto v = btf::xc::judge_split_base({split, *longer.checked.btf, "other", "", ""});
  btf::xc::report_foreign_base(findings, "/boot/vmlinux-other", v.evidence, 1138);
  EXPECT_EQ(list.count("XC-CTX-002"), 1u);
  EXPECT_EQ(list.count(Severity::Error), 1u);
  EXPECT_NE(text_of(list).find("m.ko:.BTF: error: the split BTF of this module and 1,137 more was not built on the base "
                               "/boot/vmlinux-other: of its 2 names at or past the base's 10 bytes of strings, 0 start "
                               "one of its own strings"),
            std::string::npos)
      << text_of(list);
}

// A split blob without names of its own: its FUNCs' prototypes, then the
// releases.
TEST(XcContext, SplitWithoutNamesOfItsOwn) {
  const Base base("int");
  {
    BtfBuilder split(base.checked.btf->type_count(), uint32_t(base.checked.btf->strings_end()));
    split.add_ptr(1);
    const auto blob = split.build();
    EXPECT_TRUE(btf::xc::judge_split_base({blob, *base.checked.btf, "b", "6.12.117", "6.12.117"}).belongs);
    const auto v = btf::xc::judge_split_base({blob, *base.checked.btf, "b", "6.12.117", "6.1.0-56"});
    EXPECT_FALSE(v.belongs);
    EXPECT_EQ(v.evidence, "the module is of 6.12.117, the base of 6.1.0-56");
    EXPECT_TRUE(btf::xc::judge_split_base({blob, *base.checked.btf, "b", "", "6.1.0-56"}).belongs);
  }
  {
    // FUNC "int" (a base name) of prototype id 2, which on a base one type
    // longer is that base's PTR.
    BtfBuilder split(base.checked.btf->type_count(), uint32_t(base.checked.btf->strings_end()));
    const uint32_t proto = split.add_func_proto(1, {});
    split.add_raw(1, uint32_t(btf::kFunc) << 24, proto);
    const auto blob = split.build();
    EXPECT_TRUE(btf::xc::judge_split_base({blob, *base.checked.btf, "b", "", ""}).belongs);
    BtfBuilder wider;
    wider.add_int("int", 4, 32, 1);
    wider.add_ptr(1);
    const auto wider_bytes = wider.build();
    NullSink discard;
    const btf::CheckedBtf wider_checked = btf::check_btf(wider_bytes, nullptr, {}, "vmlinux", ".BTF", discard);
    const auto v = btf::xc::judge_split_base({blob, *wider_checked.btf, "b", "", ""});
    EXPECT_FALSE(v.belongs);
    EXPECT_EQ(v.evidence, "1 of its 1 FUNCs have no FUNC_PROTO for a type on this base");
  }
}

}  // namespace
}  // namespace elfmeta::testing
