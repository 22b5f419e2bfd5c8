// XC-CTX: --kallsyms and --base-btf against the input they are given for.
#include "btf/xc/check_context.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "btf/findings.h"
#include "btf/parse.h"
#include "btf/xc/cross_check.h"
#include "btf/xc/xc_rules.h"
#include "core/text.h"
#include "input/kernel_release.h"

namespace elfmeta::btf::xc {
namespace {

// Functions every kernel since BTF has, by these names, out of line and
// once, on every architecture: where the image's own symbols and a kallsyms
// file both have them, KASLR has moved them all by one distance.
constexpr std::array<std::string_view, 20> kAnchors{
    "start_kernel", "rest_init",   "kernel_init", "schedule",     "__schedule",   "schedule_timeout", "wake_up_process",
    "do_exit",      "panic",       "vfs_read",    "vfs_write",    "filp_open",    "kfree",            "mutex_lock",
    "mutex_unlock", "msleep",      "commit_creds", "kthread_stop", "copy_process", "do_sys_poll"};
constexpr size_t kMinAnchors = 4;
// FUNC names: below this many the share says little.
constexpr size_t kMinFuncNames = 100;
// The share of FUNC names without a text symbol above which the file is of
// another kernel.
constexpr size_t kMaxAbsentPercent = 3;

// The address of each anchor that is one text symbol of its name; 0 where
// there is none or several. One pass over the symbols, without building
// the index's name lookup (the checks that would use it may not run).
std::array<uint64_t, kAnchors.size()> anchor_addresses(const input::SymbolIndex& symbols) {
  std::array<uint64_t, kAnchors.size()> address{};
  std::array<uint32_t, kAnchors.size()> seen{};
  for (const input::Symbol& s : symbols.symbols()) {
    if (!s.function()) continue;
    const auto it = std::find(kAnchors.begin(), kAnchors.end(), std::string_view(s.name));
    if (it == kAnchors.end()) continue;
    const size_t i = size_t(it - kAnchors.begin());
    if (seen[i]++ == 0) address[i] = s.address;
  }
  for (size_t i = 0; i < kAnchors.size(); ++i)
    if (seen[i] != 1) address[i] = 0;
  return address;
}

std::string described(const std::string& what, const std::string& release) {
  return release.empty() ? what : what + " (" + release + ")";
}

// The anchors' verdict, when at least kMinAnchors are found once on both
// sides: they belong when more than half lie at one distance.
std::optional<ContextVerdict> judge_by_anchors(const KallsymsContext& c) {
  if (!c.own || c.own->size() == 0) return std::nullopt;
  const auto own = anchor_addresses(*c.own), file = anchor_addresses(c.kallsyms);
  std::map<uint64_t, size_t> distances;  // kallsyms - own, modulo 2^64
  std::string names;
  size_t found = 0;
  for (size_t i = 0; i < kAnchors.size(); ++i) {
    if (!own[i] || !file[i]) continue;
    ++distances[file[i] - own[i]];
    if (found++ < 4) names += (names.empty() ? "" : ", ") + std::string(kAnchors[i]);
  }
  if (found < kMinAnchors) return std::nullopt;
  uint64_t distance = 0;
  size_t most = 0;
  for (const auto& [d, n] : distances)
    if (n > most) most = n, distance = d;
  ContextVerdict v;
  v.belongs = 2 * most > found;
  if (v.belongs && distance != 0) {
    v.moved_by = distance;
    for (const input::Symbol& s : c.own->symbols())
      if (s.function()) {
        v.moved_from = s.address + distance;
        break;
      }
  }
  if (v.belongs) {
    v.evidence = std::to_string(most) + " of " + std::to_string(found) + " anchor functions at one distance (" +
                 hex(distance) + ") from the image's own symbols";
  } else {
    v.evidence = "of " + std::to_string(found) + " anchor functions found once on both sides (" + names +
                 (found > 4 ? ", ..." : "") + "), " +
                 (most < 2 ? std::string("no two") : "at most " + std::to_string(most)) +
                 " lie at one distance from the image's own symbols (" + c.own->origin +
                 "), where KASLR would move them all by one offset";
  }
  return v;
}

// The FUNC names of the BTF with no text symbol of the name, nor a clone
// of it (NAME.part.N, NAME.isra.N, ...), in the file.
std::optional<ContextVerdict> judge_by_names(const KallsymsContext& c) {
  if (!c.btf || !c.btf->types_complete() || !c.btf->strings_usable()) return std::nullopt;
  std::unordered_set<std::string_view> text;
  text.reserve(c.kallsyms.size());
  for (const input::Symbol& s : c.kallsyms.symbols()) {
    if (!s.function()) continue;
    const std::string_view name = s.name;
    text.insert(name);
    if (const size_t dot = name.find('.'); dot != 0 && dot != std::string_view::npos) text.insert(name.substr(0, dot));
  }
  std::unordered_set<std::string_view> funcs;
  size_t absent = 0;
  for (uint32_t id = c.btf->first_id(); id < c.btf->type_count(); ++id) {
    const TypeRef t = c.btf->type(id);
    if (t.kind() != kFunc) continue;
    const std::string_view name = xc_name(*c.btf, t.name_off());
    if (name.empty() || !funcs.insert(name).second) continue;
    absent += !text.contains(name);
  }
  if (funcs.size() < kMinFuncNames) return std::nullopt;
  ContextVerdict v;
  // Of its own kallsyms the running 6.18 misses 0.6% (built-in exit code),
  // Debian's 6.1, 6.12 and 7.2 0-0.1% of their own; another kernel's 5.6%
  // (6.1's BTF, 6.12's System.map) to 24%.
  v.belongs = 100 * absent <= kMaxAbsentPercent * funcs.size();
  const uint64_t permille = uint64_t(absent) * 1000 / funcs.size();
  v.evidence = with_thousands(absent) + " of the BTF's " + with_thousands(funcs.size()) +
               " FUNC names have no text symbol of the name or a clone of it (" + std::to_string(permille / 10) + "." +
               std::to_string(permille % 10) + "%; more than " + std::to_string(kMaxAbsentPercent) +
               "%: another kernel)";
  return v;
}

}  // namespace

std::string kallsyms_file_release(const std::string& path) {
  if (path == "/proc/kallsyms") return input::running_kernel_release().value_or("");
  const std::string file = std::filesystem::path(path).filename().string();
  constexpr std::string_view kPrefix = "System.map-";
  return file.starts_with(kPrefix) && file.size() > kPrefix.size() ? file.substr(kPrefix.size()) : "";
}

ContextVerdict judge_kallsyms(const KallsymsContext& c) {
  if (auto v = judge_by_anchors(c)) return *v;
  if (!c.image_release.empty() && !c.kallsyms_release.empty()) {
    ContextVerdict v;
    v.belongs = c.image_release == c.kallsyms_release;
    v.evidence = v.belongs ? "the releases agree" : "the releases differ";
    if (!v.belongs) return v;
  }
  if (auto v = judge_by_names(c)) return *v;
  return {};
}

ContextVerdict check_kallsyms_context(const KallsymsContext& c, elfmeta::Findings& findings) {
  const ContextVerdict v = judge_kallsyms(c);
  if (v.belongs) return v;
  Location where;
  where.artifact = findings.artifact();
  findings.emit(rules::CTX_001, where,
                "kallsyms " + described(c.kallsyms.origin, c.kallsyms_release) + " are not of this image" +
                    (c.image_release.empty() ? std::string() : " (" + c.image_release + ")") + ": " + v.evidence);
  findings.note("", "not run, for want of this image's symbols: the XC-SYM checks, the BTF id sets, ORC-SYM and the "
                    "ORC boundary symbols; give the kallsyms or System.map of this very build, or leave --kallsyms "
                    "out to use the image's own symbols");
  return v;
}

// ------------------------------------------------------------ base BTF

namespace {

// The name and type references of a split blob's own records, read on
// the base it is given.
struct SplitReferences {
  uint64_t names = 0;          // non-empty name offsets
  uint64_t own = 0;            // of which at or past the base's strings
  uint64_t landed = 0;         // of those, at the start of one of the blob's own strings
  uint64_t past = 0;           // of those, past the blob's own strings
  uint32_t highest_name = 0;
  uint64_t funcs = 0, funcs_on_proto = 0;  // FUNC records, and those whose type is a FUNC_PROTO
};

SplitReferences split_references(const Btf& split) {
  SplitReferences r;
  const uint64_t start = split.string_start();
  const uint64_t len = split.header().str_len;
  const uint8_t* strings = split.data().data() + split.string_section_offset();
  auto name = [&](uint32_t off) {
    if (off == 0) return;
    ++r.names;
    r.highest_name = std::max(r.highest_name, off);
    if (off < start) return;
    ++r.own;
    const uint64_t rel = off - start;
    if (rel >= len)
      ++r.past;
    else if (rel == 0 || strings[rel - 1] == 0)
      ++r.landed;
  };
  for (uint32_t local = 0; local < split.own_count(); ++local) {
    const TypeRef t = split.own_type(local);
    for_each_name_offset(t, name);
    if (t.kind() == kFunc) {
      ++r.funcs;
      r.funcs_on_proto += split.kind_of(t.type()) == kFuncProto;
    }
  }
  return r;
}

// Where the blob's last string starts in its own string section: the
// highest name less this is the length of the base it was built on, when
// (as pahole's and libbpf's deduplicated output has it) every string of
// the blob is used.
std::optional<uint64_t> last_string_start(const Btf& split) {
  const uint64_t len = split.header().str_len;
  const uint8_t* strings = split.data().data() + split.string_section_offset();
  if (len < 2 || strings[len - 1] != 0) return std::nullopt;
  uint64_t p = len - 1;
  while (p > 0 && strings[p - 1] != 0) --p;
  return p;
}

}  // namespace

ContextVerdict judge_split_base(const SplitBaseContext& c) {
  NullSink quiet;
  btf::Findings parse_findings(CheckContext{}, quiet);
  const std::optional<Btf> split = parse(c.split, ParseOptions{&c.base, false}, parse_findings);
  ContextVerdict v;
  if (!split || !split->types_complete() ||
      split->string_section_offset() + split->header().str_len > split->data().size())
    return v;
  const SplitReferences r = split_references(*split);
  const uint64_t base_strings = split->string_start(), own_strings = split->header().str_len;
  const std::string releases =
      c.split_release.empty() || c.base_release.empty()
          ? std::string()
          : "; module of " + c.split_release + ", base of " + c.base_release;
  if (r.own > 0 && 2 * r.landed >= r.own) return v;  // its names continue this base's strings
  if (r.own > 0 || (r.names > 0 && own_strings > 1)) {
    v.belongs = false;
    if (r.own == 0) {
      v.evidence = "none of its " + with_thousands(r.names) + " names lies in its own " + with_thousands(own_strings) +
                   " bytes of strings, which follow the base's " + with_thousands(base_strings) +
                   ": the base is longer than the one it was built on";
    } else {
      v.evidence = "of its " + with_thousands(r.own) + " names at or past the base's " + with_thousands(base_strings) +
                   " bytes of strings, " + with_thousands(r.landed) + " start one of its own strings" +
                   (r.past ? " and " + with_thousands(r.past) + " lie past them" : std::string());
    }
    if (const auto last = last_string_start(*split); last && r.highest_name >= *last)
      v.evidence += " (its names fit a base of " + with_thousands(r.highest_name - *last) + " bytes of strings)";
    v.evidence += releases;
    return v;
  }
  // No names of its own: the FUNCs' prototypes, then the releases.
  if (r.funcs > 0) {
    v.belongs = 2 * r.funcs_on_proto >= r.funcs;
    if (!v.belongs)
      v.evidence = std::to_string(r.funcs - r.funcs_on_proto) + " of its " + std::to_string(r.funcs) +
                   " FUNCs have no FUNC_PROTO for a type on this base" + releases;
    return v;
  }
  if (!c.split_release.empty() && !c.base_release.empty() && c.split_release != c.base_release) {
    v.belongs = false;
    v.evidence = "the module is of " + c.split_release + ", the base of " + c.base_release;
  }
  return v;
}

void report_foreign_base(elfmeta::Findings& findings, const std::string& base_name, const std::string& evidence,
                         size_t modules) {
  Location where;
  where.artifact = findings.artifact();
  where.section = ".BTF";
  const std::string which = modules == 1 ? "this module" : "this module and " + with_thousands(modules - 1) + " more";
  findings.emit(rules::CTX_002, where,
                "the split BTF of " + which + " was not built on the base " + base_name + ": " + evidence +
                    "; not checked (give the vmlinux of the release the modules were built for)");
}

}  // namespace elfmeta::btf::xc
