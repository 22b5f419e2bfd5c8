// elfmeta diff OLD NEW: what changed between two builds or releases. Each
// side is an input (anything check takes, a kernel package included) or a
// stats file (a baseline). Leads with what decides the exit status: the
// findings that appeared (exit 1 when NEW has a finding OLD did not), per
// rule, then those that disappeared; then the BTF types added, removed and
// changed per kind (when both sides are inputs; each change member by member
// with --verbose), then the counts that moved.
#include <cstdio>
#include <iostream>
#include <map>

#include "check_run.h"
#include "cli.h"
#include "core/listing_limit.h"
#include "core/text.h"
#include "stats/btf_diff.h"
#include "stats/stats.h"

namespace elfmeta::cli {

namespace {

// One side of the comparison.
struct Side {
  std::string label;
  std::optional<CheckRun> run;  // an input that was checked
  stats::Stats stats;
};

bool load_side(const std::string& path, const CheckSettings& base_settings, Side& side, std::string& error) {
  side.label = path;
  if (stats::is_stats_file(path)) {
    auto parsed = stats::read_stats_file(path, error);
    if (!parsed) return false;
    side.stats = std::move(*parsed);
    return true;
  }
  CheckSettings s = base_settings;
  s.inputs = {path};
  s.want_stats = true;
  s.keep_artifacts = true;  // the type diff reads every artifact's BTF
  PhaseClock clock;
  side.run = run_checks(s, clock, error);
  if (!side.run) return false;
  for (const auto& r : side.run->results)
    if (!r.open_error.empty()) {
      error = r.open_error;
      return false;
    }
  side.stats = stats_of(*side.run, s.inputs);
  return true;
}

// Two single files are the same thing whatever they are called (old.btf
// against new.btf): their findings are matched under this name.
constexpr const char* kSingleInput = "<input>";

bool single_artifact(const stats::Stats& s) {
  uint64_t n = 0;
  for (const auto& [kind, count] : s.artifacts) n += count;
  return n == 1;
}

// Finding keys are "RULE artifact: record"; renames the artifact.
void rename_artifact_in_keys(stats::Stats& s, const std::string& name) {
  std::map<std::string, uint64_t> renamed;
  for (const auto& [key, count] : s.finding_keys) {
    const size_t space = key.find(' '), colon = key.find(':', space);
    if (space == std::string::npos || colon == std::string::npos)
      renamed[key] += count;
    else
      renamed[key.substr(0, space + 1) + name + key.substr(colon)] += count;
  }
  s.finding_keys = std::move(renamed);
}

// The BTF of each artifact by its stable name (kernel images: "vmlinux").
std::map<std::string, const btf::Btf*> btf_by_artifact(const CheckRun& run, bool single) {
  std::map<std::string, const btf::Btf*> out;
  for (const auto& r : run.results)
    if (r.artifact && r.check.btf.btf)
      out.emplace(single ? kSingleInput : stats::stable_artifact_name(*r.artifact), r.check.btf.btf.get());
  return out;
}

const char* mark(stats::TypeChange::What w) {
  return w == stats::TypeChange::What::Added ? "+" : w == stats::TypeChange::What::Removed ? "-" : "~";
}

// Per kind: how many types were added, removed and changed.
struct KindChanges {
  size_t added = 0, removed = 0, changed = 0;
};

// One line per kind: "    STRUCT       +1,114     -147   ~1,288".
void write_per_kind(std::ostream& out, const std::vector<stats::TypeChange>& changes) {
  std::map<std::string, KindChanges> kinds;
  for (const auto& c : changes) {
    KindChanges& k = kinds[c.kind];
    ++(c.what == stats::TypeChange::What::Added ? k.added : c.what == stats::TypeChange::What::Removed ? k.removed : k.changed);
  }
  for (const auto& [kind, k] : kinds) {
    char line[160];
    std::snprintf(line, sizeof line, "    %-12s %10s %10s %10s\n", kind.c_str(), ("+" + with_thousands(k.added)).c_str(),
                  ("-" + with_thousands(k.removed)).c_str(), ("~" + with_thousands(k.changed)).c_str());
    out << line;
  }
}

void write_type_changes(std::ostream& out, const Side& old_side, const Side& new_side, bool single, bool verbose) {
  const auto olds = btf_by_artifact(*old_side.run, single), news = btf_by_artifact(*new_side.run, single);
  size_t modules_changed = 0, modules_added = 0, modules_gone = 0;
  out << "BTF types (+ added, - removed, ~ changed):\n";
  for (const auto& [name, new_btf] : news) {
    const bool image = name == "vmlinux" || name == kSingleInput;
    auto it = olds.find(name);
    if (it == olds.end()) {
      ++modules_added;
      if (verbose) out << "  + " << name << " (new artifact with BTF)\n";
      continue;
    }
    const auto changes = stats::diff_btf(*it->second, *new_btf);
    if (changes.empty()) continue;
    // Modules: counted, each with --verbose; a kernel image or a single
    // input: per kind, and every change with --verbose.
    if (!image) ++modules_changed;
    if (!image && !verbose) continue;
    out << "  " << name << ":\n";
    write_per_kind(out, changes);
    if (!verbose) continue;
    for (const auto& c : changes) {
      out << "    " << mark(c.what) << " " << c.kind << " '" << c.name << "'";
      for (size_t i = 0; i < c.details.size(); ++i) out << (i ? "; " : ": ") << c.details[i];
      out << "\n";
    }
  }
  for (const auto& [name, b] : olds)
    if (!news.count(name)) {
      ++modules_gone;
      if (verbose) out << "  - " << name << " (artifact with BTF gone)\n";
    }
  if (modules_changed) out << "  " << with_thousands(modules_changed) << " modules with BTF changes\n";
  if (!verbose && (modules_added || modules_gone))
    out << "  " << with_thousands(modules_added) << " artifacts with BTF added, " << with_thousands(modules_gone)
        << " gone\n";
  if (!verbose) out << "  (--verbose: every change, member by member)\n";
}

// The counts that moved: the first 20, every one with --verbose.
void write_stat_deltas(std::ostream& out, const stats::Stats& o, const stats::Stats& n, bool verbose) {
  constexpr size_t kShown = 20;
  const auto moved = stats::moved_counts(o, n);
  out << "counts: " << with_thousands(moved.size()) << " changed\n";
  for (size_t i = 0; i < moved.size(); ++i) {
    if (!verbose && i == kShown) {
      out << "  ... " << with_thousands(moved.size() - kShown) << " more (--verbose)\n";
      break;
    }
    const auto& m = moved[i];
    const int64_t delta = m.delta();
    out << "  " << m.path << ": " << m.old_count << " -> " << m.new_count << " (" << (delta > 0 ? "+" : "") << delta
        << ")\n";
  }
}

// The findings of `from` beyond those of `than` (matched by key "RULE
// artifact: record"), per rule: how many, and the keys.
struct RuleDelta {
  uint64_t count = 0;
  std::vector<std::string> keys;  // with " (xN)" when N > 1
};

std::map<std::string, RuleDelta> beyond(const stats::Stats& from, const stats::Stats& than) {
  std::map<std::string, RuleDelta> out;
  for (const auto& [key, count] : from.finding_keys) {
    auto it = than.finding_keys.find(key);
    const uint64_t other = it == than.finding_keys.end() ? 0 : it->second;
    if (count <= other) continue;
    RuleDelta& r = out[key.substr(0, key.find(' '))];
    r.count += count - other;
    r.keys.push_back(key + (count - other > 1 ? " (x" + std::to_string(count - other) + ")" : ""));
  }
  return out;
}

uint64_t total(const std::map<std::string, RuleDelta>& d) {
  uint64_t n = 0;
  for (const auto& [rule, r] : d) n += r.count;
  return n;
}

// One rule's delta: its count, then its first three keys (every one with
// --verbose), marked `sign`.
void write_rule_delta(std::ostream& out, const std::string& rule, const RuleDelta& r, const char* sign, bool all) {
  out << "  " << rule << ": " << sign << with_thousands(r.count) << "\n";
  const size_t shown = all ? r.keys.size() : std::min<size_t>(r.keys.size(), 3);
  for (size_t i = 0; i < shown; ++i) out << "    " << sign << " " << r.keys[i] << "\n";
  if (shown < r.keys.size()) out << "    ... " << with_thousands(r.keys.size() - shown) << " more (--verbose)\n";
}

// What decides the exit status first: the findings NEW has that OLD did
// not, per rule; then those that disappeared (counted per rule; listed with
// --verbose). Returns how many appeared.
uint64_t write_finding_changes(std::ostream& out, const stats::Stats& o, const stats::Stats& n, bool verbose) {
  const auto appeared = beyond(n, o), gone = beyond(o, n);
  const uint64_t new_findings = total(appeared);
  out << "findings: " << with_thousands(new_findings) << " appeared" << (new_findings ? " (exit 1)" : "") << ", "
      << with_thousands(total(gone)) << " disappeared\n";
  for (const auto& [rule, r] : appeared) write_rule_delta(out, rule, r, "+", verbose);
  for (const auto& [rule, r] : gone) {
    if (verbose)
      write_rule_delta(out, rule, r, "-", true);
    else
      out << "  " << rule << ": -" << with_thousands(r.count) << "\n";
  }
  return new_findings;
}

}  // namespace

int run_diff(Args args) {
  CheckSettings s = parse_check_settings(args, "diff", {"--format", "--Werror", "--timing", "--quiet", "-q"});
  // The exit status depends on every new finding, listed or not.
  set_listing_limit(no_listing_limit);
  if (s.inputs.size() != 2) throw UsageError("diff takes two inputs, OLD and NEW");
  Side old_side, new_side;
  std::string error;
  if (!load_side(s.inputs[0], s, old_side, error) || !load_side(s.inputs[1], s, new_side, error)) {
    std::cerr << "elfmeta: " << error << "\n";
    return 2;
  }
  std::cout << "elfmeta diff " << old_side.label << " -> " << new_side.label << "\n";
  const bool single = single_artifact(old_side.stats) && single_artifact(new_side.stats);
  if (single) {
    rename_artifact_in_keys(old_side.stats, kSingleInput);
    rename_artifact_in_keys(new_side.stats, kSingleInput);
  }
  const uint64_t appeared = write_finding_changes(std::cout, old_side.stats, new_side.stats, s.verbose);
  if (old_side.run && new_side.run) write_type_changes(std::cout, old_side, new_side, single, s.verbose);
  write_stat_deltas(std::cout, old_side.stats, new_side.stats, s.verbose);
  return appeared ? 1 : 0;
}

}  // namespace elfmeta::cli
