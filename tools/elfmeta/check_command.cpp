// elfmeta check: open every input, find its BTF (and the base split BTF
// needs), run the verifier, print the findings in input order and a summary.
#include <algorithm>
#include <atomic>
#include <optional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "btf/artifact_check.h"
#include "btf/libbpf_model.h"
#include "btf/xc/cross_check.h"
#include "cli.h"
#include "core/report.h"
#include "input/artifact.h"
#include "input/kernel_release.h"
#include "input/symbols.h"
#include "orc/verifier.h"
#include "sframe/verifier.h"

namespace elfmeta::cli {
namespace {

struct CheckSettings {
  bool btf_on = true, orc_on = true, sframe_on = true;
  bool xc_on = true;  // BTF cross-checks (symbols, dedup, conventions)
  uint32_t sframe_consumer = kNoConsumer;
  // Symbols of kernel images: "auto" (the image's symtab, else its kallsyms
  // tables), "none", or a /proc/kallsyms or System.map file.
  std::string kallsyms = "auto";
  std::optional<input::SymbolIndex> kallsyms_file;  // loaded once from --kallsyms FILE
  btf::CheckOptions btf;
  // --kernel: one release for every input; unset: each input's own.
  std::optional<btf::KernelChoice> kernel;
  std::string format = "text";
  bool werror = false;
  unsigned jobs = 1;
  std::vector<std::string> base_paths;
  std::vector<std::string> inputs;
};

// A base blob loaded from a file (--base-btf, /sys/kernel/btf/vmlinux),
// checked once and shared by every split input that needs it.
struct LoadedBase {
  std::unique_ptr<input::Artifact> artifact;
  btf::CheckedBtf checked;
  std::string error;
};

class BaseCache {
 public:
  BaseCache(const btf::CheckOptions& options, std::optional<btf::KernelChoice> kernel)
      : options_(options), kernel_(std::move(kernel)) {}

  // Load `path` as base BTF on top of `below` (null for the bottom base).
  const LoadedBase& get(const std::string& path, const btf::CheckedBtf* below) {
    std::lock_guard lock(mu_);
    auto& slot = cache_[path];
    if (slot) return *slot;
    slot = std::make_unique<LoadedBase>();
    auto opened = input::open_input(path);
    if (!opened.artifact) {
      slot->error = opened.error;
      return *slot;
    }
    slot->artifact = std::move(opened.artifact);
    auto where = btf::locate_btf(*slot->artifact);
    if (!where) {
      slot->error = path + ": no BTF to use as a base";
      return *slot;
    }
    NullSink discard;
    btf::CheckOptions options = options_;
    options.kernel = btf::KernelProfile(kernel_ ? kernel_->release : btf::kernel_of(*slot->artifact).release);
    slot->checked = btf::check_btf(where->data, below, options, slot->artifact->name, where->section, discard);
    if (!slot->checked.btf) slot->error = path + ": its BTF header is unreadable, it cannot be a base";
    return *slot;
  }

 private:
  btf::CheckOptions options_;
  std::optional<btf::KernelChoice> kernel_;
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<LoadedBase>> cache_;
};

struct InputResult {
  std::unique_ptr<input::Artifact> artifact;
  std::string open_error;
  std::vector<Diagnostic> diagnostics;
  btf::ArtifactCheck check;
  btf::KernelChoice kernel;
};

unsigned parse_jobs(const std::string& v) {
  try {
    const int n = std::stoi(v);
    if (n >= 1 && n <= 256) return static_cast<unsigned>(n);
  } catch (...) {
  }
  throw UsageError("-j needs a number from 1 to 256, not '" + v + "'");
}

// --kernel X.Y, --kernel running, or a bare --kernel (the running kernel; the
// next argument is then an input, unless it reads as a release).
btf::KernelChoice parse_kernel(Args& args) {
  std::string v;
  const std::string arg = args.next();
  if (arg.starts_with("--kernel=")) {
    v = arg.substr(9);
  } else if (!args.done() && (args.peek() == "running" || btf::parse_release(args.peek()))) {
    v = args.next();
  } else {
    return btf::running_kernel();
  }
  if (v == "running") return btf::running_kernel();
  const auto r = btf::parse_release(v);
  if (!r) throw UsageError("--kernel takes a release such as 6.1, or running, not '" + v + "'");
  if (*r < btf::kOldestRelease || *r > btf::kNewestRelease)
    throw UsageError("--kernel " + v + ": profiles exist for " + btf::kOldestRelease.str() + " to " +
                     btf::kNewestRelease.str());
  return {*r, "--kernel"};
}

CheckSettings parse_settings(Args& args) {
  CheckSettings s;
  std::string v;
  while (!args.done()) {
    if (args.option("--only", v)) {
      s.btf_on = s.orc_on = s.sframe_on = s.xc_on = false;
      size_t pos = 0;
      while (pos <= v.size()) {
        const size_t comma = v.find(',', pos);
        const std::string part = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (part == "sframe")
          s.sframe_on = true;
        else if (part == "btf")
          s.btf_on = true;
        else if (part == "orc")
          s.orc_on = true;
        else if (part == "xc")
          s.btf_on = s.xc_on = true;
        else
          throw UsageError("--only takes btf, xc (BTF and its cross-checks), orc or sframe, not '" + part + "'");
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
    } else if (args.option("--kallsyms", v)) {
      s.kallsyms = v;
    } else if (args.peek() == "--kernel" || args.peek().starts_with("--kernel=")) {
      s.kernel = parse_kernel(args);
    } else if (args.option("--consumer", v)) {
      if (v == "bpf-load")
        s.btf.consumer = kBpfBtfLoad;
      else if (v == "module-load")
        s.btf.consumer = kModuleLoad;
      else if (v == "bpf-object")
        s.btf.consumer = kBpfObject;
      else if (v == "libsframe")
        s.sframe_consumer = kLibsframe;
      else if (v == "kernel")
        s.sframe_consumer = kSframeKernel;
      else
        throw UsageError("--consumer takes bpf-load, module-load, bpf-object (BTF), libsframe or kernel (SFrame), not '" + v + "'");
    } else if (args.option("--libbpf", v)) {
      const auto r = btf::parse_release(v);
      if (!r || *r < btf::kOldestLibbpf || *r > btf::kNewestLibbpf)
        throw UsageError("--libbpf takes a libbpf release from " + btf::kOldestLibbpf.str() + " to " +
                         btf::kNewestLibbpf.str() + ", not '" + v + "'");
      s.btf.consumer = kLibbpf;
      s.btf.libbpf = *r;
    } else if (args.option("--base-btf", v)) {
      s.base_paths.push_back(v);
    } else if (args.option("--format", v)) {
      if (v != "text" && v != "json") throw UsageError("--format takes text or json, not '" + v + "'");
      s.format = v;
    } else if (args.flag("--Werror")) {
      s.werror = true;
    } else if (args.option("-j", v) || args.option("--jobs", v)) {
      s.jobs = parse_jobs(v);
    } else if (args.peek().size() > 2 && args.peek()[0] == '-' && args.peek()[1] == 'j') {
      s.jobs = parse_jobs(args.next().substr(2));
    } else if (args.peek().size() > 1 && args.peek()[0] == '-') {
      throw UsageError("check: unknown option '" + args.peek() + "'");
    } else {
      s.inputs.push_back(args.next());
    }
  }
  if (s.inputs.empty()) throw UsageError("check needs at least one INPUT");
  return s;
}

// "6.18 (running kernel)", or for inputs of several kernels
// "6.1 (banner 6.1.0-56-cloud-amd64), 6.18 (running kernel) for 2 inputs".
std::string kernels_used(const std::vector<InputResult>& results) {
  std::vector<std::pair<std::string, size_t>> seen;
  for (const auto& r : results) {
    if (!r.artifact) continue;
    const std::string label = r.kernel.release.str() + " (" + r.kernel.how + ")";
    auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& x) { return x.first == label; });
    if (it == seen.end())
      seen.emplace_back(label, 1);
    else
      ++it->second;
  }
  std::string out;
  for (const auto& [label, count] : seen) {
    if (!out.empty()) out += ", ";
    out += label;
    if (seen.size() > 1 && count > 1) out += " for " + std::to_string(count) + " inputs";
  }
  return out.empty() ? "none" : out;
}

// The symbols of what an input describes, as --kallsyms asks: for a kernel
// image its symtab or its kallsyms tables (auto) or the --kallsyms file; for
// the running kernel's /sys/kernel/btf/vmlinux /proc/kallsyms (auto); for
// other ELF files their symtab. `own` holds symbols read for this input
// (the --kallsyms file is shared, not copied); `why` says why there are none.
const input::SymbolIndex* symbols_of(const input::Artifact& a, const CheckSettings& s,
                                     std::optional<input::SymbolIndex>& own, std::string& why) {
  if (s.kallsyms == "none") {
    why = "--kallsyms none";
    return nullptr;
  }
  const bool kernel_image = a.is_vmlinux() || a.path == "/sys/kernel/btf/vmlinux";
  if (s.kallsyms_file && (kernel_image || a.kind == input::ArtifactKind::RawBtf)) return &*s.kallsyms_file;
  if (a.is_vmlinux()) {
    own = input::symbols_from_symtab(a);
    if (!own) own = input::symbols_from_image_kallsyms(a, why);
  } else if (a.path == "/sys/kernel/btf/vmlinux") {
    own = input::symbols_from_kallsyms_file("/proc/kallsyms", why);
  } else if (a.kind != input::ArtifactKind::RawBtf) {
    own = input::symbols_from_symtab(a);
    if (!own) why = "no symtab";
  } else {
    why = "a raw blob: pass --kallsyms FILE";
  }
  return own ? &*own : nullptr;
}

// ORC with the symbols of kernel images.
void check_orc_of(const input::Artifact& a, const input::SymbolIndex* symbols, const std::string& why,
                  const btf::KernelChoice& kernel, DiagnosticList& list) {
  orc::OrcOptions options;
  if (kernel.how == "--kernel") options.kernel = kernel.release;
  if (!a.is_vmlinux()) symbols = nullptr;  // a module's ORC is checked against its own relocations
  if (a.is_vmlinux() && !symbols && a.section(".orc_unwind")) {
    Diagnostic d;
    d.location.artifact = a.name;
    d.message = "no symbols (" + why + "): ORC symbol checks skipped";
    list.report(std::move(d));
  }
  options.symbols = symbols;
  orc::check_orc(a, options, list);
}

// The record index of each base BTF, built by the first split blob that
// needs it.
class BaseIndexes {
 public:
  const btf::xc::RecordIndex* get(const btf::Btf* base) {
    if (!base) return nullptr;
    std::lock_guard lock(mu_);
    auto& slot = indexes_[base];
    if (!slot) slot = std::make_unique<btf::xc::RecordIndex>(*base, 1);
    return slot.get();
  }

 private:
  std::mutex mu_;
  std::map<const btf::Btf*, std::unique_ptr<btf::xc::RecordIndex>> indexes_;
};

// BTF cross-checks of a checked blob.
void cross_check_of(const InputResult& r, const input::SymbolIndex* symbols, BaseIndexes& bases,
                    DiagnosticList& list) {
  if (!r.check.checked || !r.check.btf.btf) return;
  elfmeta::Findings findings(r.artifact->name, list);
  const btf::Btf& blob = *r.check.btf.btf;
  btf::xc::cross_check({*r.artifact, blob, symbols, bases.get(blob.base())}, findings);
}

template <typename Fn>
void parallel_for(size_t n, unsigned jobs, Fn fn) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < n;) fn(i);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<size_t>(jobs, n); ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
}

}  // namespace

int run_check(Args args) {
  CheckSettings s = parse_settings(args);
  if (s.kallsyms != "auto" && s.kallsyms != "none") {
    std::string why;
    s.kallsyms_file = input::symbols_from_kallsyms_file(s.kallsyms, why);
    if (!s.kallsyms_file) {
      std::cerr << "elfmeta: --kallsyms " << why << "\n";
      return 2;
    }
  }
  BaseCache bases(s.btf, s.kernel);
  BaseIndexes base_indexes;

  // Explicit bases form a chain: each --base-btf continues the previous one.
  const btf::CheckedBtf* explicit_base = nullptr;
  for (const auto& path : s.base_paths) {
    const LoadedBase& b = bases.get(path, explicit_base);
    if (!b.error.empty()) {
      std::cerr << "elfmeta: --base-btf " << b.error << "\n";
      return 2;
    }
    explicit_base = &b.checked;
  }

  std::vector<InputResult> results(s.inputs.size());
  parallel_for(results.size(), s.jobs, [&](size_t i) {
    auto opened = input::open_input(s.inputs[i]);
    results[i].artifact = std::move(opened.artifact);
    results[i].open_error = opened.error;
  });

  // Kernel images first: a module checked with its vmlinux uses it as base.
  auto check_one = [&](size_t i, const btf::CheckedBtf* base) {
    InputResult& r = results[i];
    r.kernel = s.kernel ? *s.kernel : btf::kernel_of(*r.artifact);
    btf::CheckOptions options = s.btf;
    options.kernel = btf::KernelProfile(r.kernel.release);
    DiagnosticList list;
    std::optional<input::SymbolIndex> own;
    std::string why;
    // ORC checks symbols of kernel images only; the cross-checks of every input.
    const bool want_symbols = s.xc_on || (s.orc_on && r.artifact->is_vmlinux());
    const input::SymbolIndex* symbols = want_symbols ? symbols_of(*r.artifact, s, own, why) : nullptr;
    if (s.btf_on) r.check = btf::check_artifact_btf(*r.artifact, base, options, list);
    if (s.xc_on) cross_check_of(r, symbols, base_indexes, list);
    if (s.orc_on) check_orc_of(*r.artifact, symbols, why, r.kernel, list);
    if (s.sframe_on) sframe::check_sframe(*r.artifact, sframe::SframeOptions{s.sframe_consumer}, list);
    r.diagnostics = std::move(list.items());
  };
  std::vector<size_t> images, others;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].artifact) continue;
    (results[i].artifact->is_vmlinux() ? images : others).push_back(i);
  }
  parallel_for(images.size(), s.jobs, [&](size_t k) { check_one(images[k], nullptr); });
  const btf::CheckedBtf* vmlinux_in_inputs = nullptr;
  for (size_t i : images)
    if (results[i].check.btf.btf) {
      vmlinux_in_inputs = &results[i].check.btf;
      break;
    }
  const auto running = input::running_kernel_release();
  parallel_for(others.size(), s.jobs, [&](size_t k) {
    const size_t i = others[k];
    const input::Artifact& a = *results[i].artifact;
    const btf::CheckedBtf* base = explicit_base;
    if (!base) {
      auto where = btf::locate_btf(a);
      if (where && btf::needs_base(a, *where)) {
        std::optional<std::string> path = a.implied_btf_base;
        if (!path && vmlinux_in_inputs) {
          base = vmlinux_in_inputs;
        } else if (!path && running && input::module_vermagic_release(a) == running) {
          path = "/sys/kernel/btf/vmlinux";
        }
        if (path) {
          const LoadedBase& b = bases.get(*path, nullptr);
          if (b.error.empty()) base = &b.checked;
        }
      }
    }
    check_one(i, base);
  });

  if (s.sframe_on) {
    std::vector<const input::Artifact*> all;
    for (const auto& r : results)
      if (r.artifact) all.push_back(r.artifact.get());
    for (auto& r : results) {
      if (!r.artifact) continue;
      DiagnosticList lost;
      if (sframe::check_lost_in_link(*r.artifact, all, lost))
        for (auto& d : lost.items()) r.diagnostics.push_back(std::move(d));
    }
  }

  RunSummary summary;
  summary.inputs = results.size();
  summary.kernel = kernels_used(results);
  summary.consumer = std::string(consumer_name(s.btf.consumer));
  if (s.btf.consumer == kLibbpf) summary.consumer += " " + s.btf.libbpf.str();
  for (auto& r : results) {
    if (!r.artifact) {
      std::cerr << "elfmeta: " << r.open_error << "\n";
      ++summary.unreadable;
      continue;
    }
    for (const auto& d : r.diagnostics) {
      if (s.format == "json")
        write_json(std::cout, d);
      else
        write_text(std::cout, d);
    }
    summary.add(r.diagnostics);
  }
  if (s.format == "json")
    write_json_summary(std::cout, summary);
  else
    write_text_summary(std::cout, summary);
  std::cout.flush();
  if (summary.unreadable) return 2;
  if (summary.errors || (s.werror && summary.warnings)) return 1;
  return 0;
}

}  // namespace elfmeta::cli
