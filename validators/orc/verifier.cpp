#include "orc/verifier.h"

#include <algorithm>

#include "core/diagnostic.h"
#include "core/second_core.h"
#include "core/text.h"
#include "orc/orc_checks.h"
#include "orc/orc_table.h"

namespace elfmeta::orc {
namespace {

// "func+0x10" for a linked image (nearest symbol at or below), ".text+0x36f"
// for an object.
std::string place(const OrcTable& t, const input::SymbolIndex* symbols, size_t i) {
  const Site& s = t.sites[i];
  if (!s.resolved && t.relocatable) return "";
  if (t.relocatable) {
    const input::Section* code = t.code_section(s.section);
    return (code ? code->name : "?") + "+" + hex(s.address);
  }
  if (symbols && symbols->size()) {
    const auto& all = symbols->symbols();
    auto it = std::upper_bound(all.begin(), all.end(), s.address,
                               [](uint64_t a, const input::Symbol& sym) { return a < sym.address; });
    if (it != all.begin()) {
      --it;
      if (s.address - it->address < (1u << 20)) return it->name + "+" + hex(s.address - it->address);
    }
  }
  return hex(s.address);
}

// A kernel image's entry and symbol checks, each in two halves: the upper
// halves on a second thread. Every half reports into its own list; the
// lists are taken over in the order of a sequential check (entries, image,
// symbols), so the findings are the same.
void check_image_concurrently(const OrcTable& t, const input::SymbolIndex* symbols, OrcFindings& f) {
  struct Part {
    DiagnosticList list;
    OrcFindings findings;
    explicit Part(const OrcFindings& like) : findings(like.artifact(), list) { findings.describe_entry = like.describe_entry; }
  };
  Part upper_entries(f), lower_symbols(f), upper_symbols(f);
  const size_t half = t.size() / 2;
  const size_t starts = symbols ? symbols->code_starts().size() : 0;  // built here, once, before the threads
  run_beside(
      [&] {
        check_entries(t, upper_entries.findings, half, t.size());
        if (symbols) check_symbols(t, *symbols, upper_symbols.findings, starts / 2, starts);
      },
      [&] {
        check_entries(t, f, 0, half);
        if (symbols) check_symbols(t, *symbols, lower_symbols.findings, 0, starts / 2);
      });
  f.absorb(upper_entries.findings, upper_entries.list.items());
  check_image(t, symbols, f);
  f.absorb(lower_symbols.findings, lower_symbols.list.items());
  f.absorb(upper_symbols.findings, upper_symbols.list.items());
  if (symbols) check_function_bodies(t, *symbols, f);
}

}  // namespace

OrcCheck check_orc(const input::Artifact& a, const OrcOptions& options, DiagnosticSink& sink) {
  OrcCheck out;
  OrcFindings f(a.name, sink);
  auto table = read_orc(a, options.kernel, f, options.concurrent);
  if (!table) return out;
  out.present = true;
  const OrcTable& t = *table;
  out.entries = t.size();
  out.layout = t.layout;
  out.layout_source = t.layout_source;
  if (!t.ip || !t.unwind) {  // ORC-SEC-001: nothing more to read
    f.finish();
    out.errors = f.errors();
    return out;
  }

  std::optional<input::SymbolIndex> own;
  const input::SymbolIndex* symbols = options.symbols;
  if (t.relocatable || !symbols) {
    own = input::symbols_from_symtab(a);
    if (own) symbols = &*own;
  }
  f.describe_entry = [&](size_t i) {
    return std::pair{std::string(type_name(t.entries[i].type)), place(t, symbols, i)};
  };
  if (!t.layout_known) {
    // Every remaining rule that decodes an entry would judge it in a guessed
    // layout: the layout-free ones run, the others are counted as not run.
    out.entries_checked = false;
    f.note("ORC entries not checked (ORC-ENT-*, ORC-SORT-002/003, ORC-COV-004, ORC-SYM-*, ORC-CFI-*): the layout "
           "is unknown; " + t.layout_source);
    if (t.relocatable)
      check_object(t, f);
    else
      check_image(t, symbols, f);
    f.finish();
    out.errors = f.errors();
    return out;
  }
  if (!t.relocatable && options.concurrent && t.size() >= kConcurrentEntries) {
    check_image_concurrently(t, symbols, f);
  } else {
    check_entries(t, f);
    if (t.relocatable)
      check_object(t, f);
    else
      check_image(t, symbols, f);
    if (symbols) {
      check_symbols(t, *symbols, f);
      check_function_bodies(t, *symbols, f);
    }
  }
  out.symbols_checked = symbols != nullptr;
  if (options.cfi) out.cfi_checked = check_cfi(t, f);
  f.finish();
  out.errors = f.errors();
  return out;
}

}  // namespace elfmeta::orc
