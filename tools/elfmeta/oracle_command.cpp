// elfmeta oracle: a real kernel's verdict on each blob (the running kernel, or one
// booted under qemu with --vm, which also loads modules).
#include <iostream>
#include <memory>
#include <optional>

#include "btf/artifact_check.h"
#include "btf/ext/bpf_object.h"
#include "btf/findings.h"
#include "btf/parse.h"
#include "cli.h"
#include "input/kernel_release.h"
#include "oracle/kernel_btf_oracle.h"
#include "oracle/vm_oracle.h"

namespace elfmeta::cli {

namespace {

// The input opened, or nullptr after one line on stderr (status 2).
std::unique_ptr<input::Artifact> open_or_report(const std::string& path, int& status) {
  auto opened = input::open_input(path);
  if (!opened.artifact) {
    std::cerr << "elfmeta: " << opened.error << "\n";
    status = 2;
  }
  return std::move(opened.artifact);
}

// The BTF an input carries, or nullopt after one line on stderr (status 2).
std::optional<std::vector<uint8_t>> btf_or_report(const input::Artifact& a, const std::string& path, int& status) {
  auto where = btf::locate_btf(a);
  if (!where) {
    std::cerr << "elfmeta: " << path << ": no BTF to load\n";
    status = 2;
    return std::nullopt;
  }
  return std::vector<uint8_t>(where->data.begin(), where->data.end());
}

// With --consumer bpf-object: a BPF object's BTF as libbpf hands it to
// BPF_BTF_LOAD (DATASEC sizes, VAR offsets and extern linkage fixed up, as
// `check --consumer bpf-object` checks it); other inputs' BTF as they carry it.
std::optional<std::vector<uint8_t>> loaded_btf_or_report(const input::Artifact& a, const std::string& path,
                                                         bool as_bpf_object, int& status) {
  auto blob = btf_or_report(a, path, status);
  if (!blob || !as_bpf_object || !btf::ext::is_bpf_object(a)) return blob;
  NullSink quiet;
  btf::Findings parse_findings(btf::CheckContext{a.name, ".BTF", kBpfObject, {}}, quiet);
  const auto raw = btf::parse(*blob, btf::ParseOptions{}, parse_findings);
  if (!raw) return blob;  // unparsable: the kernel judges the raw bytes
  elfmeta::Findings object_findings(a.name, quiet, kBpfObject);
  auto fixed = btf::ext::check_object_btf(a, *raw, object_findings);
  if (fixed.empty()) return blob;
  return fixed;
}

// What the VM is asked about: the BTF of each input, loaded with
// BPF_BTF_LOAD, or a kernel module, loaded with finit_module.
struct VmQuestion {
  std::string path;
  bool module = false;
  size_t index = 0;  // into the blob or the module list
};

int run_vm_oracle(const std::string& image, const std::vector<std::string>& paths) {
  oracle::VmOracle vm(oracle::default_vm_init_path());
  std::string why;
  if (!vm.available(&why)) {
    std::cerr << "elfmeta: oracle --vm unavailable: " << why << "\n";
    return 2;
  }
  int status = 0;
  std::vector<VmQuestion> questions;
  std::vector<std::vector<uint8_t>> blobs;
  std::vector<oracle::VmModule> modules;
  for (const auto& path : paths) {
    const auto artifact = open_or_report(path, status);
    if (!artifact) continue;
    const input::Artifact& a = *artifact;
    if (a.is_kernel_module()) {
      const auto name = input::modinfo_value(a, "name");
      if (!name) {
        std::cerr << "elfmeta: " << path << ": module without a name in .modinfo\n";
        status = 2;
        continue;
      }
      questions.push_back({path, true, modules.size()});
      modules.push_back({*name, oracle::strip_module_signature({a.content.begin(), a.content.end()})});
      continue;
    }
    auto blob = btf_or_report(a, path, status);
    if (!blob) continue;
    questions.push_back({path, false, blobs.size()});
    blobs.push_back(std::move(*blob));
  }
  const oracle::VmRun run = vm.run(image, blobs, modules);
  for (const VmQuestion& q : questions) {
    std::cout << q.path << ": ";
    if (q.module) {
      const auto& v = run.modules[q.index];
      if (!v.answered)
        std::cout << "no answer";
      else if (!v.loaded)
        std::cout << "not loaded errno=" << oracle::errno_name(v.error);
      else
        std::cout << "loaded, BTF " << (v.btf_accepted ? "accepted" : "rejected");
      if (v.answered && !v.messages.empty()) std::cout << " kernel: " << v.messages;
    } else {
      const auto& v = run.blobs[q.index];
      if (!v.answered)
        std::cout << "no answer";
      else if (v.accepted)
        std::cout << "accepted";
      else
        std::cout << "rejected errno=" << oracle::errno_name(v.error) << " reason: " << v.reason;
    }
    std::cout << "\n";
  }
  if (!run.error.empty()) {
    std::cerr << "elfmeta: " << image << ": " << run.error << "\n";
    return 2;
  }
  return status;
}

}  // namespace

int run_oracle(Args args) {
  std::vector<std::string> paths;
  std::string image, consumer;
  while (!args.done()) {
    if (args.option("--vm", image)) continue;
    if (args.option("--consumer", consumer)) {
      if (consumer != "bpf-object") throw UsageError("oracle: --consumer takes only bpf-object");
      continue;
    }
    if (args.peek().size() > 1 && args.peek()[0] == '-') throw UsageError("oracle: unknown option '" + args.peek() + "'");
    paths.push_back(args.next());
  }
  if (paths.empty()) throw UsageError("oracle needs at least one FILE");
  if (!image.empty() && !consumer.empty()) throw UsageError("oracle: --consumer is not for --vm");
  if (!image.empty()) return run_vm_oracle(image, paths);
  std::string why;
  if (!oracle::kernel_btf_oracle_available(&why)) {
    std::cerr << "elfmeta: oracle unavailable: " << why << "\n";
    return 2;
  }
  int status = 0;
  for (const auto& path : paths) {
    const auto artifact = open_or_report(path, status);
    if (!artifact) continue;
    const auto blob = loaded_btf_or_report(*artifact, path, consumer == "bpf-object", status);
    if (!blob) continue;
    const auto v = oracle::kernel_btf_load(*blob);
    std::cout << path << ": " << (v.accepted ? "accepted" : "rejected");
    if (!v.accepted) std::cout << " errno=" << oracle::errno_name(v.error) << " reason: " << v.reason;
    std::cout << "\n";
  }
  return status;
}

}  // namespace elfmeta::cli
