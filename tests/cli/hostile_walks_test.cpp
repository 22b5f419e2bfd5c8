// The walk audit's hostile shapes (issue 27): inputs of a few megabytes at
// most whose walks were quadratic in time or memory. Each runs the CLI under
// a CPU and an address-space limit far above what the fixed code needs and
// far below what the old code took (figures in each test's comment, measured
// on the same input with `/usr/bin/time -v`), and asserts on what the run
// reports, never on its time.
#include <elf.h>
#include <sys/resource.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.h"
#include "input/symbols.h"
#include "synth/btf_builder.h"
#include "synth/elf_writer.h"
#include "tests/support/measured_run.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;
using synth::ElfWriter;
using Bytes = std::vector<uint8_t>;

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The count of `rule` in the text report: its group's "RULE: 30,000
// warnings: ..." line, or its entry in the notes' "(RULE: 30,000, ...)";
// 0 when it is in neither.
uint64_t rule_count(const std::string& text, const std::string& rule) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(rule + ": ([0-9,]+)[ ,)]"))) return 0;
  std::string digits = m[1].str();
  digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
  return std::stoull(digits);
}

std::string write_input(const std::string& name, const Bytes& bytes) {
  const std::string path = (scratch_dir("hostile-walks") / name).string();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
  return path;
}

// T10: 30,000 sections and a .BTF of 30,000 INT records with names that are
// no C base type. XC-CONV-002 asks is_vmlinux() per INT record, which was up
// to five linear searches of the section table each: 16.8 s at ac91e86,
// 0.14 s with the section index.
TEST(HostileWalks, ManySectionsAreLookedUpByIndex) {
  constexpr uint32_t kSections = 30000, kInts = 30000;
  BtfBuilder b;
  for (uint32_t i = 0; i < kInts; ++i) b.add_int("x" + std::to_string(i), 4, 32);
  ElfWriter w(ET_EXEC);
  for (uint32_t i = 0; i < kSections; ++i) w.add_section({".s" + std::to_string(i % 7), SHT_PROGBITS, 0, 0, 1, 0, {}});
  w.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
  const auto r = run_cli_measured({"check", "--only", "btf,xc", write_input("sections.elf", w.write())}, 5, 1024);
  ASSERT_EQ(r.signal, 0) << "CPU " << r.cpu_seconds << " s";
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rule_count(r.out, "XC-CONV-002"), 30000u) << r.out.substr(r.out.size() - 400);
}

// M1: a .symtab of 2,000 symbols that all name one 1 MB string (a 1 MB
// file). Every name was copied: 1.97 GB peak RSS and 3.3 s at ac91e86;
// 8 MB and 0.02 s with the names left in the string table.
TEST(HostileWalks, SymbolNamesStayInTheStringTable) {
  constexpr uint32_t kSymbols = 2000;
  constexpr size_t kLength = 1 << 20;
  ElfWriter w(ET_REL);
  const uint32_t text = w.add_section({".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 16, 0, Bytes(16, 0xc3)});
  const std::string name(kLength, 'a');
  for (uint32_t i = 0; i < kSymbols; ++i) w.add_symbol(i ? std::string() : name, 16 * i, 0, STT_FUNC, STB_GLOBAL, text);
  Bytes elf = w.write();
  // The writer stores each name; point every symbol at the first one.
  Elf64_Ehdr eh;
  std::memcpy(&eh, elf.data(), sizeof eh);
  for (uint32_t k = 1; k < eh.e_shnum; ++k) {
    Elf64_Shdr sh;
    std::memcpy(&sh, elf.data() + eh.e_shoff + k * sizeof sh, sizeof sh);
    if (sh.sh_type != SHT_SYMTAB) continue;
    for (uint64_t at = sh.sh_offset + sizeof(Elf64_Sym); at < sh.sh_offset + sh.sh_size; at += sizeof(Elf64_Sym)) {
      const uint32_t first = 1;
      std::memcpy(elf.data() + at, &first, 4);
    }
  }
  const auto r = run_cli_measured({"check", write_input("names.o", elf)}, 10, 1024);
  ASSERT_EQ(r.signal, 0) << "peak " << r.max_rss_mb << " MB";
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_LT(r.max_rss_mb, 200);
}

// T1: a raw BTF of an INT and 40,000 byte-identical PTR records. The
// index of records by content walked every copy for each: 26.6 s at
// ac91e86, 0.03 s with one entry per distinct content.
TEST(HostileWalks, ByteIdenticalCopiesAreFoundByContent) {
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  for (int i = 0; i < 40000; ++i) b.add_ptr(1);
  const auto r = run_cli_measured({"check", "--only", "xc", write_input("copies.btf", b.build())}, 5, 1024);
  ASSERT_EQ(r.signal, 0) << "CPU " << r.cpu_seconds << " s";
  EXPECT_EQ(rule_count(r.out, "XC-DEDUP-001"), 39999u) << r.out.substr(r.out.size() - 400);
}

// An image with a .symtab and .BTF: `symbols` as (name, value, size, type)
// absolute symbols, extra sections as given.
struct ImageSymbol {
  std::string name;
  uint64_t value, size;
  uint8_t type = STT_OBJECT;
  std::string section = {};  // one of the extra sections; "": absolute
};
Bytes image(const Bytes& btf, const std::vector<ImageSymbol>& symbols, std::vector<synth::ElfSectionSpec> extra = {}) {
  ElfWriter w(ET_EXEC);
  w.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, btf});
  std::map<std::string, uint32_t> index;
  for (auto& s : extra) {
    const std::string name = s.name;
    index[name] = w.add_section(std::move(s));
  }
  for (const auto& s : symbols)
    w.add_symbol(s.name, s.value, s.size, s.type, STB_GLOBAL, s.section.empty() ? SHN_ABS : index.at(s.section));
  return w.write();
}

// The percpu area of `vars` 8-byte symbols: __per_cpu_start, the symbols
// named by `name_of`, __per_cpu_end, in a zero-based .data..percpu (x86-64
// up to 6.14), which image() is given as percpu_section(vars).
std::vector<ImageSymbol> percpu_symbols(size_t vars, std::string (*name_of)(size_t)) {
  std::vector<ImageSymbol> out{{"__per_cpu_start", 0, 0, STT_NOTYPE, ".data..percpu"}};
  for (size_t i = 0; i < vars; ++i) out.push_back({name_of(i), 8 + 8 * i, 8, STT_OBJECT, ".data..percpu"});
  out.push_back({"__per_cpu_end", 8 + 8 * vars, 0, STT_NOTYPE, ".data..percpu"});
  return out;
}
synth::ElfSectionSpec percpu_section(size_t vars) {
  return {".data..percpu", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0, 64, 0, {}, 8 + 8 * vars};
}

// M4 and O3: 5,000 DATASECs named .data..percpu and 5,000 percpu symbols.
// Each DATASEC walked every symbol and kept the name of each without a VAR:
// 16.8 s and 1.06 GB at ac91e86; 0.04 s and 9 MB checking the first only,
// with one note for the others.
TEST(HostileWalks, OnePercpuPassHoweverManyPercpuDatasecs) {
  constexpr size_t kDatasecs = 5000, kVars = 5000;
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  for (size_t i = 0; i < kDatasecs; ++i) b.add_datasec(".data..percpu", 8, {});
  const Bytes elf =
      image(b.build(), percpu_symbols(kVars, [](size_t i) { return "v" + std::to_string(i); }), {percpu_section(kVars)});
  const auto r = run_cli_measured({"check", "--verbose", write_input("percpu.elf", elf)}, 5, 1024);
  ASSERT_EQ(r.signal, 0) << "CPU " << r.cpu_seconds << " s, peak " << r.max_rss_mb << " MB";
  EXPECT_EQ(rule_count(r.out, "XC-SYM-007"), 5000u) << r.out.substr(r.out.size() - 600);
  EXPECT_EQ(count_of(r.out, "4999 more DATASECs named '.data..percpu'"), 1u) << r.out.substr(r.out.size() - 600);
  EXPECT_LT(r.max_rss_mb, 200);
}

// T9: 30,000 percpu symbols named x and a DATASEC of 30,000 VARs x. Each
// VAR looked up every symbol of its name: about 17 s at ac91e86 (48.8 s
// for 50,000 of each); 0.2 s with the symbols grouped by name once.
TEST(HostileWalks, SymbolsOfOneNameAreGroupedOnce) {
  constexpr uint32_t kSymbols = 30000, kVars = 30000;
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t var = b.add_var("x", int_id, 1);
  std::vector<BtfBuilder::SecInfoSpec> entries(kVars, {var, 0, 4});
  b.add_datasec(".data..percpu", 8 * kVars, entries);
  const Bytes elf =
      image(b.build(), percpu_symbols(kSymbols, [](size_t) { return std::string("x"); }), {percpu_section(kSymbols)});
  const auto r = run_cli_measured({"check", write_input("one-name.elf", elf)}, 5, 1024);
  ASSERT_EQ(r.signal, 0) << "CPU " << r.cpu_seconds << " s";
  EXPECT_EQ(rule_count(r.out, "XC-SYM-005"), 30000u) << r.out.substr(r.out.size() - 600);
}

// T8: a .BTF_ids of 30,000 words, each a BTF_SET header whose count runs to
// the section's end, and a set symbol at each: 171 s and 450 million
// XC-SYM-013 findings at ac91e86; 0.4 s with a budget of twice the
// section's words, and one note for the sets left unchecked.
TEST(HostileWalks, OverlappingBtfIdSetsHaveABudget) {
  constexpr uint32_t kWords = 30000;
  Bytes ids(4 * kWords);
  for (uint32_t i = 0; i < kWords; ++i) {
    const uint32_t count = kWords - i - 1;
    std::memcpy(ids.data() + 4 * i, &count, 4);
  }
  constexpr uint64_t kAt = 0xffffffff82000000;
  std::vector<ImageSymbol> symbols;
  for (uint32_t i = 0; i < kWords; ++i) symbols.push_back({"__BTF_ID__set__s" + std::to_string(i), kAt + 4 * i, 4});
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  const Bytes elf = image(b.build(), symbols, {{".BTF_ids", SHT_PROGBITS, SHF_ALLOC, kAt, 4, 0, ids}});
  const auto r = run_cli_measured({"check", "--verbose", write_input("btf-ids.elf", elf)}, 5, 1024);
  ASSERT_EQ(r.signal, 0) << "CPU " << r.cpu_seconds << " s";
  EXPECT_EQ(count_of(r.out, "BTF id sets not checked (XC-SYM-013)"), 1u) << r.out.substr(r.out.size() - 600);
}

// T8: the same set named by 100,000 symbols at one offset is one set. At
// ac91e86 each symbol was a set of its own (it did not finish in 10 min).
TEST(HostileWalks, OneBtfIdSetPerOffset) {
  constexpr uint32_t kWords = 100000;
  Bytes ids(4 * kWords);
  for (uint32_t i = 0; i < kWords; ++i) {
    const uint32_t count = kWords - i - 1;
    std::memcpy(ids.data() + 4 * i, &count, 4);
  }
  constexpr uint64_t kAt = 0xffffffff82000000;
  std::vector<ImageSymbol> symbols;
  for (uint32_t i = 0; i < kWords; ++i) symbols.push_back({"__BTF_ID__set__s" + std::to_string(i), kAt, 4});
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  const Bytes elf = image(b.build(), symbols, {{".BTF_ids", SHT_PROGBITS, SHF_ALLOC, kAt, 4, 0, ids}});
  const auto r = run_cli_measured({"check", "--verbose", write_input("btf-ids-one.elf", elf)}, 5, 1024);
  ASSERT_EQ(r.signal, 0) << "CPU " << r.cpu_seconds << " s";
  // One set of 99,999 entries in descending order: each entry after the
  // first is out of order.
  EXPECT_EQ(rule_count(r.out, "XC-SYM-013"), 99998u) << r.out.substr(r.out.size() - 600);
  EXPECT_EQ(count_of(r.out, "not checked (XC-SYM-013)"), 0u);
}

// T11: a BPF object whose .ksyms DATASEC has 65,535 entries on one extern
// FUNC of a 65,535-parameter prototype. libbpf's renaming of the unnamed
// parameters ran once per entry: 13.4 s at ac91e86, 0.18 s once per
// prototype.
TEST(HostileWalks, KsymsPrototypeIsRenamedOnce) {
  constexpr uint32_t kEntries = 65535, kParams = 65535;
  BtfBuilder b;
  const uint32_t int_id = b.add_int("int", 4, 32, 1);
  const uint32_t proto = b.add_func_proto(int_id, std::vector<BtfBuilder::ParamSpec>(kParams, {"", int_id}));
  const uint32_t func = b.add_func("f", proto, 2);
  b.add_datasec(".ksyms", 0, std::vector<BtfBuilder::SecInfoSpec>(kEntries, {func, 0, 0}));
  ElfWriter w(ET_REL, EM_BPF);
  w.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
  const auto r = run_cli_measured({"check", write_input("ksyms.o", w.write())}, 5, 1024);
  ASSERT_EQ(r.signal, 0) << "CPU " << r.cpu_seconds << " s";
  EXPECT_EQ(rule_count(r.out, "XC-CONV-006"), 1u) << r.out.substr(r.out.size() - 600);
}

// T3.6: a BPF object with 10,000 CO-RE relocations whose access string is
// one string of a million '0's. Each was scanned, split and parsed whole:
// 41.2 s at ac91e86; 0.11 s reading at most 1,025 bytes of each, and one
// note for the strings that prefix cannot judge.
TEST(HostileWalks, AccessStringsAreReadWithABound) {
  constexpr uint32_t kRelocations = 10000;
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  const uint32_t prog = b.str("prog");
  const uint32_t access = b.str(std::string(1000000, '0'));
  const auto put = [](Bytes& out, uint32_t v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), p, p + 4);
  };
  Bytes relos;
  put(relos, 16);  // record size
  put(relos, prog);
  put(relos, kRelocations);
  for (uint32_t i = 0; i < kRelocations; ++i) {
    put(relos, 8 * (i % 64));  // insn_off
    put(relos, 1);             // type_id
    put(relos, access);
    put(relos, 0);  // BPF_CORE_FIELD_BYTE_OFFSET
  }
  Bytes ext = {0x9f, 0xeb, 1, 0};
  for (uint32_t v : {32u, 0u, 0u, 0u, 0u, 0u, static_cast<uint32_t>(relos.size())}) put(ext, v);
  ext.insert(ext.end(), relos.begin(), relos.end());
  ElfWriter w(ET_REL, EM_BPF);
  w.add_section({"prog", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 8, 0, Bytes(8 * 64, 0)});
  w.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
  w.add_section({".BTF.ext", SHT_PROGBITS, 0, 0, 4, 0, ext});
  const auto r = run_cli_measured({"check", "--verbose", write_input("core.o", w.write())}, 5, 1024);
  ASSERT_EQ(r.signal, 0) << "CPU " << r.cpu_seconds << " s";
  EXPECT_EQ(count_of(r.out, "10000 CO-RE access strings longer than 1024 bytes"), 1u) << r.out;
}

// T12: a stripped image whose .rodata holds 2 MB of 0xff, then 4,096
// consistent kallsyms token tables and nothing else. Every table scanned
// .rodata for its marker array: 42.2 s at ac91e86; 0.04 s trying the
// first eight.
TEST(HostileWalks, KallsymsTokenTablesAreCapped) {
  Bytes table;
  std::vector<uint16_t> index;
  for (int c = 0; c < 256; ++c) {
    index.push_back(static_cast<uint16_t>(table.size()));
    if (c == 0) table.push_back('z');  // tokens are never empty
    table.push_back(static_cast<uint8_t>(c ? c : 'z'));
    table.push_back(0);
  }
  while (table.size() % 8) table.push_back(0);
  for (const uint16_t i : index) {
    table.push_back(static_cast<uint8_t>(i));
    table.push_back(static_cast<uint8_t>(i >> 8));
  }
  Bytes rodata(2 << 20, 0xff);
  for (int i = 0; i < 4096; ++i) rodata.insert(rodata.end(), table.begin(), table.end());
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  ElfWriter w(ET_EXEC);
  w.add_section({".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0xffffffff81000000, 16, 0, Bytes(16, 0xcc)});
  w.add_section({".rodata", SHT_PROGBITS, SHF_ALLOC, 0xffffffff82000000, 8, 0, rodata});
  w.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
  const auto r = run_cli_measured({"check", write_input("tokens.elf", w.write())}, 5, 1024);
  ASSERT_EQ(r.signal, 0) << "CPU " << r.cpu_seconds << " s";
  EXPECT_EQ(r.status, 0) << r.err;
}

// The reproducers and seeds tools/walk-audit-inputs wrote (regress/fuzz_input,
// fuzz/corpus) through the code of the fuzz targets that reach them, each
// in a child under the limits of tools/fuzz-smoke (10 s, 2,560 MB): the
// fuzz smoke test replays them only where clang-14 builds the targets.
class WalkAuditInputs : public ::testing::TestWithParam<std::string> {};

std::vector<std::string> walk_audit_inputs() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const char* dir : {"regress/fuzz_input", "fuzz/corpus/fuzz_input", "fuzz/corpus/fuzz_btf_xc",
                          "fuzz/corpus/fuzz_kallsyms"})
    for (const auto& e : fs::directory_iterator(fs::path(ELFMETA_SOURCE_DIR) / dir))
      if (e.path().filename().string().starts_with("walk-")) out.push_back(std::string(dir) + "/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST_P(WalkAuditInputs, RunCleanThroughTheirFuzzTarget) {
  const std::string path = std::string(ELFMETA_SOURCE_DIR) + "/" + GetParam();
  const std::string bytes = slurp(path);
  ASSERT_FALSE(bytes.empty()) << path;
  const pid_t pid = ::fork();
  if (pid == 0) {
    const rlimit cpu{10, 10}, as{2560ul << 20, 2560ul << 20};
    ::setrlimit(RLIMIT_CPU, &cpu);
    ::setrlimit(RLIMIT_AS, &as);
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    if (GetParam().find("fuzz_btf_xc") != std::string::npos) {  // fuzz_btf_xc.cpp
      NullSink sink;
      fuzz::check_xc_input(data, bytes.size(), sink);
    } else if (GetParam().find("fuzz_kallsyms") != std::string::npos) {  // fuzz_kallsyms.cpp
      std::string why;
      input::symbols_from_kallsyms_text(bytes, "fuzz", why);
      auto opened = input::open_bytes("fuzz", fuzz::linked_elf({{".rodata", {data, data + bytes.size()}, SHF_ALLOC},
                                                                 {"__ksymtab", std::vector<uint8_t>(16, 0), SHF_ALLOC}},
                                                                ET_EXEC));
      if (opened.artifact) input::symbols_from_image_kallsyms(*opened.artifact, why);
    } else {  // fuzz_input.cpp
      auto opened = input::open_bytes("fuzz", std::vector<uint8_t>(data, data + bytes.size()));
      if (!opened.artifact) ::_exit(3);
      fuzz::check_everything(*opened.artifact);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << GetParam() << ": " << (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                                     : "exit " + std::to_string(WEXITSTATUS(status)));
}

INSTANTIATE_TEST_SUITE_P(Files, WalkAuditInputs, ::testing::ValuesIn(walk_audit_inputs()), [](const auto& info) {
  std::string name = info.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

}  // namespace
}  // namespace elfmeta::testing
