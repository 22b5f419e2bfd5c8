// Names of BTF records read with a bound. A string section may hold one
// L-byte string that N records all name; whatever reads each record's name
// in full (strlen, a hash, a copy) then costs N * L. The kernel refuses
// names longer than KSYM_NAME_LEN - 1 (kMaxNameLength), so reading one byte
// past that bound tells everything a check needs: the name, or that it is
// too long.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include "btf/btf.h"
#include "btf/btf_format.h"
#include "btf/names.h"
#include "core/diagnostic.h"
#include "core/text.h"

namespace elfmeta::btf {

// The string at `off`, cut at max + 1 bytes (size() > max: it is longer);
// empty for an offset outside the string sections. Measured with strnlen
// bounded by the end of the string section that holds it.
inline std::string_view bounded_name(const Btf& btf, uint32_t off, size_t max = kMaxNameLength) {
  const char* s = btf.string_at(off);
  if (!s) return {};
  const size_t room = static_cast<size_t>(btf.string_section_end(off) - s);
  return std::string_view(s, strnlen(s, std::min(room, max + 1)));
}

// What printable() shows of a name by default, and so all a message needs
// to read of it.
inline constexpr size_t kPrintedName = 80;

// btf::type_location with the name read as above: for the findings a
// check may make once per record.
inline Location bounded_type_location(const Btf* btf, uint32_t id, std::string artifact, std::string section,
                                      uint64_t offset_in_record = 0) {
  Location loc{std::move(artifact), std::move(section), std::nullopt, "type", id, "", std::nullopt};
  if (btf && id && btf->has_type(id)) {
    const TypeRef t = btf->type(id);
    if (btf->is_own(id)) loc.offset = btf->record_offset(id) + offset_in_record;
    loc.record_kind = std::string(kind_name(t.kind()));
    if (t.name_off() && btf->name_offset_valid(t.name_off()))
      loc.record_name = printable(bounded_name(*btf, t.name_off(), kPrintedName));
  }
  return loc;
}

// "12 STRUCT 'name'" ("void" for 0), for messages that name the types on a
// path.
inline std::string type_label(const Btf& btf, uint32_t id) {
  if (id == 0) return "void";
  if (!btf.has_type(id)) return "<type " + std::to_string(id) + ">";
  const TypeRef t = btf.type(id);
  std::string s = std::to_string(id) + " " + std::string(kind_name(t.kind()));
  if (t.name_off() && btf.name_offset_valid(t.name_off()))
    s += " '" + printable(bounded_name(btf, t.name_off(), kPrintedName)) + "'";
  return s;
}

}  // namespace elfmeta::btf
