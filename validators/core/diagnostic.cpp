#include "core/diagnostic.h"

#include <algorithm>

namespace elfmeta {

void DiagnosticList::report(Diagnostic d) { items_.push_back(std::move(d)); }

size_t DiagnosticList::count(Severity s) const {
  return static_cast<size_t>(std::count_if(items_.begin(), items_.end(), [s](const Diagnostic& d) {
    return d.rule && d.severity == s;
  }));
}

size_t DiagnosticList::count(std::string_view id, std::optional<Severity> s) const {
  return static_cast<size_t>(std::count_if(items_.begin(), items_.end(), [&](const Diagnostic& d) {
    return d.rule && d.rule->id == id && (!s || d.severity == *s);
  }));
}

bool DiagnosticList::has_rule(std::string_view id) const {
  return std::any_of(items_.begin(), items_.end(),
                     [id](const Diagnostic& d) { return d.rule && d.rule->id == id; });
}

}  // namespace elfmeta
