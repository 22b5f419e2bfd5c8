// elfmeta rules / explain: the rule tables, as a list, as JSON, or as docs.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "btf/kernel_profile.h"
#include "cli.h"
#include "core/report.h"
#include "core/rule_docs.h"

namespace elfmeta::cli {

int run_rules(Args args) {
  std::string format = "text", docs_dir, v;
  while (!args.done()) {
    if (args.option("--format", v)) {
      if (v != "text" && v != "json") throw UsageError("--format takes text or json, not '" + v + "'");
      format = v;
    } else if (args.option("--docs", v)) {
      docs_dir = v;
    } else {
      throw UsageError("rules: unexpected argument '" + args.peek() + "'");
    }
  }
  if (!docs_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(docs_dir, ec);
    auto write = [&](const std::string& name, const std::string& text) {
      std::ofstream out(docs_dir + "/" + name);
      out << text;
      if (!out) throw UsageError("cannot write " + docs_dir + "/" + name);
    };
    for (const Rule* r : all_rules()) write(std::string(r->id) + ".md", rule_doc_page(*r));
    write("README.md", rule_doc_index());
    return 0;
  }
  if (format == "json") {
    std::cout << "[";
    bool first = true;
    for (const Rule* r : all_rules()) {
      std::cout << (first ? "\n" : ",\n") << "{\"id\":\"" << r->id << "\",\"severity\":\"" << severity_name(r->severity)
                << "\",\"refused_by\":\"" << json_escape(enforcement_text(*r)) << "\",\"summary\":\""
                << json_escape(r->summary) << "\",\"since\":\"" << json_escape(r->since) << "\",\"log\":\""
                << json_escape(r->log) << "\",\"log_of\":\"" << (r->log.empty() ? "" : log_source(*r)) << "\"}";
      first = false;
    }
    std::cout << "\n]\n";
    return 0;
  }
  for (const Rule* r : all_rules()) {
    std::string id(r->id);
    id.resize(18, ' ');
    std::string sev(severity_name(r->severity));
    sev.resize(8, ' ');
    std::cout << id << sev << r->summary << "\n";
  }
  return 0;
}

int run_kernels(Args args) {
  std::string docs, v;
  while (!args.done()) {
    if (args.option("--docs", v))
      docs = v;
    else
      throw UsageError("kernels: unexpected argument '" + args.peek() + "'");
  }
  if (docs.empty()) {
    std::cout << btf::gate_table_text();
    return 0;
  }
  std::ofstream out(docs);
  out << btf::gate_table_markdown();
  if (!out) throw UsageError("cannot write " + docs);
  return 0;
}

int run_explain(Args args) {
  if (args.done()) throw UsageError("explain needs a RULE-ID (see elfmeta rules)");
  const std::string id = args.next();
  if (!args.done()) throw UsageError("explain takes one RULE-ID");
  const Rule* r = find_rule(id);
  if (!r) throw UsageError("no rule '" + id + "' (see elfmeta rules)");
  std::cout << r->id << ": " << r->summary << "\n\n"
            << "  severity:   " << severity_name(r->severity) << "\n"
            << "  refused by: " << enforcement_text(*r) << "\n";
  if (!r->since.empty()) std::cout << "  since:      " << r->since << "\n";
  if (!r->log.empty()) std::cout << "  " << log_note(*r) << "\n";
  if (!r->explanation.empty()) std::cout << "\n" << r->explanation << "\n";
  if (!r->trigger.empty()) std::cout << "\nMinimal trigger: " << r->trigger << "\n";
  return 0;
}

}  // namespace elfmeta::cli
