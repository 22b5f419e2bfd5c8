// XC-SYM-013 and the set half of XC-SYM-010: the BTF id sets of .BTF_ids
// against the BTF, in a module-like object with its symtab.
#include <gtest/gtest.h>

#include <optional>

#include "synth/btf_builder.h"
#include "synth/elf_writer.h"
#include "tests/btf/xc/xc_test_support.h"

namespace elfmeta::testing {
namespace {

using synth::BtfBuilder;

struct SetSpec {
  std::string name;
  bool eight = true;                   // BTF_SET8 (kfunc set), else BTF_SET
  std::vector<uint32_t> ids;           // as resolve_btfids left them
  std::vector<std::string> functions;  // the __BTF_ID__func__ symbol of each entry in source order ("": none)
  std::optional<uint32_t> count;       // the cnt field, when not ids.size()
};

// int (1), int(int x) (2), FUNCs kf_a (3), kf_b (4), kf_c (5), a struct (6);
// `tagged`: kf_c carries DECL_TAG bpf_kfunc.
struct Module {
  BtfBuilder b;
  explicit Module(bool tagged = false) {
    const uint32_t int_id = b.add_int("int", 4, 32, 1);
    const uint32_t proto = b.add_func_proto(int_id, {{"x", int_id}});
    for (auto name : {"kf_a", "kf_b", "kf_c"}) b.add_func(name, proto);
    b.add_struct("thing", 4, {{"x", int_id, 0}});
    if (tagged) b.add_decl_tag("bpf_kfunc", 5);
  }

  std::vector<uint8_t> build(const std::vector<SetSpec>& sets) const {
    synth::ElfWriter elf(ET_REL);
    const uint32_t text = elf.add_section({".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 16, 0, std::vector<uint8_t>(48)});
    for (int k = 0; k < 3; ++k)
      elf.add_symbol(std::string("kf_") + char('a' + k), 16 * k, 16, STT_FUNC, STB_GLOBAL, text);
    std::vector<uint8_t> data;
    struct Sym {
      std::string name;
      uint64_t at, size;
    };
    std::vector<Sym> syms;
    auto put = [&](uint32_t v) {
      for (int i = 0; i < 4; ++i) data.push_back(uint8_t(v >> (8 * i)));
    };
    for (const auto& s : sets) {
      const uint64_t at = data.size();
      put(s.count.value_or(uint32_t(s.ids.size())));
      if (s.eight) put(0);  // flags
      for (size_t k = 0; k < s.ids.size(); ++k) {
        if (k < s.functions.size() && !s.functions[k].empty())
          syms.push_back({"__BTF_ID__func__" + s.functions[k] + "__" + std::to_string(100 + k), data.size(), 4});
        put(s.ids[k]);
        if (s.eight) put(0);
      }
      syms.push_back({(s.eight ? "__BTF_ID__set8__" : "__BTF_ID__set__") + s.name, at, data.size() - at});
    }
    const uint32_t ids = elf.add_section({".BTF_ids", SHT_PROGBITS, SHF_ALLOC, 0, 1, 0, data});
    for (const auto& s : syms) elf.add_symbol(s.name, s.at, s.size, STT_OBJECT, STB_LOCAL, ids);
    elf.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
    return elf.write();
  }
};

TEST(XcBtfIds, ResolvedSortedSetsAreClean) {
  Module m(/*tagged=*/true);
  // Sorted by id, so no longer in the order of their symbols; a BTF_SET
  // with a BTF_ID_UNUSED placeholder (0, no symbol) first.
  auto run = run_cross_check(m.build({{"kfuncs", true, {3, 5}, {"kf_c", "kf_a"}, {}},
                                      {"deny", false, {0, 4}, {"", "kf_b"}, {}}}));
  EXPECT_EQ(run->rules(), "") << run->text();
  EXPECT_EQ(run->stats.btf_id_sets, 2u);
  EXPECT_EQ(run->stats.btf_id_entries, 4u);
}

TEST(XcBtfIds, UnresolvedEntry) {
  Module m;
  auto run = run_cross_check(m.build({{"kfuncs", true, {0, 3}, {"kf_a", "kf_gone"}, {}}}));
  EXPECT_EQ(run->rules(), "XC-SYM-013");
  EXPECT_NE(run->text().find("BTF_SET8 'kfuncs': no entry is the FUNC of kf_gone (1 entries are 0)"), std::string::npos)
      << run->text();
}

TEST(XcBtfIds, EntryOfAnotherType) {
  Module m;
  auto run = run_cross_check(m.build({{"kfuncs", true, {3, 6}, {"kf_a", "kf_b"}, {}}}));
  EXPECT_EQ(run->count("XC-SYM-013"), 2u) << run->text();
  EXPECT_NE(run->text().find("holds type 6, STRUCT 'thing', which none of its __BTF_ID__func__ symbols names"),
            std::string::npos)
      << run->text();
  EXPECT_NE(run->text().find("no entry is the FUNC of kf_b"), std::string::npos) << run->text();
}

TEST(XcBtfIds, UnsortedSet) {
  Module m;
  auto run = run_cross_check(m.build({{"kfuncs", true, {5, 3}, {"kf_c", "kf_a"}, {}}}));
  EXPECT_EQ(run->rules(), "XC-SYM-013");
  EXPECT_NE(run->text().find("entry 1 has id 3 after 5: not sorted"), std::string::npos) << run->text();
}

TEST(XcBtfIds, CountPastTheSection) {
  Module m;
  auto run = run_cross_check(m.build({{"kfuncs", true, {3}, {"kf_a"}, 1000000}}));
  EXPECT_EQ(run->rules(), "XC-SYM-013");
  EXPECT_NE(run->text().find("claims 1000000 entries"), std::string::npos) << run->text();
}

// Walk audit T8: symbols that name one set twice make one set; sets whose
// entries overlap other sets' are read up to a budget of twice the
// section's words, and the sets past it are named in one note.
TEST(XcBtfIds, OneSetPerOffsetAndOverlappingSetsHaveABudget) {
  BtfBuilder b;
  b.add_int("int", 4, 32, 1);
  std::vector<uint8_t> ids;
  constexpr uint32_t kWords = 64;
  for (uint32_t i = 0; i < kWords; ++i) {
    const uint32_t count = kWords - i - 1;  // each word a set header running to the end
    for (int k = 0; k < 4; ++k) ids.push_back(uint8_t(count >> (8 * k)));
  }
  synth::ElfWriter elf(ET_EXEC);
  const uint64_t at = 0xffffffff82000000;
  const uint32_t section = elf.add_section({".BTF_ids", SHT_PROGBITS, SHF_ALLOC, at, 4, 0, ids});
  elf.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
  elf.add_symbol("__BTF_ID__set__first", at, 4, STT_OBJECT, STB_LOCAL, section);
  elf.add_symbol("__BTF_ID__set__alias", at, 4, STT_OBJECT, STB_LOCAL, section);
  auto one = run_cross_check(elf.write());
  EXPECT_EQ(one->stats.btf_id_sets, 1u);
  EXPECT_EQ(one->stats.btf_id_entries, kWords - 1);

  synth::ElfWriter staggered(ET_EXEC);
  const uint32_t sec2 = staggered.add_section({".BTF_ids", SHT_PROGBITS, SHF_ALLOC, at, 4, 0, ids});
  staggered.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
  for (uint32_t i = 0; i < kWords; ++i)
    staggered.add_symbol("__BTF_ID__set__s" + std::to_string(i), at + 4 * i, 4, STT_OBJECT, STB_LOCAL, sec2);
  auto many = run_cross_check(staggered.write());
  // The sets claim 63 + 62 + ... + 0 = 2,016 entries; the budget is
  // 2 * 64 + 1,024 = 1,152.
  size_t notes = 0;
  for (const auto& d : many->list.items())
    if (d.message.find("BTF id sets not checked (XC-SYM-013)") != std::string::npos) ++notes;
  EXPECT_EQ(notes, 1u) << many->text();
  EXPECT_LE(many->stats.btf_id_entries, 2 * kWords + 1024);
  EXPECT_LT(many->stats.btf_id_sets, kWords);
}

TEST(XcBtfIds, TaggedKfuncInNoSet) {
  Module m(/*tagged=*/true);
  auto run = run_cross_check(m.build({{"kfuncs", true, {3}, {"kf_a"}, {}}}));
  EXPECT_EQ(run->rules(), "XC-SYM-010");
  EXPECT_NE(run->text().find("kfunc 'kf_c' is in no BTF_SET8 of .BTF_ids"), std::string::npos) << run->text();
  // Without any set in the symbols there is nothing to compare with.
  EXPECT_EQ(run_cross_check(m.build({}))->rules(), "");
}

}  // namespace
}  // namespace elfmeta::testing
