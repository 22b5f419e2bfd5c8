// Which kernel release the BTF rules are those of. The BTF verifier changed
// from release to release: kinds and kind_flag meanings were added, name
// rules relaxed, passes added. One table of version gates (kernel_profile.cpp)
// records every such change; the checks ask a KernelProfile whether the
// target has a gate instead of comparing versions themselves.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/release.h"
#include "core/rule.h"

namespace elfmeta::btf {

using elfmeta::Release;
using elfmeta::parse_release;

// A profile X.Y stands for the newest stable release of that series (what
// distributions ship), so backports count.
// The oldest release with BTF and the newest whose rules elfmeta knows.
inline constexpr Release kOldestRelease{4, 18}, kNewestRelease{7, 2};
// The default when no kernel is named and none can be read: the release the
// default rules were proven on (BPF_BTF_LOAD on the machines elfmeta runs on).
inline constexpr Release kDefaultRelease{6, 18};

// A behaviour of the kernel's BTF verifier that exists from `since` on (and,
// for a behaviour that was later removed again, until `until`).
enum class Gate : uint8_t {
  // Kinds and meanings that old kernels reject.
  kInt128,              // INTs of more than 64 bits
  kFuncKinds,           // FUNC, FUNC_PROTO, kind_flag on STRUCT/UNION/FWD
  kVarDatasec,          // VAR, DATASEC
  kEnumSizes,           // ENUM sizes 1, 2 and 8 (only 4 before)
  kFuncLinkage,         // FUNC linkage other than static
  kEmptyDatasec,        // DATASEC without entries
  kFloat,               // FLOAT
  kDeclTag,             // DECL_TAG
  kTypeTag,             // TYPE_TAG
  kEnum64,              // ENUM64, signedness kind_flag on ENUM
  kLongNames,           // identifiers of 128..512 bytes (KSYM_NAME_LEN 512)
  kDotsInNames,         // '.' in every identifier (before: VAR and DATASEC names only)
  kPrintableSectionNames,  // DATASEC names of any printable bytes
  kDistilledBase,       // modules' .BTF.base
  kTagKindFlag,         // kind_flag (attribute) on DECL_TAG and TYPE_TAG
  kKindLayout,          // 32-byte header with a kind-layout section
  // Checks that old kernels do not make.
  kNameValidation,      // names are checked at all (4.18 checks offsets only)
  kTypeTagOrder,        // the type-tag ordering check (5.19 to 7.1)
  kSpecialFields,       // the special-field pass at BPF_BTF_LOAD
  kRbTree,              // bpf_rb_root / bpf_rb_node special fields
  kRefcount,            // bpf_refcount, owning graph nodes (node sizes grew)
  kOwningNodes,         // bpf_list_node 24 and bpf_rb_node 32 bytes (16 and 24 before)
  kUniqueContainsTag,   // a second contains: tag on a graph root is refused
  kElevenFields,        // BTF_FIELDS_MAX 11 (10 before)
  kNestedFields,        // fields found in nested structs and arrays
  kKptrAtLoad,          // kptr members scanned at BPF_BTF_LOAD
  kUptr,                // uptr is a known kptr tag
  kResSpinLock,         // bpf_res_spin_lock special field
  kEmptySectionNameAccepted,  // the 6.9 DATASEC name check: first byte unchecked, "" let through
  kRecordWideUniqueFields,    // 7.2, 6.12 stable: one bpf_spin_lock / bpf_refcount per record, nesting included
  kWideInfo,            // 7.2: 24-bit vlen and 7-bit kind in info
  kModifierChainLimit,  // modifier chains of at most 32 steps (the type-tag pass, 5.19+)
  kKptrTagWalk,         // 7.2: kptr tags anywhere in the pointer's modifier chain
  kOwnershipDepth,      // 7.2, 6.12 stable: ownership chains of at most 8 structs
  kRootNodeRuleDropped, // 7.2, 6.12 stable: no root-and-node ownership rule (BTF-FIELD-018)
  kCount
};

enum class GateKind : uint8_t {
  kAccepts,  // kernels from `since` accept a feature; older ones reject it (rules: the finding)
  kChecks,   // kernels with the gate make a check (rules: those it enforces)
  kSkips,    // kernels with the gate skip a check the others make (rules: those skipped)
};

struct GateInfo {
  Gate gate;
  GateKind kind;
  Release since;
  std::optional<Release> until;  // first release without it again
  // Earlier series whose newest stable release has it (backports).
  std::span<const Release> backports;
  std::span<const Rule* const> rules;
  std::string_view what;
};

// The table, in gate order.
std::span<const GateInfo> gate_table();
const GateInfo& gate_info(Gate g);

// The table as Markdown (docs/kernel-profiles.md) and as plain text.
std::string gate_table_markdown();
std::string gate_table_text();

class KernelProfile {
 public:
  KernelProfile() : KernelProfile(kDefaultRelease) {}
  explicit KernelProfile(Release r);
  Release release() const { return release_; }
  bool has(Gate g) const { return gates_[static_cast<size_t>(g)]; }
  // For a rule whose check this kernel does not make: the gate that adds it.
  const GateInfo* lacks_check(const Rule& rule) const;
  // KSYM_NAME_LEN of this kernel.
  size_t max_name_length() const { return has(Gate::kLongNames) ? 512 : 128; }

 private:
  Release release_;
  std::bitset<static_cast<size_t>(Gate::kCount)> gates_;
};

}  // namespace elfmeta::btf
