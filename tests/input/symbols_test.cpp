// Symbol indexes: an ELF .symtab with nm's letters, /proc/kallsyms and
// System.map text (and Debian's placeholder System.map), and the compressed
// kallsyms tables of a stripped kernel image, encoded here from a symbol list
// in both table orders and both offset encodings, then decoded; hostile
// .rodata must give a reason, never a crash or a hang.
#include "input/symbols.h"

#include <elf.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <random>

namespace elfmeta::input {
namespace {

using Bytes = std::vector<uint8_t>;

// ---------------------------------------------------------------------------
// A small ELF writer with what tests/support/elf_builder.h leaves out:
// addresses, flags, links and entry sizes, in ELF32 or ELF64 (little endian).

struct Sec {
  std::string name;
  uint32_t type = SHT_PROGBITS;
  uint64_t flags = 0, addr = 0;
  Bytes data{};
  uint32_t link = 0, info = 0;
  uint64_t entsize = 0, nobits_size = 0;
};

template <typename T>
void put(Bytes& out, size_t at, T v) {
  if (out.size() < at + sizeof v) out.resize(at + sizeof v);
  std::memcpy(out.data() + at, &v, sizeof v);
}

template <typename T>
void append(Bytes& out, T v) {
  put(out, out.size(), v);
}

// Section i of `sections` gets ELF index i + 1; .shstrtab comes last.
Bytes write_elf(const std::vector<Sec>& sections, bool elf64 = true) {
  const size_t ehsize = elf64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
  Bytes out(ehsize, 0);
  std::string shstrtab(1, '\0');
  std::vector<Sec> all = sections;
  all.push_back({".shstrtab", SHT_STRTAB});
  std::vector<uint32_t> names;
  std::vector<uint64_t> offsets;
  for (const auto& s : all) {
    names.push_back(static_cast<uint32_t>(shstrtab.size()));
    shstrtab += s.name + '\0';
  }
  all.back().data.assign(shstrtab.begin(), shstrtab.end());
  for (const auto& s : all) {
    while (out.size() % 8) out.push_back(0);
    offsets.push_back(out.size());
    if (s.type != SHT_NOBITS) out.insert(out.end(), s.data.begin(), s.data.end());
  }
  while (out.size() % 8) out.push_back(0);
  const uint64_t shoff = out.size();
  const size_t count = all.size() + 1;
  if (elf64) {
    out.resize(out.size() + sizeof(Elf64_Shdr), 0);  // the null section
    for (size_t i = 0; i < all.size(); ++i) {
      const Sec& s = all[i];
      Elf64_Shdr h{};
      h.sh_name = names[i];
      h.sh_type = s.type;
      h.sh_flags = s.flags;
      h.sh_addr = s.addr;
      h.sh_offset = offsets[i];
      h.sh_size = s.type == SHT_NOBITS ? s.nobits_size : s.data.size();
      h.sh_link = s.link;
      h.sh_info = s.info;
      h.sh_addralign = 1;
      h.sh_entsize = s.entsize;
      append(out, h);
    }
    Elf64_Ehdr eh{};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = EM_X86_64;
    eh.e_version = EV_CURRENT;
    eh.e_shoff = shoff;
    eh.e_ehsize = sizeof eh;
    eh.e_shentsize = sizeof(Elf64_Shdr);
    eh.e_shnum = static_cast<Elf64_Half>(count);
    eh.e_shstrndx = static_cast<Elf64_Half>(count - 1);
    put(out, 0, eh);
  } else {
    out.resize(out.size() + sizeof(Elf32_Shdr), 0);
    for (size_t i = 0; i < all.size(); ++i) {
      const Sec& s = all[i];
      Elf32_Shdr h{};
      h.sh_name = names[i];
      h.sh_type = s.type;
      h.sh_flags = static_cast<Elf32_Word>(s.flags);
      h.sh_addr = static_cast<Elf32_Addr>(s.addr);
      h.sh_offset = static_cast<Elf32_Off>(offsets[i]);
      h.sh_size = static_cast<Elf32_Word>(s.type == SHT_NOBITS ? s.nobits_size : s.data.size());
      h.sh_link = s.link;
      h.sh_info = s.info;
      h.sh_addralign = 1;
      h.sh_entsize = static_cast<Elf32_Word>(s.entsize);
      append(out, h);
    }
    Elf32_Ehdr eh{};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS32;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = EM_386;
    eh.e_version = EV_CURRENT;
    eh.e_shoff = static_cast<Elf32_Off>(shoff);
    eh.e_ehsize = sizeof eh;
    eh.e_shentsize = sizeof(Elf32_Shdr);
    eh.e_shnum = static_cast<Elf32_Half>(count);
    eh.e_shstrndx = static_cast<Elf32_Half>(count - 1);
    put(out, 0, eh);
  }
  return out;
}

std::unique_ptr<Artifact> open_elf(const std::vector<Sec>& sections, bool elf64 = true) {
  auto opened = open_bytes("test.elf", write_elf(sections, elf64));
  EXPECT_TRUE(opened.artifact) << opened.error;
  return std::move(opened.artifact);
}

// ---------------------------------------------------------------------------
// .symtab

struct SymSpec {
  std::string name;
  uint64_t value = 0, size = 0;
  uint8_t bind = STB_GLOBAL, type = STT_FUNC;
  uint16_t shndx = 0;
};

// .symtab and .strtab entries, for sections that come after `first_index - 1` others.
std::pair<Bytes, Bytes> symtab_bytes(const std::vector<SymSpec>& syms, bool elf64) {
  Bytes table, strings(1, 0);
  const size_t entsize = elf64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
  table.resize(entsize, 0);  // the null symbol
  for (const auto& s : syms) {
    const uint32_t name = static_cast<uint32_t>(strings.size());
    strings.insert(strings.end(), s.name.begin(), s.name.end());
    strings.push_back(0);
    if (elf64) {
      Elf64_Sym e{};
      e.st_name = name;
      e.st_info = static_cast<unsigned char>(ELF64_ST_INFO(s.bind, s.type));
      e.st_shndx = s.shndx;
      e.st_value = s.value;
      e.st_size = s.size;
      append(table, e);
    } else {
      Elf32_Sym e{};
      e.st_name = name;
      e.st_info = static_cast<unsigned char>(ELF32_ST_INFO(s.bind, s.type));
      e.st_shndx = s.shndx;
      e.st_value = static_cast<Elf32_Addr>(s.value);
      e.st_size = static_cast<Elf32_Word>(s.size);
      append(table, e);
    }
  }
  return {table, strings};
}

// Sections 1 .text, 2 .data, 3 .rodata, 4 .bss, 5 .comment, 6 .symtab, 7 .strtab.
std::vector<Sec> object_with_symbols(const std::vector<SymSpec>& syms, bool elf64) {
  auto [table, strings] = symtab_bytes(syms, elf64);
  return {
      {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, Bytes(64, 0x90)},
      {".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x2000, Bytes(64, 1)},
      {".rodata", SHT_PROGBITS, SHF_ALLOC, 0x3000, Bytes(64, 2)},
      {".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0x4000, {}, 0, 0, 0, 64},
      {".comment", SHT_PROGBITS, 0, 0, Bytes(8, 'c')},
      {".symtab", SHT_SYMTAB, 0, 0, table, 7, 1, elf64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym)},
      {".strtab", SHT_STRTAB, 0, 0, strings},
  };
}

const std::vector<SymSpec> kSymbols = {
    {"file.c", 0, 0, STB_LOCAL, STT_FILE, SHN_ABS},
    {"", 0x1000, 0, STB_LOCAL, STT_SECTION, 1},
    {"main", 0x1010, 16, STB_GLOBAL, STT_FUNC, 1},
    {"helper", 0x1000, 8, STB_LOCAL, STT_FUNC, 1},
    {"counter", 0x2008, 4, STB_GLOBAL, STT_OBJECT, 2},
    {"table", 0x2000, 8, STB_LOCAL, STT_OBJECT, 2},
    {"banner", 0x3000, 12, STB_LOCAL, STT_OBJECT, 3},
    {"version", 0x3010, 4, STB_GLOBAL, STT_OBJECT, 3},
    {"buffer", 0x4000, 64, STB_GLOBAL, STT_OBJECT, 4},
    {"scratch", 0x4020, 8, STB_LOCAL, STT_OBJECT, 4},
    {"hook", 0x1020, 4, STB_WEAK, STT_FUNC, 1},
    {"weak_var", 0x2010, 4, STB_WEAK, STT_OBJECT, 2},
    {"absolute", 0x1234, 0, STB_GLOBAL, STT_NOTYPE, SHN_ABS},
    {"common_var", 16, 32, STB_GLOBAL, STT_OBJECT, SHN_COMMON},
    {"note", 0, 0, STB_LOCAL, STT_NOTYPE, 5},
    {"printf", 0, 0, STB_GLOBAL, STT_FUNC, SHN_UNDEF},
    {"resolver", 0x1030, 8, STB_GLOBAL, STT_GNU_IFUNC, 1},
    {"main", 0x1040, 4, STB_LOCAL, STT_FUNC, 1},  // a second "main", at a higher address
};

class SymbolsFromSymtab : public ::testing::TestWithParam<bool> {};

TEST_P(SymbolsFromSymtab, DefinedSymbolsWithNmLetters) {
  const bool elf64 = GetParam();
  auto a = open_elf(object_with_symbols(kSymbols, elf64), elf64);
  ASSERT_TRUE(a);
  ASSERT_EQ(a->elf64, elf64);
  const auto index = symbols_from_symtab(*a);
  ASSERT_TRUE(index);
  EXPECT_EQ(index->origin, "symtab");
  // FILE, SECTION and undefined symbols are left out.
  EXPECT_EQ(index->size(), kSymbols.size() - 3);
  EXPECT_EQ(index->find("file.c"), nullptr);
  EXPECT_EQ(index->find("printf"), nullptr);
  EXPECT_EQ(index->find(""), nullptr);
  const std::map<std::string, char> letters = {
      {"main", 'T'},       {"helper", 't'},     {"counter", 'D'}, {"table", 'd'},  {"banner", 'r'},
      {"version", 'R'},    {"buffer", 'B'},     {"scratch", 'b'}, {"hook", 'W'},   {"weak_var", 'V'},
      {"absolute", 'A'},   {"common_var", 'C'}, {"note", 'n'},    {"resolver", 'i'},
  };
  for (const auto& [name, letter] : letters) {
    const Symbol* s = index->find(name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_EQ(s->type, letter) << name;
  }
  const Symbol* main = index->find("main");
  EXPECT_EQ(main->address, 0x1010u);  // the first "main" by address
  EXPECT_EQ(main->size, 16u);
  EXPECT_EQ(main->section, 1u);
  EXPECT_TRUE(main->function());
  EXPECT_FALSE(index->find("counter")->function());
  EXPECT_EQ(index->find("buffer")->section, 4u);
  EXPECT_EQ(index->find("absolute")->section, 0u);
  EXPECT_EQ(index->find("absolute")->address, 0x1234u);
  // Sorted by address.
  EXPECT_TRUE(std::is_sorted(index->symbols().begin(), index->symbols().end(),
                             [](const Symbol& x, const Symbol& y) { return x.address < y.address; }));
}

// The compact reader keeps names in the string table; the index is built
// from it: both list the same symbols, in the same (address) order.
TEST_P(SymbolsFromSymtab, CompactTableListsTheIndexSymbols) {
  const bool elf64 = GetParam();
  auto a = open_elf(object_with_symbols(kSymbols, elf64), elf64);
  ASSERT_TRUE(a);
  for (const SymtabFilter filter : {SymtabFilter::All, SymtabFilter::Functions}) {
    const auto table = read_symtab(*a, filter);
    const auto index = symbols_from_symtab(*a, filter);
    ASSERT_TRUE(table && index);
    ASSERT_EQ(table->symbols.size(), index->size());
    for (size_t i = 0; i < table->symbols.size(); ++i) {
      const SymtabSymbol& t = table->symbols[i];
      const Symbol& s = index->symbols()[i];
      EXPECT_EQ(table->name(t), s.name) << i;
      EXPECT_EQ(t.address, s.address) << s.name;
      EXPECT_EQ(t.size, s.size) << s.name;
      EXPECT_EQ(t.type, s.type) << s.name;
      EXPECT_EQ(t.section, s.section) << s.name;
    }
  }
  const auto functions = read_symtab(*a, SymtabFilter::Functions);
  std::vector<std::string> names;
  for (const auto& t : functions->symbols) names.emplace_back(functions->name(t));
  EXPECT_EQ(names, (std::vector<std::string>{"helper", "main", "hook", "main"}));  // by address; IFUNC 'i' is not one
}

INSTANTIATE_TEST_SUITE_P(ElfClass, SymbolsFromSymtab, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "Elf64" : "Elf32"; });

TEST(SymbolsFromSymtabErrors, NoneWithoutSymtabOrStringTable) {
  auto plain = open_elf({{".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, Bytes(4, 0x90)}});
  ASSERT_TRUE(plain);
  EXPECT_FALSE(symbols_from_symtab(*plain));

  auto sections = object_with_symbols(kSymbols, true);
  sections[5].link = 1;  // .text is no string table
  auto broken = open_elf(sections);
  ASSERT_TRUE(broken);
  EXPECT_FALSE(symbols_from_symtab(*broken));

  Artifact raw;  // not ELF at all
  EXPECT_FALSE(symbols_from_symtab(raw));
}

TEST(SymbolsFromSymtabErrors, HostileEntriesAreBounded) {
  // Names past the string table, section indexes past the section table,
  // and a table whose size is no multiple of the entry size.
  std::vector<SymSpec> syms = {{"ok", 0x1000, 4, STB_GLOBAL, STT_FUNC, 1},
                               {"ghost", 0x5000, 4, STB_GLOBAL, STT_OBJECT, 200}};
  auto sections = object_with_symbols(syms, true);
  Elf64_Sym wild{};
  wild.st_name = 0xfffffff0;
  wild.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
  wild.st_shndx = 1;
  append(sections[5].data, wild);
  auto a = open_elf(sections);
  ASSERT_TRUE(a);
  const auto index = symbols_from_symtab(*a);
  ASSERT_TRUE(index);
  EXPECT_EQ(index->size(), 3u);
  ASSERT_NE(index->find("ghost"), nullptr);
  EXPECT_EQ(index->find("ghost")->type, '?');
  EXPECT_EQ(index->find("ghost")->section, 0u);
  EXPECT_NE(index->find(""), nullptr);  // the name past the table reads as empty

  // libelf hands out no data for a table that is no multiple of its entry
  // size; an artifact built otherwise may: the partial entry is ignored.
  Artifact b = *a;
  Bytes longer(a->section(".symtab")->data.begin(), a->section(".symtab")->data.end());
  longer.resize(longer.size() + 5, 0xff);
  for (auto& sec : b.sections)
    if (sec.name == ".symtab") sec.data = longer;
  const auto partial = symbols_from_symtab(b);
  ASSERT_TRUE(partial);
  EXPECT_EQ(partial->size(), 3u);
  // An entry size smaller than a symbol's is refused.
  for (auto& sec : b.sections)
    if (sec.name == ".symtab") sec.entsize = 8;
  EXPECT_FALSE(symbols_from_symtab(b));
}

RC_GTEST_PROP(SymbolsFromSymtabProperty, ArbitraryTableBytesDoNotCrash,
              (const std::vector<uint8_t>& bytes, bool elf64)) {
  auto sections = object_with_symbols(kSymbols, elf64);
  sections[5].data = bytes;
  auto opened = open_bytes("fuzz.elf", write_elf(sections, elf64));
  RC_ASSERT(opened.artifact != nullptr);
  const auto index = symbols_from_symtab(*opened.artifact);
  RC_ASSERT(index.has_value());
  const size_t entsize = elf64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
  RC_ASSERT(index->size() <= bytes.size() / entsize);
}

// ---------------------------------------------------------------------------
// SymbolIndex

TEST(SymbolIndex, FindsFirstByAddressAndWorksBeforeFinish) {
  SymbolIndex index;
  index.add({"b", 0x30, 0, 'T', 0});
  index.add({"a", 0x20, 0, 't', 0});
  index.add({"b", 0x10, 0, 't', 0});
  EXPECT_EQ(index.find("a")->address, 0x20u);  // linear before finish()
  index.finish();
  EXPECT_EQ(index.symbols().front().address, 0x10u);
  EXPECT_EQ(index.find("b")->address, 0x10u);
  EXPECT_EQ(index.find("a")->type, 't');
  EXPECT_EQ(index.find("c"), nullptr);
  EXPECT_EQ(index.find(""), nullptr);
}

// KASLR-moved kallsyms brought back: the symbols at or above `from` move
// down, the zero-based percpu ones below stay; the copy is found by name and
// in address order, and the original is untouched.
TEST(SymbolIndex, MovedBackMovesOnlyWhatLiesAtOrAboveFrom) {
  SymbolIndex index;
  index.add({"percpu_var", 0x20, 8, 'A', 0});
  index.add({"_text", 0xffffffffab000000, 0, 'T', 0});
  index.add({"start_kernel", 0xffffffffab100000, 0x80, 'T', 0});
  index.finish();
  const SymbolIndex moved = index.moved_back(0x2a000000, 0xffffffffab000000);
  ASSERT_EQ(moved.size(), 3u);
  EXPECT_EQ(moved.find("percpu_var")->address, 0x20u);
  EXPECT_EQ(moved.find("_text")->address, 0xffffffff81000000u);
  EXPECT_EQ(moved.find("start_kernel")->address, 0xffffffff81100000u);
  EXPECT_EQ(moved.find("start_kernel")->size, 0x80u);
  EXPECT_EQ(moved.symbols().back().name, "start_kernel");
  EXPECT_EQ(index.find("_text")->address, 0xffffffffab000000u);
}

TEST(SymbolIndex, SameAddressKeepsAddOrder) {
  SymbolIndex index;
  for (const char* name : {"_stext", "_text", "srso_alias_untrain_ret", "_stext"}) index.add({name, 0x100, 0, 'T', 0});
  index.add({"early", 0x50, 0, 'T', 0});
  index.finish();
  ASSERT_EQ(index.size(), 5u);
  EXPECT_EQ(index.symbols()[0].name, "early");
  EXPECT_EQ(index.symbols()[1].name, "_stext");
  EXPECT_EQ(index.symbols()[2].name, "_text");
  EXPECT_EQ(index.find("_stext"), &index.symbols()[1]);
}

// Names are views into storage the index keeps: they outlive the text or
// the Symbol they were added from, and a copy of the index (a test editing
// symbols) keeps them alive after the original is gone.
TEST(SymbolIndex, NamesOutliveTheirSourceAndTheOriginal) {
  std::optional<SymbolIndex> copy;
  {
    std::string name = "from_a_temporary";
    SymbolIndex index;
    index.add({name, 0x10, 0, 'T', 0});
    name.assign(name.size(), 'x');
    std::string error;
    std::string text = "ffffffff81000000 T from_text\n";
    auto from_text = symbols_from_kallsyms_text(text, "kallsyms", error);
    ASSERT_TRUE(from_text) << error;
    text.assign(text.size(), 'x');
    for (const Symbol& s : from_text->symbols()) index.add(s);
    index.finish();
    copy.emplace(index);
    copy->add({std::string("added_to_the_copy"), 0x30, 0, 'T', 0});  // does not touch the original's names
    EXPECT_NE(index.find("from_a_temporary"), nullptr);
  }
  copy->finish();
  ASSERT_EQ(copy->size(), 3u);
  EXPECT_NE(copy->find("from_a_temporary"), nullptr);
  EXPECT_NE(copy->find("from_text"), nullptr);
  EXPECT_NE(copy->find("added_to_the_copy"), nullptr);
}

// A name longer than kMaxSymbolName is kept as its first kMaxSymbolName + 1
// bytes: measuring it never reads further, whatever the string table holds.
TEST(SymbolIndex, LongNamesAreCutAtTheBound) {
  const std::vector<SymSpec> syms = {{std::string(5000, 'a'), 0x1000, 8, STB_GLOBAL, STT_FUNC, 1},
                                     {"short", 0x1010, 8, STB_GLOBAL, STT_FUNC, 1}};
  const auto artifact = open_elf(object_with_symbols(syms, true));
  ASSERT_TRUE(artifact);
  const auto index = symbols_from_symtab(*artifact);
  ASSERT_TRUE(index);
  ASSERT_EQ(index->size(), 2u);
  EXPECT_EQ(index->symbols()[0].name.size(), kMaxSymbolName + 1);
  EXPECT_TRUE(index->symbols()[0].name.cut());
  EXPECT_EQ(index->symbols()[1].name, "short");
  EXPECT_FALSE(index->symbols()[1].name.cut());
  EXPECT_EQ(index->find(std::string(kMaxSymbolName + 1, 'a')), &index->symbols()[0]);
}

// ---------------------------------------------------------------------------
// /proc/kallsyms and System.map text

TEST(KallsymsText, ParsesLinesSkipsModulesAndMalformedLines) {
  const std::string text =
      "ffffffff81000000 T _stext\n"
      "ffffffff81000000 T _text\r\n"
      "0000000000000000 A fixed_percpu_data\n"
      "ffffffff82000010 d some.local.1234\n"
      "\n"
      "ffffffffc0201000 t ftrace_trampoline\t[__builtin__ftrace]\n"
      "ffffffffc0a01000 T nf_conntrack_in\t[nf_conntrack]\n"
      "zzzz T not_hex\n"
      "ffffffff81000100 TT two_letter_type\n"
      "ffffffff81000200 T\n"
      "ffffffff81000300 T name with spaces\n"
      "ffffffff81000400 T broken_module\t[oops\n"
      "11111111111111111 T seventeen_digits\n"
      "   \t  \n"
      "ffffffff81000500 W last_line_without_newline";
  std::string error;
  const auto index = symbols_from_kallsyms_text(text, "test", error);
  ASSERT_TRUE(index) << error;
  EXPECT_EQ(index->origin, "test");
  ASSERT_EQ(index->size(), 5u);
  EXPECT_EQ(index->find("_stext")->address, 0xffffffff81000000u);
  EXPECT_EQ(index->find("_stext")->type, 'T');
  EXPECT_EQ(index->find("_text")->address, 0xffffffff81000000u);  // CR stripped
  EXPECT_EQ(index->find("fixed_percpu_data")->type, 'A');
  EXPECT_EQ(index->find("some.local.1234")->type, 'd');
  EXPECT_EQ(index->find("last_line_without_newline")->type, 'W');
  EXPECT_TRUE(index->find("last_line_without_newline")->function());
  EXPECT_EQ(index->find("ftrace_trampoline"), nullptr);  // module symbols are not the image's
  EXPECT_EQ(index->find("nf_conntrack_in"), nullptr);
  EXPECT_EQ(index->symbols().front().name, "fixed_percpu_data");
  for (const auto& s : index->symbols()) EXPECT_EQ(s.size, 0u);
}

// Debian's linux-image packages ship this instead of a symbol table.
const std::string kDebianPlaceholder =
    "ffffffffffffffff B The real System.map is in the linux-image-<version>-dbg package\n";

TEST(KallsymsText, DebianPlaceholderSystemMapIsNamed) {
  ASSERT_EQ(kDebianPlaceholder.size(), 83u);
  std::string error;
  EXPECT_FALSE(symbols_from_kallsyms_text(kDebianPlaceholder, "System.map-6.1.0-56-cloud-amd64", error));
  EXPECT_NE(error.find("System.map-6.1.0-56-cloud-amd64: Debian's placeholder System.map (83 bytes)"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("-dbg package"), std::string::npos) << error;

  const auto path = std::filesystem::temp_directory_path() / "elfmeta-symbols-test-System.map";
  std::ofstream(path, std::ios::binary) << kDebianPlaceholder;
  error.clear();
  EXPECT_FALSE(symbols_from_kallsyms_file(path.string(), error));
  EXPECT_NE(error.find("placeholder"), std::string::npos) << error;
  std::filesystem::remove(path);
}

// From 6.16 the placeholder names the -dbg package of its own release (98
// bytes for sid's 7.2.13, in linux-base at /usr/lib/modules/VER/System.map).
TEST(KallsymsText, DebianPlaceholderNamingItsReleaseIsNamed) {
  const std::string text =
      "ffffffffffffffff B The real System.map is in the linux-image-7.2.13+deb14-cloud-amd64-dbg package\n";
  ASSERT_EQ(text.size(), 98u);
  std::string error;
  EXPECT_FALSE(symbols_from_kallsyms_text(text, "System.map", error));
  EXPECT_NE(error.find("Debian's placeholder System.map (98 bytes)"), std::string::npos) << error;
}

TEST(KallsymsText, ErrorsSayWhy) {
  std::string error;
  EXPECT_FALSE(symbols_from_kallsyms_text("", "empty", error));
  EXPECT_NE(error.find("empty: no symbols"), std::string::npos) << error;
  EXPECT_FALSE(symbols_from_kallsyms_text("hello world\nfoo\n", "junk", error));
  EXPECT_NE(error.find("2 lines"), std::string::npos) << error;
  EXPECT_FALSE(symbols_from_kallsyms_text("ffffffffc0000000 t f\t[m]\n", "modules", error));
  EXPECT_NE(error.find("only module symbols"), std::string::npos) << error;
  // What an unprivileged reader of /proc/kallsyms sees under kptr_restrict.
  EXPECT_FALSE(symbols_from_kallsyms_text("0000000000000000 T _stext\n0000000000000000 T _text\n", "/proc/kallsyms",
                                          error));
  EXPECT_NE(error.find("every address is 0"), std::string::npos) << error;
  EXPECT_FALSE(symbols_from_kallsyms_file("/nonexistent/System.map", error));
  EXPECT_NE(error.find("/nonexistent/System.map: cannot open"), std::string::npos) << error;
}

TEST(KallsymsText, FileIsReadToTheEnd) {
  const auto path = std::filesystem::temp_directory_path() / "elfmeta-symbols-test-kallsyms";
  {
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 20000; ++i)
      out << std::hex << (0xffffffff81000000ull + 16 * i) << std::dec << " t sym_" << i << "\n";
  }
  std::string error;
  const auto index = symbols_from_kallsyms_file(path.string(), error);
  std::filesystem::remove(path);
  ASSERT_TRUE(index) << error;
  EXPECT_EQ(index->origin, path.string());
  EXPECT_EQ(index->size(), 20000u);
  ASSERT_NE(index->find("sym_19999"), nullptr);
  EXPECT_EQ(index->find("sym_19999")->address, 0xffffffff81000000ull + 16 * 19999);
}

RC_GTEST_PROP(KallsymsTextProperty, ArbitraryTextDoesNotCrash, (const std::string& text)) {
  std::string error;
  const auto index = symbols_from_kallsyms_text(text, "fuzz", error);
  RC_ASSERT(index.has_value() || !error.empty());
}

// ---------------------------------------------------------------------------
// The compressed kallsyms tables, encoded from a symbol list

struct Entry {
  std::string name;
  char type;
  uint64_t address;
};

struct ImageSpec {
  bool order_6_4 = true;
  bool seqs = false;  // kallsyms_seqs_of_names (between markers and tokens before 6.4, last since 6.4)
  bool absolute_percpu = true;
  bool elf64 = true;
  uint64_t text = 0xffffffff81000000;  // .text, and the relative base
  size_t prefix = 40;                  // bytes of .rodata before the tables
  // 7.x (scripts/kallsyms.c): offsets PC-relative (from their own slot, no
  // relative base), every table at 4-byte alignment on 64-bit too.
  bool pc_relative = false;
  unsigned align = 0;  // 0: the word size
};

// 162 multi-character tokens for the byte values that no name uses (the
// printable characters keep their own tokens, as in real tables).
std::vector<std::string> multi_char_tokens() {
  std::vector<std::string> t = {"__", "_s", "ta", "rt", "_start", "orc", "_unwind", "init", "text", "Tp",
                                "T_", "t_", "d_", "_ip", "ex", "in", "on", "er", "re", "st", "___"};
  for (char a = 'a'; t.size() < 162; ++a)
    for (char b = 'k'; b <= 'z' && t.size() < 162; ++b) t.push_back(std::string{a, b});
  return t;
}

struct Tokens {
  std::array<std::string, 256> text;
};

Tokens make_tokens() {
  Tokens t;
  const auto multi = multi_char_tokens();
  size_t next = 0;
  for (int c = 0; c < 256; ++c)
    t.text[c] = (c > 0x20 && c < 0x7f) ? std::string(1, static_cast<char>(c)) : multi[next++];
  return t;
}

Bytes encode_name(const Tokens& t, const std::string& s) {
  Bytes out;
  for (size_t i = 0; i < s.size();) {
    int best = -1;
    size_t best_len = 0;
    for (int c = 0; c < 256; ++c)
      if (t.text[c].size() > best_len && s.compare(i, t.text[c].size(), t.text[c]) == 0) {
        best = c;
        best_len = t.text[c].size();
      }
    out.push_back(static_cast<uint8_t>(best));
    i += best_len;
  }
  return out;
}

constexpr uint64_t kRodata = 0xffffffff82000000;
uint64_t rodata_address(const ImageSpec& spec) { return spec.elf64 ? kRodata : 0xc2000000; }

// .rodata holding the tables for `entries` (sorted by address).
Bytes encode_rodata(const std::vector<Entry>& entries, const ImageSpec& spec) {
  const Tokens tokens = make_tokens();
  const size_t align = spec.align ? spec.align : spec.elf64 ? 8 : 4;
  Bytes out(spec.prefix, 0);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(i * 7 + 3);
  auto align_up = [&] {
    while (out.size() % align) out.push_back(0);
  };
  const uint32_t n = static_cast<uint32_t>(entries.size());

  Bytes names;
  std::vector<uint32_t> markers;
  for (uint32_t i = 0; i < n; ++i) {
    if (i % 256 == 0) markers.push_back(static_cast<uint32_t>(names.size()));
    const Bytes code = encode_name(tokens, std::string(1, entries[i].type) + entries[i].name);
    if (code.size() < 0x80) {
      names.push_back(static_cast<uint8_t>(code.size()));
    } else {
      names.push_back(static_cast<uint8_t>(0x80 | (code.size() & 0x7f)));
      names.push_back(static_cast<uint8_t>(code.size() >> 7));
    }
    names.insert(names.end(), code.begin(), code.end());
  }
  auto emit_offsets = [&] {
    align_up();
    for (const auto& e : entries) {
      int32_t off;
      if (spec.pc_relative)
        off = static_cast<int32_t>(static_cast<int64_t>(e.address - (rodata_address(spec) + out.size())));
      else if (spec.absolute_percpu)
        off = e.address < spec.text ? static_cast<int32_t>(e.address)
                                    : static_cast<int32_t>(static_cast<int64_t>(spec.text - 1) -
                                                           static_cast<int64_t>(e.address));
      else
        off = static_cast<int32_t>(static_cast<uint32_t>(e.address - spec.text));
      append(out, off);
    }
    if (spec.pc_relative) return;
    align_up();
    if (spec.elf64)
      append(out, spec.text);
    else
      append(out, static_cast<uint32_t>(spec.text));
  };
  auto emit_seqs = [&] {
    align_up();
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return entries[a].name < entries[b].name; });
    for (const uint32_t i : order) {
      out.push_back(static_cast<uint8_t>(i >> 16));
      out.push_back(static_cast<uint8_t>(i >> 8));
      out.push_back(static_cast<uint8_t>(i));
    }
  };
  if (!spec.order_6_4) emit_offsets();
  align_up();
  append(out, n);
  align_up();
  out.insert(out.end(), names.begin(), names.end());
  align_up();
  for (const uint32_t m : markers) append(out, m);
  if (!spec.order_6_4 && spec.seqs) emit_seqs();
  align_up();
  std::vector<uint16_t> index;
  const size_t table = out.size();
  for (const auto& t : tokens.text) {
    index.push_back(static_cast<uint16_t>(out.size() - table));
    out.insert(out.end(), t.begin(), t.end());
    out.push_back(0);
  }
  align_up();
  for (const uint16_t i : index) append(out, i);
  if (spec.order_6_4) {
    emit_offsets();
    if (spec.seqs) emit_seqs();
  }
  align_up();
  for (int i = 0; i < 64; ++i) out.push_back(static_cast<uint8_t>(0xa5 ^ i));
  return out;
}

std::vector<Sec> image_sections(Bytes rodata, const ImageSpec& spec) {
  const uint64_t rodata_addr = rodata_address(spec);
  return {
      {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, spec.text, Bytes(16, 0xcc)},
      {".rodata", SHT_PROGBITS, SHF_ALLOC, rodata_addr, std::move(rodata)},
      {".orc_unwind_ip", SHT_PROGBITS, SHF_ALLOC, rodata_addr + 0x100000, Bytes(8, 0)},
      {".orc_unwind", SHT_PROGBITS, SHF_ALLOC, rodata_addr + 0x200000, Bytes(12, 0)},
      {".init.text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, rodata_addr + 0x300000, Bytes(16, 0xcc)},
  };
}

// A kernel-like symbol list: percpu symbols at small absolute addresses
// first, then text, the ORC boundaries and init text.
std::vector<Entry> kernel_like_entries(size_t functions, const ImageSpec& spec, uint32_t seed = 1) {
  std::mt19937 rng(seed);
  const uint64_t rodata = spec.elf64 ? kRodata : 0xc2000000;
  std::vector<Entry> e;
  if (spec.absolute_percpu)
    for (uint64_t i = 0; i < 5; ++i) e.push_back({"percpu_var_" + std::to_string(i), 'A', i * 0x1000});
  e.push_back({"_stext", 'T', spec.text});
  e.push_back({"_text", 'T', spec.text});
  uint64_t at = spec.text;
  for (size_t i = 0; i < functions; ++i) {
    at += 16 + rng() % 512;
    std::string name = (rng() % 3 ? "do_" : "__start_") + std::to_string(rng() % 100000) + "_text_init";
    if (i % 97 == 5) name += std::string(150 + rng() % 300, 'x');  // more than 127 tokens: a 2-byte length
    e.push_back({name, rng() % 2 ? 'T' : 't', at});
  }
  e.push_back({"__start_orc_unwind_ip", 'R', rodata + 0x100000});
  e.push_back({"__start_orc_unwind", 'R', rodata + 0x200000});
  e.push_back({"_sinittext", 'T', rodata + 0x300000});
  e.push_back({"_einittext", 'T', rodata + 0x300010});
  return e;
}

void expect_decodes(const std::vector<Entry>& entries, const ImageSpec& spec) {
  auto a = open_elf(image_sections(encode_rodata(entries, spec), spec), spec.elf64);
  ASSERT_TRUE(a);
  std::string why;
  const auto found = detail::locate_image_kallsyms(*a, why);
  ASSERT_TRUE(found) << why;
  EXPECT_EQ(found->order_6_4, spec.order_6_4);
  EXPECT_EQ(found->seqs_before_tokens, spec.seqs && !spec.order_6_4);
  EXPECT_EQ(found->absolute_percpu, spec.absolute_percpu);
  EXPECT_EQ(found->num_syms, entries.size());
  EXPECT_EQ(found->pc_relative, spec.pc_relative);
  if (!spec.pc_relative) {
    EXPECT_EQ(found->relative_base, spec.elf64 ? spec.text : spec.text & 0xffffffff);
  }
  const auto index = symbols_from_image_kallsyms(*a, why);
  ASSERT_TRUE(index) << why;
  EXPECT_EQ(index->origin, "kallsyms in the image");
  ASSERT_EQ(index->size(), entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const Symbol& s = index->symbols()[i];
    EXPECT_EQ(s.name, entries[i].name) << i;
    EXPECT_EQ(s.type, entries[i].type) << i;
    EXPECT_EQ(s.address, entries[i].address) << i << " " << s.name;
  }
  EXPECT_EQ(index->find("_stext")->address, spec.text);
}

struct Layout {
  const char* name;
  ImageSpec spec;
};

class ImageKallsymsLayouts : public ::testing::TestWithParam<Layout> {};

TEST_P(ImageKallsymsLayouts, EncodedTablesDecode) {
  const ImageSpec spec = GetParam().spec;
  for (const size_t n : {1u, 200u, 255u, 256u, 1000u, 3000u}) {
    SCOPED_TRACE(n);
    expect_decodes(kernel_like_entries(n, spec, static_cast<uint32_t>(n)), spec);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Orders, ImageKallsymsLayouts,
    ::testing::Values(Layout{"Pre64", {false, false, true}}, Layout{"Pre64Seqs", {false, true, true}},
                      Layout{"Since64", {true, false, true}}, Layout{"Since64Seqs", {true, true, true}},
                      Layout{"Pre64Relative", {false, true, false}}, Layout{"Since64Relative", {true, true, false}},
                      Layout{"Elf32Pre64", {false, false, false, false, 0xc1000000, 20}},
                      Layout{"Elf32Since64", {true, true, false, false, 0xc1000000, 36}},
                      Layout{"ShortPrefix", {true, false, true, true, 0xffffffff81000000, 3}},
                      // 7.x: PC-relative offsets, tables at 4 bytes (44: not at 8).
                      Layout{"Since7PcRelative", {true, true, false, true, 0xffffffff81000000, 44, true, 4}},
                      Layout{"Since7PcRelativeNoSeqs", {true, false, false, true, 0xffffffff81000000, 4, true, 4}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ImageKallsyms, AnchorThatDisagreesIsAReason) {
  ImageSpec spec;
  auto entries = kernel_like_entries(300, spec);
  auto sections = image_sections(encode_rodata(entries, spec), spec);
  sections[2].addr += 8;  // .orc_unwind_ip is not where __start_orc_unwind_ip says
  auto a = open_elf(sections);
  std::string why;
  EXPECT_FALSE(symbols_from_image_kallsyms(*a, why));
  EXPECT_NE(why.find("__start_orc_unwind_ip decodes to 0xffffffff82100000, .orc_unwind_ip is at 0xffffffff82100008"),
            std::string::npos)
      << why;
}

TEST(ImageKallsyms, OnlyStextAsAnchorIsEnough) {
  ImageSpec spec;
  auto entries = kernel_like_entries(300, spec);
  auto sections = image_sections(encode_rodata(entries, spec), spec);
  sections.resize(2);  // no ORC or init sections
  auto a = open_elf(sections);
  std::string why;
  const auto found = detail::locate_image_kallsyms(*a, why);
  ASSERT_TRUE(found) << why;
  EXPECT_EQ(found->anchors, std::vector<std::string>{"_stext"});
}

TEST(ImageKallsyms, NotAnImageOrNoTables) {
  std::string why;
  Artifact raw;
  EXPECT_FALSE(symbols_from_image_kallsyms(raw, why));
  EXPECT_EQ(why, "not an ELF kernel image");
  auto no_rodata = open_elf({{".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, Bytes(4, 0x90)}});
  EXPECT_FALSE(symbols_from_image_kallsyms(*no_rodata, why));
  EXPECT_NE(why.find("no .rodata"), std::string::npos) << why;
  ImageSpec spec;
  auto zeros = open_elf(image_sections(Bytes(1 << 20, 0), spec));
  EXPECT_FALSE(symbols_from_image_kallsyms(*zeros, why));
  EXPECT_NE(why.find("no kallsyms token table"), std::string::npos) << why;
}

// Hostile .rodata: the decoder must answer quickly with a reason.
std::optional<SymbolIndex> decode_rodata(Bytes rodata, std::string& why, double* ms = nullptr) {
  ImageSpec spec;
  auto a = open_elf(image_sections(std::move(rodata), spec));
  const auto start = std::chrono::steady_clock::now();
  auto index = symbols_from_image_kallsyms(*a, why);
  if (ms) *ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return index;
}

TEST(ImageKallsymsHostile, RandomBytes) {
  std::mt19937 rng(7);
  for (const size_t size : {0u, 1u, 19u, 20u, 600u, 4096u, 1u << 20}) {
    Bytes b(size);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    std::string why;
    EXPECT_FALSE(decode_rodata(b, why)) << size;
    EXPECT_FALSE(why.empty());
  }
}

TEST(ImageKallsymsHostile, RepeatedDigitTokensAndMarkerLikeRuns) {
  // 200,000 "0".."9" runs, then ascending u32 runs ending at a real token table.
  static constexpr char kDigits[] = "0\0" "1\0" "2\0" "3\0" "4\0" "5\0" "6\0" "7\0" "8\0" "9";
  Bytes b;
  for (int i = 0; i < 200000; ++i) b.insert(b.end(), kDigits, kDigits + sizeof kDigits);
  std::string why;
  double ms = 0;
  EXPECT_FALSE(decode_rodata(b, why, &ms));
  EXPECT_LT(ms, 2000);

  ImageSpec spec;
  Bytes valid = encode_rodata(kernel_like_entries(2000, spec), spec);
  Bytes ascending;
  for (uint32_t v = 0; v < 400000; ++v) append(ascending, v * 600);
  for (const bool zero_runs : {false, true}) {
    Bytes hostile = zero_runs ? Bytes(1 << 21, 0) : ascending;
    hostile.insert(hostile.end(), valid.begin(), valid.end());
    while (hostile.size() % 8) hostile.push_back(0);
    why.clear();
    const auto index = decode_rodata(hostile, why, &ms);
    EXPECT_LT(ms, 2000) << zero_runs;
    // The genuine tables behind the runs are still found.
    ASSERT_TRUE(index) << why;
    EXPECT_EQ(index->size(), 2000u + 11);
  }
}

// Walk audit T12: each consistent token table costs a scan of .rodata for
// its marker array; a real image has one, and only the first eight are
// tried. The reason says more were left.
TEST(ImageKallsymsHostile, OnlyTheFirstEightTokenTablesAreTried) {
  Bytes table;
  std::vector<uint16_t> index;
  for (int c = 0; c < 256; ++c) {
    index.push_back(static_cast<uint16_t>(table.size()));
    if (c == 0) table.push_back('z');
    table.push_back(static_cast<uint8_t>(c ? c : 'z'));
    table.push_back(0);
  }
  while (table.size() % 8) table.push_back(0);
  for (const uint16_t i : index) append(table, i);
  for (const size_t tables : {8u, 9u, 100u}) {
    Bytes rodata(4096, 0xff);
    for (size_t i = 0; i < tables; ++i) rodata.insert(rodata.end(), table.begin(), table.end());
    std::string why;
    EXPECT_FALSE(decode_rodata(rodata, why));
    EXPECT_EQ(why.find("more were not tried") != std::string::npos, tables > 8) << tables << ": " << why;
  }
}

TEST(ImageKallsymsHostile, EveryTruncationAndManyCorruptions) {
  ImageSpec spec{false, true, true};
  const auto entries = kernel_like_entries(600, spec);
  const Bytes valid = encode_rodata(entries, spec);
  std::string why;
  for (size_t cut = 0; cut < valid.size(); cut += 97) {
    Bytes b(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(cut));
    decode_rodata(b, why);  // must not crash; the answer does not matter
  }
  std::mt19937 rng(11);
  for (int i = 0; i < 300; ++i) {
    Bytes b = valid;
    for (int k = 0; k < 1 + i % 4; ++k) b[rng() % b.size()] = static_cast<uint8_t>(rng());
    const auto index = decode_rodata(b, why);
    if (index) {
      EXPECT_LE(index->size(), entries.size() * 2);
    }
  }
}

// Round trip over generated symbol lists in every layout, then one corrupted
// byte: never a crash, and a decoded index stays within the table's size.
RC_GTEST_PROP(ImageKallsymsProperty, GeneratedTablesRoundTripAndCorruptionIsSafe, ()) {
  ImageSpec spec;
  spec.order_6_4 = *rc::gen::arbitrary<bool>();
  spec.seqs = *rc::gen::arbitrary<bool>();
  spec.absolute_percpu = *rc::gen::arbitrary<bool>();
  spec.prefix = *rc::gen::inRange<size_t>(0, 64);
  if (spec.order_6_4 && *rc::gen::arbitrary<bool>()) {  // 7.x
    spec.pc_relative = true;
    spec.absolute_percpu = false;
    spec.align = 4;
  }
  const size_t functions = *rc::gen::inRange<size_t>(0, 400);
  const auto entries = kernel_like_entries(functions, spec, *rc::gen::arbitrary<uint32_t>());
  const Bytes rodata = encode_rodata(entries, spec);
  auto a = open_elf(image_sections(rodata, spec));
  std::string why;
  const auto index = symbols_from_image_kallsyms(*a, why);
  RC_ASSERT(index.has_value());
  RC_ASSERT(index->size() == entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    RC_ASSERT(index->symbols()[i].name == entries[i].name);
    RC_ASSERT(index->symbols()[i].address == entries[i].address);
  }
  Bytes corrupt = rodata;
  const size_t at = *rc::gen::inRange<size_t>(0, corrupt.size());
  corrupt[at] = *rc::gen::arbitrary<uint8_t>();
  auto b = open_elf(image_sections(corrupt, spec));
  const auto decoded = symbols_from_image_kallsyms(*b, why);
  if (decoded) RC_ASSERT(decoded->size() <= corrupt.size());
}

}  // namespace
}  // namespace elfmeta::input
