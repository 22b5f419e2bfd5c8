#include "btf/type_tags.h"

#include <string>

#include "btf/btf_rules.h"
#include "btf/kernel_profile.h"
#include "btf/kind_mask.h"

namespace elfmeta::btf {

// BTF-REF-008, -009, -012: btf_check_type_tags() of 5.19 to 7.1, and its
// successor btf_check_modifier_chain_length() of 7.2, which walks the same
// chains but no longer refuses a TYPE_TAG below another modifier (that
// finding stays, as a warning, and the walk goes on to the chain limit).
void check_type_tags(const Btf& btf, Findings& f, bool report_missing) {
  const bool tag_order = f.kernel().has(Gate::kTypeTagOrder);
  const uint32_t start = btf.first_id();
  // Chains are walked in id order; once a chain reaches an id at or below the
  // last checked modifier, the rest of it was checked already (after one
  // more step, as the kernel does).
  // Kind by kind: one type in twenty is a modifier.
  uint32_t good_id = start - 1;
  for_each_of_kinds<kTypedef, kVolatile, kConst, kRestrict, kTypeTag>(btf.kinds(), btf.own_count(), [&](uint32_t local) {
    const uint32_t i = start + local;
    if (f.flagged(i)) return;
    TypeRef t = btf.type(i);
    bool in_tags = t.kind() == kTypeTag, order_reported = false;
    int chain_limit = 32;
    uint32_t cur = i;
    while (is_modifier(t.kind())) {
      if (!chain_limit--) {
        f.at_type(rules::REF_009, i, "modifier chain is longer than 32 or cyclic");
        // One finding per chain: the later links would fail the same way.
        for (uint32_t id = cur; is_modifier(btf.type(id).kind()) && btf.is_own(id) && !f.flagged(id);) {
          f.flag(id);
          id = btf.type(id).type();
          if (!btf.has_type(id)) break;
        }
        break;
      }
      if (t.kind() == kTypeTag) {
        if (!in_tags && !order_reported) {
          f.at_type(rules::REF_008, i, "TYPE_TAG " + std::to_string(cur) + " follows a typedef or qualifier in the chain");
          if (tag_order) break;
          order_reported = true;
        }
      } else {
        in_tags = false;
      }
      if (cur <= good_id) break;
      cur = t.type();
      if (!btf.has_type(cur)) {
        if (report_missing)
          f.at_type(rules::REF_012, i, "chain reaches type id " + std::to_string(cur) + ", which does not exist");
        break;
      }
      if (f.flagged(cur)) break;
      t = btf.type(cur);
    }
    good_id = i;
  });
}

}  // namespace elfmeta::btf
