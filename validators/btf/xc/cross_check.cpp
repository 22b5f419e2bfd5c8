#include "btf/xc/cross_check.h"

#include "btf/findings.h"

namespace elfmeta::btf::xc {

std::string btf_section(const CrossCheckInput& in) {
  return in.artifact.kind == input::ArtifactKind::RawBtf ? "" : ".BTF";
}

Location type_location(const CrossCheckInput& in, uint32_t id) {
  return btf::type_location(&in.btf, id, in.artifact.name, btf_section(in));
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
