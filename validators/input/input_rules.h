// The rules of the input layer: limits an input must stay within to be
// checked at all (input_limits.h). A refusal is an error: the input was not
// checked, and a run that skipped it must not pass.
#pragma once

#include <span>

#include "core/rule.h"

namespace elfmeta::input::rules {

std::span<const Rule* const> table();

extern const Rule INPUT_001, INPUT_002, INPUT_003, INPUT_004, INPUT_005;

}  // namespace elfmeta::input::rules
