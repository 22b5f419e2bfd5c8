// The registry of every rule table; `elfmeta rules`, `explain` and the docs
// generator read rules only through here.
#include <algorithm>
#include <vector>

#include "btf/btf_rules.h"
#include "btf/ext/btf_ext_rules.h"
#include "btf/xc/xc_rules.h"
#include "orc/orc_rules.h"
#include "sframe/sframe_rules.h"
#include "core/rule.h"
#include "input/input_rules.h"

namespace elfmeta {

std::span<const Rule* const> all_rules() {
  static const std::vector<const Rule*> rules = [] {
    std::vector<const Rule*> v;
    for (auto table : {btf::rules::table(), btf::ext::rules::table(), btf::ext::rules::bpf_object_table(),
                        btf::xc::rules::symbol_table(), btf::xc::rules::dedup_table(),
                        btf::xc::rules::convention_table(), btf::xc::rules::dwarf_table(), btf::xc::rules::context_table(),
                        orc::rules::table(), sframe::rules::table(), input::rules::table()})
      v.insert(v.end(), table.begin(), table.end());
    return v;
  }();
  return rules;
}

const Rule* find_rule(std::string_view id) {
  auto rules = all_rules();
  auto it = std::find_if(rules.begin(), rules.end(), [id](const Rule* r) { return r->id == id; });
  return it == rules.end() ? nullptr : *it;
}

}  // namespace elfmeta
