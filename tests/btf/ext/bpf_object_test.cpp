// BPF objects compiled by clang at test time (tests/btf/ext/corpus): clean
// under --consumer bpf-object; every BTF-EXT rule and every object
// cross-check triggered, alone, by a mutation of a real object; the
// fixed-up .BTF accepted by the running kernel; hostile .BTF.ext bytes.
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>

#include "btf/artifact_check.h"
#include "btf/ext/bpf_object.h"
#include "btf/ext/btf_ext.h"
#include "btf/ext/btf_ext_rules.h"
#include "btf/findings.h"
#include "btf/parse.h"
#include "core/report.h"
#include "input/artifact.h"
#include "input/relocations.h"
#include "oracle/kernel_btf_oracle.h"
#include "synth/btf_builder.h"
#include "synth/elf_patch.h"
#include "synth/elf_writer.h"
#include "tests/support/require.h"

namespace elfmeta::testing {
namespace {

using Bytes = std::vector<uint8_t>;
const std::string kCorpus = ELFMETA_SOURCE_DIR "/tests/btf/ext/corpus";
const char* const kPrograms[] = {"progs", "core", "globals"};

bool have_clang() {
  static const bool have = std::system("clang --version >/dev/null 2>&1") == 0;
  return have;
}

// clang -target bpf -g -O2 -c, once per program (and target).
const Bytes& compiled(const std::string& name, const std::string& target = "bpf") {
  static std::mutex mu;
  static std::map<std::string, Bytes> cache;
  std::lock_guard lock(mu);
  const std::string key = target + "/" + name;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  char dir[] = "/tmp/elfmeta-bpf-XXXXXX";
  Bytes out;
  if (mkdtemp(dir)) {
    const std::string obj = std::string(dir) + "/" + name + ".o";
    const std::string cmd = "clang -target " + target + " -g -O2 -Wall -c '" + kCorpus + "/" + name + ".c' -o '" + obj + "'";
    if (std::system(cmd.c_str()) == 0) {
      std::ifstream in(obj, std::ios::binary);
      out.assign(std::istreambuf_iterator<char>(in), {});
    }
    std::remove(obj.c_str());
    rmdir(dir);
  }
  return cache.emplace(key, std::move(out)).first->second;
}

#define REQUIRE_OBJECT(var, name)                              \
  ELFMETA_REQUIRE_INSTALLED(have_clang(), "clang is not installed (package clang)"); \
  const Bytes& var = compiled(name);                        \
  ASSERT_FALSE(var.empty()) << "clang failed on " << name

struct Outcome {
  std::set<std::string> rules;
  size_t errors = 0, warnings = 0;
  std::string listing;
};

Outcome check(const Bytes& object, Consumer consumer) {
  Outcome o;
  auto opened = input::open_bytes("obj.o", object);
  if (!opened.artifact) {
    o.listing = opened.error;
    o.errors = 1;
    return o;
  }
  btf::CheckOptions options;
  options.consumer = consumer;
  options.kernel = btf::KernelProfile(btf::kDefaultRelease);
  DiagnosticList list;
  btf::check_artifact_btf(*opened.artifact, nullptr, options, list);
  std::ostringstream text;
  for (const auto& d : list.items()) {
    write_text(text, d);
    if (!d.rule) continue;
    o.rules.insert(std::string(d.rule->id));
    if (d.severity == Severity::Error) ++o.errors;
    if (d.severity == Severity::Warning) ++o.warnings;
  }
  o.listing = text.str();
  return o;
}

// A compiled object opened, with its .BTF and .BTF.ext parsed, to find what to mutate.
struct Object {
  Bytes bytes;
  std::unique_ptr<input::Artifact> artifact;
  uint64_t btf_at = 0, ext_at = 0;  // file offsets of .BTF and .BTF.ext
  std::optional<btf::Btf> btf;
  std::optional<btf::ext::BtfExt> ext;

  explicit Object(const Bytes& b) : bytes(b) {
    artifact = input::open_bytes("obj.o", bytes).artifact;
    const auto* s = artifact->section(".BTF");
    const auto* e = artifact->section(".BTF.ext");
    btf_at = s->file_offset;
    ext_at = e->file_offset;
    NullSink quiet;
    btf::Findings bf(btf::CheckContext{}, quiet);
    btf = btf::parse(s->data, {}, bf);
    Findings ef("obj.o", quiet);
    ext = btf::ext::parse_btf_ext(e->data, artifact->endian, ef, "obj.o");
  }

  uint32_t type_named(std::string_view name, uint32_t kind) const {
    for (uint32_t id = 1; id < btf->type_count(); ++id) {
      const auto t = btf->type(id);
      if (t.kind() == kind && btf->name_of(t.name_off()) == name) return id;
    }
    ADD_FAILURE() << "no type " << name;
    return 0;
  }
  uint32_t string_off(std::string_view text) const {
    const auto data = btf->data();
    const uint64_t start = btf->string_section_offset(), end = start + btf->header().str_len;
    for (uint64_t p = start; p + text.size() < end; ++p)
      if ((p == start || data[p - 1] == 0) && std::memcmp(&data[p], text.data(), text.size()) == 0 && data[p + text.size()] == 0)
        return static_cast<uint32_t>(p - start);
    ADD_FAILURE() << "no string " << text;
    return 0;
  }
  const btf::ext::Group& group(btf::ext::Block b, std::string_view sec) const {
    for (const auto& g : ext->block(b).groups)
      if (btf->name_of(g.sec_name_off) == sec) return g;
    ADD_FAILURE() << "no group " << sec;
    return ext->block(b).groups.front();
  }
  uint64_t record(btf::ext::Block b, std::string_view sec, uint32_t i) const {
    return ext_at + ext->record_offset(b, group(b, sec), i);
  }
  uint32_t u32(uint64_t file_off) const {
    uint32_t v;
    std::memcpy(&v, &bytes[file_off], 4);
    return v;
  }
};

void put32(Bytes& b, uint64_t at, uint32_t v) { std::memcpy(&b[at], &v, 4); }

// .BTF.ext re-encoded with func_info records of `func_rec` bytes whose tail
// bytes are `tail`; the section is moved to the end of the file.
Bytes with_func_records(const Object& o, uint32_t func_rec, uint8_t tail) {
  using btf::ext::Block;
  const auto& ext = *o.ext;
  Bytes out(ext.header.hdr_len, 0);
  std::memcpy(out.data(), ext.data.data(), ext.header.hdr_len);
  const uint32_t hdr = ext.header.hdr_len;
  for (int b = 0; b < btf::ext::kBlocks; ++b) {
    const auto& v = ext.blocks[b];
    const uint32_t rec = b == 0 ? func_rec : v.rec_size;
    const uint64_t start = out.size();
    if (v.present) {
      out.resize(out.size() + 4);
      put32(out, start, rec);
      for (const auto& g : v.groups) {
        const uint64_t at = out.size();
        out.resize(at + 8);
        put32(out, at, g.sec_name_off);
        put32(out, at + 4, g.num_info);
        for (uint32_t i = 0; i < g.num_info; ++i) {
          const uint64_t r = out.size();
          out.resize(r + rec, tail);
          std::memcpy(&out[r], ext.data.data() + ext.record_offset(static_cast<Block>(b), g, i), std::min(rec, v.rec_size));
        }
      }
    }
    put32(out, 8 + 8 * b, static_cast<uint32_t>(start - hdr));
    put32(out, 12 + 8 * b, static_cast<uint32_t>(out.size() - start));
  }
  return *synth::replace_section(o.bytes, ".BTF.ext", out);
}

// ------------------------------------------------------------- the corpus

class Corpus : public ::testing::TestWithParam<const char*> {};

TEST_P(Corpus, CleanUnderBpfObject) {
  REQUIRE_OBJECT(object, GetParam());
  const Outcome o = check(object, kBpfObject);
  EXPECT_EQ(o.errors, 0u) << o.listing;
  EXPECT_EQ(o.warnings, 0u) << o.listing;
  EXPECT_TRUE(o.rules.empty()) << o.listing;
}

// Raw, as BPF_BTF_LOAD would get it before libbpf's fix-up: exactly the
// findings the fix-up removes (spec btf.md §4.6).
TEST_P(Corpus, RawBtfHasOnlyWhatLibbpfFixes) {
  REQUIRE_OBJECT(object, GetParam());
  const Outcome o = check(object, kBpfBtfLoad);
  EXPECT_GT(o.errors, 0u);
  const std::set<std::string> fixed_by_libbpf{"BTF-DATASEC-002", "BTF-DATASEC-008", "BTF-VAR-004", "XC-CONV-006"};
  for (const auto& r : o.rules) EXPECT_TRUE(fixed_by_libbpf.count(r)) << r << "\n" << o.listing;
  EXPECT_TRUE(o.rules.count("XC-CONV-006")) << o.listing;
}

// The same programs for big-endian BPF (bpfeb), read on this host.
TEST_P(Corpus, BigEndianObjectCleanUnderBpfObject) {
  ELFMETA_REQUIRE_INSTALLED(have_clang(), "clang is not installed (package clang)");
  const Bytes& object = compiled(GetParam(), "bpfeb");
  ASSERT_FALSE(object.empty());
  const Outcome o = check(object, kBpfObject);
  EXPECT_TRUE(o.rules.empty()) << o.listing;
  EXPECT_EQ(o.errors + o.warnings, 0u) << o.listing;
}

TEST_P(Corpus, KernelAcceptsTheFixedUpBtfAndRefusesTheRaw) {
  REQUIRE_OBJECT(object, GetParam());
  std::string why;
  if (!oracle::kernel_btf_oracle_available(&why)) GTEST_SKIP() << "kernel oracle unavailable: " << why;
  Object o(object);
  NullSink quiet;
  Findings f("obj.o", quiet, kBpfObject);
  const Bytes fixed = btf::ext::check_object_btf(*o.artifact, *o.btf, f);
  ASSERT_FALSE(fixed.empty());
  const auto good = oracle::kernel_btf_load(fixed);
  EXPECT_TRUE(good.accepted) << oracle::errno_name(good.error) << ": " << good.reason;
  const auto raw = oracle::kernel_btf_load(o.btf->data());
  EXPECT_FALSE(raw.accepted);
}

TEST_P(Corpus, HostileExtBytesNeverCrash) {
  REQUIRE_OBJECT(object, GetParam());
  Object o(object);
  const auto* s = o.artifact->section(".BTF.ext");
  const Bytes ext(s->data.begin(), s->data.end());
  // Every truncation, then random corruption of words.
  for (size_t n = 0; n < ext.size(); n += 3) {
    const Bytes cut = *synth::replace_section(object, ".BTF.ext", std::span(ext.data(), n));
    check(cut, kBpfObject);
  }
  std::mt19937 rng(20261122);
  for (int round = 0; round < 300; ++round) {
    Bytes m = object;
    for (int k = 0; k < 1 + round % 4; ++k) {
      const uint64_t at = o.ext_at + (rng() % (ext.size() / 4)) * 4;
      const uint32_t values[] = {0, 1, 0xffffffffu, 0x7fffffffu, static_cast<uint32_t>(rng()), o.u32(at) + 8, o.u32(at) ^ 4};
      put32(m, at, values[rng() % std::size(values)]);
    }
    check(m, kBpfObject);
  }
}

std::string program_name(const ::testing::TestParamInfo<const char*>& info) { return info.param; }
INSTANTIATE_TEST_SUITE_P(BpfObject, Corpus, ::testing::ValuesIn(kPrograms), program_name);

// ---------------------------------------------------------- the mutations

using btf::ext::Block;

struct Mutation {
  std::string rule;
  std::string what;  // test name suffix
  std::string program;
  std::function<Bytes(const Object&)> make;
  bool error = true;  // under bpf-object
};

std::vector<Mutation> mutations() {
  auto at_ext = [](uint64_t off, uint32_t v) {
    return [off, v](const Object& o) {
      Bytes b = o.bytes;
      put32(b, o.ext_at + off, v);
      return b;
    };
  };
  std::vector<Mutation> m;
  m.push_back({"BTF-EXT-001", "HdrLenPastSection", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.ext_at + 4, static_cast<uint32_t>(o.ext->data.size() + 4));
                 return b;
               }});
  m.push_back({"BTF-EXT-002", "SwappedMagic", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 std::swap(b[o.ext_at], b[o.ext_at + 1]);
                 return b;
               }});
  m.push_back({"BTF-EXT-003", "Version2", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 b[o.ext_at + 2] = 2;
                 return b;
               }});
  m.push_back({"BTF-EXT-004", "OnlyHeader", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.ext_at + 4, static_cast<uint32_t>(o.ext->data.size()));
                 return b;
               }});
  m.push_back({"BTF-EXT-005", "HdrLen20", "progs", at_ext(4, 20)});
  m.push_back({"BTF-EXT-006", "UnalignedFuncInfo", "progs", at_ext(8, 2)});
  m.push_back({"BTF-EXT-007", "LineInfoPastEnd", "progs", at_ext(20, 0x10000)});
  m.push_back({"BTF-EXT-008", "FuncRecordSize6", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.ext_at + o.ext->block(Block::FuncInfo).start, 6);
                 return b;
               }});
  m.push_back({"BTF-EXT-009", "FuncInfoWithoutGroups", "progs", at_ext(12, 4)});
  m.push_back({"BTF-EXT-010", "NumInfoZero", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.ext_at + o.ext->block(Block::FuncInfo).groups.front().offset + 4, 0);
                 return b;
               }});
  m.push_back({"BTF-EXT-011", "LineOffNotAString", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.record(Block::LineInfo, ".text", 1) + 8, 0xfffff0);
                 return b;
               }});
  m.push_back({"BTF-EXT-011", "GroupNamesNoSection", "progs",
               [](const Object& o) {
                 // The xdp line_info group renamed 'license': a string, not code.
                 Bytes b = o.bytes;
                 put32(b, o.ext_at + o.group(Block::LineInfo, "xdp").offset, o.string_off("license"));
                 return b;
               },
               /*error=*/false});
  m.push_back({"BTF-EXT-012", "FuncInfoTail", "progs", [](const Object& o) { return with_func_records(o, 12, 0x5a); }});
  m.push_back({"BTF-EXT-012", "FuncRecordSize256", "progs", [](const Object& o) { return with_func_records(o, 256, 0); }});
  m.push_back({"BTF-EXT-013", "FuncInfoSwapped", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 const uint64_t r0 = o.record(Block::FuncInfo, ".text", 0), r1 = o.record(Block::FuncInfo, ".text", 1);
                 std::swap_ranges(b.begin() + r0, b.begin() + r0 + 8, b.begin() + r1);
                 return b;
               }});
  m.push_back({"BTF-EXT-013", "SecondProgramWithoutFuncInfo", "globals", [](const Object& o) {
                 // Two programs share section "socket"; the group claims only the first.
                 Bytes b = o.bytes;
                 const auto& g = o.group(Block::FuncInfo, "socket");
                 put32(b, o.ext_at + g.offset + 4, 1);
                 // The freed record becomes padding of the block: shrink the block instead.
                 put32(b, o.ext_at + 12, o.ext->header.len[0] - 8);
                 return b;
               }});
  m.push_back({"BTF-EXT-014", "FuncInfoTypeIsInt", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.record(Block::FuncInfo, "xdp", 0) + 4, o.type_named("int", btf::kInt));
                 return b;
               }});
  m.push_back({"BTF-EXT-015", "LineInfoRepeatsOffset", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.record(Block::LineInfo, ".text", 2), o.u32(o.record(Block::LineInfo, ".text", 1)));
                 return b;
               }});
  m.push_back({"BTF-EXT-015", "LineInfoOnLdImm64SecondHalf", "progs", [](const Object& o) {
                 // on_write's first map lookup: its ld_imm64 at 32 (line_info 3 points at it).
                 Bytes b = o.bytes;
                 const uint64_t r = o.record(Block::LineInfo, "tracepoint/syscalls/sys_enter_write", 3);
                 EXPECT_EQ(o.u32(r), 32u);
                 put32(b, r, 40);
                 return b;
               }});
  m.push_back({"BTF-EXT-015", "FunctionStartWithoutLineInfo", "progs", [](const Object& o) {
                 // bump's first line_info (at 120) moved to 128.
                 Bytes b = o.bytes;
                 const uint64_t r = o.record(Block::LineInfo, ".text", 7);
                 EXPECT_EQ(o.u32(r), 120u);
                 put32(b, r, 128);
                 return b;
               }});
  m.push_back({"BTF-EXT-016", "UnknownCoreKind", "core", [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.record(Block::CoreRelo, "kprobe/do_exit", 0) + 12, 13);
                 return b;
               }});
  m.push_back({"BTF-EXT-016", "FieldAccessAsTypeRelocation", "core", [](const Object& o) {
                 // '0:4:1:2' (t->nested.b[2]) made a type_exists relocation.
                 Bytes b = o.bytes;
                 const uint64_t r = o.record(Block::CoreRelo, "kprobe/do_exit", 1);
                 EXPECT_EQ(o.u32(r + 8), o.string_off("0:4:1:2"));
                 put32(b, r + 12, btf::ext::kTypeExists);
                 return b;
               }});
  m.push_back({"BTF-EXT-016", "AccessPastLastMember", "core", [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.record(Block::CoreRelo, "kprobe/do_exit", 0) + 8, o.string_off("0:4:1:2") + 2);  // "4:1:2"
                 return b;
               }});
  m.push_back({"BTF-EXT-017", "LineInfoPastSection", "progs", [](const Object& o) {
                 Bytes b = o.bytes;
                 const auto& g = o.group(Block::LineInfo, "xdp");
                 put32(b, o.record(Block::LineInfo, "xdp", g.num_info - 1), 0x60);
                 return b;
               }});
  m.push_back({"BTF-EXT-017", "SaturatedColumn", "progs",
               [](const Object& o) {
                 Bytes b = o.bytes;
                 const uint64_t r = o.record(Block::LineInfo, "xdp", 0) + 12;
                 put32(b, r, o.u32(r) | btf::ext::kColumnMax);
                 return b;
               },
               /*error=*/false});
  m.push_back({"XC-SYM-009", "StaticFuncMadeGlobal", "progs",
               [](const Object& o) {
                 Bytes b = o.bytes;
                 const uint32_t id = o.type_named("bump", btf::kFunc);
                 const uint64_t info = o.btf_at + o.btf->record_offset(id) + 4;
                 put32(b, info, o.u32(info) | 1);
                 return b;
               },
               /*error=*/false});
  m.push_back({"XC-SYM-009", "GlobalVarMadeStatic", "progs",
               [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.btf_at + o.btf->record_offset(o.type_named("global_counter", btf::kVar)) + 12, 0);
                 return b;
               },
               /*error=*/false});
  m.push_back({"XC-SYM-011", "DatasecSizeNotTheSection", "progs",
               [](const Object& o) {
                 Bytes b = o.bytes;
                 put32(b, o.btf_at + o.btf->record_offset(o.type_named(".data", btf::kDatasec)) + 8, 8);
                 return b;
               },
               /*error=*/false});
  m.push_back({"XC-SYM-011", "StaticVarOffsetNotItsSymbol", "globals",
               [](const Object& o) {
                 // The symbol of mix.calls (offset 96 of .bss) moved to 92.
                 Bytes b = o.bytes;
                 const auto* symtab = o.artifact->section(".symtab");
                 for (uint32_t i = 1; i < symtab->data.size() / 24; ++i)
                   if (input::elf_symbol(*o.artifact, *symtab, i)->name == "mix.calls") {
                     const uint64_t value = symtab->file_offset + 24ull * i + 8;
                     EXPECT_EQ(o.u32(value), 96u);
                     put32(b, value, 92);
                   }
                 return b;
               },
               /*error=*/false});
  m.push_back({"XC-SYM-011", "GlobalVarWithoutSymbolInItsSection", "progs", [](const Object& o) {
                 // global_counter (.data) renamed 'threshold', a symbol of .rodata.
                 Bytes b = o.bytes;
                 put32(b, o.btf_at + o.btf->record_offset(o.type_named("global_counter", btf::kVar)), o.string_off("threshold"));
                 return b;
               }});
  return m;
}

class ExtMutation : public ::testing::TestWithParam<Mutation> {};

TEST_P(ExtMutation, TriggersExactlyItsRule) {
  const Mutation& m = GetParam();
  REQUIRE_OBJECT(object, m.program);
  const Object o(object);
  ASSERT_TRUE(o.btf && o.ext);
  const Bytes mutated = m.make(o);
  const Outcome out = check(mutated, kBpfObject);
  EXPECT_EQ(out.rules, std::set<std::string>{m.rule}) << out.listing;
  EXPECT_EQ(out.errors > 0, m.error) << out.listing;
}

// libbpf (the installed 1.x) as the oracle of BTF-EXT-001..010:
// btf_ext__new refuses exactly the mutated sections those rules flag.
TEST_P(ExtMutation, LibbpfAgreesOnTheSectionLayout) {
  const Mutation& m = GetParam();
  REQUIRE_OBJECT(object, m.program);
  const Object o(object);
  const Bytes mutated = m.make(o);
  auto opened = input::open_bytes("obj.o", mutated);
  ASSERT_TRUE(opened.artifact);
  const auto* s = opened.artifact->section(".BTF.ext");
  ASSERT_TRUE(s);
  libbpf_set_print([](libbpf_print_level, const char*, va_list) { return 0; });
  btf_ext* parsed = btf_ext__new(s->data.data(), static_cast<uint32_t>(s->data.size()));
  const bool refused = libbpf_get_error(parsed) != 0;
  if (!refused) btf_ext__free(parsed);
  const Rule* rule = find_rule(m.rule);
  ASSERT_TRUE(rule);
  const bool layout_rule = rule->enforced_by & kLibbpf && m.rule.starts_with("BTF-EXT-");
  EXPECT_EQ(refused, layout_rule) << m.rule << " " << m.what;
}

std::string mutation_name(const ::testing::TestParamInfo<Mutation>& info) {
  std::string n = info.param.rule + "_" + info.param.what;
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
}
INSTANTIATE_TEST_SUITE_P(BpfObject, ExtMutation, ::testing::ValuesIn(mutations()), mutation_name);

// ------------------------------------------- hostile shapes (walk audit)

// A BPF object built without clang: .BTF, and optionally code, .BTF.ext
// and symbols.
struct SynthObject {
  synth::BtfBuilder b;
  synth::ElfWriter w{ET_REL, EM_BPF};
  Bytes write() {
    w.add_section({".BTF", SHT_PROGBITS, 0, 0, 4, 0, b.build()});
    return w.write();
  }
};

// T11: entries of .ksyms on one FUNC rename its unnamed parameters once
// (as often as libbpf would: the result is the same) and keep the others.
TEST(BpfObjectHostile, KsymsPrototypeIsRenamedOncePerPrototype) {
  SynthObject o;
  const uint32_t int_id = o.b.add_int("int", 4, 32, 1);
  const uint32_t proto = o.b.add_func_proto(int_id, {{"", int_id}, {"named", int_id}, {"", int_id}});
  const uint32_t func = o.b.add_func("f", proto, 2);
  o.b.add_datasec(".ksyms", 0, {{func, 0, 0}, {func, 0, 0}, {func, 0, 0}});
  auto opened = input::open_bytes("ksyms.o", o.write());
  ASSERT_TRUE(opened.artifact) << opened.error;
  NullSink quiet;
  btf::Findings bf(btf::CheckContext{}, quiet);
  const auto raw = btf::parse(opened.artifact->section(".BTF")->data, {}, bf);
  ASSERT_TRUE(raw);
  Findings f("ksyms.o", quiet);
  const Bytes fixed = btf::ext::check_object_btf(*opened.artifact, *raw, f);
  ASSERT_FALSE(fixed.empty());
  const auto again = btf::parse(fixed, {}, bf);
  ASSERT_TRUE(again);
  const auto p = again->type(proto);
  EXPECT_EQ(again->name_of(btf::param_at(p, 0).name_off), "dummy_ksym");
  EXPECT_EQ(again->name_of(btf::param_at(p, 1).name_off), "named");
  EXPECT_EQ(again->name_of(btf::param_at(p, 2).name_off), "dummy_ksym");
  EXPECT_EQ(again->type_count(), raw->type_count() + 1);  // one dummy VAR, appended once
  const auto ds = again->type(func + 1);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(btf::secinfo_at(ds, i).type, raw->type_count()) << i;
    EXPECT_EQ(btf::secinfo_at(ds, i).offset, 4 * i) << i;
  }
}

// T9: the symbol of a name is looked up once per name, with the same
// preferences: a defined one of the right type over an undefined one, the
// first in symtab order among equals.
TEST(BpfObjectHostile, SymbolOfANameIsTheDefinedOneFirst) {
  SynthObject o;
  const uint32_t int_id = o.b.add_int("int", 4, 32, 1);
  const uint32_t proto = o.b.add_func_proto(int_id, {});
  o.b.add_func("f", proto, 0);  // static
  o.b.add_func("g", proto, 1);  // global
  const uint32_t text = o.w.add_section({"prog", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 8, 0, Bytes(16)});
  o.w.add_symbol("f", 0, 0, STT_NOTYPE, STB_GLOBAL, SHN_UNDEF);
  o.w.add_symbol("f", 0, 8, STT_OBJECT, STB_LOCAL, text);  // not a function: skipped
  o.w.add_symbol("f", 0, 8, STT_FUNC, STB_GLOBAL, text);   // the one compared: global, FUNC is static
  o.w.add_symbol("g", 8, 8, STT_FUNC, STB_GLOBAL, text);
  const Outcome out = check(o.write(), kBpfBtfLoad);
  EXPECT_EQ(out.rules.count("XC-SYM-009"), 1u) << out.listing;
  EXPECT_NE(out.listing.find("FUNC linkage static needs STB_LOCAL, the symbol 'f' is STB_GLOBAL"), std::string::npos)
      << out.listing;
  EXPECT_EQ(out.listing.find("'g'"), std::string::npos) << out.listing;
}

// T3.6: access strings are read up to 1,024 bytes. What that prefix shows
// still decides (a 65th accessor, a non-digit); a prefix of digits and
// colons that decides nothing leaves the string unchecked, in one note.
TEST(BpfObjectHostile, LongAccessStringsAreJudgedOnTheirPrefix) {
  for (const auto& [spec, want] : std::vector<std::pair<std::string, std::string>>{
           {std::string(2000, '0'), "1 CO-RE access strings longer than 1024 bytes"},
           {[] {
              std::string s = "0";
              while (s.size() < 1500) s += ":0";
              return s;
            }(),
            "has more than 64 accessors"},
           {std::string(1100, '1') + "x", "1 CO-RE access strings longer than 1024 bytes"},
           {std::string(1000, '1') + "x" + std::string(100, '1'), "is not colon-separated decimal indexes"}}) {
    SynthObject o;
    o.b.add_int("int", 4, 32, 1);
    const uint32_t prog = o.b.str("prog"), access = o.b.str(spec);
    Bytes ext = {0x9f, 0xeb, 1, 0};
    const auto put = [&](uint32_t v) {
      const auto* p = reinterpret_cast<const uint8_t*>(&v);
      ext.insert(ext.end(), p, p + 4);
    };
    for (uint32_t v : {32u, 0u, 0u, 0u, 0u, 0u, 4u + 8u + 16u}) put(v);
    for (uint32_t v : {16u, prog, 1u, 0u, 1u, access, 0u}) put(v);
    o.w.add_section({"prog", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 8, 0, Bytes(16)});
    o.w.add_section({".BTF.ext", SHT_PROGBITS, 0, 0, 4, 0, ext});
    const Outcome out = check(o.write(), kBpfBtfLoad);
    EXPECT_NE(out.listing.find(want), std::string::npos) << spec.size() << "\n" << out.listing;
  }
}

TEST(BpfObjectRules, EveryRuleHasAMutation) {
  std::set<std::string> covered;
  for (const auto& m : mutations()) covered.insert(m.rule);
  for (const Rule* r : btf::ext::rules::table()) EXPECT_TRUE(covered.count(std::string(r->id))) << r->id;
  for (const Rule* r : btf::ext::rules::bpf_object_table()) {
    if (r->id == "XC-CONV-006") continue;  // a note on every raw object: RawBtfHasOnlyWhatLibbpfFixes
    EXPECT_TRUE(covered.count(std::string(r->id))) << r->id;
  }
}

// Outside bpf-object the .BTF.ext findings are warnings for bpf-load (which
// never reads .BTF.ext) and errors for libbpf where btf_ext__new refuses.
TEST(BpfObjectRules, ConsumersJudgeExtFindings) {
  REQUIRE_OBJECT(object, "progs");
  const Object o(object);
  Bytes b = o.bytes;
  b[o.ext_at + 2] = 2;  // BTF-EXT-003
  Outcome load = check(b, kBpfBtfLoad), lib = check(b, kLibbpf);
  EXPECT_TRUE(load.rules.count("BTF-EXT-003"));
  EXPECT_TRUE(lib.rules.count("BTF-EXT-003"));
  const Outcome raw = check(object, kLibbpf);
  EXPECT_EQ(lib.errors, raw.errors + 1) << lib.listing;
}

// ------------------------------------------- what clang 14 actually writes

TEST(ClangBpfObject, LayoutAsObserved) {
  REQUIRE_OBJECT(progs, "progs");
  const Object o(progs);
  // hdr_len 32 with a core_relo pair, even without CO-RE relocations.
  EXPECT_EQ(o.ext->header.hdr_len, 32u);
  EXPECT_EQ(o.ext->header.len[2], 0u);
  EXPECT_EQ(o.ext->block(Block::FuncInfo).rec_size, 8u);
  EXPECT_EQ(o.ext->block(Block::LineInfo).rec_size, 16u);
  // Line-0 records: clang emits line_info with line 0, column 0 (code it
  // cannot attribute to a line) in the middle of functions.
  bool line_zero = false;
  for (const auto& g : o.ext->block(Block::LineInfo).groups)
    for (uint32_t i = 0; i < g.num_info; ++i) {
      const auto li = o.ext->line_info(g, i);
      if (li.line() == 0) {
        line_zero = true;
        EXPECT_EQ(li.column(), 0u);
        EXPECT_EQ(o.btf->name_of(li.line_off), "");
      }
    }
  EXPECT_TRUE(line_zero);
  // DATASEC offsets before the fix-up: 0 for global variables, but the
  // section offset for static ones (clang relocates .BTF against the section
  // symbol with the offset as the in-place addend).
  const auto bss = o.btf->type(o.type_named(".bss", btf::kDatasec));
  EXPECT_EQ(bss.size(), 0u);
  std::map<std::string, uint32_t> offsets;
  for (uint32_t i = 0; i < bss.vlen(); ++i) {
    const auto e = btf::secinfo_at(bss, i);
    offsets[std::string(o.btf->name_of(o.btf->type(e.type).name_off()))] = e.offset;
  }
  EXPECT_EQ(offsets["global_zero"], 0u);
  EXPECT_EQ(offsets["static_zero"], 8u);
  // Two programs in one section share one func_info group.
  REQUIRE_OBJECT(globals, "globals");
  const Object g(globals);
  EXPECT_EQ(g.group(Block::FuncInfo, "socket").num_info, 2u);
}

}  // namespace
}  // namespace elfmeta::testing
