// How many findings of one rule one check lists; past it they are counted,
// not listed, and a closing note (unlisted_note in core/findings.h) says how
// many. The text report keeps Findings::kPerRuleLimit, so that a hostile
// input stays readable; JSON, SARIF and JUnit carry every finding
// (no_listing_limit). Process-wide, like the output format that chooses it:
// set it before the checks start.
#pragma once

#include <cstddef>

namespace elfmeta {

inline constexpr size_t no_listing_limit = ~size_t(0);
size_t listing_limit();
void set_listing_limit(size_t limit);

}  // namespace elfmeta
