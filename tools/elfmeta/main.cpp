// elfmeta: static validation of BTF and ORC (and, to come, SFrame).
#include <iostream>
#include <optional>
#include <string_view>

#include "cli.h"

namespace {

// One command's usage: its synopsis and what it does. `elfmeta help` prints
// them all; `elfmeta CMD --help` and `elfmeta help CMD` print its own.
struct CommandHelp {
  const char* name;
  const char* text;
};

constexpr CommandHelp kCommands[] = {
    {"check",
     "  check [--only btf,orc] [--kernel X.Y|running] [--consumer bpf-load|module-load]\n"
     "        [--libbpf X.Y] [--base-btf FILE]... [--kallsyms auto|none|FILE]\n"
     "        [--format text|json|sarif|junit] [--verbose|--quiet] [--Werror] [-j N]\n"
     "        [--timing] INPUT...\n"
     "                         check inputs (raw BTF, ELF, vmlinuz, .ko[.xz|.zst|.gz],\n"
     "                         /sys/kernel/btf/*, a linux-image .deb: its image and every\n"
     "                         module) against the rules of Linux X.Y (4.18-7.1;\n"
     "                         default: the input's own kernel) or of libbpf X.Y (1.0-1.8);\n"
     "                         -j: parallel jobs (default: all cores);\n"
     "                         --format: text (the verdict, errors in full, warnings\n"
     "                         per rule), json (one object per finding, then a summary),\n"
     "                         sarif (SARIF 2.1.0 for GitHub code scanning), junit\n"
     "                         (JUnit XML for CI test viewers); docs/ci.md;\n"
     "                         --verbose: every warning, and the notes; --quiet: the\n"
     "                         summary alone\n"},
    {"stats",
     "  stats [CHECK OPTIONS] [-o FILE] INPUT...\n"
     "                         counts (BTF kinds, ORC entry types, SFrame FDEs/FREs,\n"
     "                         findings per rule) as JSON: a baseline for diff\n"},
    {"diff",
     "  diff [CHECK OPTIONS] [--verbose] OLD NEW\n"
     "                         compare two inputs (or a stats baseline and an input):\n"
     "                         findings that appeared or disappeared first, then BTF\n"
     "                         types added/removed/changed per kind (each member with\n"
     "                         --verbose), stats deltas; exit 1 when NEW has a finding\n"
     "                         OLD did not\n"},
    {"report",
     "  report [CHECK OPTIONS] [--baseline STATS.json] -o FILE.html INPUT...\n"
     "                         one self-contained HTML page (no network): verdict,\n"
     "                         findings per rule and per artifact, charts; counts\n"
     "                         against the baseline when given\n"},
    {"coverage",
     "  coverage [CHECK OPTIONS] [--format text|json] INPUT...\n"
     "                         how far BTF, kallsyms and ORC (or SFrame) stand in for\n"
     "                         DWARF: functions with a prototype, variables with a\n"
     "                         type, code with unwind rows; per artifact and per\n"
     "                         package (docs/coverage.md)\n"},
    {"kernels", "  kernels [--docs FILE]  list the version gates behind --kernel\n"},
    {"rules",
     "  rules [--format text|json]   list every rule\n"
     "  rules --docs DIR             write one Markdown page per rule\n"},
    {"explain", "  explain RULE-ID              describe one rule\n"},
    {"dump",
     "  dump btf [--base-btf FILE] INPUT\n"
     "                         list the types of an input's BTF\n"},
    {"oracle",
     "  oracle FILE...         load each blob with bpf(BPF_BTF_LOAD) and print the\n"
     "                         running kernel's verdict\n"
     "  oracle --consumer bpf-object FILE...\n"
     "                         a BPF object's BTF as libbpf loads it (fixed up)\n"
     "  oracle --vm IMAGE FILE...\n"
     "                         boot IMAGE (a vmlinuz or a Debian linux-image .deb) under\n"
     "                         qemu and print its verdict on each blob (BPF_BTF_LOAD) or\n"
     "                         module (.ko: loaded, BTF kept or dropped)\n"},
};

constexpr const char* kExitStatus =
    "exit status: 0 no errors, 1 errors found (or warnings with --Werror),\n"
    "             2 unreadable input or wrong usage\n";

const CommandHelp* find_command(std::string_view name) {
  for (const auto& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

void write_usage(std::ostream& out) {
  out << "usage: elfmeta <command> [options]\n       elfmeta help [COMMAND] | elfmeta --version\n\ncommands:\n";
  for (const auto& c : kCommands) out << c.text;
  out << "\n" << kExitStatus;
}

void write_command_usage(std::ostream& out, const CommandHelp& c) {
  out << "usage: elfmeta " << c.name << " [options]\n\n" << c.text << "\n" << kExitStatus;
}

bool asks_for_help(std::string_view arg) { return arg == "--help" || arg == "-h"; }

// --version, help, help CMD, CMD --help: on stdout, exit 0. nullopt when
// the command line asks for none of these.
std::optional<int> answer_help(int argc, char** argv) {
  const std::string_view first = argv[1];
  if (first == "--version" || first == "version") {
    std::cout << "elfmeta " << ELFMETA_VERSION << "\n";
    return 0;
  }
  if (first == "help" || asks_for_help(first)) {
    if (argc < 3) {
      write_usage(std::cout);
      return 0;
    }
    const CommandHelp* c = find_command(argv[2]);
    if (!c) throw elfmeta::cli::UsageError("help: no command '" + std::string(argv[2]) + "' (try elfmeta help)");
    write_command_usage(std::cout, *c);
    return 0;
  }
  const CommandHelp* c = find_command(first);
  if (!c) return std::nullopt;
  for (int i = 2; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") break;
    if (asks_for_help(argv[i])) {
      write_command_usage(std::cout, *c);
      return 0;
    }
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2) throw elfmeta::cli::UsageError("no command (try elfmeta help)");
    if (const auto status = answer_help(argc, argv)) return *status;
    const std::string command = argv[1];
    elfmeta::cli::Args args(std::vector<std::string>(argv + 2, argv + argc));
    if (command == "check") return elfmeta::cli::run_check(std::move(args));
    if (command == "stats") return elfmeta::cli::run_stats(std::move(args));
    if (command == "diff") return elfmeta::cli::run_diff(std::move(args));
    if (command == "report") return elfmeta::cli::run_report(std::move(args));
    if (command == "coverage") return elfmeta::cli::run_coverage(std::move(args));
    if (command == "rules") return elfmeta::cli::run_rules(std::move(args));
    if (command == "kernels") return elfmeta::cli::run_kernels(std::move(args));
    if (command == "explain") return elfmeta::cli::run_explain(std::move(args));
    if (command == "dump") return elfmeta::cli::run_dump(std::move(args));
    if (command == "oracle") return elfmeta::cli::run_oracle(std::move(args));
    throw elfmeta::cli::UsageError("unknown command '" + command + "' (try elfmeta help)");
  } catch (const elfmeta::cli::UsageError& e) {
    std::cerr << "elfmeta: " << e.what() << "\n";
    return 2;
  }
}
