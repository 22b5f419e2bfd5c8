#include "sframe/verifier.h"

#include <elf.h>

#include "core/text.h"
#include "input/symbols.h"
#include "sframe/sframe_checks.h"
#include "sframe/sframe_rules.h"

namespace elfmeta::sframe {

SframeCheck check_sframe(const input::Artifact& a, const SframeOptions& options, DiagnosticSink& sink) {
  SframeCheck out;
  SframeFindings f(a.name, sink, options.consumer, a.kind == input::ArtifactKind::RawSframe ? "(raw SFrame)" : ".sframe");
  // The artifact's function symbols, read once (beside the FREs of a large
  // section): FDEs are named by the function at their start, and checked
  // against the functions (no rule looks at other symbols).
  std::optional<input::SymtabSymbols> symbols;
  const auto table = read_sframe(a, f, options.concurrent, [&] {
    if (a.kind == input::ArtifactKind::Elf) symbols = input::read_symtab(a, input::SymtabFilter::Functions);
  });
  if (!table) return out;
  out.present = true;
  const SframeTable& t = *table;
  const input::SymtabSymbols* index = symbols ? &*symbols : nullptr;
  f.describe_fde = [&](size_t i) -> std::string {
    if (i >= t.starts.size() || !t.starts[i].resolved) return "";
    if (const input::SymtabSymbol* fn = index ? function_at(t, *index, i) : nullptr) return std::string(index->name(*fn));
    return "pc " + hex(t.starts[i].address);
  };
  if (t.usable) {
    out.version = t.header.version;
    check_header(t, options.consumer, f);
    check_fdes(t, index, f);
    check_fres(t, f);
    if (options.cfi) out.cfi_checked = check_cfi(t, index, f);
  }
  check_elf(t, f);
  f.finish();
  out.fdes = t.fdes.size();
  out.fres = t.fre_count;
  out.errors = f.errors();
  out.findings = f.findings();
  return out;
}

}  // namespace elfmeta::sframe

namespace elfmeta::sframe {

bool check_lost_in_link(const input::Artifact& output, const std::vector<const input::Artifact*>& inputs,
                        DiagnosticSink& sink) {
  if (output.kind != input::ArtifactKind::Elf || output.elf_type == ET_REL || output.section(".sframe") ||
      !output.section(".eh_frame"))
    return false;
  std::vector<std::string> objects;
  for (const auto* a : inputs)
    if (a->kind == input::ArtifactKind::Elf && a->elf_type == ET_REL && a->section(".sframe") &&
        a->section(".sframe")->size > 0)
      objects.push_back(a->name);
  if (objects.empty()) return false;
  SframeFindings f(output.name, sink, kNoConsumer, "(no .sframe)");
  f.at_section(rules::ELF_008, std::nullopt,
               "no .sframe, though " + std::to_string(objects.size()) + " object(s) checked with it have one (" +
                   objects.front() + (objects.size() > 1 ? ", ..." : "") + ")");
  return true;
}

}  // namespace elfmeta::sframe
