// The ORC tables of Debian's cloud kernels, one per generation at hand:
// bookworm's 6.1 (G1, no header: the banner's release), bookworm's and
// trixie's 6.12 (G3) and sid's 7.2 (G4, the renumbered registers): the vmlinux
// with the symbols decoded from its kallsyms tables, and every module, have
// no errors in their generation's layout; the numbers known for these
// packages are asserted.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/report.h"
#include "input/artifact.h"
#include "input/symbols.h"
#include "orc/verifier.h"
#include "tests/support/debian_kernels.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

struct KnownNumbers {
  size_t vmlinux_entries, lookup_words, modules_with_orc;
};
// Each tree's generation and where it is read from.
struct Generation {
  orc::Layout layout;
  const char* source;  // the start of layout_source
};
const std::map<std::string, Generation> kGeneration = {
    {"debian-6.1", {orc::Layout::G1, "banner"}},
    {"debian-6.12", {orc::Layout::G3, ".orc_header"}},
    {"trixie-6.12", {orc::Layout::G3, ".orc_header"}},
    {"sid-7.2", {orc::Layout::G4, ".orc_header"}},
};
// By package: the numbers of ../shared/spec/orc.md §3 (6.1.0-56) and those
// measured for 6.12.117 (the reference measured 6.12.111: 423,716 entries).
const std::map<std::string, KnownNumbers> kKnown = {
    {"linux-image-6.1.0-56-cloud-amd64", {368456, 57376, 1120}},
    {"linux-image-6.12.117+deb12-cloud-amd64", {424307, 65537, 1136}},
};

std::string listing(const DiagnosticList& list, size_t max = 10) {
  std::ostringstream out;
  size_t n = 0;
  for (const auto& d : list.items())
    if (d.severity == Severity::Error && n++ < max) write_text(out, d);
  return out.str();
}

using DebianOrc = DebianTreeTest;

TEST_P(DebianOrc, VmlinuxHasNoErrors) {
  auto image = input::open_input(tree_.vmlinuz.string());
  ASSERT_TRUE(image.artifact) << image.error;
  std::string why;
  const auto symbols = input::symbols_from_image_kallsyms(*image.artifact, why);
  ASSERT_TRUE(symbols) << why;
  orc::OrcOptions options;
  options.symbols = &*symbols;
  DiagnosticList list;
  const auto result = orc::check_orc(*image.artifact, options, list);
  ASSERT_TRUE(result.present);
  EXPECT_TRUE(result.symbols_checked);
  EXPECT_EQ(result.errors, 0u) << listing(list);
  // The image's kallsyms has no symbol types: ftrace's and int3_selftest's
  // inner labels and the local .slowpath (6 to 8 per image, ORC-SYM-001
  // warnings before) are told from function starts by where their state
  // began (check_symbols.cpp, untyped_inner_label).
  EXPECT_EQ(list.count("ORC-SYM-001"), 0u) << listing(list);
  // Undefined entries inside functions between two call frames (about 900 to
  // 3,500 per image) all lie on int3 after a
  // return thunk's jump or on NOPs; xen_failsafe_callback's undefined state
  // between register frames is entry assembly, declared on purpose.
  EXPECT_EQ(list.count("ORC-COV-007"), 0u) << listing(list);
  const Generation& g = kGeneration.at(GetParam());
  EXPECT_EQ(result.layout, g.layout) << result.layout_source;
  EXPECT_EQ(result.layout_source.rfind(g.source, 0), 0u) << result.layout_source;
  EXPECT_TRUE(result.entries_checked);
  const auto* lookup = image.artifact->section(".orc_lookup");
  ASSERT_NE(lookup, nullptr);
  std::cout << "  " << package_ << ": " << result.entries << " entries (" << orc::layout_name(result.layout) << "), "
            << lookup->size / 4 << " lookup words, " << list.count(Severity::Warning) << " warnings\n";
  if (auto known = kKnown.find(package_); known != kKnown.end() && pinned()) {
    EXPECT_EQ(result.entries, known->second.vmlinux_entries);
    EXPECT_EQ(lookup->size / 4, known->second.lookup_words);
  }
}

TEST_P(DebianOrc, EveryModuleHasNoErrors) {
  size_t modules = 0, with_orc = 0, entries = 0, errors = 0, unexpected_warnings = 0;
  std::string first_errors, first_warnings;
  for (const auto& e : fs::recursive_directory_iterator(tree_.modules)) {
    if (!e.is_regular_file() || e.path().filename().string().find(".ko") == std::string::npos) continue;
    ++modules;
    auto module = input::open_input(e.path().string());
    ASSERT_TRUE(module.artifact) << module.error;
    DiagnosticList list;
    const auto result = orc::check_orc(*module.artifact, {}, list);
    with_orc += result.present;
    entries += result.entries;
    errors += result.errors;
    if (result.errors && first_errors.size() < 4000) first_errors += e.path().filename().string() + ":\n" + listing(list, 3);
    // ORC-SYM-001 asks compiled functions (STT_FUNC) to start under a call
    // frame; assembly's labels (STT_NOTYPE, 813 of them in 6.1's
    // aesni-intel.ko) are not function starts.
    // ORC-COV-007: undefined entries inside functions (561 to 3,455 per
    // release) are all on fill.
    for (const auto& d : list.items())
      if (d.rule && (d.rule->id == "ORC-SYM-001" || d.rule->id == "ORC-COV-007") && unexpected_warnings++ < 5) {
        std::ostringstream line;
        write_text(line, d);
        first_warnings += line.str();
      }
    if (result.present) {
      EXPECT_EQ(result.layout, kGeneration.at(GetParam()).layout) << e.path() << ": " << result.layout_source;
      EXPECT_TRUE(result.symbols_checked) << e.path();
    }
  }
  std::cout << "  " << package_ << ": " << with_orc << " of " << modules << " modules have ORC, " << entries
            << " entries\n";
  EXPECT_EQ(errors, 0u) << first_errors;
  EXPECT_EQ(unexpected_warnings, 0u) << first_warnings;
  if (auto known = kKnown.find(package_); known != kKnown.end() && pinned()) {
    EXPECT_EQ(with_orc, known->second.modules_with_orc);
  }
}

INSTANTIATE_TEST_SUITE_P(Packages, DebianOrc, ::testing::Values("debian-6.1", "debian-6.12", "trixie-6.12", "sid-7.2"),
                         debian_tree_name);

}  // namespace
}  // namespace elfmeta::testing
