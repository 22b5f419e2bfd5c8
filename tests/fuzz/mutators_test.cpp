// The structure-aware mutators of the fuzz targets (fuzz/mutators/): over
// seeds the builders make, every output fits libFuzzer's MaxSize, most
// outputs still decode as their format (the mutations are structural, not
// random bytes), and the mutants reach findings of many distinct rules.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "synth/fuzz_inputs.h"
#include "btf/parse.h"
#include "btf/verifier.h"
#include "fuzz/fuzz_support.h"
#include "fuzz/mutators/btf_mutator.h"
#include "fuzz/mutators/orc_mutator.h"
#include "fuzz/orc_layout_byte.h"
#include "fuzz/mutators/sframe_mutator.h"
#include "fuzz/mutators/xc_mutator.h"
#include "input/artifact.h"
#include "sframe/sframe_table.h"
#include "synth/btf_generator.h"
#include "synth/orc_builder.h"
#include "synth/sframe_builder.h"
#include "synth/xc_image.h"

namespace elfmeta::fuzz {
namespace {

using synth::length_prefixed;
using synth::section_of;

constexpr int kMutants = 2000;

// Stands in for LLVMFuzzerMutate: one byte changed, or one added when the
// input is empty.
size_t flip_one_byte(uint8_t* data, size_t size, size_t max_size) {
  static uint32_t counter = 0;
  ++counter;
  if (size == 0) {
    if (max_size == 0) return 0;
    data[0] = static_cast<uint8_t>(counter);
    return 1;
  }
  data[(counter * 7919u) % size] ^= static_cast<uint8_t>(1 + counter % 255);
  return size;
}


std::vector<std::vector<uint8_t>> btf_seeds() {
  std::vector<std::vector<uint8_t>> seeds;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    synth::Rng rng(seed);
    seeds.push_back(synth::random_type_graph(rng, seed % 2 == 0).build());
  }
  synth::Rng rng(9);
  seeds.push_back(synth::special_fields_graph(rng).build());
  // Big-endian: the mutator keeps the byte order.
  seeds.push_back(btf::swap_byte_order(seeds.front(), true));
  return seeds;
}

// fuzz_orc's input from generated images of every layout (the layout byte
// as tools/fuzz-seeds writes it).
std::vector<std::vector<uint8_t>> orc_seeds() {
  std::vector<std::vector<uint8_t>> seeds;
  std::mt19937_64 rng(11);
  for (int k = 0; k < 2; ++k)
    for (const auto& row : orc::layout_table()) {
      const auto elf = synth::random_orc(rng, row.layout, true).build();
      auto unwind = section_of(elf, ".orc_unwind");
      unwind.insert(unwind.begin(), orc_layout_byte_for(row.layout, row.fingerprint.has_value()));
      seeds.push_back(length_prefixed(section_of(elf, ".orc_unwind_ip"), unwind));
    }
  return seeds;
}

// fuzz_sframe's input: mode byte 0 (raw) and a section of each version and ABI.
std::vector<std::vector<uint8_t>> sframe_seeds() {
  std::vector<std::vector<uint8_t>> seeds;
  for (uint8_t version : {1, 2, 3})
    for (uint8_t abi : {sframe::kAmd64Le, sframe::kAarch64Le, sframe::kAarch64Be}) {
      auto p = synth::typical_sframe(version, abi, 4);
      p.endian = sframe::abi_big_endian(abi) ? Endian::Big : Endian::Little;
      auto raw = synth::encode_sframe(p, synth::SframeFile::Raw).bytes;
      raw.insert(raw.begin(), 0);
      seeds.push_back(raw);
    }
  return seeds;
}

struct Outcome {
  size_t decoded = 0, changed = 0;
  std::set<std::string> rules;
};

void collect_rules(const DiagnosticList& list, std::set<std::string>& rules) {
  for (const auto& d : list.items()) {
    if (d.rule) rules.emplace(d.rule->id);
    if (d.unlisted_rule) rules.emplace(d.unlisted_rule->id);
  }
}

// mutate_input as libFuzzer calls it, with a MaxSize sometimes below the
// structural result: the output must still fit.
void expect_fits_max_size(StructuralMutator mutate, const std::vector<std::vector<uint8_t>>& seeds) {
  for (unsigned i = 0; i < kMutants; ++i) {
    const auto& seed = seeds[i % seeds.size()];
    const size_t max_size = i % 3 == 0 ? seed.size() : i % 3 == 1 ? seed.size() + 64 : seed.size() + 4096;
    std::vector<uint8_t> buffer(max_size);
    std::copy(seed.begin(), seed.end(), buffer.begin());
    const size_t n = mutate_input(mutate, buffer.data(), seed.size(), max_size, i, flip_one_byte);
    ASSERT_LE(n, max_size) << "seed " << i % seeds.size() << ", libFuzzer seed " << i;
  }
}

bool btf_parses(std::span<const uint8_t> blob) {
  NullSink sink;
  btf::CheckContext ctx;
  btf::Findings findings(ctx, sink);
  const auto parsed = btf::parse(blob, {}, findings);
  return parsed && parsed->types_complete() && parsed->strings_usable();
}

TEST(BtfMutator, OutputsFitMaxSize) { expect_fits_max_size(mutate_btf, btf_seeds()); }

TEST(BtfMutator, MutantsStayParseableAndReachManyRules) {
  const auto seeds = btf_seeds();
  Outcome o;
  for (unsigned i = 0; i < kMutants; ++i) {
    const auto& seed = seeds[i % seeds.size()];
    Rng rng(i);
    // Mutants of mutants too, as a campaign's corpus grows.
    auto mutant = mutate_btf(seed, rng);
    ASSERT_TRUE(mutant) << "a builder's blob must decode";
    if (i % 2) mutant = mutate_btf(*mutant, rng).value_or(*mutant);
    o.changed += *mutant != seed;
    o.decoded += btf_parses(*mutant);
    btf::CheckOptions options;
    options.concurrent = false;
    DiagnosticList list;
    btf::check_btf(*mutant, nullptr, options, "mutant", "", list);
    collect_rules(list, o.rules);
  }
  EXPECT_GE(o.changed, kMutants * 9 / 10);
  EXPECT_GE(o.decoded, kMutants * 8 / 10);
  EXPECT_GE(o.rules.size(), 70u);
  std::cout << "BTF: " << o.decoded << "/" << kMutants << " parse, " << o.rules.size() << " rules\n";
}

TEST(BtfMutator, SplitInputMutatesEitherHalf) {
  synth::BtfBuilder base;
  const uint32_t i = base.add_int("int", 4, 32);
  base.add_ptr(i);
  const auto base_blob = base.build();
  synth::BtfBuilder module(3, static_cast<uint32_t>(base.strings().size()));
  module.add_typedef("module_int", 1);
  module.add_struct("s", 8, {{"a", 1, 0}, {"p", 2, 0}});
  const auto input = length_prefixed(base_blob, module.build());
  size_t changed = 0;
  for (unsigned k = 0; k < 200; ++k) {
    Rng rng(k);
    const auto out = mutate_btf_split(input, rng);
    ASSERT_TRUE(out);
    changed += *out != input;
  }
  EXPECT_GE(changed, 180u);
}

TEST(BtfMutator, SameSeedSameMutant) {
  const auto seed = btf_seeds().front();
  Rng a(42), b(42);
  EXPECT_EQ(mutate_btf(seed, a), mutate_btf(seed, b));
}

TEST(BtfMutator, CrossOverCarriesRecords) {
  const auto seeds = btf_seeds();
  Rng rng(1);
  const auto mixed = cross_over_btf(seeds[0], seeds[1], rng);
  ASSERT_TRUE(mixed);
  EXPECT_GT(mixed->size(), seeds[0].size());
  EXPECT_TRUE(btf_parses(*mixed));
}

TEST(BtfMutator, UndecodableInputIsLeftToRawMutation) {
  const std::vector<uint8_t> junk{1, 2, 3, 4, 5};
  Rng rng(1);
  EXPECT_FALSE(mutate_btf(junk, rng));
}

// The ORC input keeps its shape: whole slots, whole entries, and (for most
// mutants) as many slots as entries.
bool orc_shape_intact(std::span<const uint8_t> in) {
  if (in.size() < 3) return false;
  const size_t head = size_t(in[0]) | size_t(in[1]) << 8;
  if (head + 3 > in.size()) return false;
  const size_t unwind = in.size() - head - 3;
  return head % orc::kIpSize == 0 && unwind % orc::kEntrySize == 0 && head / orc::kIpSize == unwind / orc::kEntrySize;
}

TEST(OrcMutator, OutputsFitMaxSize) { expect_fits_max_size(mutate_orc, orc_seeds()); }

TEST(OrcMutator, MutantsKeepTheTablesAndReachManyRules) {
  const auto seeds = orc_seeds();
  Outcome o;
  for (unsigned i = 0; i < kMutants; ++i) {
    const auto& seed = seeds[i % seeds.size()];
    Rng rng(i);
    auto mutant = mutate_orc(seed, rng);
    ASSERT_TRUE(mutant);
    if (i % 2) mutant = mutate_orc(*mutant, rng).value_or(*mutant);
    o.changed += *mutant != seed;
    o.decoded += orc_shape_intact(*mutant);
    DiagnosticList list;
    check_orc_input(mutant->data(), mutant->size(), list);
    collect_rules(list, o.rules);
  }
  EXPECT_GE(o.changed, kMutants * 9 / 10);
  EXPECT_GE(o.decoded, kMutants * 8 / 10);
  EXPECT_GE(o.rules.size(), 15u);
  std::cout << "ORC: " << o.decoded << "/" << kMutants << " aligned, " << o.rules.size() << " rules\n";
}

TEST(OrcMutator, CrossOverKeepsTablesAligned) {
  const auto seeds = orc_seeds();
  for (unsigned k = 0; k < 50; ++k) {
    Rng rng(k);
    const auto mixed = cross_over_orc(seeds[k % seeds.size()], seeds[(k + 1) % seeds.size()], rng);
    ASSERT_TRUE(mixed);
    EXPECT_TRUE(orc_shape_intact(*mixed));
  }
}

bool sframe_reads(std::span<const uint8_t> section) {
  input::Artifact a;
  a.kind = input::ArtifactKind::RawSframe;
  a.raw = a.content = section;
  DiagnosticList discard;
  sframe::SframeFindings f("mutant", discard, kNoConsumer);
  const auto t = sframe::read_sframe(a, f);
  return t && t->usable && t->fdes.size() == t->header.num_fdes;
}

TEST(SframeMutator, OutputsFitMaxSize) { expect_fits_max_size(mutate_sframe_with_mode, sframe_seeds()); }

TEST(SframeMutator, MutantsStayReadableAndReachManyRules) {
  const auto seeds = sframe_seeds();
  Outcome o;
  for (unsigned i = 0; i < kMutants; ++i) {
    const auto& seed = seeds[i % seeds.size()];
    Rng rng(i);
    auto mutant = mutate_sframe_with_mode(seed, rng);
    ASSERT_TRUE(mutant);
    if (i % 2) mutant = mutate_sframe_with_mode(*mutant, rng).value_or(*mutant);
    o.changed += *mutant != seed;
    o.decoded += sframe_reads(std::span<const uint8_t>(*mutant).subspan(1));
    DiagnosticList list;
    check_sframe_input(mutant->data(), mutant->size(), list);
    collect_rules(list, o.rules);
  }
  EXPECT_GE(o.changed, kMutants * 9 / 10);
  EXPECT_GE(o.decoded, kMutants * 3 / 4);
  EXPECT_GE(o.rules.size(), 35u);
  std::cout << "SFrame: " << o.decoded << "/" << kMutants << " readable, " << o.rules.size() << " rules\n";
}

TEST(SframeMutator, CrossOverGraftsWholeFdes) {
  // FDEs of a section grafted into itself: the result reads, with more FDEs.
  for (const auto& seed : sframe_seeds()) {
    const std::span<const uint8_t> section = std::span<const uint8_t>(seed).subspan(1);
    Rng rng(3);
    const auto mixed = cross_over_sframe(section, section, rng);
    ASSERT_TRUE(mixed);
    EXPECT_TRUE(sframe_reads(*mixed));
    EXPECT_GT(mixed->size(), section.size());
  }
}

// fuzz_btf_xc's seed as tools/fuzz-seeds writes it.
std::vector<uint8_t> xc_seed_input() {
  const auto parts = synth::xc_seed();
  return encode_xc_input({parts.btf, parts.btf_ids, parts.kallsyms});
}

std::set<std::string> xc_rules_of(std::span<const uint8_t> input) {
  DiagnosticList list;
  check_xc_input(input.data(), input.size(), list);
  std::set<std::string> rules;
  for (const auto& d : list.items())
    if (d.rule && d.severity != Severity::Note && d.rule->id.starts_with("XC-")) rules.emplace(d.rule->id);
  return rules;
}

// The mutants' findings are the mutations' doing only when the seed has none.
TEST(XcMutator, SeedIsClean) {
  const auto seed = xc_seed_input();
  EXPECT_EQ(xc_rules_of(seed), std::set<std::string>{});
  DiagnosticList list;
  check_xc_input(seed.data(), seed.size(), list);
  EXPECT_FALSE(list.has_errors());
}

TEST(XcMutator, OutputsFitMaxSize) { expect_fits_max_size(mutate_btf_xc, {xc_seed_input()}); }

TEST(XcMutator, MutantsDecodeAndReachManyCrossCheckRules) {
  const auto seed = xc_seed_input();
  Outcome o;
  std::vector<uint8_t> mutant = seed;
  for (unsigned i = 0; i < kMutants; ++i) {
    Rng rng(i);
    // Chains of up to 4 mutations from the seed, as a campaign's corpus grows.
    if (i % 4 == 0) mutant = seed;
    mutant = mutate_btf_xc(mutant, rng).value_or(mutant);
    o.changed += mutant != seed;
    o.decoded += decode_xc_input(mutant).has_value();
    for (const auto& r : xc_rules_of(mutant)) o.rules.insert(r);
  }
  EXPECT_GE(o.changed, kMutants * 9 / 10);
  EXPECT_EQ(o.decoded, size_t(kMutants));
  EXPECT_GE(o.rules.size(), 10u);
  std::string ids;
  for (const auto& r : o.rules) ids += " " + r;
  std::cout << "XC: " << o.rules.size() << " rules:" << ids << "\n";
}

TEST(XcMutator, EachPartIsMutated) {
  const auto seed = xc_seed_input();
  const auto parts = decode_xc_input(seed);
  ASSERT_TRUE(parts);
  bool btf = false, ids = false, text = false;
  for (unsigned i = 0; i < 200; ++i) {
    Rng rng(i);
    const auto out = mutate_btf_xc(seed, rng);
    if (!out) continue;
    const auto x = decode_xc_input(*out);
    ASSERT_TRUE(x);
    btf |= x->btf != parts->btf;
    ids |= x->btf_ids != parts->btf_ids;
    text |= x->kallsyms != parts->kallsyms;
  }
  EXPECT_TRUE(btf && ids && text);
}

TEST(XcMutator, UndecodableInputIsLeftToRawMutation) {
  const std::vector<uint8_t> truncated{0xff, 0x00, 1, 2};
  Rng rng(1);
  EXPECT_FALSE(mutate_btf_xc(truncated, rng));
}

}  // namespace
}  // namespace elfmeta::fuzz
