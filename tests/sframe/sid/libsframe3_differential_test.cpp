// elfmeta's SFrame reader against libsframe 3 (sid's libsframe-dev, binutils
// 2.47.50: the reader of today's readelf, objdump and ld), on versions 2 and
// 3: the sections of the SQLite corpus (tools/sid-sframe-data), binutils'
// libsframe test DATA files, and single-byte mutations of real sections.
// Where both read a section, every FDE (start, size, FRE count, info bytes,
// block size), every FRE (start, info, data words), libsframe's CFA, FP and
// RA offsets (decoded, with the fixed offsets and s390x's padding) and
// sframe_find_fre at the PCs around every FRE must be what elfmeta reads.
// libsframe runs in the sid root (tests/sframe/sid/libsframe3_driver.c),
// each section in a child process: a crash is reported, not fatal.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <random>

#include "tests/sframe/sid/sid_sframe.h"

namespace elfmeta::testing {
namespace {

struct Section {
  std::string name;
  std::vector<uint8_t> bytes;
};

// The .sframe section of an ELF file, or a raw section's bytes.
std::optional<Section> section_of(const fs::path& p) {
  auto opened = input::open_input(p.string());
  if (!opened.artifact) return std::nullopt;
  std::span<const uint8_t> data;
  if (opened.artifact->kind == input::ArtifactKind::RawSframe)
    data = opened.artifact->raw;
  else if (const auto* s = opened.artifact->section(".sframe"))
    data = s->data;
  else
    return std::nullopt;
  return Section{p.parent_path().filename().string() + "/" + p.filename().string(), {data.begin(), data.end()}};
}

// elfmeta's table of a raw section, and whether its layout reads without an
// error (the header, the FDE array, every FRE block): the sections whose
// values both readers should give.
struct Ours {
  std::unique_ptr<input::Artifact> artifact;
  std::optional<sframe::SframeTable> table;
  bool well_formed = false;
  bool clean = false;  // no error of any rule
};

Ours read_ours(const Section& s) {
  Ours o;
  auto opened = input::open_bytes(s.name, s.bytes);
  if (!opened.artifact) return o;
  o.artifact = std::move(opened.artifact);
  DiagnosticList list;
  sframe::SframeFindings f(s.name, list, kNoConsumer);
  o.table = sframe::read_sframe(*o.artifact, f);
  if (!o.table || !o.table->usable) return o;
  o.well_formed = o.table->fdes.size() == o.table->header.num_fdes;
  for (const auto& b : o.table->blocks) o.well_formed &= b.complete;
  for (const auto& d : list.items()) o.well_formed &= d.severity != Severity::Error;
  DiagnosticList all;
  o.clean = sframe::check_sframe(*o.artifact, {}, all).errors == 0;
  return o;
}

class Libsframe3Differential : public ::testing::Test {
 protected:
  void SetUp() override {
    work_ = fs::temp_directory_path() / ("elfmeta-libsframe3-" + std::to_string(getpid()));
    fs::create_directories(work_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(work_);
  }

  // Both readers on `sections`; the comparison of every one both read.
  Comparison compare(const std::vector<Section>& sections, const Libsframe3& lib) {
    std::vector<DriverInput> in;
    std::vector<Ours> ours;
    for (size_t k = 0; k < sections.size(); ++k) {
      ours.push_back(read_ours(sections[k]));
      const fs::path file = work_ / ("s" + std::to_string(k) + ".sframe");
      std::ofstream(file, std::ios::binary)
          .write(reinterpret_cast<const char*>(sections[k].bytes.data()), std::streamsize(sections[k].bytes.size()));
      in.push_back({sections[k].name, file, ours.back().table && ours.back().table->usable ? probe_pcs(*ours.back().table) : std::vector<int64_t>{}});
    }
    const auto theirs = lib.run(in, work_);
    Comparison c;
    for (size_t k = 0; k < sections.size(); ++k) {
      const auto it = theirs.find(sections[k].name);
      const bool crashed = it != theirs.end() && !it->second.empty() && it->second.back().starts_with("crashed");
      // A crash on a section elfmeta finds an error in is libsframe
      // meeting hostile input (counted); on one elfmeta finds valid, either
      // libsframe has a bug or elfmeta misses a rule: a failure either way.
      if (crashed && ours[k].clean)
        ADD_FAILURE() << sections[k].name << ": libsframe 3 crashed (" << it->second.back()
                      << ") on a section elfmeta finds no error in";
      c.crashes += crashed;
      if (!ours[k].well_formed) {
        ++c.refused_by_both;  // elfmeta reports an error in its layout: not compared
        continue;
      }
      if (it == theirs.end() || crashed) continue;
      compare_section(sections[k].name, *ours[k].table, it->second, in[k].pcs, ours[k].clean, c);
    }
    return c;
  }

  fs::path work_;
};

TEST_F(Libsframe3Differential, AgreesOnRealVersion3AndVersion2Sections) {
  ELFMETA_REQUIRE_TOOLCHAIN_ROOT();
  ELFMETA_REQUIRE_SID_DATA(sources, "sources");
  ELFMETA_REQUIRE_SID_DATA(corpus, "corpus");
  const Libsframe3& lib = Libsframe3::get(fs::path(sources.paths.at("binutils")) / "include");
  ELFMETA_REQUIRE_INSTALLED(lib.ok(), lib.why());
  std::vector<Section> sections;
  for (const auto& config : fs::directory_iterator(corpus.paths.at("corpus"))) {
    if (!fs::is_directory(config.path())) continue;
    for (const char* f : {"sqlite3.o", "sqlite-exe", "libsqlite3.so"})
      if (auto s = section_of(config.path() / f)) sections.push_back(std::move(*s));
  }
  const size_t from_corpus = sections.size();
  const fs::path decode = fs::path(sources.paths.at("binutils")) / "libsframe" / "testsuite" / "libsframe.decode";
  for (const auto& e : fs::directory_iterator(decode))
    if (e.path().filename().string().starts_with("DATA"))
      if (auto s = section_of(e.path())) sections.push_back(std::move(*s));
  const Comparison c = compare(sections, lib);
  for (const auto& d : c.differences) ADD_FAILURE() << d;
  EXPECT_EQ(from_corpus, 72u) << "the corpus has 24 configurations of 3 files";
  EXPECT_EQ(c.refused_by_both, 0u) << "elfmeta finds an error in the layout of a real section";
  // libsframe 3 reads versions 2 and 3 (not 1): every real section.
  EXPECT_EQ(c.refused_by_libsframe, 0u);
  EXPECT_EQ(c.sections, sections.size());
  std::printf("libsframe %s and elfmeta: %zu sections (%zu of the SQLite corpus), %zu FDEs, %zu FREs, %zu lookups "
              "equal; %zu FLEX RA offsets not compared (libsframe's getter reads word 3 whatever word 2 says), %zu "
              "lookups in sections without FDE_FUNC_START_PCREL not compared (libsframe's lookup assumes it)\n",
              lib.version().c_str(), c.sections, from_corpus, c.fdes, c.fres, c.finds,
              c.flex_ra_not_compared, c.finds_not_compared);
}

// Single-byte changes of real sections of each ABI: where elfmeta reads the
// layout without an error and libsframe 3 accepts the section, both read
// the same values (a changed word, info byte, start or count).
TEST_F(Libsframe3Differential, AgreesOnMutatedRealSections) {
  ELFMETA_REQUIRE_TOOLCHAIN_ROOT();
  ELFMETA_REQUIRE_SID_DATA(sources, "sources");
  ELFMETA_REQUIRE_SID_DATA(corpus, "corpus");
  const Libsframe3& lib = Libsframe3::get(fs::path(sources.paths.at("binutils")) / "include");
  ELFMETA_REQUIRE_INSTALLED(lib.ok(), lib.why());
  const fs::path dir = corpus.paths.at("corpus");
  std::vector<Section> sections;
  std::mt19937 random(20261127);
  for (const char* file : {"x86_64-O2-nofp/libsqlite3.so", "aarch64-O1-fp/sqlite-exe", "s390x-O3-fp/libsqlite3.so",
                           "s390x-O0-nofp/sqlite3.o"}) {
    const auto base = section_of(dir / file);
    ASSERT_TRUE(base) << file;
    // Mutations in the first 4 KB: the header, FDEs and the first FREs.
    const size_t span = std::min<size_t>(base->bytes.size(), 4096);
    for (int k = 0; k < 150; ++k) {
      Section s = *base;
      const size_t at = 4 + random() % (span - 4);  // keep the magic and the version
      s.bytes[at] = static_cast<uint8_t>(random());
      s.name = std::string(file) + " byte " + std::to_string(at) + "=" + std::to_string(s.bytes[at]) + " #" + std::to_string(k);
      sections.push_back(std::move(s));
    }
  }
  const Comparison c = compare(sections, lib);
  for (const auto& d : c.differences) ADD_FAILURE() << d;
  EXPECT_GT(c.sections, sections.size() / 2) << "most single-byte changes should leave a section both read";
  std::printf("mutated sections: %zu, %zu compared (%zu FDEs, %zu FREs, %zu lookups), %zu refused by libsframe 3, "
              "%zu with an error in their layout for elfmeta, %zu crashing libsframe 3 (all with an elfmeta error)\n",
              sections.size(), c.sections - c.refused_by_libsframe, c.fdes, c.fres, c.finds, c.refused_by_libsframe,
              c.refused_by_both, c.crashes);
}

}  // namespace
}  // namespace elfmeta::testing
