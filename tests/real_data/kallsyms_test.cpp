// The kallsyms tables of Debian's stripped kernel images (bookworm's 6.1 and
// 6.12, trixie's 6.12, sid's 7.2 with PC-relative offsets at 4-byte
// alignment), decoded without a System.map (Debian ships a placeholder) and
// checked against the section headers and every exported symbol; and the
// running kernel's /proc/kallsyms when it is readable. The figures are those
// of the pinned builds (tools/fetch-test-data); a newer build skips them.
#include <elf.h>
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "core/byte_reader.h"
#include "input/artifact.h"
#include "input/symbols.h"
#include "tests/support/debian_kernels.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

struct Expected {
  std::string label;
  uint32_t symbols;
  bool order_6_4, seqs_before_tokens;
  bool pc_relative;  // 7.x: offsets from their own slot; no absolute percpu, no relative base
  // __ksymtab + __ksymtab_gpl entries, and the strings of __ksymtab_strings
  // that are no namespace (fewer than entries: the linker merges a name into
  // another that ends with it).
  size_t exports, export_strings;
  std::map<char, size_t> types;  // some of the type letters' counts
  size_t shadowed;              // exported names that are also a static symbol at a lower address
  size_t placeholder_bytes;     // of Debian's System.map placeholder
  bool gpl_table = true;        // a __ksymtab_gpl of its own
};

void PrintTo(const Expected& e, std::ostream* os) { *os << e.label; }

class DebianKallsyms : public ::testing::TestWithParam<Expected> {
 protected:
  void SetUp() override {
    std::string why;
    const auto tree = debian_kernel_tree(GetParam().label, why);
    if (!tree) GTEST_SKIP() << why;
    if (!tree->fallback.empty()) GTEST_SKIP() << "figures of the pinned build: " << tree->fallback;
    root_ = tree->root;
    modules_ = tree->modules;
    auto opened = input::open_input(tree->vmlinuz.string());
    ASSERT_TRUE(opened.artifact) << opened.error;
    image_ = std::move(opened.artifact);
  }
  fs::path root_, modules_;
  std::unique_ptr<input::Artifact> image_;
};

TEST_P(DebianKallsyms, DecodesEverySymbol) {
  const Expected& want = GetParam();
  std::string why;
  const auto found = input::detail::locate_image_kallsyms(*image_, why);
  ASSERT_TRUE(found) << why;
  EXPECT_EQ(found->num_syms, want.symbols);
  EXPECT_EQ(found->order_6_4, want.order_6_4);
  EXPECT_EQ(found->seqs_before_tokens, want.seqs_before_tokens);
  EXPECT_EQ(found->pc_relative, want.pc_relative);
  // CONFIG_KALLSYMS_ABSOLUTE_PERCPU=y up to 6.12; gone in 7.x, whose tables
  // are 4-byte aligned.
  EXPECT_EQ(found->absolute_percpu, !want.pc_relative);
  EXPECT_EQ(found->table_align, want.pc_relative ? 4u : 8u);
  EXPECT_EQ(found->marker_width, 4u);
  if (!want.pc_relative) {
    EXPECT_EQ(found->relative_base, image_->section(".text")->addr);
  }
  EXPECT_EQ(found->anchors,
            (std::vector<std::string>{"_stext", "__start_orc_unwind_ip", "__start_orc_unwind", "_sinittext"}));

  const auto start = std::chrono::steady_clock::now();
  const auto index = input::symbols_from_image_kallsyms(*image_, why);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(index) << why;
  RecordProperty("decode_ms", std::to_string(ms));
  EXPECT_LT(ms, 1000) << "decoding should take tens of milliseconds";
  EXPECT_EQ(index->origin, "kallsyms in the image");
  ASSERT_EQ(index->size(), want.symbols);

  auto at = [&](const char* name) {
    const input::Symbol* s = index->find(name);
    EXPECT_NE(s, nullptr) << name;
    return s ? s->address : 0;
  };
  EXPECT_EQ(at("_stext"), image_->section(".text")->addr);
  EXPECT_EQ(at("_text"), image_->section(".text")->addr);
  EXPECT_EQ(at("__start_orc_unwind_ip"), image_->section(".orc_unwind_ip")->addr);
  EXPECT_EQ(at("__start_orc_unwind"), image_->section(".orc_unwind")->addr);
  EXPECT_EQ(at("_sinittext"), image_->section(".init.text")->addr);
  if (!want.pc_relative) {
    EXPECT_EQ(at("__per_cpu_start"), 0u);  // absolute percpu: zero-based
  } else {
    EXPECT_EQ(at("__per_cpu_start"), image_->section(".data..percpu")->addr);
  }
  EXPECT_EQ(index->find("_stext")->type, 'T');

  std::map<char, size_t> types;
  for (const auto& s : index->symbols()) ++types[s.type];
  for (const auto& [letter, count] : want.types) EXPECT_EQ(types[letter], count) << letter;
}

// Every __ksymtab/__ksymtab_gpl entry (struct kernel_symbol with
// place-relative offsets: value, name, namespace) names a decoded symbol at
// the entry's address; every string of __ksymtab_strings is an exported name
// or a namespace.
TEST_P(DebianKallsyms, ExportedSymbolsAreThereAtTheirAddresses) {
  std::string why;
  const auto index = input::symbols_from_image_kallsyms(*image_, why);
  ASSERT_TRUE(index) << why;
  const input::Section* strings = image_->section("__ksymtab_strings");
  ASSERT_NE(strings, nullptr);
  const ByteReader str(strings->data, image_->endian);
  auto string_at = [&](uint64_t address) -> std::string {
    if (address < strings->addr) return "";
    return std::string(str.cstr(address - strings->addr).value_or(""));
  };
  // find() gives the lowest address of a name; an exported name can also be a
  // static symbol elsewhere (acpi_gpe_count: a 'b' before the exported 'B').
  std::multimap<std::string_view, uint64_t> all;
  for (const auto& sym : index->symbols()) all.emplace(sym.name, sym.address);
  auto defined_at = [&](const std::string& symbol, uint64_t address) {
    const auto [first, last] = all.equal_range(symbol);
    for (auto it = first; it != last; ++it)
      if (it->second == address) return true;
    return false;
  };
  std::set<std::string> exported, namespaces;
  size_t entries = 0, mismatched = 0, shadowed = 0;
  for (const char* name : {"__ksymtab", "__ksymtab_gpl"}) {
    const input::Section* s = image_->section(name);
    // 7.x keeps GPL-only exports in __ksymtab too (and their flags apart).
    if (!s && std::string_view(name) == "__ksymtab_gpl" && !GetParam().gpl_table) continue;
    ASSERT_NE(s, nullptr) << name;
    const ByteReader r(s->data, image_->endian);
    for (uint64_t at = 0; at + 12 <= r.size(); at += 12, ++entries) {
      const uint64_t entry = s->addr + at;
      const uint64_t value = entry + static_cast<uint64_t>(int64_t{r.at<int32_t>(at)});
      const std::string symbol = string_at(entry + 4 + static_cast<uint64_t>(int64_t{r.at<int32_t>(at + 4)}));
      const std::string ns = string_at(entry + 8 + static_cast<uint64_t>(int64_t{r.at<int32_t>(at + 8)}));
      ASSERT_FALSE(symbol.empty()) << name << "+" << at;
      exported.insert(symbol);
      if (!ns.empty()) namespaces.insert(ns);
      const input::Symbol* k = index->find(symbol);
      if (k && k->address != value && defined_at(symbol, value)) {
        ++shadowed;
      } else if (!k || k->address != value) {
        if (mismatched++ < 10) ADD_FAILURE() << symbol << ": " << (k ? "at another address" : "not decoded");
      }
    }
  }
  EXPECT_EQ(mismatched, 0u);
  EXPECT_EQ(shadowed, GetParam().shadowed);
  EXPECT_EQ(entries, GetParam().exports);
  size_t strings_checked = 0;
  for (uint64_t off = 0; off < str.size();) {
    const std::string s(str.cstr(off).value_or(""));
    off += s.size() + 1;
    if (s.empty() || namespaces.count(s)) continue;
    ++strings_checked;
    EXPECT_NE(index->find(s), nullptr) << "exported name " << s << " was not decoded";
  }
  EXPECT_EQ(strings_checked, GetParam().export_strings);
}

// In /boot up to 7.1, beside the modules (linux-base) from 7.2.
TEST_P(DebianKallsyms, SystemMapIsDebiansPlaceholder) {
  std::vector<fs::path> maps;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root_ / "boot", ec))
    if (e.path().filename().string().starts_with("System.map-")) maps.push_back(e.path());
  if (fs::exists(modules_ / "System.map")) maps.push_back(modules_ / "System.map");
  ASSERT_EQ(maps.size(), 1u) << "no System.map in " << root_;
  std::string error;
  EXPECT_FALSE(input::symbols_from_kallsyms_file(maps[0].string(), error));
  EXPECT_NE(error.find("Debian's placeholder System.map (" + std::to_string(GetParam().placeholder_bytes) + " bytes)"),
            std::string::npos)
      << error;
}

INSTANTIATE_TEST_SUITE_P(
    Debian, DebianKallsyms,
    ::testing::Values(
        // 6.1.192: pre-6.4 order, with the backported kallsyms_seqs_of_names between markers and tokens.
        Expected{"debian-6.1", 87347, false, true, false, 9294, 8902 - 7 /* namespaces */,
                 {{'T', 22610}, {'t', 23861}, {'d', 23864}, {'r', 10056}, {'A', 359}}, 1, 83},
        // 6.12.117 (the spec's 154,496 are of 6.12.111).
        Expected{"debian-6.12", 154686, true, false, false, 9961, 9570 - 15 /* namespaces */,
                 {{'T', 53936}, {'t', 48136}, {'d', 27821}, {'r', 11093}, {'A', 387}}, 1, 83},
        // trixie's 6.12.117: the same sources, built with gcc 14.
        Expected{"trixie-6.12", 157881, true, false, false, 9961, 9570 - 15 /* namespaces */,
                 {{'T', 53936}, {'t', 51303}, {'d', 27849}, {'r', 11093}, {'A', 387}}, 1, 83},
        // sid's 7.2.13: PC-relative offsets, no absolute percpu symbols.
        Expected{"sid-7.2", 186798, true, false, true, 11413, 11002 - 31 /* namespaces */,
                 {{'T', 65324}, {'t', 72846}, {'d', 15227}, {'r', 24362}, {'A', 0}}, 1, 98, false}),
    [](const auto& info) {
      std::string n = info.param.label;
      for (char& c : n) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return n;
    });

TEST(RunningKernelKallsyms, ProcKallsymsParses) {
  std::string error;
  const auto index = input::symbols_from_kallsyms_file("/proc/kallsyms", error);
  if (!index) {
    if (error.find("every address is 0") != std::string::npos || error.find("cannot open") != std::string::npos)
      GTEST_SKIP() << error;
    FAIL() << error;
  }
  EXPECT_EQ(index->origin, "/proc/kallsyms");
  EXPECT_GT(index->size(), 10000u);
  const input::Symbol* stext = index->find("_stext");
  ASSERT_NE(stext, nullptr);
  EXPECT_EQ(stext->type, 'T');
  ASSERT_NE(index->find("_text"), nullptr);
  EXPECT_EQ(stext->address, index->find("_text")->address);
  const input::Symbol* etext = index->find("_etext");
  ASSERT_NE(etext, nullptr);
  EXPECT_GT(etext->address, stext->address);
}

}  // namespace
}  // namespace elfmeta::testing
