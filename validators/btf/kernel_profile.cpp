#include "btf/kernel_profile.h"

#include <algorithm>
#include <charconv>

#include "btf/btf_rules.h"

namespace elfmeta::btf {
namespace {

using namespace rules;

// Rules a gate adds or lifts.
constexpr const Rule* kVer001[] = {&VER_001};
constexpr const Rule* kVer002[] = {&VER_002};
constexpr const Rule* kVer003[] = {&VER_003};
constexpr const Rule* kVer004[] = {&VER_004};
constexpr const Rule* kVer005[] = {&VER_005};
constexpr const Rule* kVer006[] = {&VER_006};
constexpr const Rule* kVer007[] = {&VER_007};
constexpr const Rule* kVer008[] = {&VER_008};
constexpr const Rule* kVer009[] = {&VER_009};
constexpr const Rule* kVer010[] = {&VER_010};
constexpr const Rule* kVer011[] = {&VER_011};
constexpr const Rule* kVer015[] = {&VER_015};
constexpr const Rule* kVer016[] = {&VER_016};
constexpr const Rule* kVer017[] = {&VER_017};
constexpr const Rule* kVer018[] = {&VER_018};
constexpr const Rule* kNameRules[] = {&AGG_002, &AGG_003, &REF_004, &REF_006, &ENUM_003, &ENUM_004, &FWD_003,
                                      &FUNC_001, &VAR_002, &DATASEC_004, &PROTO_006};
constexpr Release kDotsBackports[] = {{5, 10}, {5, 15}, {6, 1}};
constexpr Release kNamesBackports[] = {{4, 19}};
constexpr const Rule* kLayout[] = {&LAYOUT_001};
constexpr const Rule* kTagOrder[] = {&REF_008};
constexpr const Rule* kChainLimit[] = {&REF_009};
constexpr const Rule* kWide[] = {&TYPE_002};
constexpr const Rule* kOwnership[] = {&FIELD_023};
constexpr const Rule* kRootNode[] = {&FIELD_018};
constexpr Release k612Backport[] = {{6, 12}};
constexpr const Rule* kFieldPass[] = {&FIELD_003, &FIELD_004, &FIELD_005, &FIELD_006, &FIELD_007, &FIELD_008, &FIELD_009,
                                      &FIELD_010, &FIELD_011, &FIELD_012, &FIELD_013, &FIELD_014, &FIELD_015,
                                      &FIELD_016, &FIELD_017, &FIELD_018, &FIELD_019, &FIELD_021, &FIELD_023};
constexpr const Rule* kNestedRules[] = {&FIELD_004, &FIELD_009, &FIELD_011};
constexpr const Rule* kKptrRules[] = {&FIELD_019, &FIELD_021};
constexpr const Rule* kResSpinRules[] = {&FIELD_007};
constexpr const Rule* kUptrRules[] = {&FIELD_019};
constexpr const Rule* kEmptySectionName[] = {&DATASEC_005};
constexpr const Rule* kRecordWide[] = {&FIELD_006};

// Every change of the BPF_BTF_LOAD / module BTF verifier that elfmeta models,
// oldest first. Releases are those of mainline kernel/bpf/btf.c; the ones
// checked on real kernels are listed in docs/btf.md ("Kernel profiles").
constexpr GateInfo kGates[] = {
    {Gate::kInt128, GateKind::kAccepts, {5, 1}, {}, {}, kVer017, "INTs wider than 64 bits"},
    {Gate::kFuncKinds, GateKind::kAccepts, {5, 0}, {}, {}, kVer001,
     "FUNC and FUNC_PROTO kinds and kind_flag on STRUCT, UNION and FWD"},
    {Gate::kVarDatasec, GateKind::kAccepts, {5, 2}, {}, {}, kVer002, "VAR and DATASEC kinds"},
    {Gate::kEnumSizes, GateKind::kAccepts, {5, 4}, {}, {}, kVer016, "ENUM sizes other than 4"},
    {Gate::kFuncLinkage, GateKind::kAccepts, {5, 6}, {}, {}, kVer003, "FUNC linkage other than static"},
    {Gate::kEmptyDatasec, GateKind::kAccepts, {5, 12}, {}, {}, kVer018, "DATASEC without entries"},
    {Gate::kFloat, GateKind::kAccepts, {5, 13}, {}, {}, kVer004, "FLOAT kind"},
    {Gate::kDeclTag, GateKind::kAccepts, {5, 16}, {}, {}, kVer005, "DECL_TAG kind"},
    {Gate::kTypeTag, GateKind::kAccepts, {5, 17}, {}, {}, kVer006, "TYPE_TAG kind"},
    {Gate::kEnum64, GateKind::kAccepts, {6, 0}, {}, {}, kVer007, "ENUM64 kind and signed ENUM kind_flag"},
    {Gate::kLongNames, GateKind::kAccepts, {6, 1}, {}, {}, kVer008, "identifiers longer than 128 bytes"},
    // Mainline 6.4 (9724160b3942), backported to the 5.10, 5.15 and 6.1 series.
    {Gate::kDotsInNames, GateKind::kAccepts, {6, 4}, {}, kDotsBackports, kVer015,
     "'.' in names other than VAR and DATASEC names"},
    {Gate::kPrintableSectionNames, GateKind::kAccepts, {6, 9}, {}, {}, kVer009,
     "DATASEC names that are not identifiers"},
    {Gate::kDistilledBase, GateKind::kAccepts, {6, 11}, {}, {}, kVer010, "distilled base BTF (.BTF.base) of modules"},
    {Gate::kTagKindFlag, GateKind::kAccepts, {6, 15}, {}, {}, kVer011, "kind_flag (attribute) on DECL_TAG and TYPE_TAG"},
    {Gate::kKindLayout, GateKind::kAccepts, {7, 1}, {}, {}, kLayout, "kind-layout header fields and section"},
    // 4.20, backported to the 4.19 series: 4.18 checks name offsets only.
    {Gate::kNameValidation, GateKind::kChecks, {4, 20}, {}, kNamesBackports, kNameRules, "name validation"},
    // 7.2 (btf_check_modifier_chain_length()) keeps only the chain limit.
    {Gate::kTypeTagOrder, GateKind::kChecks, {5, 19}, Release{7, 2}, {}, kTagOrder,
     "type tags before every other modifier of a chain"},
    {Gate::kSpecialFields, GateKind::kChecks, {6, 2}, {}, {}, kFieldPass, "special-field pass of BPF_BTF_LOAD"},
    {Gate::kRbTree, GateKind::kChecks, {6, 3}, {}, {}, {}, "bpf_rb_root and bpf_rb_node fields"},
    {Gate::kRefcount, GateKind::kChecks, {6, 4}, {}, {}, {}, "bpf_refcount field"},
    {Gate::kOwningNodes, GateKind::kChecks, {6, 6}, {}, {}, {}, "24-byte bpf_list_node and 32-byte bpf_rb_node"},
    {Gate::kUniqueContainsTag, GateKind::kChecks, {6, 7}, {}, {}, {}, "a single contains: tag per graph root"},
    {Gate::kElevenFields, GateKind::kChecks, {6, 10}, {}, {}, {}, "11 special fields per struct (10 before)"},
    {Gate::kNestedFields, GateKind::kChecks, {6, 11}, {}, {}, kNestedRules, "special fields in nested structs and arrays"},
    {Gate::kKptrAtLoad, GateKind::kChecks, {6, 12}, {}, {}, kKptrRules, "kptr members checked at BPF_BTF_LOAD"},
    {Gate::kUptr, GateKind::kAccepts, {6, 13}, {}, {}, kUptrRules, "uptr kptr tag"},
    {Gate::kResSpinLock, GateKind::kChecks, {6, 15}, {}, {}, kResSpinRules, "bpf_res_spin_lock field"},
    // 6.9 (bd70a8fb7ca4) until the fix bb6705c3f93b (6.11, backported to 6.10.10).
    {Gate::kEmptySectionNameAccepted, GateKind::kSkips, {6, 9}, Release{6, 10}, {}, kEmptySectionName,
     "DATASEC name check that skipped the first byte"},
    // Mainline 7.2; in 6.12 stable from 6.12.111 (nested spin locks) and
    // 6.12.115 (bpf_refcount), seen on Debian's 6.12.117. 6.13 to 7.1 accept
    // with a kernel WARN.
    {Gate::kRecordWideUniqueFields, GateKind::kChecks, {7, 2}, {}, k612Backport, kRecordWide,
     "one bpf_spin_lock and one bpf_refcount per processed struct, embedded structs included"},
    {Gate::kWideInfo, GateKind::kAccepts, {7, 2}, {}, {}, kWide,
     "24-bit vlen and 7-bit kind in info (bits 16-23 and 29-30 no longer reserved)"},
    {Gate::kModifierChainLimit, GateKind::kChecks, {5, 19}, {}, {}, kChainLimit, "modifier chains of at most 32 steps"},
    {Gate::kKptrTagWalk, GateKind::kChecks, {7, 2}, {}, {}, {},
     "kptr tags found anywhere in the pointer's modifier chain; unknown tags ignored"},
    // 7.2.9 stable (mainline 7.2 as Debian ships it), 6.12.113.
    {Gate::kOwnershipDepth, GateKind::kChecks, {7, 2}, {}, k612Backport, kOwnership,
     "ownership chains of at most 8 structs (kptrs to program structs, graph roots)"},
    {Gate::kRootNodeRuleDropped, GateKind::kSkips, {7, 2}, {}, k612Backport, kRootNode,
     "the root-and-node ownership rule, replaced by the depth bound"},
};

static_assert(std::size(kGates) == static_cast<size_t>(Gate::kCount));
constexpr bool gates_in_order() {
  for (size_t i = 0; i < std::size(kGates); ++i)
    if (kGates[i].gate != static_cast<Gate>(i)) return false;
  return true;
}
static_assert(gates_in_order(), "kGates is indexed by Gate");

}  // namespace


std::span<const GateInfo> gate_table() { return kGates; }

namespace {

std::string_view kind_text(GateKind k) {
  switch (k) {
    case GateKind::kAccepts: return "accepts";
    case GateKind::kChecks: return "checks";
    default: return "skips";
  }
}

std::string releases_text(const GateInfo& g) {
  std::string s = g.since.str() + "+";
  if (g.until)
    s = g.until->major == g.since.major && g.until->minor == g.since.minor + 1
            ? g.since.str() + " only"
            : g.since.str() + " to before " + g.until->str();
  for (const Release& b : g.backports) s += ", " + b.str() + ".y";
  return s;
}

std::string rules_text(const GateInfo& g) {
  std::string s;
  for (const Rule* r : g.rules) s += (s.empty() ? "" : ", ") + std::string(r->id);
  return s.empty() ? "(changes other checks)" : s;
}

}  // namespace

std::string gate_table_markdown() {
  std::string out =
      "# Kernel profiles\n\n"
      "`elfmeta check --kernel X.Y` applies the BTF rules of Linux X.Y (" + kOldestRelease.str() + " to " +
      kNewestRelease.str() + "). A profile stands for the newest stable release of its series, so backports "
      "count. Without `--kernel`, a vmlinux is checked against the release in its banner, a module against "
      "its vermagic, anything else against the running kernel.\n\n"
      "Each row is one change of the kernel's BTF verifier:\n\n"
      "* **accepts**: kernels in the range accept a feature that older ones refuse; the rule is the finding "
      "for the older ones (\"rejected by kernels before X\").\n"
      "* **checks**: kernels in the range make a check; for the others its rules are reported as warnings.\n"
      "* **skips**: kernels in the range skip a check that the others make.\n\n"
      "| Change | Kind | Kernels | Rules |\n|---|---|---|---|\n";
  for (const GateInfo& g : kGates)
    out += "| " + std::string(g.what) + " | " + std::string(kind_text(g.kind)) + " | " + releases_text(g) + " | " +
           rules_text(g) + " |\n";
  out += "\nGenerated from the gate table (validators/btf/kernel_profile.cpp) by `elfmeta kernels --docs`.\n";
  return out;
}

std::string gate_table_text() {
  std::string out;
  for (const GateInfo& g : kGates) {
    std::string range = releases_text(g), kind(kind_text(g.kind));
    range.resize(std::max<size_t>(range.size() + 1, 22), ' ');
    kind.resize(9, ' ');
    out += range + kind + std::string(g.what) + "\n";
  }
  return out;
}
const GateInfo& gate_info(Gate g) { return kGates[static_cast<size_t>(g)]; }

KernelProfile::KernelProfile(Release r) : release_(r) {
  for (const GateInfo& g : kGates) {
    bool has = r >= g.since && (!g.until || r < *g.until);
    for (const Release& b : g.backports) has |= b == r;
    gates_[static_cast<size_t>(g.gate)] = has;
  }
}

const GateInfo* KernelProfile::lacks_check(const Rule& rule) const {
  for (const GateInfo& g : kGates) {
    if (g.kind == GateKind::kAccepts || (g.kind == GateKind::kChecks) == has(g.gate)) continue;
    for (const Rule* r : g.rules)
      if (r == &rule) return &g;
  }
  return nullptr;
}

}  // namespace elfmeta::btf
