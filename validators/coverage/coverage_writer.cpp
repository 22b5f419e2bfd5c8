// The coverage of artifacts summed, and written: JSON objects per family,
// flat "family.count" paths for stats, and a short text table.
#include <cstdio>

#include "coverage/coverage.h"

namespace elfmeta::coverage {
namespace {

template <typename Family>
void add_family(Family& to, const Family& from) {
  std::vector<uint64_t> values;
  Family::each(from, [&](const char*, uint64_t v) { values.push_back(v); });
  size_t i = 0;
  Family::each(to, [&](const char*, uint64_t& v) { v += values[i++]; });
}

template <typename Family>
nlohmann::json family_json(const Family& f) {
  nlohmann::json j = nlohmann::json::object();
  Family::each(f, [&](const char* name, uint64_t v) { j[name] = v; });
  return j;
}

std::string percent(uint64_t part, uint64_t whole) {
  if (whole == 0) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * double(part) / double(whole));
  return buf;
}

std::string ratio(uint64_t part, uint64_t whole) {
  return std::to_string(part) + "/" + std::to_string(whole) + " " + percent(part, whole);
}

}  // namespace

Coverage& Coverage::operator+=(const Coverage& o) {
  add_family(functions, o.functions);
  add_family(variables, o.variables);
  add_family(unwind, o.unwind);
  artifacts += o.artifacts;
  with_btf += o.with_btf;
  with_symbols += o.with_symbols;
  return *this;
}

Coverage coverage_of(const CoverageInput& in) {
  Coverage c;
  c.artifacts = 1;
  c.with_btf = in.btf != nullptr;
  c.with_symbols = in.symbols != nullptr;
  c.functions = function_coverage(in);
  c.variables = variable_coverage(in);
  c.unwind = unwind_coverage(in);
  return c;
}

nlohmann::json to_json(const Coverage& c) {
  return {{"artifacts", c.artifacts},
          {"with_btf", c.with_btf},
          {"with_symbols", c.with_symbols},
          {"functions", family_json(c.functions)},
          {"variables", family_json(c.variables)},
          {"unwind", family_json(c.unwind)}};
}

std::map<std::string, uint64_t> flat_counts(const Coverage& c) {
  std::map<std::string, uint64_t> out;
  const auto put = [&](const std::string& family) {
    return [&out, family](const char* name, uint64_t v) { out[family + "." + name] = v; };
  };
  FunctionCoverage::each(c.functions, put("functions"));
  VariableCoverage::each(c.variables, put("variables"));
  UnwindCoverage::each(c.unwind, put("unwind"));
  return out;
}

void write_table(std::ostream& out, const std::vector<Row>& rows) {
  size_t width = 8;
  for (const Row& r : rows) width = std::max(width, r.name.size() + (r.total ? 0 : 2));
  width = std::min<size_t>(width, 60);
  char line[512];
  std::snprintf(line, sizeof line, "%-*s  %-26s  %-26s  %-26s  %s\n", int(width), "artifact",
                "functions (ABI prototype)", "variables (typed)", "unwind (functions)", "unwind (text bytes)");
  out << line;
  for (const Row& r : rows) {
    const Coverage& c = r.coverage;
    const bool unwound = c.unwind.orc_tables + c.unwind.sframe_sections > 0;
    std::string name = (r.total ? "" : "  ") + r.name;
    if (name.size() > width) name = "..." + name.substr(name.size() - width + 3);
    std::snprintf(line, sizeof line, "%-*s  %-26s  %-26s  %-26s  %s\n", int(width), name.c_str(),
                  ratio(c.functions.covered, c.functions.total).c_str(),
                  ratio(c.variables.covered, c.variables.total).c_str(),
                  unwound ? ratio(c.unwind.covered, c.unwind.total).c_str() : "- (no ORC/SFrame)",
                  unwound ? ratio(c.unwind.covered_bytes, c.unwind.text_bytes).c_str() : "-");
    out << line;
  }
}

}  // namespace elfmeta::coverage
