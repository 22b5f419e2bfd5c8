// elfmeta diff OLD NEW: what changed between two builds or releases. Each
// side is an input (anything check takes, a kernel package included) or a
// stats file (a baseline). Prints the BTF types added, removed and changed
// (when both sides are inputs), the counts that moved, and the findings that
// appeared or disappeared; exits 1 when NEW has a finding OLD did not.
#include <iostream>
#include <map>

#include "check_run.h"
#include "cli.h"
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

void write_type_changes(std::ostream& out, const Side& old_side, const Side& new_side, bool single) {
  const auto olds = btf_by_artifact(*old_side.run, single), news = btf_by_artifact(*new_side.run, single);
  size_t modules_changed = 0;
  for (const auto& [name, new_btf] : news) {
    auto it = olds.find(name);
    if (it == olds.end()) {
      out << "  + " << name << " (new artifact with BTF)\n";
      continue;
    }
    const auto changes = stats::diff_btf(*it->second, *new_btf);
    if (changes.empty()) continue;
    size_t added = 0, removed = 0;
    for (const auto& c : changes) {
      added += c.what == stats::TypeChange::What::Added;
      removed += c.what == stats::TypeChange::What::Removed;
    }
    out << "BTF of " << name << ": " << added << " types added, " << removed << " removed, "
        << changes.size() - added - removed << " changed\n";
    // Modules: the counts; a kernel image or a single input: every change.
    if (name != "vmlinux" && name != kSingleInput) {
      ++modules_changed;
      continue;
    }
    for (const auto& c : changes) {
      out << "  " << mark(c.what) << " " << c.kind << " '" << c.name << "'";
      for (size_t i = 0; i < c.details.size(); ++i) out << (i ? "; " : ": ") << c.details[i];
      out << "\n";
    }
  }
  for (const auto& [name, b] : olds)
    if (!news.count(name)) out << "  - " << name << " (artifact with BTF gone)\n";
  if (modules_changed) out << modules_changed << " modules with BTF changes\n";
}

void write_stat_deltas(std::ostream& out, const stats::Stats& o, const stats::Stats& n) {
  const auto moved = stats::moved_counts(o, n);
  out << "counts: " << moved.size() << " changed\n";
  for (const auto& m : moved) {
    const int64_t delta = m.delta();
    out << "  " << m.path << ": " << m.old_count << " -> " << m.new_count << " (" << (delta > 0 ? "+" : "") << delta
        << ")\n";
  }
}

// The findings of `from` beyond those of `than` (matched by key), as lines
// marked `sign`; returns how many.
uint64_t count_beyond(const stats::Stats& from, const stats::Stats& than, const char* sign,
                      std::vector<std::string>& lines) {
  uint64_t n = 0;
  for (const auto& [key, count] : from.finding_keys) {
    auto it = than.finding_keys.find(key);
    const uint64_t other = it == than.finding_keys.end() ? 0 : it->second;
    if (count <= other) continue;
    n += count - other;
    lines.push_back(std::string("  ") + sign + " " + key + (count - other > 1 ? " (x" + std::to_string(count - other) + ")" : ""));
  }
  return n;
}

// Findings matched by key; returns how many NEW has that OLD did not.
uint64_t write_finding_changes(std::ostream& out, const stats::Stats& o, const stats::Stats& n) {
  std::vector<std::string> lines;
  const uint64_t appeared = count_beyond(n, o, "+", lines);
  const uint64_t gone = count_beyond(o, n, "-", lines);
  out << "findings: " << appeared << " appeared, " << gone << " disappeared\n";
  for (const auto& l : lines) out << l << "\n";
  return appeared;
}

}  // namespace

int run_diff(Args args) {
  CheckSettings s = parse_check_settings(args, "diff", {"--format", "--Werror", "--timing"});
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
  if (old_side.run && new_side.run) write_type_changes(std::cout, old_side, new_side, single);
  write_stat_deltas(std::cout, old_side.stats, new_side.stats);
  const uint64_t appeared = write_finding_changes(std::cout, old_side.stats, new_side.stats);
  return appeared ? 1 : 0;
}

}  // namespace elfmeta::cli
