#include "core/rule_docs.h"

namespace elfmeta {

std::string enforcement_text(const Rule& rule) {
  if (rule.severity != Severity::Error) return "nobody (a lint: the kernel accepts it)";
  std::string s;
  for (const Consumer c : {kBpfBtfLoad, kModuleLoad, kLibbpf, kUnwinder, kLibsframe, kSframeKernel})
    if (rule.enforced_by & c) s += std::string(s.empty() ? "" : ", ") + std::string(consumer_name(c));
  return s;
}

std::string rule_doc_page(const Rule& r) {
  std::string s = "# " + std::string(r.id) + ": " + std::string(r.summary) + "\n\n";
  s += "| | |\n|---|---|\n";
  s += "| Severity | " + std::string(severity_name(r.severity)) + " |\n";
  s += "| Refused by | " + enforcement_text(r) + " |\n";
  if (!r.since.empty()) s += "| Since | " + std::string(r.since) + " |\n";
  if (!r.log.empty()) s += "| Log | " + std::string(log_source(r)) + ": `" + std::string(r.log) + "` |\n";
  s += "\n";
  if (!r.explanation.empty()) s += std::string(r.explanation) + "\n\n";
  if (!r.trigger.empty()) {
    // The input of the rule's case in tests/, which must trigger exactly
    // this rule while its valid twin triggers nothing.
    s += "## Minimal trigger\n\n" + std::string(r.trigger) + "\n\n";
    if (r.trigger.find("[1]") != std::string_view::npos)
      s += "Type [1] is `int` (INT, 4 bytes, signed); member offsets are in bits.\n\n";
  }
  if (r.id.starts_with("BTF-"))
    s += "Consumers: `bpf-load` is `bpf(BPF_BTF_LOAD)`, the full kernel verifier; `module-load` is the "
         "kernel's parse of vmlinux and module BTF, which skips the reference pass; `libbpf` is libbpf's "
         "`btf__new` (`--libbpf X.Y`). A finding of a rule the selected consumer does not enforce is "
         "reported as a warning.\n\n";
  else if (r.id.starts_with("ORC-"))
    s += "Consumer: `unwinder` is the kernel's ORC unwinder with the code that prepares its tables (the "
         "module loader, `scripts/sorttable`); an error means stack traces through that code are wrong or "
         "lost.\n\n";
  s += "Generated from the rule table by `elfmeta rules --docs`.\n";
  return s;
}

std::string rule_doc_index() {
  std::string s = "# elfmeta rules\n\nGenerated from the rule tables by `elfmeta rules --docs docs/rules`.\n\n";
  s += "| Rule | Severity | Summary |\n|---|---|---|\n";
  for (const Rule* r : all_rules())
    s += "| [" + std::string(r->id) + "](" + std::string(r->id) + ".md) | " + std::string(severity_name(r->severity)) +
         " | " + std::string(r->summary) + " |\n";
  return s;
}

}  // namespace elfmeta
