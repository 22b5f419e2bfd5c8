// docs/rules/ is generated from the rule tables: one page per rule and an
// index. A test keeps the committed pages equal to this output.
#pragma once

#include <string>

#include "core/rule.h"

namespace elfmeta {

std::string rule_doc_page(const Rule& rule);
std::string rule_doc_index();
std::string enforcement_text(const Rule& rule);

}  // namespace elfmeta
