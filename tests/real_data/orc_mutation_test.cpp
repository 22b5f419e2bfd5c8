// The ORC rule mutations (tests/orc/orc_rule_cases.cpp) applied to real
// tables: Debian 6.1 (G1), 6.12 (G3) and sid's 7.2 (G4), a module and the
// vmlinux (with the symbols of its kallsyms tables). Each adds findings of exactly its rule
// to what the unmutated table already has (a few asm warnings).
#include <gtest/gtest.h>

#include <fstream>

#include "input/artifact.h"
#include "input/symbols.h"
#include "tests/orc/orc_rule_cases.h"
#include "tests/support/debian_kernels.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

struct RealTable {
  std::string name;
  uint32_t scope;
  std::vector<uint8_t> bytes;
  std::optional<input::SymbolIndex> symbols;
};

std::vector<RealTable> real_tables(std::string& why) {
  std::vector<RealTable> out;
  for (const std::string label : {"debian-6.1", "debian-6.12", "sid-7.2"}) {
    const auto tree = debian_kernel_tree(label, why);
    if (!tree) return {};
    auto image = input::open_input(tree->vmlinuz.string());
    if (!image.artifact) return {};
    std::string no_symbols;
    out.push_back({label + " vmlinux", kImage, {image.artifact->content.begin(), image.artifact->content.end()},
                   input::symbols_from_image_kallsyms(*image.artifact, no_symbols)});
    // A library module of every release here (lib/crc7 is gone by 7.2).
    fs::path ko = tree->modules / "kernel" / "lib" / "math" / "cordic.ko";
    if (!fs::exists(ko)) ko += ".xz";
    auto module = input::open_input(ko.string());
    if (!module.artifact) return {};
    out.push_back({label + " cordic.ko", kModule, {module.artifact->content.begin(), module.artifact->content.end()}, std::nullopt});
  }
  return out;
}

TEST(OrcRealMutations, EachMutationAddsExactlyItsRule) {
  std::string why;
  const auto tables = real_tables(why);
  if (tables.empty() && !std::getenv("ELFMETA_TEST_DATA")) GTEST_SKIP() << why;
  ASSERT_FALSE(tables.empty()) << why;
  size_t applied = 0;
  for (const OrcRuleCase& c : orc_rule_cases()) {
    std::set<std::string> allowed{std::string(c.rule)};
    for (auto a : c.also) allowed.insert(std::string(a));
    size_t applied_here = 0;
    for (const RealTable& t : tables) {
      if (!(c.scopes & t.scope)) continue;
      OrcMutation baseline(t.bytes, t.symbols);
      if (!(c.layouts & layout_bit(baseline.table().layout))) continue;
      const auto before = orc_rule_counts(baseline);
      OrcMutation m(t.bytes, t.symbols);
      if (!c.mutate(m)) continue;
      ++applied_here;
      std::string listing;
      const auto after = orc_rule_counts(m, &listing);
      auto count = [](const std::map<std::string, size_t>& m, const std::string& r) {
        auto it = m.find(r);
        return it == m.end() ? size_t(0) : it->second;
      };
      EXPECT_GT(count(after, std::string(c.rule)), count(before, std::string(c.rule)))
          << c.rule << " did not fire on " << t.name << ":\n" << listing.substr(0, 3000);
      for (const auto& [rule, n] : after)
        EXPECT_TRUE(n <= count(before, rule) || allowed.count(rule))
            << c.rule << " on " << t.name << " also added " << rule << ":\n" << listing.substr(0, 3000);
    }
    std::cout << "  " << c.rule << ": applied to " << applied_here << " real tables\n";
    applied += applied_here;
  }
  EXPECT_GE(applied, orc_rule_cases().size());
}

}  // namespace
}  // namespace elfmeta::testing
