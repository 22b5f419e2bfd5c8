// The input limits (issue 33): each rule of input_rules.h has an input that
// triggers exactly it and a twin within the limit that does not; a real
// compressed module passes all of them; the budget is shared by threads.
#include <gtest/gtest.h>
#include <lzma.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "input/artifact.h"
#include "input/decompress.h"
#include "input/debian_package.h"
#include "input/input_limits.h"
#include "input/input_rules.h"
#include "synth/btf_builder.h"
#include "synth/elf_writer.h"
#include "tests/support/compressors.h"
#include "tests/support/deb_builder.h"
#include "tests/support/scratch_dir.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;
using input::InputLimits;
using namespace compressors;

// A small real-looking module: BTF-less ELF relocatable with some code.
Bytes plain_module() {
  synth::ElfWriter ko(ET_REL);
  std::vector<uint8_t> text(200000);
  for (size_t i = 0; i < text.size(); ++i) text[i] = uint8_t(i * 2654435761u >> 13);  // incompressible enough
  ko.add_section({".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 16, 0, text});
  const std::string modinfo("license=GPL\0vermagic=6.12.0-1-cloud-amd64 SMP mod_unload \0", 53);
  ko.add_section({".modinfo", SHT_PROGBITS, SHF_ALLOC, 0, 1, 0, std::vector<uint8_t>(modinfo.begin(), modinfo.end())});
  return ko.write();
}

std::string rule_of(const input::OpenResult& r) { return r.refusal && r.refusal->rule ? std::string(r.refusal->rule->id) : ""; }

// INPUT-001: 200 MiB of zeros in a few hundred bytes of xz stops after the
// first mebibyte of output (a module's floor); a real module's stream does not.
TEST(InputLimits, ExpansionRatio) {
  const Bytes bomb = xz_of_zero_elf(uint64_t(200) << 20);
  input::OpenOptions module_floor;
  module_floor.expansion_floor = uint64_t(1) << 20;
  const auto refused = input::open_bytes("m.ko.xz", bomb, module_floor);
  EXPECT_FALSE(refused.artifact);
  EXPECT_EQ(rule_of(refused), "INPUT-001") << refused.error;
  EXPECT_NE(refused.refusal->message.find("expand to 1.0 MiB"), std::string::npos) << refused.refusal->message;
  EXPECT_EQ(refused.refusal->location.artifact, "m.ko.xz");
  // The twin: a module that expands as modules do.
  const auto fine = input::open_bytes("ok.ko.xz", xz(plain_module(), false), module_floor);
  EXPECT_TRUE(fine.artifact) << fine.error;
  // The ratio is a setting: 10x refuses even the zeros of a small file.
  input::InputLimits strict;
  strict.max_expansion = 10;
  input::DecompressionBudget budget(strict);
  const auto small = input::open_bytes("small.ko.xz", xz_of_zero_elf(uint64_t(2) << 20), {input::Format::Auto, &budget, 1 << 20});
  EXPECT_EQ(rule_of(small), "INPUT-001") << small.error;
}

// INPUT-002: an artifact larger than --max-artifact-size.
TEST(InputLimits, ArtifactSize) {
  InputLimits limits;
  limits.max_artifact_bytes = uint64_t(4) << 20;
  input::DecompressionBudget budget(limits);
  const Bytes module = plain_module();
  Bytes big = module;
  big.resize(uint64_t(6) << 20, 0x55);  // 6 MiB, compressible enough to be under the ratio
  for (size_t i = module.size(); i < big.size(); ++i) big[i] = uint8_t(i * 2654435761u >> 11);
  const auto refused = input::open_bytes("big.ko.gz", gzip(big), {input::Format::Auto, &budget});
  EXPECT_EQ(rule_of(refused), "INPUT-002") << refused.error;
  const auto fine = input::open_bytes("ok.ko.gz", gzip(module), {input::Format::Auto, &budget});
  EXPECT_TRUE(fine.artifact) << fine.error;
}

// INPUT-003: the run's budget, spent by earlier inputs and shared by threads
// (what each decoded stays charged).
TEST(InputLimits, RunBudget) {
  InputLimits limits;
  limits.max_total_bytes = uint64_t(1) << 20;
  input::DecompressionBudget budget(limits);
  const Bytes compressed = xz(plain_module(), false);
  size_t opened = 0, refused = 0;
  std::vector<std::string> rules;
  for (int i = 0; i < 10; ++i) {
    const auto r = input::open_bytes("m" + std::to_string(i) + ".ko.xz", compressed, {input::Format::Auto, &budget});
    opened += r.artifact != nullptr;
    if (r.refusal) {
      ++refused;
      rules.push_back(rule_of(r));
    }
  }
  EXPECT_GE(opened, 3u);  // 200 KB modules within a mebibyte
  EXPECT_GE(refused, 1u);
  EXPECT_LE(budget.used(), limits.max_total_bytes);
  for (const auto& r : rules) EXPECT_EQ(r, "INPUT-003");

  // Threads: reservations never sum past the budget.
  InputLimits small;
  small.max_total_bytes = 1000;
  input::DecompressionBudget shared(small);
  std::vector<std::thread> threads;
  std::atomic<uint64_t> granted{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int k = 0; k < 100; ++k) granted += shared.reserve(7);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(granted.load(), 1000u);
}

// The allowance every expansion limit is computed with: the ratio, the
// floor below which the ratio is not applied, and no wrap past 64 bits.
TEST(InputLimits, ExpansionAllowance) {
  EXPECT_EQ(input::expansion_allowance(uint64_t(10) << 20, 1000, uint64_t(1) << 20), uint64_t(10000) << 20);
  EXPECT_EQ(input::expansion_allowance(100, 1000, uint64_t(1) << 20), uint64_t(1) << 20);
  EXPECT_EQ(input::expansion_allowance(uint64_t(1) << 60, 1000, 0), UINT64_MAX);
  EXPECT_EQ(input::expansion_allowance(UINT64_MAX / 64 + 1, 64, 0), UINT64_MAX);
  EXPECT_EQ(input::expansion_allowance(UINT64_MAX / 64, 64, 0), UINT64_MAX / 64 * 64);
  EXPECT_EQ(input::expansion_allowance(5, 0, 7), 7u);
}

std::string write_file(const std::string& name, const std::string& bytes) {
  const fs::path p = scratch_dir("input-limits") / name;
  std::ofstream(p, std::ios::binary) << bytes;
  return p.string();
}

// INPUT-004 and INPUT-005 come from reading a package: more entries than
// the limit, a member larger than the limit (both as settings here).
TEST(InputLimits, PackageEntriesAndMembers) {
  DebFiles many;
  for (int i = 0; i < 20; ++i) many.push_back({"./lib/modules/6.12.0-1/kernel/m" + std::to_string(i) + ".ko", "x"});
  const std::string many_deb = write_file("many.deb", write_deb(many));
  const std::string big_deb =
      write_file("big.deb", write_deb({{"./lib/modules/6.12.0-1/kernel/big.ko", std::string(3 << 20, 'a')},
                                       {"./lib/modules/6.12.0-1/kernel/small.ko", "b"}}));
  auto read = [](const std::string& path, const InputLimits& limits, std::vector<std::string>& files) {
    std::vector<Diagnostic> refusals;
    std::string error;
    EXPECT_TRUE(input::stream_debian_package(
        path, [](std::string_view) { return true; }, [&](input::PackageFile&& f) { files.push_back(f.path); }, limits,
        refusals, error))
        << error;
    std::vector<std::string> rules;
    for (const auto& d : refusals) rules.push_back(std::string(d.rule->id) + " " + d.location.artifact);
    return rules;
  };
  InputLimits limits;
  limits.max_archive_entries = 10;
  std::vector<std::string> files;
  EXPECT_EQ(read(many_deb, limits, files), std::vector<std::string>{"INPUT-004 many.deb"});
  EXPECT_EQ(files.size(), 10u);
  limits = {};
  limits.max_member_bytes = 1 << 20;
  files.clear();
  EXPECT_EQ(read(big_deb, limits, files), std::vector<std::string>{"INPUT-005 big.deb:lib/modules/6.12.0-1/kernel/big.ko"});
  EXPECT_EQ(files, std::vector<std::string>{"lib/modules/6.12.0-1/kernel/small.ko"});
  // The twins: the defaults read both whole.
  files.clear();
  EXPECT_TRUE(read(many_deb, {}, files).empty());
  EXPECT_EQ(files.size(), 20u);
}

// Every rule of the input table has a case here: the trigger of each, run
// again, refused by exactly that rule.
TEST(InputLimits, EveryInputRuleHasACase) {
  std::map<std::string, std::function<std::string()>> triggers{
      {"INPUT-001", [] { return rule_of(input::open_bytes("m.ko.xz", xz_of_zero_elf(uint64_t(8) << 20), {input::Format::Auto, nullptr, 1 << 20})); }},
      {"INPUT-002", [] {
         InputLimits l;
         l.max_artifact_bytes = 1 << 20;
         input::DecompressionBudget b(l);
         Bytes m = plain_module();
         m.resize(uint64_t(3) << 20, 1);
         return rule_of(input::open_bytes("b.ko.gz", gzip(m), {input::Format::Auto, &b}));
       }},
      {"INPUT-003", [] {
         InputLimits l;
         l.max_total_bytes = 1;
         input::DecompressionBudget b(l);
         b.reserve(1);
         return rule_of(input::open_bytes("c.ko.xz", xz(plain_module(), false), {input::Format::Auto, &b}));
       }},
      {"INPUT-004", [] {
         InputLimits l;
         l.max_archive_entries = 1;
         std::vector<Diagnostic> refusals;
         std::string error;
         input::stream_debian_package(write_file("two.deb", write_deb({{"./a", "a"}, {"./b", "b"}})),
                                      [](std::string_view) { return true; }, [](input::PackageFile&&) {}, l, refusals, error);
         return refusals.size() == 1 ? std::string(refusals[0].rule->id) : error;
       }},
      {"INPUT-005", [] {
         InputLimits l;
         l.max_member_bytes = 1;
         std::vector<Diagnostic> refusals;
         std::string error;
         input::stream_debian_package(write_file("one.deb", write_deb({{"./a", "ab"}})), [](std::string_view) { return true; },
                                      [](input::PackageFile&&) {}, l, refusals, error);
         return refusals.size() == 1 ? std::string(refusals[0].rule->id) : error;
       }},
  };
  for (const Rule* r : input::rules::table()) {
    auto it = triggers.find(std::string(r->id));
    ASSERT_NE(it, triggers.end()) << r->id << " has no case";
    EXPECT_EQ(it->second(), r->id);
  }
}

}  // namespace
}  // namespace elfmeta::testing
