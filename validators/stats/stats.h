// What a set of artifacts holds and what the checks found in it, as counts:
// BTF types per kind, ORC entries per type, SFrame FDEs and FREs, findings
// per rule, grouped by artifact kind ("kernel image", "module", ...). Written
// as JSON by `elfmeta stats` (the baselines under regress/baselines/ are such
// files) and compared by `elfmeta diff`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "btf/btf.h"
#include "core/diagnostic.h"
#include "input/artifact.h"
#include "orc/verifier.h"
#include "sframe/verifier.h"

namespace elfmeta::stats {

inline constexpr int kFormatVersion = 1;

struct BtfCounts {
  uint64_t blobs = 0, types = 0, type_bytes = 0, string_bytes = 0;
  std::map<std::string, uint64_t> kinds;  // "STRUCT" -> count
  std::map<std::string, uint64_t> header_lengths;  // hdr_len as stored ("24", "32") -> blobs
};
struct OrcCounts {
  uint64_t tables = 0, entries = 0;
  std::map<std::string, uint64_t> types;    // "call" -> count
  std::map<std::string, uint64_t> layouts;  // "G4", "unknown" -> tables
};
struct SframeCounts {
  uint64_t sections = 0, fdes = 0, fres = 0;
};
struct FindingCounts {
  uint64_t error = 0, warning = 0, note = 0;
  uint64_t total() const { return error + warning + note; }
};

struct Stats {
  std::vector<std::string> inputs;
  std::string kernel;
  std::map<std::string, uint64_t> artifacts;  // per artifact kind
  std::map<std::string, BtfCounts> btf;       // per artifact kind
  std::map<std::string, OrcCounts> orc;
  std::map<std::string, SframeCounts> sframe;
  std::map<std::string, FindingCounts> findings;  // per rule ID
  // Each finding as "RULE artifact: KIND 'name'", with how often it occurs:
  // what `elfmeta diff` matches findings by (ids and offsets move between
  // builds; kernel images are "vmlinux", module names drop the compression suffix).
  std::map<std::string, uint64_t> finding_keys;
  // How far BTF, symbols and unwind tables cover the code and data
  // (coverage/coverage.h), per artifact kind: "functions.covered" -> n.
  std::map<std::string, std::map<std::string, uint64_t>> coverage;

  // One checked artifact of `kind`: its BTF (own types; null when absent),
  // ORC and SFrame results, and its diagnostics.
  void add(const std::string& kind, const input::Artifact& a, const btf::Btf* blob, const orc::OrcCheck& orc,
           const sframe::SframeCheck& sframe, const std::vector<Diagnostic>& diagnostics);
  // The coverage counts of one artifact of `kind` (coverage::flat_counts);
  // zeros are left out (absent is 0: diff would list them as moved from a
  // baseline without coverage).
  void add_coverage(const std::string& kind, const std::map<std::string, uint64_t>& counts) {
    for (const auto& [path, n] : counts)
      if (n) coverage[kind][path] += n;
  }
};

// The artifact name findings are matched by across builds and releases.
std::string stable_artifact_name(const input::Artifact& a);
// Same, from a name as diagnostics carry it and the artifact's kind.
std::string stable_artifact_name(const std::string& name, const std::string& kind);

// Every count as "path: value" ("btf.module.kinds.STRUCT", "findings.BTF-TYPE-007"),
// for comparisons that need no knowledge of the structure.
std::map<std::string, uint64_t> flatten(const Stats& s);

// A count that differs between two stats (absent on one side: 0 there).
struct MovedCount {
  std::string path;  // as flatten names it
  uint64_t old_count = 0, new_count = 0;
  int64_t delta() const { return int64_t(new_count) - int64_t(old_count); }
};
// Every count that moved from `o` to `n`, by path.
std::vector<MovedCount> moved_counts(const Stats& o, const Stats& n);

std::string to_json(const Stats& s);
// nullopt with `error` set when `text` is not a stats file of this format.
std::optional<Stats> from_json(const std::string& text, std::string& error);
// Whether the file at `path` looks like a stats file (a JSON object) rather
// than an input to check.
bool is_stats_file(const std::string& path);
// from_json of the file at `path`; `error` names the path.
std::optional<Stats> read_stats_file(const std::string& path, std::string& error);

}  // namespace elfmeta::stats
