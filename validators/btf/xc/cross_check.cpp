#include "btf/xc/cross_check.h"

#include "btf/btf_format.h"

namespace elfmeta::btf::xc {

std::string btf_section(const CrossCheckInput& in) {
  return in.artifact.kind == input::ArtifactKind::RawBtf ? "" : ".BTF";
}

Location type_location(const CrossCheckInput& in, uint32_t id) {
  Location loc;
  loc.artifact = in.artifact.name;
  loc.section = btf_section(in);
  loc.record_label = "type";
  loc.index = id;
  if (!in.btf.has_type(id) || id == 0) return loc;
  const TypeRef t = in.btf.type(id);
  if (in.btf.is_own(id)) loc.offset = in.btf.record_offset(id);
  loc.record_kind = std::string(kind_name(t.kind()));
  const std::string_view name = in.btf.name_of(t.name_off());
  if (!name.empty()) loc.record_name = std::string(name);
  return loc;
}

CrossCheckStats cross_check(const CrossCheckInput& in, Findings& findings) {
  CrossCheckStats stats;
  // The families follow references; they need every record and string.
  if (!in.btf.types_complete() || !in.btf.strings_usable()) {
    findings.note(btf_section(in), "the BTF is incomplete: cross-checks skipped");
    return stats;
  }
  check_symbols(in, findings, stats);
  check_dedup(in, findings, stats);
  check_conventions(in, findings, stats);
  check_dwarf(in, findings);
  findings.finish(btf_section(in));
  return stats;
}

}  // namespace elfmeta::btf::xc
