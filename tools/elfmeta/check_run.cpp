#include "check_run.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "btf/libbpf_model.h"
#include "btf/xc/check_context.h"
#include "btf/xc/cross_check.h"
#include "coverage/coverage.h"
#include "core/text.h"
#include "input/input_rules.h"
#include "input/kernel_package.h"
#include "input/kernel_release.h"
#include "input/reported_input.h"
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

namespace {

namespace fs = std::filesystem;

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

// BTF cross-checks of a checked blob. `withheld`: why symbols there were
// are not used (XC-CTX-001).
void cross_check_of(const InputResult& r, const input::SymbolIndex* symbols, BaseIndexes& bases,
                    DiagnosticList& list, std::string_view withheld = {}) {
  if (!r.check.checked || !r.check.btf.btf) return;
  elfmeta::Findings findings(r.artifact->name, list);
  const btf::Btf& blob = *r.check.btf.btf;
  btf::xc::cross_check({*r.artifact, blob, symbols, bases.get(blob.base()), withheld}, findings);
}

// The release a base's file is of: an image's banner, the running kernel's
// for /sys/kernel/btf/vmlinux; "" for other raw blobs.
std::string release_of(const input::Artifact* a, const std::optional<std::string>& running) {
  if (!a) return "";
  if (a->is_vmlinux()) return input::kernel_image_release(*a).value_or("");
  if (a->path == "/sys/kernel/btf/vmlinux") return running.value_or("");
  return "";
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

std::string file_name(const std::string& path) { return fs::path(path).filename().string(); }

// A module's compressed stream is watched for expansion from its first
// mebibyte on (input::OpenOptions): a relocatable object has no alignment
// padding that could expand a thousandfold.
constexpr uint64_t kModuleExpansionFloor = uint64_t(1) << 20;

// A queue of work for the checking threads, of bounded length: the reader
// of a package waits when the checks fall behind, so that no more than a
// few members are in memory at once.
class WorkQueue {
 public:
  explicit WorkQueue(size_t capacity) : capacity_(std::max<size_t>(1, capacity)) {}
  void push(std::function<void()> job) {
    std::unique_lock lock(mu_);
    space_.wait(lock, [&] { return jobs_.size() < capacity_; });
    jobs_.push_back(std::move(job));
    ready_.notify_one();
  }
  // Runs jobs until close(); returns when none is left.
  void serve() {
    while (true) {
      std::function<void()> job;
      {
        std::unique_lock lock(mu_);
        ready_.wait(lock, [&] { return closed_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
        space_.notify_one();
      }
      job();
    }
  }
  void close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    ready_.notify_all();
  }

 private:
  const size_t capacity_;
  std::mutex mu_;
  std::condition_variable ready_, space_;
  std::deque<std::function<void()>> jobs_;
  bool closed_ = false;
};

// A kernel image of the run, kept as the base of the modules checked after
// it: the image of a package or tree, or an image given by itself.
struct KernelImage {
  int package = -1;
  std::string release;  // from its banner ("7.2.13+deb14-cloud-amd64"), "" unknown
  const btf::CheckedBtf* btf = nullptr;
  std::string path;     // for XC-CTX-002
};

// A base split blobs were checked on: where it is from, for XC-CTX-002.
struct BaseOrigin {
  const btf::CheckedBtf* btf = nullptr;
  std::string name, release;
};

// The modules whose split BTF was not built on a base they were given
// (XC-CTX-002): one finding per base, on the first of them.
struct ForeignBase {
  std::string name;
  size_t modules = 0;
  InputResult* first = nullptr;
  std::string evidence;  // of the first
};

// One package or unpacked tree: its files, streamed.
struct MemberSource {
  int package = -1;
  size_t input = 0;  // command-line index
  std::string path;
  bool tree = false;
  input::KernelTree kernel_tree;  // for a tree
};

class Runner {
 public:
  Runner(CheckSettings& s, CheckRun& run, const btf::CheckedBtf* explicit_base)
      : s_(s), run_(run), explicit_base_(explicit_base), budget_(s.limits), running_(input::running_kernel_release()),
        kallsyms_release_(btf::xc::kallsyms_file_release(s.kallsyms)), progress_("checking", 0) {
    if (explicit_base_) {
      explicit_origin_.name = s_.base_paths.back();
      explicit_origin_.release = release_of(run_.bases->get(explicit_origin_.name, nullptr).artifact.get(), running_);
    }
  }

  void run() {
    std::vector<size_t> files;
    std::vector<MemberSource> sources;
    for (size_t i = 0; i < s_.inputs.size(); ++i) {
      const std::string& path = s_.inputs[i];
      if (s_.as == input::Format::Auto && input::is_debian_package_file(path)) {
        sources.push_back(package_source(i, path));
      } else if (s_.as == input::Format::Auto && fs::is_directory(path)) {
        add_trees(i, path, sources);
      } else {
        files.push_back(i);
      }
    }
    check_files(files);
    // Packages that carry an image first, so that a linux-modules package
    // finds its linux-binary whatever the order they were given in.
    std::stable_sort(sources.begin(), sources.end(), [&](const MemberSource& a, const MemberSource& b) {
      return source_rank(a) < source_rank(b);
    });
    unsigned workers = std::max(1u, s_.jobs);
    WorkQueue queue(2 * size_t(workers));
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < workers; ++t) threads.emplace_back([&] { queue.serve(); });
    for (const auto& source : sources) stream_source(source, queue);
    queue.close();
    for (auto& t : threads) t.join();
    progress_.finish();
    finish();
  }

 private:
  // ------------------------------------------------------------ inputs of their own

  // Files given by themselves: opened together, images checked first, and
  // kept to the end (the SFrame link check compares objects with the files
  // linked from them).
  void check_files(const std::vector<size_t>& files) {
    std::vector<InputResult*> results;
    for (size_t i : files) {
      InputResult& r = new_result(-1, s_.inputs[i], uint64_t(i) << 32);
      results.push_back(&r);
    }
    parallel_for(results.size(), s_.jobs, [&](size_t k) {
      InputResult& r = *results[k];
      auto opened = input::open_input(r.path, {s_.as, &budget_});
      take_opened(r, std::move(opened));
    });
    std::vector<InputResult*> images, others;
    for (InputResult* r : results)
      if (r->artifact) (r->artifact->is_vmlinux() ? images : others).push_back(r);
    parallel_for(images.size(), s_.jobs, [&](size_t k) { check_image(*images[k]); });
    parallel_for(others.size(), s_.jobs, [&](size_t k) { check_other(*others[k], nullptr); });
    if (s_.sframe_on) {
      std::vector<const input::Artifact*> all;
      for (InputResult* r : results)
        if (r->artifact) all.push_back(r->artifact.get());
      for (InputResult* r : results) {
        if (!r->artifact) continue;
        DiagnosticList lost;
        if (sframe::check_lost_in_link(*r->artifact, all, lost))
          for (auto& d : lost.items()) r->diagnostics.push_back(std::move(d));
      }
    }
    for (InputResult* r : results)
      if (r->checked) conclude(*r, s_.keep_artifacts || r->artifact->is_vmlinux());
  }

  // ------------------------------------------------------------ packages and trees

  MemberSource package_source(size_t input, const std::string& path) {
    MemberSource src;
    src.input = input;
    src.path = path;
    src.package = new_package(path);
    std::string ignored;
    if (auto id = input::identify_kernel_package(path, ignored)) run_.packages[src.package].id = std::move(*id);
    return src;
  }

  void add_trees(size_t input, const std::string& dir, std::vector<MemberSource>& sources) {
    std::string error;
    auto trees = input::find_kernel_trees(dir, error);
    if (trees.empty()) {
      InputResult& r = new_result(-1, dir, uint64_t(input) << 32);
      r.open_error = dir + ": " + (error.empty() ? "a directory without a kernel (no /boot, /lib/modules or modules)" : error);
      return;
    }
    for (auto& tree : trees) {
      MemberSource src;
      src.input = input;
      src.path = dir;
      src.tree = true;
      src.package = new_package(dir);
      run_.packages[src.package].id.release = tree.release;
      run_.packages[src.package].name = file_name(dir) + " (" + tree.release + ")";
      src.kernel_tree = std::move(tree);
      sources.push_back(std::move(src));
    }
  }

  int source_rank(const MemberSource& src) const {
    if (src.tree) return src.kernel_tree.image.empty() ? 2 : 0;
    switch (run_.packages[src.package].id.kind) {
      case input::KernelPackageKind::Image: case input::KernelPackageKind::Binary: return 0;
      case input::KernelPackageKind::Base: return 1;
      case input::KernelPackageKind::Modules: return 2;
      default: return 1;
    }
  }

  // The files of one package or tree, in archive (or sorted) order: the
  // image checked at once on this thread, modules queued for the workers,
  // System.map and config taken as context.
  void stream_source(const MemberSource& src, WorkQueue& queue) {
    PackageContext& ctx = run_.packages[src.package];
    uint64_t sequence = 0;
    auto order = [&] { return (uint64_t(src.input) << 32) | ++sequence; };
    // Modules read before the image of their own package wait for it (real
    // packages list /boot or the image first; this bounds the odd one).
    std::vector<std::pair<std::string, std::vector<uint8_t>>> waiting;
    uint64_t waiting_bytes = 0;
    bool image_seen = false;
    const bool expects_image = src.tree ? !src.kernel_tree.image.empty()
                                        : ctx.id.kind == input::KernelPackageKind::Image ||
                                              ctx.id.kind == input::KernelPackageKind::Binary;
    size_t modules = 0;
    auto queue_module = [&](std::string path, std::vector<uint8_t> bytes) {
      ++modules;
      InputResult& r = new_result(src.package, path, order());
      auto held = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
      queue.push([this, &r, held] { check_member(r, std::move(*held)); });
    };
    auto on_file = [&](input::KernelFileRole role, input::PackageFile&& f) {
      const std::string member = (src.tree ? "" : src.path + ":") + f.path;
      switch (role) {
        case input::KernelFileRole::Image: {
          InputResult& r = new_result(src.package, member, order());
          take_opened(r, input::open_bytes(member, std::move(f.bytes), {input::Format::Auto, &budget_}));
          if (r.artifact) check_image(r);
          if (r.checked) conclude(r, true);
          image_seen = true;
          for (auto& [path, bytes] : waiting) queue_module(std::move(path), std::move(bytes));
          waiting.clear();
          break;
        }
        case input::KernelFileRole::Module:
          if (expects_image && !image_seen && waiting_bytes < (uint64_t(256) << 20)) {
            waiting_bytes += f.bytes.size();
            waiting.emplace_back(member, std::move(f.bytes));
          } else {
            queue_module(member, std::move(f.bytes));
          }
          break;
        case input::KernelFileRole::SystemMap: take_system_map(ctx, f); break;
        case input::KernelFileRole::Config: take_config(ctx, f); break;
        case input::KernelFileRole::Other: break;
      }
    };
    std::vector<Diagnostic> refusals;
    std::string error;
    bool ok = true;
    if (src.tree) {
      ok = stream_tree(src.kernel_tree, on_file, refusals);
    } else {
      ok = input::stream_kernel_package(src.path, ctx.id, on_file, s_.limits, refusals, error);
      if (ctx.name.empty()) ctx.name = file_name(src.path);
    }
    for (auto& [path, bytes] : waiting) queue_module(std::move(path), std::move(bytes));
    for (auto& d : refusals) {
      InputResult& r = new_result(src.package, d.location.artifact, order());
      r.name = d.location.artifact;
      r.diagnostics.push_back(std::move(d));
    }
    if (!ok) {
      InputResult& r = new_result(src.package, src.path, order());
      r.open_error = error;
      return;
    }
    if (modules == 0 && !image_seen && refusals.empty()) {
      InputResult& r = new_result(src.package, src.path, order());
      std::string why = src.path + ": a Debian package without a kernel image or modules";
      const std::string companion = input::companion_package(ctx.id, input::KernelPackageKind::Binary);
      if (ctx.id.kind == input::KernelPackageKind::Image && !companion.empty())
        why += " (since 6.19 the image is in " + companion + " and the modules in " +
               input::companion_package(ctx.id, input::KernelPackageKind::Modules) + ")";
      r.open_error = why;
      return;
    }
    ctx.notes.push_back(package_note(ctx_name(ctx), std::to_string(image_seen ? 1 : 0) + " image(s), " +
                                                         std::to_string(modules) + " modules"));
  }

  // The files of an unpacked tree, read from the disk one at a time.
  bool stream_tree(const input::KernelTree& tree,
                   const std::function<void(input::KernelFileRole, input::PackageFile&&)>& on_file,
                   std::vector<Diagnostic>& refusals) {
    auto read = [&](const std::string& path, input::KernelFileRole role) {
      std::error_code ec;
      const uint64_t size = fs::file_size(path, ec);
      if (!ec && size > s_.limits.max_member_bytes) {
        refusals.push_back(input::refusal(input::rules::INPUT_005, path,
                                          path + " is " + input::size_text(size) + ", past the limit of " +
                                              input::size_text(s_.limits.max_member_bytes) + "; not checked"));
        return;
      }
      std::ifstream in(path, std::ios::binary);
      input::PackageFile f{path, std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {})};
      on_file(role, std::move(f));
    };
    if (!tree.image.empty()) read(tree.image, input::KernelFileRole::Image);
    if (!tree.system_map.empty()) read(tree.system_map, input::KernelFileRole::SystemMap);
    if (!tree.config.empty()) read(tree.config, input::KernelFileRole::Config);
    for (const auto& m : tree.modules) read(m, input::KernelFileRole::Module);
    return true;
  }

  // A package's System.map (when it is not Debian's placeholder) as the
  // symbols of its image; its config's word on BTF and ORC as a note.
  void take_system_map(PackageContext& ctx, const input::PackageFile& map) {
    std::string why;
    ctx.system_map = input::symbols_from_kallsyms_text(
        std::string_view(reinterpret_cast<const char*>(map.bytes.data()), map.bytes.size()), map.path, why);
    if (!ctx.system_map) ctx.notes.push_back(package_note(ctx_name(ctx), why + "; the image's own kallsyms tables are used"));
  }
  void take_config(PackageContext& ctx, const input::PackageFile& config) {
    std::string facts;
    for (const char* option : {"DEBUG_INFO_BTF", "DEBUG_INFO_BTF_MODULES", "UNWINDER_ORC", "MODULE_COMPRESS_XZ",
                               "MODULE_COMPRESS_ZSTD"})
      facts += std::string(facts.empty() ? "" : ", ") + option + "=" + input::config_value(config.bytes, option).value_or("n");
    ctx.notes.push_back(package_note(ctx_name(ctx), config.path + ": " + facts));
  }
  std::string ctx_name(const PackageContext& ctx) const { return ctx.name.empty() ? file_name(ctx.path) : ctx.name; }

  // ------------------------------------------------------------ checking one artifact

  InputResult& new_result(int package, std::string path, uint64_t order) {
    std::lock_guard lock(mu_);
    InputResult& r = storage_.emplace_back();
    r.package = package;
    r.path = std::move(path);
    r.name = file_name(r.path);
    r.order = order;
    return r;
  }

  int new_package(const std::string& path) {
    run_.packages.emplace_back();
    run_.packages.back().path = path;
    return int(run_.packages.size()) - 1;
  }

  void take_opened(InputResult& r, input::OpenResult opened) {
    if (opened.refusal) {
      r.diagnostics.push_back(std::move(*opened.refusal));
      return;
    }
    if (!opened.artifact) {
      r.open_error = opened.error;
      return;
    }
    r.artifact = std::move(opened.artifact);
    r.name = r.artifact->name;
  }

  void check_image(InputResult& r) {
    check_one(r, nullptr);
    if (!r.check.btf.btf) return;
    KernelImage image;
    image.package = r.package;
    image.btf = &r.check.btf;
    image.path = r.path;
    if (const auto banner = input::kernel_image_release(*r.artifact)) image.release = *banner;
    std::lock_guard lock(mu_);
    images_.push_back(image);
  }

  // A package member: opened (decompressed within the limits), checked on
  // the base its package or the run gives, its counts taken, released.
  void check_member(InputResult& r, std::vector<uint8_t> bytes) {
    take_opened(r, input::open_bytes(r.path, std::move(bytes), {input::Format::Auto, &budget_, kModuleExpansionFloor}));
    if (r.artifact) {
      if (r.artifact->is_vmlinux())
        check_image(r);
      else
        check_other(r, nullptr);
    }
    if (r.checked) conclude(r, s_.keep_artifacts || r.artifact->is_vmlinux());
    progress_.tick();
  }

  // An input that is not a kernel image: on the base its split BTF needs.
  void check_other(InputResult& r, const btf::CheckedBtf* base) {
    const input::Artifact& a = *r.artifact;
    bool base_missing = false;
    BaseOrigin origin;
    if (!base && explicit_base_) base = explicit_base_, origin = explicit_origin_;
    if (!base) {
      auto where = btf::locate_btf(a);
      if (where && btf::needs_base(a, *where)) {
        std::optional<std::string> path = a.implied_btf_base;
        if (!path) {
          const KernelImage image = image_for(r);
          base = image.btf;
          origin.name = image.path, origin.release = image.release;
        }
        if (!base && !path && running_ && input::module_vermagic_release(a) == running_) path = "/sys/kernel/btf/vmlinux";
        if (path) {
          const LoadedBase& b = run_.bases->get(*path, nullptr);
          if (b.error.empty()) base = &b.checked;
          origin.name = *path, origin.release = release_of(b.artifact.get(), running_);
        }
        // A package member without its image: one note for the package
        // instead of one per module (the checks of its BTF did not run).
        base_missing = !base && r.package >= 0;
      }
    }
    origin.btf = base;
    check_one(r, base, base_missing ? SkipBtf::BaseMissing : foreign_base(r, origin) ? SkipBtf::ForeignBase : SkipBtf::No);
  }

  // XC-CTX-002: whether the split BTF of `r` was built on another base than
  // the one it is to be checked on; the first of each base's is kept for
  // the finding.
  bool foreign_base(InputResult& r, const BaseOrigin& origin) {
    if (!s_.btf_on || !origin.btf || !origin.btf->btf || r.artifact->is_vmlinux()) return false;
    const auto where = btf::locate_btf(*r.artifact);
    if (!where || where->distilled_base) return false;  // checked on its own .BTF.base
    const btf::xc::ContextVerdict v = btf::xc::judge_split_base(
        {where->data, *origin.btf->btf, origin.name, input::module_vermagic_release(*r.artifact).value_or(""),
         origin.release});
    if (v.belongs) return false;
    std::lock_guard lock(mu_);
    ForeignBase& f = foreign_bases_[origin.btf];
    f.name = origin.name.empty() ? "given" : origin.name;
    ++f.modules;
    if (!f.first || r.order < f.first->order) f.first = &r, f.evidence = v.evidence;
    return true;
  }

  // The image a module's split BTF continues: the image of its own package
  // or tree; else the image of the same release; else, for files given by
  // themselves, the first image given.
  KernelImage image_for(const InputResult& r) {
    std::lock_guard lock(mu_);
    if (r.package >= 0)
      for (const auto& image : images_)
        if (image.package == r.package) return image;
    std::string release = input::module_vermagic_release(*r.artifact).value_or("");
    if (release.empty() && r.package >= 0) release = run_.packages[r.package].id.release;
    if (!release.empty())
      for (const auto& image : images_)
        if (image.release == release) return image;
    if (r.package < 0 && !images_.empty()) return images_.front();
    return {};
  }

  // XC-CTX-001: whether the --kallsyms file is of the image `r` (the
  // anchors against the image's own symbols, the releases, the FUNC names).
  btf::xc::ContextVerdict kallsyms_fit(const InputResult& r, DiagnosticList& list) {
    const input::Artifact& a = *r.artifact;
    std::optional<input::SymbolIndex> own;
    std::string image_release, ignored;
    if (a.is_vmlinux()) {
      own = input::symbols_from_symtab(a, input::SymtabFilter::Functions);
      if (!own) own = input::symbols_from_image_kallsyms(a, ignored);
    }
    image_release = release_of(&a, running_);
    elfmeta::Findings findings(a.name, list);
    return btf::xc::check_kallsyms_context(
        {*s_.kallsyms_file, kallsyms_release_, own ? &*own : nullptr, image_release, r.check.btf.btf.get()}, findings);
  }

  // Why the BTF of an input is not checked: its base is missing, or is not
  // the one it was built on (XC-CTX-002, reported once per base at the end).
  enum class SkipBtf { No, BaseMissing, ForeignBase };

  void check_one(InputResult& r, const btf::CheckedBtf* base, SkipBtf skip = SkipBtf::No) {
    const bool skip_split_btf = skip != SkipBtf::No;
    r.kernel = s_.kernel ? *s_.kernel : btf::kernel_of(*r.artifact);
    btf::CheckOptions options = s_.btf;
    options.kernel = btf::KernelProfile(r.kernel.release);
    DiagnosticList list;
    std::optional<input::SymbolIndex> own;
    std::string why;
    // ORC checks symbols of kernel images only; the cross-checks of every input.
    const bool want_symbols = s_.xc_on || (s_.orc_on && r.artifact->is_vmlinux()) || s_.on_checked || s_.want_stats;
    const input::SymbolIndex* symbols = nullptr;
    if (want_symbols && r.package >= 0 && r.artifact->is_vmlinux() && run_.packages[r.package].system_map)
      symbols = &*run_.packages[r.package].system_map;
    else if (want_symbols)
      symbols = symbols_of(*r.artifact, s_, own, why);
    if (s_.btf_on && !skip_split_btf) r.check = btf::check_artifact_btf(*r.artifact, base, options, list);
    if (s_.btf_on && skip_split_btf) {
      std::lock_guard lock(mu_);
      ++run_.btf_not_checked;
      if (skip == SkipBtf::BaseMissing) ++missing_base_[r.package];
    }
    // The --kallsyms file of another kernel: one finding, and the checks
    // that read symbols do not run.
    // Of this image but moved by KASLR (the running kernel's /proc/kallsyms):
    // every check compares link-time addresses, so they are moved back.
    std::string_view withheld;
    std::optional<input::SymbolIndex> moved;
    if (symbols && s_.kallsyms_file && symbols == &*s_.kallsyms_file) {
      const btf::xc::ContextVerdict fit = kallsyms_fit(r, list);
      if (!fit.belongs) {
        symbols = nullptr;
        withheld = btf::xc::kKallsymsWithheld;
        why = withheld;
      } else if (fit.moved_by) {
        moved = symbols->moved_back(fit.moved_by, fit.moved_from);
        symbols = &*moved;
        Diagnostic d;
        d.severity = Severity::Note;
        d.location.artifact = r.artifact->name;
        d.message = "kallsyms " + s_.kallsyms_file->origin + " are this image's moved by KASLR (" +
                    hex(fit.moved_by) + "): checked at the image's addresses";
        list.report(std::move(d));
      }
    }
    if (s_.xc_on) cross_check_of(r, symbols, *run_.base_indexes, list, withheld);
    if (s_.orc_on) r.orc = check_orc_of(*r.artifact, symbols, why, r.kernel, list);
    if (s_.sframe_on) r.sframe = sframe::check_sframe(*r.artifact, sframe::SframeOptions{s_.sframe_consumer}, list);
    r.diagnostics = std::move(list.items());
    r.has_btf = s_.btf_on && (r.check.checked || skip_split_btf);
    r.has_orc = r.orc.present;
    r.has_sframe = r.sframe.present;
    r.checked = true;
    if (s_.on_checked) s_.on_checked(r, symbols);
    if (s_.want_stats) {  // coverage figures in stats, so that diff shows how they move
      const auto counts = coverage::flat_counts(coverage::coverage_of({*r.artifact, r.check.btf.btf.get(), symbols}));
      std::lock_guard lock(stats_mu_);
      run_.stats.add_coverage(artifact_kind(*r.artifact), counts);
    }
  }

  // What the reports need of a checked artifact, taken now; then its bytes
  // and checks released unless `keep`.
  void conclude(InputResult& r, bool keep) {
    r.kind = artifact_kind(*r.artifact);
    r.reported = input::reported_input(*r.artifact, r.kernel.label(), {});
    if (s_.want_stats) {
      std::lock_guard lock(stats_mu_);
      run_.stats.add(r.kind, *r.artifact, r.check.btf.btf.get(), r.orc, r.sframe, r.diagnostics);
    }
    if (keep) return;
    r.check = {};
    r.orc = {};
    r.sframe = {};
    r.artifact.reset();
  }

  // ------------------------------------------------------------ the end

  void finish() {
    for (auto& [base, f] : foreign_bases_) {
      DiagnosticList list;
      elfmeta::Findings findings(f.first->name, list);
      btf::xc::report_foreign_base(findings, f.name, f.evidence, f.modules);
      for (auto& d : list.items()) f.first->diagnostics.push_back(std::move(d));
    }
    // A package's own notes go before the findings of its first artifact;
    // so does the note of modules whose image was not given.
    for (auto& [package, count] : missing_base_) {
      PackageContext& ctx = run_.packages[package];
      std::string needed = input::companion_package(ctx.id, input::KernelPackageKind::Binary);
      if (needed.empty()) needed = ctx.id.release.empty() ? "the kernel image they were built for" : "the image of " + ctx.id.release;
      ctx.notes.push_back(package_note(
          ctx_name(ctx), with_thousands(count) + " modules: split BTF not checked: it needs its base, the BTF of " +
                             needed + "; check this package together with that one (or pass --base-btf FILE)"));
    }
    std::vector<InputResult> results;
    results.reserve(storage_.size());
    for (auto& r : storage_) results.push_back(std::move(r));
    storage_.clear();
    std::stable_sort(results.begin(), results.end(), [](const InputResult& a, const InputResult& b) { return a.order < b.order; });
    std::vector<bool> noted(run_.packages.size());
    for (auto& r : results) {
      if (r.package < 0 || noted[r.package] || r.open_error.size()) continue;
      noted[r.package] = true;
      const auto& notes = run_.packages[r.package].notes;
      r.diagnostics.insert(r.diagnostics.begin(), notes.begin(), notes.end());
    }
    for (const auto& r : results) run_.opened += r.checked;
    run_.results = std::move(results);
  }

  CheckSettings& s_;
  CheckRun& run_;
  const btf::CheckedBtf* explicit_base_;
  BaseOrigin explicit_origin_;  // the --base-btf file on top of the chain
  input::DecompressionBudget budget_;
  const std::optional<std::string> running_;
  const std::string kallsyms_release_;  // of the --kallsyms file, as its path tells
  Progress progress_;
  std::mutex mu_, stats_mu_;
  std::deque<InputResult> storage_;  // stable addresses while workers fill them
  std::vector<KernelImage> images_;
  std::map<int, size_t> missing_base_;  // package -> modules whose split BTF was not checked
  std::map<const btf::CheckedBtf*, ForeignBase> foreign_bases_;  // XC-CTX-002
};

}  // namespace

// "6.18 (running kernel)", or for inputs of several kernels
// "6.1 (banner 6.1.0-56-cloud-amd64), 6.18 (running kernel) for 2 artifacts".
std::string kernels_used(const std::vector<InputResult>& results) {
  std::vector<std::pair<std::string, size_t>> seen;
  for (const auto& r : results) {
    if (!r.checked) continue;
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
    if (seen.size() > 1 && count > 1) out += " for " + with_thousands(count) + " artifacts";
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

  // Explicit bases form a chain: each --base-btf continues the previous one.
  const btf::CheckedBtf* explicit_base = nullptr;
  for (const auto& path : s.base_paths) {
    const LoadedBase& b = run.bases->get(path, explicit_base);
    if (!b.error.empty()) {
      error = "--base-btf " + b.error;
      return std::nullopt;
    }
    explicit_base = &b.checked;
  }
  Runner(s, run, explicit_base).run();
  clock.lap("checking");
  return run;
}

stats::Stats stats_of(const CheckRun& run, const std::vector<std::string>& inputs) {
  stats::Stats s = run.stats;
  s.inputs.clear();
  for (const auto& in : inputs) s.inputs.push_back(std::filesystem::path(in).filename().string());
  s.kernel = kernels_used(run.results);
  return s;
}

}  // namespace elfmeta::cli
