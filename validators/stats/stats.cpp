#include "stats/stats.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "btf/btf_format.h"
#include "orc/orc_format.h"

namespace elfmeta::stats {
namespace {

using nlohmann::json;

std::string finding_key(const Diagnostic& d, const std::string& artifact) {
  std::string key = std::string(d.rule->id) + " " + artifact + ":";
  if (!d.location.record_kind.empty()) key += " " + d.location.record_kind;
  if (d.location.record_name) key += " '" + *d.location.record_name + "'";
  if (d.location.record_kind.empty() && !d.location.section.empty()) key += " " + d.location.section;
  return key;
}

void count_orc_types(const input::Artifact& a, const orc::OrcCheck& check, OrcCounts& out) {
  const input::Section* unwind = a.section(".orc_unwind");
  if (!unwind) return;
  const size_t n = std::min<size_t>(check.entries, unwind->data.size() / orc::kEntrySize);
  if (!check.entries_checked) {  // the layout is unknown: no type can be told
    out.types["undecoded"] += n;
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    const orc::Entry e = orc::decode(unwind->data.data() + i * orc::kEntrySize, check.layout);
    ++out.types[e.type == orc::kTypeInvalid ? "invalid" : std::string(orc::type_name(e.type))];
  }
}

// The object under `key`, or an empty one.
const json& member_object(const json& j, const char* key) {
  static const json empty = json::object();
  auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : empty;
}

}  // namespace

std::string stable_artifact_name(const std::string& name, const std::string& kind) {
  if (kind == "kernel image") return "vmlinux";
  for (std::string_view suffix : {".xz", ".zst", ".gz"})
    if (name.ends_with(".ko" + std::string(suffix))) return name.substr(0, name.size() - suffix.size());
  return name;
}

std::string stable_artifact_name(const input::Artifact& a) {
  return stable_artifact_name(a.name, a.is_vmlinux() ? "kernel image" : "");
}

void Stats::add(const std::string& kind, const input::Artifact& a, const btf::Btf* blob, const orc::OrcCheck& orc,
                const sframe::SframeCheck& sf, const std::vector<Diagnostic>& diagnostics) {
  ++artifacts[kind];
  if (blob) {
    BtfCounts& b = btf[kind];
    ++b.blobs;
    b.types += blob->own_count();
    b.type_bytes += blob->header().type_len;
    b.string_bytes += blob->header().str_len;
    for (uint32_t id = blob->first_id(); id < blob->type_count(); ++id)
      ++b.kinds[std::string(btf::kind_name(blob->kind_of(id)))];
    ++b.header_lengths[std::to_string(blob->header().stored_hdr_len)];
  }
  if (orc.present) {
    OrcCounts& o = this->orc[kind];
    ++o.tables;
    o.entries += orc.entries;
    ++o.layouts[orc.entries_checked ? std::string(orc::layout_info(orc.layout).name) : "unknown"];
    count_orc_types(a, orc, o);
  }
  if (sf.present) {
    SframeCounts& s = sframe[kind];
    ++s.sections;
    s.fdes += sf.fdes;
    s.fres += sf.fres;
  }
  const std::string artifact = stable_artifact_name(a.name, kind);
  for (const auto& d : diagnostics) {
    if (d.unlisted_rule) {
      FindingCounts& c = findings[std::string(d.unlisted_rule->id)];
      c.error += d.unlisted[size_t(Severity::Error)];
      c.warning += d.unlisted[size_t(Severity::Warning)];
      c.note += d.unlisted[size_t(Severity::Note)];
    }
    if (!d.rule) continue;
    FindingCounts& c = findings[std::string(d.rule->id)];
    (d.severity == Severity::Error ? c.error : d.severity == Severity::Warning ? c.warning : c.note) += 1;
    ++finding_keys[finding_key(d, artifact)];
  }
}

std::map<std::string, uint64_t> flatten(const Stats& s) {
  std::map<std::string, uint64_t> out;
  for (const auto& [kind, n] : s.artifacts) out["artifacts." + kind] = n;
  for (const auto& [kind, b] : s.btf) {
    const std::string p = "btf." + kind + ".";
    out[p + "blobs"] = b.blobs;
    out[p + "types"] = b.types;
    out[p + "type_bytes"] = b.type_bytes;
    out[p + "string_bytes"] = b.string_bytes;
    for (const auto& [k, n] : b.kinds) out[p + "kinds." + k] = n;
    for (const auto& [len, n] : b.header_lengths) out[p + "header_lengths." + len] = n;
  }
  for (const auto& [kind, o] : s.orc) {
    out["orc." + kind + ".entries"] = o.entries;
    for (const auto& [t, n] : o.types) out["orc." + kind + ".types." + t] = n;
    for (const auto& [l, n] : o.layouts) out["orc." + kind + ".layouts." + l] = n;
  }
  for (const auto& [kind, f] : s.sframe) {
    out["sframe." + kind + ".fdes"] = f.fdes;
    out["sframe." + kind + ".fres"] = f.fres;
  }
  for (const auto& [rule, c] : s.findings) out["findings." + rule] = c.total();
  for (const auto& [kind, counts] : s.coverage)
    for (const auto& [path, n] : counts) out["coverage." + kind + "." + path] = n;
  return out;
}

std::vector<MovedCount> moved_counts(const Stats& o, const Stats& n) {
  const auto a = flatten(o), b = flatten(n);
  std::map<std::string, MovedCount> moved;
  for (const auto& [path, v] : a)
    if (auto it = b.find(path); it == b.end() || it->second != v)
      moved[path] = {path, v, it == b.end() ? 0 : it->second};
  for (const auto& [path, v] : b)
    if (!a.count(path)) moved[path] = {path, 0, v};
  std::vector<MovedCount> out;
  for (auto& [path, m] : moved) out.push_back(std::move(m));
  return out;
}

std::string to_json(const Stats& s) {
  json j;
  j["elfmeta_stats"] = kFormatVersion;
  j["inputs"] = s.inputs;
  j["kernel"] = s.kernel;
  j["artifacts"] = s.artifacts;
  for (const auto& [kind, b] : s.btf)
    j["btf"][kind] = {{"blobs", b.blobs}, {"types", b.types}, {"type_bytes", b.type_bytes},
                      {"string_bytes", b.string_bytes}, {"kinds", b.kinds}, {"header_lengths", b.header_lengths}};
  for (const auto& [kind, o] : s.orc)
    j["orc"][kind] = {{"tables", o.tables}, {"entries", o.entries}, {"types", o.types}, {"layouts", o.layouts}};
  for (const auto& [kind, f] : s.sframe) j["sframe"][kind] = {{"sections", f.sections}, {"fdes", f.fdes}, {"fres", f.fres}};
  j["findings"] = json::object();
  for (const auto& [rule, c] : s.findings) j["findings"][rule] = {{"error", c.error}, {"warning", c.warning}, {"note", c.note}};
  j["finding_keys"] = s.finding_keys;
  if (!s.coverage.empty()) j["coverage"] = s.coverage;
  return j.dump(1) + "\n";
}

std::optional<Stats> from_json(const std::string& text, std::string& error) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not JSON";
    return std::nullopt;
  }
  if (!j.contains("elfmeta_stats") || !j["elfmeta_stats"].is_number_integer() || j["elfmeta_stats"] != kFormatVersion) {
    error = "not an elfmeta stats file of format " + std::to_string(kFormatVersion);
    return std::nullopt;
  }
  Stats s;
  try {
    s.inputs = j.value("inputs", std::vector<std::string>{});
    s.kernel = j.value("kernel", "");
    s.artifacts = j.value("artifacts", std::map<std::string, uint64_t>{});
    for (const auto& [kind, b] : member_object(j, "btf").items())
      s.btf[kind] = {b.at("blobs"), b.at("types"), b.at("type_bytes"), b.at("string_bytes"),
                     b.at("kinds").get<std::map<std::string, uint64_t>>(),
                     b.value("header_lengths", std::map<std::string, uint64_t>{})};  // absent before 7.2's baselines
    for (const auto& [kind, o] : member_object(j, "orc").items())
      s.orc[kind] = {o.at("tables"), o.at("entries"), o.at("types").get<std::map<std::string, uint64_t>>(),
                     o.value("layouts", std::map<std::string, uint64_t>{})};
    for (const auto& [kind, f] : member_object(j, "sframe").items())
      s.sframe[kind] = {f.at("sections"), f.at("fdes"), f.at("fres")};
    for (const auto& [rule, c] : member_object(j, "findings").items())
      s.findings[rule] = {c.at("error"), c.at("warning"), c.at("note")};
    s.finding_keys = j.value("finding_keys", std::map<std::string, uint64_t>{});
    for (const auto& [kind, counts] : member_object(j, "coverage").items())  // absent before issue 31
      s.coverage[kind] = counts.get<std::map<std::string, uint64_t>>();
  } catch (const json::exception& e) {
    error = std::string("malformed stats file: ") + e.what();
    return std::nullopt;
  }
  return s;
}

bool is_stats_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return in && in.peek() == '{';
}

std::optional<Stats> read_stats_file(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot be read";
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = from_json(text.str(), error);
  if (!parsed) error = path + ": " + error;
  return parsed;
}

}  // namespace elfmeta::stats
