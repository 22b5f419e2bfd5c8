// Properties of the ORC verifier over generated tables (RapidCheck; ctest
// runs 1,000 cases each). Tables are generated from plans (code sections of
// functions), which RapidCheck shrinks to the smallest table that fails.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <sstream>

#include "core/report.h"
#include "orc/orc_table.h"
#include "orc/verifier.h"
#include "synth/orc_builder.h"
#include "tests/orc/orc_rule_cases.h"

namespace elfmeta::synth {
void showValue(const OrcPlan& p, std::ostream& os) {
  os << orc::layout_info(p.layout).name << (p.image ? " image" : p.module ? " module" : " object")
     << (p.prefixes ? " with prefixes" : "") << ":";
  for (const auto& s : p.sections) {
    os << " [";
    for (const auto& f : s) os << " " << 16 + f.size << (f.frame_pointer ? "fp" : "") << (f.padded ? "+pad" : "");
    os << " ]";
  }
}
}  // namespace elfmeta::synth

namespace elfmeta::testing {
void showValue(const OrcRuleCase& c, std::ostream& os) { os << c.rule; }

namespace {

rc::Gen<synth::OrcPlan::Function> functions() {
  return rc::gen::build<synth::OrcPlan::Function>(
      rc::gen::set(&synth::OrcPlan::Function::size, rc::gen::inRange<uint16_t>(0, 400)),
      rc::gen::set(&synth::OrcPlan::Function::frame_pointer, rc::gen::arbitrary<bool>()),
      rc::gen::set(&synth::OrcPlan::Function::padded, rc::gen::arbitrary<bool>()),
      rc::gen::set(&synth::OrcPlan::Function::frame_words, rc::gen::inRange<uint8_t>(0, 60)));
}

// Plans of every scope and layout; `scopes` limits them.
rc::Gen<synth::OrcPlan> plans(uint32_t scopes = kAnyScope, uint32_t layouts = kAnyLayout) {
  std::vector<uint32_t> allowed_scopes;
  for (uint32_t s : {kObject, kModule, kImage})
    if (scopes & s) allowed_scopes.push_back(s);
  std::vector<orc::Layout> allowed_layouts;
  for (const auto& row : orc::layout_table())
    if (layouts & layout_bit(row.layout)) allowed_layouts.push_back(row.layout);
  return rc::gen::exec([allowed_scopes, allowed_layouts] {
    synth::OrcPlan p;
    p.layout = *rc::gen::elementOf(allowed_layouts);
    const uint32_t scope = *rc::gen::elementOf(allowed_scopes);
    p.image = scope == kImage;
    p.module = scope == kModule;
    p.prefixes = orc::layout_info(p.layout).typed_no_info && *rc::gen::arbitrary<bool>();  // call padding: 6.4+
    p.sections = *rc::gen::resize(
        8, rc::gen::nonEmpty(rc::gen::container<std::vector<std::vector<synth::OrcPlan::Function>>>(
               rc::gen::nonEmpty(rc::gen::container<std::vector<synth::OrcPlan::Function>>(functions())))));
    if (p.sections.size() > 4) p.sections.resize(4);
    return p;
  });
}

std::string check_listing(const std::vector<uint8_t>& elf, size_t& findings) {
  auto opened = input::open_bytes("generated", elf);
  if (!opened.artifact) return opened.error;
  DiagnosticList list;
  orc::check_orc(*opened.artifact, {}, list);
  findings = list.items().size();
  std::ostringstream out;
  for (const auto& d : list.items()) write_text(out, d);
  return out.str();
}

RC_GTEST_PROP(OrcProperty, GeneratedValidTableHasNoDiagnostics, ()) {
  const synth::OrcPlan plan = *plans();
  size_t findings = 0;
  const std::string listing = check_listing(synth::orc_from_plan(plan).build(), findings);
  if (findings) RC_FAIL(listing);
}

// Reading a table and encoding its entries and addresses again gives the
// bytes back, in every layout; so does any 6-byte entry.
RC_GTEST_PROP(OrcProperty, EncodeParseIsIdentity, ()) {
  const synth::OrcPlan plan = *plans();
  const auto elf = synth::orc_from_plan(plan).build();
  auto opened = input::open_bytes("generated", elf);
  RC_ASSERT(opened.artifact != nullptr);
  NullSink discard;
  orc::OrcFindings f("generated", discard);
  // An object carries no release: it is read as a kernel of its layout
  // would check it (G3+AX, released by no one, by its entries: as G3).
  const auto kernel = plan.image || plan.module ? std::nullopt : object_kernel(plan.layout);
  const auto table = orc::read_orc(*opened.artifact, kernel, f);
  RC_ASSERT(table.has_value());
  RC_ASSERT(table->layout_known);
  RC_ASSERT(table->layout == (plan.layout == orc::Layout::G3_AX && !plan.image && !plan.module ? orc::Layout::G3 : plan.layout));
  std::vector<uint8_t> unwind;
  for (size_t i = 0; i < table->size(); ++i) {
    const auto bytes = orc::encode(table->entries[i], table->layout);
    unwind.insert(unwind.end(), bytes.begin(), bytes.end());
  }
  RC_ASSERT(std::equal(unwind.begin(), unwind.end(), table->unwind->data.begin(), table->unwind->data.end()));
  if (!table->relocatable) {
    std::vector<uint8_t> ip;
    for (size_t i = 0; i < table->size(); ++i) {
      const uint32_t rel = static_cast<uint32_t>(table->sites[i].address - (table->ip->addr + i * 4));
      ip.insert(ip.end(), reinterpret_cast<const uint8_t*>(&rel), reinterpret_cast<const uint8_t*>(&rel) + 4);
    }
    RC_ASSERT(std::equal(ip.begin(), ip.end(), table->ip->data.begin(), table->ip->data.end()));
  }
  const auto raw = *rc::gen::container<std::array<uint8_t, 6>>(rc::gen::arbitrary<uint8_t>());
  for (const auto& row : orc::layout_table()) RC_ASSERT(orc::encode(orc::decode(raw.data(), row.layout), row.layout) == raw);
}

RC_GTEST_PROP(OrcProperty, EachRuleMutatorFiresExactlyItsRule, ()) {
  const auto& cases = orc_rule_cases();
  const OrcRuleCase& c = *rc::gen::elementOf(cases);
  synth::OrcPlan plan = *plans(c.scopes, c.layouts);
  if (c.needs_prefixes) plan.prefixes = orc::layout_info(plan.layout).typed_no_info;
  const auto elf = synth::orc_from_plan(plan).build();
  OrcMutation m(elf, std::nullopt, plan.image || plan.module ? std::nullopt : object_kernel(plan.layout));
  RC_PRE(c.mutate(m));  // a table without what the mutation needs is discarded
  std::string listing;
  const auto fired = orc_rules_fired(m, &listing);
  if (!fired.count(std::string(c.rule))) RC_FAIL(std::string(c.rule) + " did not fire:\n" + listing);
  for (const auto& r : fired)
    if (r != c.rule && std::find(c.also.begin(), c.also.end(), r) == c.also.end())
      RC_FAIL(std::string(c.rule) + " also fired " + r + ":\n" + listing);
}

// Hostile tables: random bytes written over a generated table (entries,
// slots, relocations, section headers alike) give findings, never a crash
// (the sanitizer build runs this too).
RC_GTEST_PROP(OrcProperty, CorruptedTablesGetFindingsNotCrashes, ()) {
  auto elf = synth::orc_from_plan(*plans()).build();
  const auto flips = *rc::gen::container<std::vector<std::pair<uint32_t, uint8_t>>>(
      rc::gen::pair(rc::gen::arbitrary<uint32_t>(), rc::gen::arbitrary<uint8_t>()));
  for (const auto& [at, value] : flips) elf[at % elf.size()] = value;
  auto opened = input::open_bytes("corrupted", elf);
  if (!opened.artifact) return;  // the ELF itself no longer opens: the input layer said why
  DiagnosticList list;
  const auto result = orc::check_orc(*opened.artifact, {}, list);
  RC_ASSERT(result.entries <= elf.size());
}

}  // namespace
}  // namespace elfmeta::testing
