// elfmeta dump btf: list the types of an input's BTF, as far as it parses.
#include <iostream>

#include "btf/artifact_check.h"
#include "btf/dump.h"
#include "cli.h"
#include "core/report.h"

namespace elfmeta::cli {

int run_dump(Args args) {
  if (args.done()) throw UsageError("dump needs a format: dump btf INPUT");
  const std::string what = args.next();
  if (what != "btf") throw UsageError("dump " + what + ": only 'dump btf' exists in this build");
  std::string base_path, input_path, v;
  while (!args.done()) {
    if (args.option("--base-btf", v))
      base_path = v;
    else if (args.peek().size() > 1 && args.peek()[0] == '-')
      throw UsageError("dump: unknown option '" + args.peek() + "'");
    else if (input_path.empty())
      input_path = args.next();
    else
      throw UsageError("dump btf takes one INPUT");
  }
  if (input_path.empty()) throw UsageError("dump btf needs an INPUT");

  btf::CheckOptions options;
  options.lints = false;
  DiagnosticList findings;
  btf::CheckedBtf base;
  input::OpenResult base_input;
  if (!base_path.empty()) {
    base_input = input::open_input(base_path);
    if (!base_input.artifact) {
      std::cerr << "elfmeta: " << base_input.error << "\n";
      return 2;
    }
    auto where = btf::locate_btf(*base_input.artifact);
    if (!where) {
      std::cerr << "elfmeta: " << base_path << ": no BTF\n";
      return 2;
    }
    DiagnosticList ignored;
    base = btf::check_btf(where->data, nullptr, options, base_input.artifact->name, where->section, ignored);
  }
  auto opened = input::open_input(input_path);
  if (!opened.artifact) {
    std::cerr << "elfmeta: " << opened.error << "\n";
    return 2;
  }
  auto result = btf::check_artifact_btf(*opened.artifact, base.btf ? &base : nullptr, options, findings);
  const btf::Btf* model = result.btf.btf.get();
  if (!model) {
    for (const auto& d : findings.items()) write_text(std::cerr, d);
    std::cerr << "elfmeta: " << input_path << ": no BTF types to list\n";
    return findings.has_errors() ? 1 : 2;
  }
  btf::dump(*model, std::cout);
  for (const auto& d : findings.items()) write_text(std::cerr, d);
  return 0;
}

}  // namespace elfmeta::cli
