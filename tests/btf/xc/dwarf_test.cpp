// XC-DW: BTF made by pahole 1.24 from GCC 12 (and clang 14) DWARF agrees
// with that DWARF, as objects and as a linked shared object; a disagreement
// injected into the .BTF bytes of each rule is found, at the type it is in.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "btf/artifact_check.h"
#include "btf/btf_format.h"
#include "btf/verifier.h"
#include "btf/xc/cross_check.h"
#include "core/diagnostic.h"
#include "core/findings.h"
#include "input/artifact.h"
#include "input/symbols.h"
#include "tests/support/require.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;
using btf::Btf;
using btf::TypeRef;

int run(const std::string& cmd) {
  const int raw = std::system((cmd + " >/dev/null 2>&1").c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

const fs::path kCorpus = fs::path(ELFMETA_SOURCE_DIR) / "tests" / "btf" / "xc" / "corpus";

std::vector<uint8_t> read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

void write_file(const fs::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// One artifact opened and its BTF checked, ready for the cross-check.
struct Checked {
  std::unique_ptr<input::Artifact> artifact;
  btf::CheckedBtf btf;
  uint64_t btf_file_offset = 0;  // of the .BTF section in the file

  const Btf& b() const { return *btf.btf; }
  // The id of the type of `kind` named `name`; 0 when there is none.
  uint32_t find(uint32_t kind, std::string_view name, size_t nth = 0) const {
    if (!btf.btf) return 0;
    for (uint32_t id = b().first_id(); id < b().type_count(); ++id) {
      const TypeRef t = b().type(id);
      if (t.kind() == kind && b().name_of(t.name_off()) == name && nth-- == 0) return id;
    }
    return 0;
  }
};

Checked open_checked(const fs::path& p) {
  Checked c;
  auto opened = input::open_input(p.string());
  EXPECT_TRUE(opened.artifact) << opened.error;
  if (!opened.artifact) return c;
  c.artifact = std::move(opened.artifact);
  const auto where = btf::locate_btf(*c.artifact);
  EXPECT_TRUE(where) << p << " has no .BTF";
  if (!where) return c;
  c.btf_file_offset = c.artifact->section(".BTF")->file_offset;
  NullSink quiet;
  c.btf = btf::check_btf(where->data, nullptr, btf::CheckOptions{}, c.artifact->name, ".BTF", quiet);
  EXPECT_TRUE(c.btf.btf);
  return c;
}

struct XcResult {
  std::vector<Diagnostic> findings;  // XC-DW findings and XC-SYM-004 (the code ABI, read from the DWARF)
  std::vector<std::string> notes;
  std::string listing;
  size_t count(std::string_view rule) const {
    size_t n = 0;
    for (const auto& d : findings) n += d.rule->id == rule;
    return n;
  }
};

// `symbols`: the object's symtab, for the functions DWARF defines that
// should have a FUNC (without it only types are looked for in the BTF).
XcResult cross_check(const Checked& c, const input::SymbolIndex* symbols = nullptr) {
  XcResult r;
  if (!c.btf.btf) return r;
  DiagnosticList list;
  Findings findings(c.artifact->name, list);
  btf::xc::check_dwarf(btf::xc::CrossCheckInput{*c.artifact, c.b(), symbols}, findings);
  for (auto& d : list.items()) {
    if (!d.rule) {
      r.notes.push_back(d.message);
      continue;
    }
    r.listing += std::string(d.rule->id) + " type " + std::to_string(d.location.index.value_or(0)) + " " +
                 d.location.record_kind + " " + d.location.record_name.value_or("(anon)") + ": " + d.message + "\n";
    if (d.rule->id.starts_with("XC-DW-") || d.rule->id == "XC-SYM-004") r.findings.push_back(std::move(d));
  }
  return r;
}

class BtfDwarf : public ::testing::Test {
 protected:
  void SetUp() override {
    ELFMETA_REQUIRE_INSTALLED(run("pahole --version") == 0, "pahole is not installed (package dwarves)");
    dir_ = fs::temp_directory_path() / ("elfmeta-xcdw-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::create_directories(dir_);
    // pahole -J must work before any test relies on its output: pahole
    // 1.24 adds .BTF with llvm-objcopy (package llvm), and without it every
    // object below would come out without BTF.
    const std::string& why = pahole_cannot_encode(dir_);
    if (!why.empty()) FAIL() << why;
  }
  static const std::string& pahole_cannot_encode(const fs::path& dir) {
    static const std::string why = [&] {
      const fs::path src = dir / "probe.c", obj = dir / "probe.o";
      std::ofstream(src) << "struct probe { int a; } probe;\n";
      if (run("gcc -g -c " + src.string() + " -o " + obj.string()) != 0) return std::string("gcc -g -c fails");
      if (run("pahole -J " + obj.string()) != 0)
        return std::string("pahole -J cannot add .BTF to an object (pahole 1.24 calls llvm-objcopy, package llvm)");
      return std::string();
    }();
    return why;
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // `gcc -g -O2 -c` (or `compiler`, `flags`) of corpus file `source`, encoded with pahole -J.
  fs::path object(const std::string& source, const std::string& compiler = "gcc", const std::string& flags = "-O2") {
    const fs::path out = dir_ / (fs::path(source).stem().string() + "-" + std::to_string(objects_++) + ".o");
    EXPECT_EQ(run(compiler + " -g " + flags + " -c " + (kCorpus / source).string() + " -o " + out.string()), 0) << source;
    EXPECT_EQ(run("pahole -J " + out.string()), 0) << source;
    return out;
  }
  fs::path shared_object() {
    const fs::path out = dir_ / "libcorpus.so";
    EXPECT_EQ(run("gcc -g -O2 -shared -fPIC " + (kCorpus / "layouts.c").string() + " " + (kCorpus / "other.c").string() +
                  " " + (kCorpus / "other2.c").string() + " -o " + out.string()),
              0);
    EXPECT_EQ(run("pahole -J " + out.string()), 0);
    return out;
  }

  // A copy of `c`'s file with the u32 at byte `at` of type `id`'s record
  // changed by `change`, checked.
  Checked patched(const Checked& c, uint32_t id, uint64_t at, const std::function<uint32_t(uint32_t)>& change) {
    EXPECT_NE(id, 0u);
    if (!c.btf.btf || id == 0) {
      ADD_FAILURE() << "nothing to patch: the object has no checked BTF or no such type";
      return {};
    }
    auto bytes = read_file(c.artifact->path);
    const uint64_t pos = c.btf_file_offset + c.b().record_offset(id) + at;
    uint32_t v;
    std::memcpy(&v, bytes.data() + pos, 4);
    v = change(v);
    std::memcpy(bytes.data() + pos, &v, 4);
    const fs::path out = dir_ / ("patched-" + std::to_string(patches_++) + "-" + c.artifact->name);
    write_file(out, bytes);
    return open_checked(out);
  }

  fs::path dir_;
  size_t patches_ = 0, objects_ = 0;
  static inline int counter_ = 0;
};

// Exactly one finding, of `rule`, at type `id`.
void expect_only(const XcResult& r, std::string_view rule, uint32_t id) {
  EXPECT_EQ(r.findings.size(), 1u) << r.listing;
  EXPECT_EQ(r.count(rule), 1u) << r.listing;
  for (const auto& d : r.findings) {
    EXPECT_EQ(d.location.index.value_or(0), id) << r.listing;
    EXPECT_EQ(d.location.section, ".BTF");
    EXPECT_EQ(d.location.record_label, "type");
  }
}

constexpr uint64_t kMembers = 12;  // first member / enumerator / param after the common part

TEST_F(BtfDwarf, GccObjectsAgree) {
  // DWARF 5 (GCC 12's default) and DWARF 4, whose bitfields use the DWARF 2
  // form (DW_AT_bit_offset from the storage unit's most significant bit).
  for (const std::string flags : {"-O2", "-O0", "-O2 -gdwarf-4"})
  for (const char* source : {"layouts.c", "other.c", "other2.c", "quirks.c"}) {
    SCOPED_TRACE(std::string(source) + " " + flags);
    const Checked c = open_checked(object(source, "gcc", flags));
    ASSERT_TRUE(c.btf.btf) << source;
    EXPECT_EQ(c.btf.errors, 0u) << source;
    const XcResult r = cross_check(c);
    EXPECT_TRUE(r.findings.empty()) << source << ":\n" << r.listing;
    ASSERT_EQ(r.notes.size(), 1u) << source;
    unsigned compared = 0, units = 0, agree = 0;
    ASSERT_EQ(std::sscanf(r.notes[0].c_str(), "XC-DW: %u BTF types compared with the DWARF of %u compile units, %u agree",
                          &compared, &units, &agree),
              3)
        << r.notes[0];
    EXPECT_GT(compared, 0u);
    EXPECT_EQ(agree, compared) << r.notes[0];
  }
}

TEST_F(BtfDwarf, ClangObjectsAgree) {
  // Clang nests the types defined inside a struct in its DIE and writes
  // signed enumerators as DW_FORM_sdata.
  ELFMETA_REQUIRE_INSTALLED(run("clang --version") == 0, "clang is not installed (package clang)");
  for (const char* source : {"layouts.c", "other.c", "other2.c", "quirks.c"}) {
    SCOPED_TRACE(source);
    const Checked c = open_checked(object(source, "clang -Wno-everything"));
    ASSERT_TRUE(c.btf.btf);
    const XcResult r = cross_check(c);
    if (std::string_view(source) == "other.c") {
      // clang -O2 drops clone_me's constant and unused parameters and keeps
      // its name; pahole 1.24 encodes the source prototype (XC-SYM-004).
      expect_only(r, "XC-SYM-004", c.find(btf::kFunc, "clone_me"));
      EXPECT_NE(r.listing.find("parameter 2 'k' arrives in rdi, not in rdx"), std::string::npos) << r.listing;
      continue;
    }
    EXPECT_TRUE(r.findings.empty()) << r.listing;
  }
}

TEST_F(BtfDwarf, LinkedSharedObjectAgrees) {
  // Three units: the same static function name (same_static) and struct tag
  // (local_only) with different definitions; BTF keeps one of the functions
  // and both structs, each agreeing with one DWARF candidate.
  const Checked c = open_checked(shared_object());
  ASSERT_TRUE(c.btf.btf);
  EXPECT_NE(c.find(btf::kStruct, "local_only", 1), 0u);
  EXPECT_NE(c.find(btf::kFunc, "same_static"), 0u);
  const XcResult r = cross_check(c);
  EXPECT_TRUE(r.findings.empty()) << r.listing;
}

// One header line, two structs: note_compat.c includes note_info.h under
// another member type, as the kernel's fs/compat_binfmt_elf.c includes
// fs/binfmt_elf.c (the Debian 6.12 vmlinux's struct elf_note_info). The
// first pass indexes one definition per declaration; the BTF struct that
// disagrees with it is compared with the other definitions of its name.
TEST_F(BtfDwarf, HeaderCompiledTwiceAgreesWithBothDefinitions) {
  const fs::path so = dir_ / "libnote.so";
  ASSERT_EQ(run("gcc -g -O2 -shared -fPIC " + (kCorpus / "note_native.c").string() + " " +
                (kCorpus / "note_compat.c").string() + " -o " + so.string()),
            0);
  ASSERT_EQ(run("pahole -J " + so.string()), 0);
  const Checked c = open_checked(so);
  ASSERT_TRUE(c.btf.btf);
  ASSERT_NE(c.find(btf::kStruct, "note_info", 1), 0u);  // pahole keeps both
  const XcResult r = cross_check(c);
  EXPECT_TRUE(r.findings.empty()) << r.listing;
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("1 agree only with another definition of the same declaration"), std::string::npos)
      << r.notes[0];
  // A real difference is still found after the second chance: the compat
  // struct's size changed agrees with neither definition.
  const Checked p = patched(c, c.find(btf::kStruct, "note_info", 1), 8, [](uint32_t v) { return v + 4; });
  const XcResult q = cross_check(p);
  EXPECT_EQ(q.count("XC-DW-001"), 1u) << q.listing;
  EXPECT_NE(q.listing.find("size 16 in BTF, 12 in DWARF"), std::string::npos) << q.listing;
}

// Split BTF: the other direction finds a DWARF definition in the base
// through the base's shared name index (a kernel package's modules share
// the vmlinux's), and reports it when the base does not have it. pahole
// dedups every type of layouts.c into the base made from layouts.c: the
// split blob has no records of its own.
TEST_F(BtfDwarf, SplitBtfFindsItsDefinitionsInTheBase) {
  const fs::path base = object("layouts.c"), other = object("other.c");
  const fs::path mod = dir_ / "mod.o";
  ASSERT_EQ(run("gcc -g -O2 -c " + (kCorpus / "layouts.c").string() + " -o " + mod.string()), 0);
  ASSERT_EQ(run("pahole -J --btf_base=" + base.string() + " " + mod.string()), 0);
  const Checked on_layouts = open_checked(base), on_other = open_checked(other);
  ASSERT_TRUE(on_layouts.btf.btf && on_other.btf.btf);
  auto opened = input::open_input(mod.string());
  ASSERT_TRUE(opened.artifact) << opened.error;
  const auto symbols = input::symbols_from_symtab(*opened.artifact);
  ASSERT_TRUE(symbols);
  const auto where = btf::locate_btf(*opened.artifact);
  ASSERT_TRUE(where);
  auto run_on = [&](const Checked& b, bool shared) {
    NullSink quiet;
    const btf::CheckedBtf split =
        btf::check_btf(where->data, &b.btf, btf::CheckOptions{}, opened.artifact->name, ".BTF", quiet);
    EXPECT_TRUE(split.btf);
    XcResult r;
    if (!split.btf) return r;
    EXPECT_EQ(split.btf->own_count(), 0u);
    const btf::xc::RecordIndex index(b.b(), 1);
    DiagnosticList list;
    Findings findings(opened.artifact->name, list);
    btf::xc::check_dwarf({*opened.artifact, *split.btf, &*symbols, shared ? &index : nullptr}, findings);
    if (shared) {
      EXPECT_EQ(&index.names(), &index.names());  // built once
    }
    for (auto& d : list.items()) {
      if (d.rule) r.listing += std::string(d.rule->id) + ": " + d.message + "\n";
    }
    return r;
  };
  EXPECT_EQ(run_on(on_layouts, true).listing, "");
  EXPECT_EQ(run_on(on_layouts, false).listing, "");
  const std::string absent = run_on(on_other, true).listing;
  EXPECT_NE(absent.find("struct 'packed' (" + (kCorpus / "layouts.c").string()), std::string::npos) << absent;
  EXPECT_NE(absent.find("function 'same_name' ("), std::string::npos) << absent;
}

// A FUNC of a function only an assembler unit defines has no prototype to
// compare: counted in the note (pahole 1.24 encodes it as void(void)). A
// FUNC whose name no unit defines stays "not found".
TEST_F(BtfDwarf, AssemblerFunctionIsCountedNotCompared) {
  const fs::path so = dir_ / "libasm.so";
  ASSERT_EQ(run("gcc -g -O2 -shared -fPIC " + (kCorpus / "other2.c").string() + " " + (kCorpus / "asm_add.S").string() +
                " -o " + so.string()),
            0);
  ASSERT_EQ(run("pahole -J " + so.string()), 0);
  const Checked c = open_checked(so);
  ASSERT_TRUE(c.btf.btf);
  const uint32_t id = c.find(btf::kFunc, "asm_add");
  ASSERT_NE(id, 0u);
  const TypeRef proto = c.b().type(c.b().type(id).type());
  EXPECT_EQ(proto.kind(), btf::kFuncProto);
  EXPECT_EQ(proto.vlen(), 0u);  // pahole 1.24: void(void)
  EXPECT_EQ(proto.type(), 0u);
  const XcResult r = cross_check(c);
  EXPECT_TRUE(r.findings.empty()) << r.listing;
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("; 1 non-C compile units skipped: 1 FUNCs of functions only they define (no prototype in "
                            "their DWARF), 0 other BTF names not found in the C units"),
            std::string::npos)
      << r.notes[0];
  const uint32_t other_name = c.b().type(c.find(btf::kStruct, "local_only")).name_off();
  const XcResult q = cross_check(patched(c, id, 0, [&](uint32_t) { return other_name; }));
  ASSERT_EQ(q.notes.size(), 1u);
  EXPECT_NE(q.notes[0].find(": 0 FUNCs of functions only they define (no prototype in their DWARF), 1 other BTF names"),
            std::string::npos)
      << q.notes[0];
}

TEST_F(BtfDwarf, NoDwarfNoCheck) {
  const fs::path o = dir_ / "nodebug.o";
  ASSERT_EQ(run("gcc -O2 -c " + (kCorpus / "layouts.c").string() + " -o " + o.string()), 0);
  ASSERT_EQ(run("gcc -g -O2 -c " + (kCorpus / "layouts.c").string() + " -o " + (dir_ / "g.o").string()), 0);
  // BTF from the -g build, added to the object without DWARF.
  ASSERT_EQ(run("pahole --btf_encode_detached=" + (dir_ / "raw.btf").string() + " " + (dir_ / "g.o").string()), 0);
  ASSERT_EQ(run("objcopy --add-section .BTF=" + (dir_ / "raw.btf").string() + " " + o.string()), 0);
  const Checked c = open_checked(o);
  ASSERT_TRUE(c.btf.btf);
  const XcResult r = cross_check(c);
  EXPECT_TRUE(r.findings.empty()) << r.listing;
  EXPECT_TRUE(r.notes.empty());
}

TEST_F(BtfDwarf, Pahole124AtomicMembersAreVoid) {
  const Checked c = open_checked(object("atomic.c"));
  ASSERT_TRUE(c.btf.btf);
  const uint32_t id = c.find(btf::kStruct, "with_atomics");
  const XcResult r = cross_check(c);
  if (btf::member_at(c.b().type(id), 1).type != 0) {
    EXPECT_TRUE(r.findings.empty()) << "a pahole that knows _Atomic:\n" << r.listing;
    return;
  }
  // Both _Atomic members are void in BTF: one finding for the struct.
  expect_only(r, "XC-DW-001", id);
  EXPECT_NE(r.listing.find("member 1 'counter' type: 'void' in BTF, 'int/4' in DWARF"), std::string::npos) << r.listing;
  EXPECT_NE(r.listing.find("1 more difference"), std::string::npos) << r.listing;
}

// Corrupted DWARF and BTF bytes: findings or nothing, never a crash or a hang.
TEST_F(BtfDwarf, CorruptedBytesAreSurvived) {
  const Checked c = open_checked(object("layouts.c"));
  ASSERT_TRUE(c.btf.btf);
  const auto original = read_file(c.artifact->path);
  const input::Section* info = c.artifact->section(".debug_info");
  const input::Section* btf_section = c.artifact->section(".BTF");
  ASSERT_TRUE(info && btf_section);
  std::mt19937 rng(20261122);
  for (int round = 0; round < 300; ++round) {
    auto bytes = original;
    const input::Section* s = round % 2 ? info : btf_section;
    for (int k = 0; k < 1 + round % 8; ++k) bytes[s->file_offset + rng() % s->size] = static_cast<uint8_t>(rng());
    const fs::path out = dir_ / "corrupt.o";
    write_file(out, bytes);
    auto opened = input::open_input(out.string());
    if (!opened.artifact) continue;
    const auto where = btf::locate_btf(*opened.artifact);
    if (!where) continue;
    NullSink quiet;
    const auto checked = btf::check_btf(where->data, nullptr, btf::CheckOptions{}, "corrupt.o", ".BTF", quiet);
    if (!checked.btf) continue;
    Findings findings("corrupt.o", quiet);
    btf::xc::check_dwarf(btf::xc::CrossCheckInput{*opened.artifact, *checked.btf, nullptr}, findings);
  }
}

// ---------------------------------------------------------------- XC-DW-001

// The other direction: a DWARF definition with no BTF record of its kind
// and name (here the struct's name pointed at another struct's), and a
// function with a text symbol whose FUNC is missing the same way.
TEST_F(BtfDwarf, DefinitionWithoutBtfRecordIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const auto symbols = input::symbols_from_symtab(*c.artifact);
  ASSERT_TRUE(symbols);
  EXPECT_EQ(cross_check(c, &*symbols).listing, "");  // every DWARF definition and function has its record
  const uint32_t packed = c.find(btf::kStruct, "packed"), aligned = c.find(btf::kStruct, "aligned");
  const uint32_t aligned_name = c.b().type(aligned).name_off();
  const XcResult r = cross_check(patched(c, packed, 0, [&](uint32_t) { return aligned_name; }), &*symbols);
  EXPECT_NE(r.listing.find("struct 'packed' (" + (kCorpus / "layouts.c").string()), std::string::npos) << r.listing;
  EXPECT_NE(r.listing.find(") is defined in DWARF but has no BTF record"), std::string::npos) << r.listing;

  const Checked o = open_checked(object("other.c"));
  const auto other_symbols = input::symbols_from_symtab(*o.artifact);
  ASSERT_TRUE(other_symbols);
  EXPECT_EQ(cross_check(o, &*other_symbols).listing, "");
  const uint32_t entry = o.find(btf::kFunc, "other_entry"), use = o.find(btf::kFunc, "use_clone");
  ASSERT_NE(use, 0u);
  const uint32_t use_name = o.b().type(use).name_off();
  const XcResult f = cross_check(patched(o, entry, 0, [&](uint32_t) { return use_name; }), &*other_symbols);
  EXPECT_NE(f.listing.find("function 'other_entry'"), std::string::npos) << f.listing;
  EXPECT_NE(f.listing.find("is defined in DWARF and has a text symbol but has no BTF record"), std::string::npos)
      << f.listing;
  EXPECT_GE(f.count("XC-DW-004"), 1u) << f.listing;
}

TEST_F(BtfDwarf, MemberOffsetIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kStruct, "aligned");
  const Checked p = patched(c, id, kMembers + 12 * 1 + 8, [](uint32_t v) { return v + 8; });  // member 'i'
  const XcResult r = cross_check(p);
  expect_only(r, "XC-DW-001", id);
  EXPECT_NE(r.listing.find("member 1 'i': bit offset 136 in BTF, 128 in DWARF"), std::string::npos) << r.listing;
}

TEST_F(BtfDwarf, StructSizeIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kStruct, "packed");
  const XcResult r = cross_check(patched(c, id, 8, [](uint32_t v) { return v + 1; }));
  expect_only(r, "XC-DW-001", id);
  EXPECT_NE(r.listing.find("size 16 in BTF, 15 in DWARF"), std::string::npos) << r.listing;
}

TEST_F(BtfDwarf, BitfieldSizeIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kStruct, "bits");
  ASSERT_TRUE(c.b().type(id).kflag());
  // Member 'c': 7 bits at 8 -> 6 bits at 8.
  const XcResult r = cross_check(patched(c, id, kMembers + 12 * 2 + 8, [](uint32_t v) { return v - (1u << 24); }));
  expect_only(r, "XC-DW-001", id);
  EXPECT_NE(r.listing.find("bitfield size 6 in BTF, 7 in DWARF"), std::string::npos) << r.listing;
}

TEST_F(BtfDwarf, AnonymousMemberIsFoundAtItsType) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t outer = c.find(btf::kStruct, "anon_members");
  // The anonymous union is member 1; its anonymous struct member 2 holds 'lo', 'hi'.
  const uint32_t uni = btf::member_at(c.b().type(outer), 1).type;
  const uint32_t inner = btf::member_at(c.b().type(uni), 2).type;
  ASSERT_EQ(c.b().type(inner).kind(), btf::kStruct);
  const XcResult r = cross_check(patched(c, inner, kMembers + 12 * 1 + 8, [](uint32_t v) { return v + 8; }));
  expect_only(r, "XC-DW-001", inner);
  EXPECT_NE(r.listing.find("reached from struct 'anon_members'"), std::string::npos) << r.listing;
}

TEST_F(BtfDwarf, TypedefTargetIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kTypedef, "bits_t");
  const uint32_t other = c.find(btf::kStruct, "packed");
  const XcResult r = cross_check(patched(c, id, 8, [&](uint32_t) { return other; }));
  expect_only(r, "XC-DW-001", id);
  EXPECT_NE(r.listing.find("'struct packed' in BTF, 'struct bits' in DWARF"), std::string::npos) << r.listing;
}

TEST_F(BtfDwarf, MemberTypeIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kStruct, "matrices");
  // Member 9 'e8' (enum u8_enum) -> enum packed_signed.
  const uint32_t other = c.find(btf::kEnum, "packed_signed");
  const XcResult r = cross_check(patched(c, id, kMembers + 12 * 9 + 4, [&](uint32_t) { return other; }));
  expect_only(r, "XC-DW-001", id);
}

// ---------------------------------------------------------------- XC-DW-002

TEST_F(BtfDwarf, EnumValueIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kEnum, "small_signed");
  const XcResult r = cross_check(patched(c, id, kMembers + 8 * 2 + 4, [](uint32_t) { return 2; }));  // ONE = 2
  expect_only(r, "XC-DW-002", id);
  EXPECT_NE(r.listing.find("enumerator 'ONE' is 2 in BTF, 1 in DWARF"), std::string::npos) << r.listing;
}

TEST_F(BtfDwarf, Enum64ValueIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kEnum64, "big_unsigned");
  const XcResult r = cross_check(patched(c, id, kMembers + 8, [](uint32_t v) { return v ^ 1; }));  // BIG's hi word
  expect_only(r, "XC-DW-002", id);
}

TEST_F(BtfDwarf, EnumSignednessIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kEnum, "packed_enum");
  const XcResult r = cross_check(patched(c, id, 4, [](uint32_t info) { return info | 0x80000000u; }));
  expect_only(r, "XC-DW-002", id);
  EXPECT_NE(r.listing.find("signed in BTF, unsigned in DWARF"), std::string::npos) << r.listing;
}

TEST_F(BtfDwarf, EnumSizeIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kEnum, "packed_short");
  const XcResult r = cross_check(patched(c, id, 8, [](uint32_t) { return 4; }));
  expect_only(r, "XC-DW-002", id);
}

// ---------------------------------------------------------------- XC-DW-003

TEST_F(BtfDwarf, FlattenedArrayCountIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kStruct, "matrices");
  const uint32_t grid = btf::member_at(c.b().type(id), 0).type;  // int[3][4][5], flattened to 60 by pahole
  ASSERT_EQ(c.b().type(grid).kind(), btf::kArray);
  ASSERT_EQ(c.b().type(grid).payload(2), 60u);
  const XcResult r = cross_check(patched(c, grid, kMembers + 8, [](uint32_t) { return 59; }));
  expect_only(r, "XC-DW-003", id);
  EXPECT_NE(r.listing.find("'[59] int/4' in BTF, '[60] int/4' in DWARF"), std::string::npos) << r.listing;
}

TEST_F(BtfDwarf, FlexibleArrayWithElementsIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t id = c.find(btf::kStruct, "flex");
  const uint32_t data = btf::member_at(c.b().type(id), 1).type;
  ASSERT_EQ(c.b().type(data).payload(2), 0u);
  const XcResult r = cross_check(patched(c, data, kMembers + 8, [](uint32_t) { return 1; }));
  expect_only(r, "XC-DW-003", id);
}

// ---------------------------------------------------------------- XC-DW-004

TEST_F(BtfDwarf, ParameterTypeIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t func = c.find(btf::kFunc, "sum_flex");
  const uint32_t proto = c.b().type(func).type();
  const uint32_t long_int = c.find(btf::kInt, "long int");
  // Parameter 1 'n' (size_t) -> long int.
  const XcResult r = cross_check(patched(c, proto, kMembers + 8 * 1 + 4, [&](uint32_t) { return long_int; }));
  expect_only(r, "XC-DW-004", func);
  EXPECT_NE(r.listing.find("parameter 1 'n' type: 'long int/8' in BTF, 'size_t' in DWARF"), std::string::npos)
      << r.listing;
}

TEST_F(BtfDwarf, ParameterNameAndCountAreFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t func = c.find(btf::kFunc, "qualified");
  const uint32_t proto = c.b().type(func).type();
  const uint32_t other_name = c.b().type(c.find(btf::kFunc, "pick")).name_off();
  const XcResult r = cross_check(patched(c, proto, kMembers, [&](uint32_t) { return other_name; }));
  expect_only(r, "XC-DW-004", func);
  // The last parameter made void: variadic in BTF.
  const XcResult r2 = cross_check(patched(c, proto, kMembers + 8 * 1 + 4, [](uint32_t) { return 0; }));
  expect_only(r2, "XC-DW-004", func);
  EXPECT_NE(r2.listing.find("1+... parameters in BTF, 2 in DWARF"), std::string::npos) << r2.listing;
}

TEST_F(BtfDwarf, ReturnTypeIsFound) {
  const Checked c = open_checked(object("layouts.c"));
  const uint32_t func = c.find(btf::kFunc, "make_aligned");
  const uint32_t proto = c.b().type(func).type();
  const uint32_t other = c.find(btf::kStruct, "packed");
  const XcResult r = cross_check(patched(c, proto, 8, [&](uint32_t) { return other; }));
  expect_only(r, "XC-DW-004", func);
}

// ---------------------------------------------------------------- XC-DW-005

TEST_F(BtfDwarf, VariableTypeIsFound) {
  const Checked c = open_checked(object("other.c"));
  const uint32_t var = c.find(btf::kVar, "pcpu_counters");
  ASSERT_NE(var, 0u) << "pahole 1.24 encodes the .data..percpu variables";
  const uint32_t other = c.find(btf::kStruct, "local_only");
  const XcResult r = cross_check(patched(c, var, 8, [&](uint32_t) { return other; }));
  expect_only(r, "XC-DW-005", var);
}

TEST_F(BtfDwarf, VariableArrayCountIsXcDw003) {
  const Checked c = open_checked(object("other.c"));
  const uint32_t var = c.find(btf::kVar, "pcpu_depth");  // int[2][3]
  const uint32_t arr = c.b().type(var).type();
  ASSERT_EQ(c.b().type(arr).payload(2), 6u);
  const XcResult r = cross_check(patched(c, arr, kMembers + 8, [](uint32_t) { return 5; }));
  expect_only(r, "XC-DW-003", var);
}

// ---------------------------------------------------------------- XC-DW-006

TEST_F(BtfDwarf, TypeTagsAgreeAndAMissingTagIsFound) {
  ELFMETA_REQUIRE_INSTALLED(run("clang --version") == 0, "clang is not installed (package clang)");
  const Checked c = open_checked(object("type_tags.c", "clang"));
  ASSERT_TRUE(c.btf.btf);
  const uint32_t id = c.find(btf::kStruct, "tagged");
  EXPECT_NE(c.find(btf::kTypeTag, "user"), 0u);
  const XcResult clean = cross_check(c);
  EXPECT_TRUE(clean.findings.empty()) << clean.listing;
  // Member 'up': PTR -> TYPE_TAG user -> int; point the PTR at int.
  const uint32_t ptr = btf::member_at(c.b().type(id), 0).type;
  const uint32_t tag = c.b().type(ptr).type();
  ASSERT_EQ(c.b().type(tag).kind(), btf::kTypeTag);
  const uint32_t target = c.b().type(tag).type();
  const XcResult r = cross_check(patched(c, ptr, 8, [&](uint32_t) { return target; }));
  // The PTR is shared with read_user's parameter 'p'.
  EXPECT_EQ(r.count("XC-DW-006"), r.findings.size()) << r.listing;
  EXPECT_GE(r.count("XC-DW-006"), 1u) << r.listing;
  bool at_struct = false;
  for (const auto& d : r.findings) at_struct |= d.location.index == id;
  EXPECT_TRUE(at_struct) << r.listing;
}

// ---------------------------------------------------------------- XC-SYM-004

// clang -O2 removes drop_middle's dead parameter under the function's own
// name: `c` arrives in rsi. pahole 1.24 encodes the source prototype. The
// twin: clang -O0, which keeps every parameter where the ABI puts it.
TEST_F(BtfDwarf, ClangDroppedParameterIsXcSym004) {
  ELFMETA_REQUIRE_INSTALLED(run("clang --version") == 0, "clang is not installed (package clang)");
  const Checked clean = open_checked(object("abi.c", "clang", "-O0"));
  ASSERT_TRUE(clean.btf.btf);
  const XcResult twin = cross_check(clean);
  EXPECT_TRUE(twin.findings.empty()) << twin.listing;

  const Checked c = open_checked(object("abi.c", "clang", "-O2"));
  ASSERT_TRUE(c.btf.btf);
  const XcResult r = cross_check(c);
  expect_only(r, "XC-SYM-004", c.find(btf::kFunc, "drop_middle"));
  EXPECT_NE(r.listing.find("parameter 2 'c' arrives in rsi, not in rdx as the prototype has it"), std::string::npos)
      << r.listing;
  // mix's double takes no integer register: its longs are where they belong.
  EXPECT_NE(c.find(btf::kFunc, "mix"), 0u);
  EXPECT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("1 FUNCs whose code has another ABI (XC-SYM-004)"), std::string::npos) << r.notes[0];
}

// GCC -O2 turns drop_middle into drop_middle.constprop.0 without the dead
// parameter; pahole 1.24 writes no FUNC for it (the clean twin). The BTF of
// the -O0 build put on the -O2 object describes the clone by the source
// prototype: found from the clone's DWARF; with the symtab, the symbol
// check reports it (no symbol of the name) and this check stays quiet.
TEST_F(BtfDwarf, GccCloneDescribedBySourcePrototypeIsXcSym004) {
  const Checked own = open_checked(object("abi.c", "gcc", "-O2"));
  ASSERT_TRUE(own.btf.btf);
  const XcResult twin = cross_check(own);
  if (own.find(btf::kFunc, "drop_middle") == 0)
    EXPECT_TRUE(twin.findings.empty()) << twin.listing;
  else
    EXPECT_EQ(twin.count("XC-SYM-004"), 1u) << "a pahole that encodes clones:\n" << twin.listing;

  const fs::path o0 = dir_ / "abi-O0.o", o2 = dir_ / "abi-O2.o", detached = dir_ / "abi-O0.btf";
  ASSERT_EQ(run("gcc -g -O0 -c " + (kCorpus / "abi.c").string() + " -o " + o0.string()), 0);
  ASSERT_EQ(run("gcc -g -O2 -c " + (kCorpus / "abi.c").string() + " -o " + o2.string()), 0);
  ASSERT_EQ(run("pahole --btf_encode_detached=" + detached.string() + " " + o0.string()), 0);
  ASSERT_EQ(run("objcopy --add-section .BTF=" + detached.string() + " " + o2.string()), 0);
  const Checked c = open_checked(o2);
  ASSERT_TRUE(c.btf.btf);
  const uint32_t id = c.find(btf::kFunc, "drop_middle");
  ASSERT_NE(id, 0u);
  const XcResult r = cross_check(c);
  expect_only(r, "XC-SYM-004", id);
  EXPECT_NE(r.listing.find("parameter 2 'c' arrives in rsi"), std::string::npos) << r.listing;

  const auto symbols = input::symbols_from_symtab(*c.artifact);
  ASSERT_TRUE(symbols);
  EXPECT_EQ(symbols->find("drop_middle"), nullptr);
  EXPECT_EQ(cross_check(c, &*symbols).count("XC-SYM-004"), 0u);
}

// DW_AT_calling_convention DW_CC_nocall: clang's IR of abi.c with keeps_abi's
// subroutine type marked nocall (as LLVM marks functions whose signature it
// changed); pahole 1.24 encodes such functions. The twin: the IR unchanged.
// Without variable tracking GCC describes a parameter by one location for
// its whole scope, its home after the prologue (use_drop_middle's `x` in
// rbx, use_mix's `b` in rcx), as GCC 12 did for three functions of the
// Debian 6.12 vmlinux (dmar_alloc_hwirq's `id` in rbx). It says nothing
// about where the parameter arrives: no XC-SYM-004. The clone's ABI change
// is still found from its DWARF at -O2 with variable tracking (above).
TEST_F(BtfDwarf, GccWithoutVariableTrackingIsNotXcSym004) {
  const Checked c = open_checked(object("abi.c", "gcc", "-O2 -fno-var-tracking"));
  ASSERT_TRUE(c.btf.btf);
  ASSERT_NE(c.find(btf::kFunc, "use_drop_middle"), 0u);
  ASSERT_NE(c.find(btf::kFunc, "use_mix"), 0u);
  const XcResult r = cross_check(c);
  EXPECT_TRUE(r.findings.empty()) << r.listing;
}

TEST_F(BtfDwarf, NocallSubprogramIsXcSym004) {
  ELFMETA_REQUIRE_INSTALLED(run("clang --version") == 0, "clang is not installed (package clang)");
  const fs::path ll = dir_ / "abi.ll";
  ASSERT_EQ(run("clang -g -O0 -S -emit-llvm " + (kCorpus / "abi.c").string() + " -o " + ll.string()), 0);
  std::ifstream in(ll);
  const std::string ir((std::istreambuf_iterator<char>(in)), {});
  // keeps_abi's prototype (int, long, int *) is its own DISubroutineType.
  const size_t sub = ir.find("!DISubprogram(name: \"keeps_abi\"");
  ASSERT_NE(sub, std::string::npos);
  const size_t ref = ir.find("type: !", sub);
  ASSERT_NE(ref, std::string::npos);
  const std::string node = ir.substr(ref + 6, ir.find_first_of(",)", ref) - ref - 6);  // "!N"
  const std::string decl = "\n" + node + " = !DISubroutineType(types: ";
  const size_t at = ir.find(decl);
  ASSERT_NE(at, std::string::npos) << node;
  ASSERT_EQ(ir.find("type: " + node + ",", ref + 1), std::string::npos) << node << " is shared";
  std::string nocall = ir;
  nocall.insert(at + decl.size() - std::string("types: ").size(), "cc: DW_CC_nocall, ");

  for (const bool mark : {false, true}) {
    SCOPED_TRACE(mark ? "DW_CC_nocall" : "unchanged");
    const fs::path src = dir_ / (mark ? "nocall.ll" : "plain.ll"), obj = dir_ / (mark ? "nocall.o" : "plain.o");
    std::ofstream(src) << (mark ? nocall : ir);
    ASSERT_EQ(run("clang -g -c " + src.string() + " -o " + obj.string()), 0);
    ASSERT_EQ(run("pahole -J " + obj.string()), 0);
    const Checked c = open_checked(obj);
    ASSERT_TRUE(c.btf.btf);
    const XcResult r = cross_check(c);
    if (!mark) {
      EXPECT_TRUE(r.findings.empty()) << r.listing;
      continue;
    }
    expect_only(r, "XC-SYM-004", c.find(btf::kFunc, "keeps_abi"));
    EXPECT_NE(r.listing.find("DW_CC_nocall"), std::string::npos) << r.listing;
  }
}

}  // namespace
}  // namespace elfmeta::testing
