// SFRAME-FRE-*: the FREs of each FDE.
#include "sframe/fre_rules.h"
#include "sframe/sframe_checks.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {

void check_fres(const SframeTable& t, SframeFindings& f) {
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    if (!t.blocks[i].findings) continue;  // every FRE passed the screen while it was read
    FreRules rules(t.header, t.fdes[i], f.consumer());
    Fre previous;
    for (FreCursor c(t, i); !c.done(); c.next()) {
      rules.report(i, c.index(), *c, c.index() ? &previous : nullptr, f);
      previous = *c;
    }
  }
}

}  // namespace elfmeta::sframe
