// elfmeta: static validation of BTF and ORC (and, to come, SFrame).
#include <cstring>
#include <iostream>

#include "cli.h"

namespace {

constexpr const char* kUsage =
    "usage: elfmeta <command> [options]\n"
    "\n"
    "commands:\n"
    "  check [--only btf,orc] [--kernel X.Y|running] [--consumer bpf-load|module-load]\n"
    "        [--libbpf X.Y] [--base-btf FILE]... [--kallsyms auto|none|FILE]\n"
    "        [--format text|json|sarif|junit] [--Werror] [-j N] [--timing] INPUT...\n"
    "                         check inputs (raw BTF, ELF, vmlinuz, .ko[.xz|.zst|.gz],\n"
    "                         /sys/kernel/btf/*, a linux-image .deb: its image and every\n"
    "                         module) against the rules of Linux X.Y (4.18-7.1;\n"
    "                         default: the input's own kernel) or of libbpf X.Y (1.0-1.8);\n"
    "                         -j: parallel jobs (default: all cores);\n"
    "                         --format: text (compiler-style lines), json (one object\n"
    "                         per finding, then a summary), sarif (SARIF 2.1.0 for\n"
    "                         GitHub code scanning), junit (JUnit XML for CI test\n"
    "                         viewers); docs/ci.md\n"
    "  stats [CHECK OPTIONS] [-o FILE] INPUT...\n"
    "                         counts (BTF kinds, ORC entry types, SFrame FDEs/FREs,\n"
    "                         findings per rule) as JSON: a baseline for diff\n"
    "  diff [CHECK OPTIONS] OLD NEW\n"
    "                         compare two inputs (or a stats baseline and an input):\n"
    "                         BTF types added/removed/changed, stats deltas, findings\n"
    "                         that appeared or disappeared; exit 1 when NEW has a\n"
    "                         finding OLD did not\n"
    "  report [CHECK OPTIONS] [--baseline STATS.json] -o FILE.html INPUT...\n"
    "                         one self-contained HTML page (no network): summary,\n"
    "                         findings per rule and per artifact, charts; counts\n"
    "                         against the baseline when given\n"
    "  coverage [CHECK OPTIONS] [--format text|json] INPUT...\n"
    "                         how far BTF + kallsyms + ORC/SFrame stand in for DWARF:\n"
    "                         functions with a usable prototype, data symbols with a\n"
    "                         VAR, code the unwind tables cover; per artifact and per\n"
    "                         package (docs/coverage.md)\n"
    "  kernels [--docs FILE]  list the version gates behind --kernel\n"
    "  rules [--format text|json]   list every rule\n"
    "  rules --docs DIR             write one Markdown page per rule\n"
    "  explain RULE-ID              describe one rule\n"
    "  dump btf [--base-btf FILE] INPUT\n"
    "                         list the types of an input's BTF\n"
    "  oracle FILE...         load each blob with bpf(BPF_BTF_LOAD) and print the\n"
    "                         running kernel's verdict\n"
    "  oracle --vm IMAGE FILE...\n"
    "                         boot IMAGE (a vmlinuz or a Debian linux-image .deb) under\n"
    "                         qemu and print its verdict on each blob (BPF_BTF_LOAD) or\n"
    "                         module (.ko: loaded, BTF kept or dropped)\n"
    "\n"
    "exit status: 0 no errors, 1 errors found (or warnings with --Werror),\n"
    "             2 unreadable input or wrong usage\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    (argc < 2 ? std::cerr : std::cout) << kUsage;
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  elfmeta::cli::Args args(std::vector<std::string>(argv + 2, argv + argc));
  try {
    if (command == "check") return elfmeta::cli::run_check(std::move(args));
    if (command == "stats") return elfmeta::cli::run_stats(std::move(args));
    if (command == "diff") return elfmeta::cli::run_diff(std::move(args));
    if (command == "report") return elfmeta::cli::run_report(std::move(args));
    if (command == "rules") return elfmeta::cli::run_rules(std::move(args));
    if (command == "kernels") return elfmeta::cli::run_kernels(std::move(args));
    if (command == "explain") return elfmeta::cli::run_explain(std::move(args));
    if (command == "dump") return elfmeta::cli::run_dump(std::move(args));
    if (command == "oracle") return elfmeta::cli::run_oracle(std::move(args));
    if (command == "coverage") return elfmeta::cli::run_coverage(std::move(args));
    throw elfmeta::cli::UsageError("unknown command '" + command + "' (try elfmeta --help)");
  } catch (const elfmeta::cli::UsageError& e) {
    std::cerr << "elfmeta: " << e.what() << "\n";
    return 2;
  }
}
