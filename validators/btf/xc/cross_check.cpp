#include "btf/xc/cross_check.h"

#include <algorithm>

#include "btf/bounded_name.h"
#include "btf/findings.h"
#include "btf/btf_format.h"

namespace elfmeta::btf::xc {

std::string btf_section(const CrossCheckInput& in) {
  return in.artifact.kind == input::ArtifactKind::RawBtf ? "" : ".BTF";
}

uint32_t NameIndex::kind_of(TypeRef t) {
  if (t.is_void()) return 0;
  switch (t.kind()) {
    case kFwd: return t.kflag() ? kUnion : kStruct;
    case kEnum64: return kEnum;
    case kStruct: case kUnion: case kEnum: case kTypedef: case kFunc: case kVar: return t.kind();
    default: return 0;
  }
}

NameIndex::NameIndex(const Btf& btf, uint32_t first_id) {
  for (uint32_t id = std::max(first_id, 1u); id < btf.type_count(); ++id) {
    const TypeRef t = btf.type(id);
    const uint32_t kind = kind_of(t);
    if (!kind) continue;
    const std::string_view name = xc_name(btf, t.name_off());
    if (!name.empty()) names_.emplace(kind, name);
  }
}

Location type_location(const CrossCheckInput& in, uint32_t id) {
  return bounded_type_location(&in.btf, id, in.artifact.name, btf_section(in));
}

CrossCheckStats cross_check(const CrossCheckInput& in, Findings& findings) {
  CrossCheckStats stats;
  // The families follow references; they need every record and string.
  if (!in.btf.types_complete() || !in.btf.strings_usable()) {
    findings.note(btf_section(in), "the BTF is incomplete: cross-checks skipped");
    return stats;
  }
  check_symbols(in, findings, stats);
  check_btf_ids(in, findings, stats);
  check_dedup(in, findings, stats);
  check_conventions(in, findings, stats);
  check_dwarf(in, findings);
  findings.finish(btf_section(in));
  return stats;
}

}  // namespace elfmeta::btf::xc
