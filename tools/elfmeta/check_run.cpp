#include "check_run.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>

#include "btf/libbpf_model.h"
#include "btf/xc/cross_check.h"
#include "input/kernel_package.h"
#include "input/kernel_release.h"
#include "progress.h"
#include "stats/stats.h"

namespace elfmeta::cli {

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

namespace {

// What the command line names, expanded: a kernel package becomes its image
// and its modules, read out of the .deb. The files of one package form a
// group: its modules are checked on top of its own image.
struct InputSource {
  std::string path;
  std::optional<std::vector<uint8_t>> bytes;  // a file read out of a package
  int package = -1;                           // index into the packages; -1 for a file
  std::string error;                          // the package could not be read
};

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
orc::OrcCheck check_orc_of(const input::Artifact& a, const input::SymbolIndex* symbols, const std::string& why,
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
  return orc::check_orc(a, options, list);
}

// The record index of each base BTF, built by the first split blob that
// needs it.
}  // namespace

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

namespace {

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

Diagnostic package_note(const std::string& artifact, std::string message) {
  Diagnostic d;
  d.severity = Severity::Note;
  d.location.artifact = artifact;
  d.message = std::move(message);
  return d;
}

// A kernel package's files as inputs; its System.map (when it is not
// Debian's placeholder) as the symbols of its image; its config's word on
// BTF and ORC as a note.
void expand_package(const std::string& path, std::vector<InputSource>& sources, std::vector<PackageContext>& packages) {
  const int index = static_cast<int>(packages.size());
  PackageContext& ctx = packages.emplace_back();
  ctx.path = path;
  std::string error;
  auto package = input::read_kernel_package(path, error);
  if (package && package->images.empty() && package->modules.empty())
    error = path + ": a Debian package without a kernel image or modules";
  if (!error.empty() || !package) {
    sources.push_back({path, std::nullopt, index, error});
    return;
  }
  const std::string name = std::filesystem::path(path).filename().string();
  for (auto* files : {&package->images, &package->modules})
    for (auto& f : *files) sources.push_back({path + ":" + f.path, std::move(f.bytes), index, ""});
  if (package->system_map) {
    const auto& map = *package->system_map;
    std::string why;
    ctx.system_map = input::symbols_from_kallsyms_text(
        std::string_view(reinterpret_cast<const char*>(map.bytes.data()), map.bytes.size()), map.path, why);
    if (!ctx.system_map)
      ctx.notes.push_back(package_note(name, why + "; the image's own kallsyms tables are used"));
  }
  if (package->config) {
    std::string facts;
    for (const char* option : {"DEBUG_INFO_BTF", "DEBUG_INFO_BTF_MODULES", "UNWINDER_ORC", "MODULE_COMPRESS_XZ",
                               "MODULE_COMPRESS_ZSTD"})
      facts += std::string(facts.empty() ? "" : ", ") + option + "=" +
               input::config_value(package->config->bytes, option).value_or("n");
    ctx.notes.push_back(package_note(name, package->config->path + ": " + facts + "; " +
                                               std::to_string(package->images.size()) + " image(s), " +
                                               std::to_string(package->modules.size()) + " modules"));
  }
}

std::vector<InputSource> expand_inputs(const std::vector<std::string>& inputs, input::Format as,
                                       std::vector<PackageContext>& packages) {
  std::vector<InputSource> sources;
  for (const auto& path : inputs) {
    if (as == input::Format::Auto && input::is_debian_package_file(path))
      expand_package(path, sources, packages);
    else
      sources.push_back({path, std::nullopt, -1, ""});
  }
  return sources;
}

}  // namespace

// "6.18 (running kernel)", or for inputs of several kernels
// "6.1 (banner 6.1.0-56-cloud-amd64), 6.18 (running kernel) for 2 inputs".
std::string kernels_used(const std::vector<InputResult>& results) {
  std::vector<std::pair<std::string, size_t>> seen;
  for (const auto& r : results) {
    if (!r.artifact) continue;
    const std::string label = r.kernel.label();
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

// How the closing table groups artifacts.
std::string artifact_kind(const input::Artifact& a) {
  if (a.kind == input::ArtifactKind::RawBtf) return "raw BTF";
  if (a.kind == input::ArtifactKind::RawSframe) return "raw SFrame";
  if (a.is_vmlinux()) return "kernel image";
  if (a.is_kernel_module()) return "module";
  if (a.elf_type == 1) return "object";  // ET_REL
  if (a.elf_type == 3) return "shared object";  // ET_DYN
  return "executable";
}

std::string consumer_used(const CheckSettings& s) {
  std::string consumer(consumer_name(s.btf.consumer));
  if (s.btf.consumer == kLibbpf) consumer += " " + s.btf.libbpf.str();
  return consumer;
}

std::optional<CheckRun> run_checks(CheckSettings& s, PhaseClock& clock, std::string& error) {
  if (s.kallsyms != "auto" && s.kallsyms != "none") {
    std::string why;
    s.kallsyms_file = input::symbols_from_kallsyms_file(s.kallsyms, why);
    if (!s.kallsyms_file) {
      error = "--kallsyms " + why;
      return std::nullopt;
    }
  }
  CheckRun run;
  run.bases = std::make_shared<BaseCache>(s.btf, s.kernel);
  run.base_indexes = std::make_shared<BaseIndexes>();
  BaseCache& bases = *run.bases;
  BaseIndexes& base_indexes = *run.base_indexes;

  // Explicit bases form a chain: each --base-btf continues the previous one.
  const btf::CheckedBtf* explicit_base = nullptr;
  for (const auto& path : s.base_paths) {
    const LoadedBase& b = bases.get(path, explicit_base);
    if (!b.error.empty()) {
      error = "--base-btf " + b.error;
      return std::nullopt;
    }
    explicit_base = &b.checked;
  }

  std::vector<PackageContext>& packages = run.packages;
  std::vector<InputSource> sources = expand_inputs(s.inputs, s.as, packages);
  clock.lap("reading packages");
  std::vector<InputResult>& results = run.results;
  results.resize(sources.size());
  parallel_for(results.size(), s.jobs, [&](size_t i) {
    InputSource& src = sources[i];
    results[i].package = src.package;
    if (!src.error.empty()) {
      results[i].open_error = src.error;
      return;
    }
    auto opened = src.bytes ? input::open_bytes(src.path, std::move(*src.bytes)) : input::open_input(src.path, s.as);
    src.bytes.reset();
    results[i].artifact = std::move(opened.artifact);
    results[i].open_error = opened.error;
  });

  clock.lap("opening and decompressing");
  // Kernel images first: a module checked with its vmlinux uses it as base.
  for (const auto& r : results) run.opened += r.artifact != nullptr;
  Progress progress("checking", run.opened);
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
    const input::SymbolIndex* symbols = nullptr;
    if (want_symbols && r.package >= 0 && r.artifact->is_vmlinux() && packages[r.package].system_map)
      symbols = &*packages[r.package].system_map;
    else if (want_symbols)
      symbols = symbols_of(*r.artifact, s, own, why);
    if (s.btf_on) r.check = btf::check_artifact_btf(*r.artifact, base, options, list);
    if (s.xc_on) cross_check_of(r, symbols, base_indexes, list);
    if (s.orc_on) r.orc = check_orc_of(*r.artifact, symbols, why, r.kernel, list);
    if (s.sframe_on) r.sframe = sframe::check_sframe(*r.artifact, sframe::SframeOptions{s.sframe_consumer}, list);
    r.diagnostics = std::move(list.items());
    progress.tick();
  };
  std::vector<size_t> images, others;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].artifact) continue;
    (results[i].artifact->is_vmlinux() ? images : others).push_back(i);
  }
  parallel_for(images.size(), s.jobs, [&](size_t k) { check_one(images[k], nullptr); });
  // A module's base: the image of its own package, else the first image given.
  std::map<int, const btf::CheckedBtf*> image_of_package;
  for (size_t i : images)
    if (results[i].check.btf.btf) image_of_package.emplace(results[i].package, &results[i].check.btf);
  auto vmlinux_for = [&](const InputResult& r) -> const btf::CheckedBtf* {
    if (auto it = image_of_package.find(r.package); it != image_of_package.end()) return it->second;
    for (size_t i : images)
      if (results[i].check.btf.btf) return &results[i].check.btf;
    return nullptr;
  };
  const auto running = input::running_kernel_release();
  parallel_for(others.size(), s.jobs, [&](size_t k) {
    const size_t i = others[k];
    const input::Artifact& a = *results[i].artifact;
    const btf::CheckedBtf* base = explicit_base;
    if (!base) {
      auto where = btf::locate_btf(a);
      if (where && btf::needs_base(a, *where)) {
        std::optional<std::string> path = a.implied_btf_base;
        if (!path && vmlinux_for(results[i])) {
          base = vmlinux_for(results[i]);
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

  progress.finish();
  clock.lap("checking");
  // A package's own notes go before the findings of its first artifact.
  std::vector<bool> noted(packages.size());
  for (auto& r : results)
    if (r.package >= 0 && r.artifact && !noted[r.package]) {
      noted[r.package] = true;
      const auto& notes = packages[r.package].notes;
      r.diagnostics.insert(r.diagnostics.begin(), notes.begin(), notes.end());
    }
  return run;
}

stats::Stats stats_of(const CheckRun& run, const std::vector<std::string>& inputs) {
  stats::Stats s;
  for (const auto& in : inputs) s.inputs.push_back(std::filesystem::path(in).filename().string());
  s.kernel = kernels_used(run.results);
  for (const auto& r : run.results)
    if (r.artifact) s.add(artifact_kind(*r.artifact), *r.artifact, r.check.btf.btf.get(), r.orc, r.sframe, r.diagnostics);
  return s;
}

}  // namespace elfmeta::cli
