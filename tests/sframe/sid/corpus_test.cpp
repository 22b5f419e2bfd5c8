// SFrame version 3 from today's producers on a real C code base: the SQLite
// amalgamation built by tools/sid-sframe-data in the sid root (gcc 16, gas/ld
// 2.47.50) for x86-64, AArch64 and s390x, at -O0..-O3 with and without frame
// pointers, as the object, a PIE executable and a shared object. Required:
// no error but the producer defects the ABI table records (ld's .plt.got
// FDE), and the SFrame/DWARF CFI differential equal at every point compared.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "tests/sframe/sid/sid_sframe.h"

namespace elfmeta::testing {
namespace {

std::vector<std::string> configs() {
  std::vector<std::string> out;
  for (const char* m : {"x86_64", "aarch64", "s390x"})
    for (const char* o : {"O0", "O1", "O2", "O3"})
      for (const char* f : {"fp", "nofp"}) out.push_back(std::string(m) + "-" + o + "-" + f);
  return out;
}

class SqliteCorpus : public ::testing::TestWithParam<std::string> {};

// Totals over the configurations, printed by the last one.
struct Totals {
  size_t files = 0, fdes = 0, fres = 0, points = 0, equal = 0, errors = 0, defect_errors = 0;
  size_t object_points = 0, object_equal = 0;  // the objects' differential
  std::map<std::string, size_t> warnings;
};
Totals& totals() {
  static Totals t;
  return t;
}

TEST_P(SqliteCorpus, HasNoErrorButKnownProducerDefectsAndAgreesWithDwarfCfi) {
  ELFMETA_REQUIRE_TOOLCHAIN_ROOT();
  ELFMETA_REQUIRE_SID_DATA(corpus, "corpus");
  const fs::path dir = fs::path(corpus.paths.at("corpus")) / GetParam();
  const std::string machine = GetParam().substr(0, GetParam().find('-'));
  for (const char* file : {"sqlite3.o", "sqlite_main.o", "sqlite-exe", "libsqlite3.so"}) {
    const fs::path p = dir / file;
    ASSERT_TRUE(fs::exists(p)) << p;
    const Checked r = check_file(p);
    const bool linked = !std::string(file).ends_with(".o");
    ASSERT_TRUE(r.check.present) << p;
    EXPECT_EQ(r.check.version, 3) << p;
    EXPECT_GE(r.check.fdes, std::string(file) == "sqlite_main.o" ? 2u : 1000u) << p;
    size_t defects = 0;
    for (const auto& d : r.errors) {
      if (known_producer_defect(d)) {
        ++defects;
        continue;
      }
      ADD_FAILURE() << p << ": " << d.message << " [" << (d.rule ? d.rule->id : "") << "]";
    }
    // The only defect: ld's .plt.got FDE (x86-64; where the link has a .plt.got).
    if (defects) {
      EXPECT_EQ(machine, "x86_64") << p << ":\n" << r.listing;
    }
    // Objects too, at (section, offset) against their relocated .eh_frame.
    EXPECT_TRUE(r.check.cfi_checked) << p;
    {
      const auto [points, equal] = cfi_points(r.cfi_note);
      EXPECT_GT(points, r.check.fdes) << p << ": " << r.cfi_note;
      // Every point equal, but the .plt.got entries' (one point per PC of
      // the PC-mask FDE until its first difference, which is reported).
      EXPECT_EQ(points - equal, defects) << p << ": " << r.cfi_note << "\n" << r.listing;
      EXPECT_EQ(r.cfi_note.find("left out"), std::string::npos) << p << ": " << r.cfi_note;
      Totals& t = totals();
      (linked ? t.points : t.object_points) += points;
      (linked ? t.equal : t.object_equal) += equal;
    }
    Totals& t = totals();
    ++t.files;
    t.fdes += r.check.fdes;
    t.fres += r.check.fres;
    t.errors += r.errors.size();
    t.defect_errors += defects;
    for (const auto& [rule, n] : r.rules) t.warnings[rule] += n;
  }
  if (GetParam() == configs().back()) {
    const Totals& t = totals();
    std::printf("SQLite corpus so far: %zu files, %zu FDEs, %zu FREs, %zu errors (%zu of them the known ld .plt.got "
                "defect), CFI differential %zu points, %zu equal (linked files), %zu points, %zu equal (objects)\n",
                t.files, t.fdes, t.fres, t.errors, t.defect_errors, t.points, t.equal, t.object_points, t.object_equal);
    for (const auto& [rule, n] : t.warnings) std::printf("  %s: %zu listed\n", rule.c_str(), n);
  }
}

INSTANTIATE_TEST_SUITE_P(Configurations, SqliteCorpus, ::testing::ValuesIn(configs()), [](const auto& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

}  // namespace
}  // namespace elfmeta::testing
