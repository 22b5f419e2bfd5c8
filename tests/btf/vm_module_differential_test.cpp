// Module (split) BTF judged by real kernels: Debian 6.1, 6.12 and sid's 7.2
// booted under qemu load modules of their own package whose .BTF was mutated, and
// `--consumer module-load --kernel X.Y --base-btf VMLINUX` must give the
// kernel's verdict (the BTF shows up under /sys/kernel/btf/<module> only if
// the kernel accepted it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "btf/artifact_check.h"
#include "btf/parse.h"
#include "core/report.h"
#include "input/artifact.h"
#include "input/kernel_release.h"
#include "oracle/vm_oracle.h"
#include "synth/btf_generator.h"
#include "synth/elf_patch.h"
#include "tests/support/debian_vm.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

struct Module {
  std::string name;
  std::vector<uint8_t> bytes;  // unsigned
  std::vector<uint8_t> btf;
};

// Modules that need no other module, carry BTF, and are small. Modules with
// a .BTF_ids section (kfunc sets, struct_ops) are left out: their init fails
// when their BTF does not match, so the kernel's BTF verdict is not visible.
std::vector<Module> candidates(const fs::path& modules, size_t max) {
  std::vector<std::pair<uintmax_t, fs::path>> files;
  for (const auto& e : fs::recursive_directory_iterator(modules / "kernel"))
    if (e.is_regular_file() && e.path().string().find(".ko") != std::string::npos) files.emplace_back(e.file_size(), e.path());
  std::sort(files.begin(), files.end());
  std::vector<Module> out;
  for (const auto& [size, path] : files) {
    if (out.size() >= max) break;
    auto opened = input::open_input(path.string());
    if (!opened.artifact) continue;
    const input::Artifact& a = *opened.artifact;
    const auto name = input::modinfo_value(a, "name");
    const auto depends = input::modinfo_value(a, "depends");
    const auto* btf = a.section(".BTF");
    if (!name || (depends && !depends->empty()) || !btf || btf->data.empty() || a.section(".BTF_ids")) continue;
    out.push_back({*name, oracle::strip_module_signature({a.content.begin(), a.content.end()}),
                   {btf->data.begin(), btf->data.end()}});
  }
  return out;
}

struct Variant {
  size_t module;
  std::string mutation;
  std::vector<uint8_t> btf;
  std::vector<uint8_t> ko;
};

using VmModuleDifferential = DebianVmTest;

TEST_P(VmModuleDifferential, MutatedModuleBtfVerdictsAgree) {
  const btf::KernelChoice& kernel = kernel_;
  btf::CheckOptions options;
  options.consumer = kModuleLoad;
  options.kernel = btf::KernelProfile(kernel.release);
  options.lints = false;
  const auto vmlinux = vmlinux_btf(options);
  ASSERT_TRUE(vmlinux.btf.btf);

  // Boot 1: which candidates load, keep their BTF, and unload again.
  std::vector<Module> modules = candidates(tree_.modules, 160);
  ASSERT_GE(modules.size(), 40u);
  std::vector<oracle::VmModule> plain;
  for (const auto& m : modules) plain.push_back({m.name, m.bytes});
  const oracle::VmRun first = vm_.run(tree_.vmlinuz.string(), {}, plain);
  ASSERT_EQ(first.error, "");
  std::vector<size_t> usable;
  for (size_t i = 0; i < modules.size(); ++i)
    if (first.modules[i].loaded && first.modules[i].btf_accepted && first.modules[i].unloaded) usable.push_back(i);
  std::cout << "  " << usable.size() << " of " << modules.size()
            << " dependency-free modules load, keep their BTF and unload under Linux " << kernel.release.str() << "\n";
  ASSERT_GE(usable.size(), 20u);

  // Boot 2: mutated variants, 340 in all (a module that a variant before it
  // left loaded cannot be loaded again; those few are not compared).
  synth::Rng rng(7100 + kernel.release.minor);
  std::vector<Variant> variants;
  for (size_t k = 0; variants.size() < 340; ++k) {
    const size_t i = usable[k % usable.size()];
    NullSink discard;
    btf::Findings findings(btf::CheckContext{}, discard);
    auto parsed = btf::parse(modules[i].btf, btf::ParseOptions{vmlinux.btf.btf.get(), false}, findings);
    if (!parsed || !parsed->types_complete()) continue;
    const auto builder = synth::builder_from(*parsed);
    const auto m = static_cast<synth::Mutation>(rng() % synth::kMutationCount);
    Variant v{i, std::string(synth::mutation_name(m)), synth::mutate(builder, rng, m), {}};
    auto ko = synth::replace_section(modules[i].bytes, ".BTF", v.btf);
    ASSERT_TRUE(ko);
    v.ko = std::move(*ko);
    variants.push_back(std::move(v));
  }
  std::vector<oracle::VmModule> loads;
  for (const auto& v : variants) loads.push_back({modules[v.module].name, v.ko});
  const oracle::VmRun run = vm_.run(tree_.vmlinuz.string(), {}, loads);
  ASSERT_EQ(run.error, "");

  const bool mismatch_allowed = allows_btf_mismatch();
  size_t accepted = 0, compared = 0;
  std::vector<std::string> disagreements;
  const fs::path dump_dir = fs::temp_directory_path() / ("elfmeta-vm-modules-" + kernel.release.str());
  for (size_t j = 0; j < variants.size(); ++j) {
    const auto& theirs = run.modules[j];
    ASSERT_TRUE(theirs.answered) << "no verdict for variant " << j;
    if (!theirs.loaded && theirs.error == EEXIST) continue;
    // Debian's 6.1 and 6.12 allow BTF mismatches: the module loads whatever
    // its BTF, and keeps the BTF only if accepted. Sid's 7.2 does not: a
    // refused BTF fails the load (with the verifier's errno).
    if (mismatch_allowed) {
      ASSERT_TRUE(theirs.loaded) << modules[variants[j].module].name << ": errno " << theirs.error;
    }
    const bool kept = theirs.loaded && theirs.btf_accepted;
    ++compared;
    accepted += kept;
    auto opened = input::open_bytes(modules[variants[j].module].name + ".ko", variants[j].ko);
    ASSERT_TRUE(opened.artifact) << opened.error;
    DiagnosticList list;
    const auto ours = btf::check_artifact_btf(*opened.artifact, &vmlinux.btf, options, list);
    const bool we_accept = ours.checked && list.count(Severity::Error) == 0;
    if (we_accept == kept) continue;
    fs::create_directories(dump_dir);
    const fs::path path = dump_dir / (std::to_string(j) + "-" + modules[variants[j].module].name + ".ko");
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(variants[j].ko.data()), static_cast<std::streamsize>(variants[j].ko.size()));
    std::ostringstream first;
    for (const auto& d : list.items())
      if (d.severity == Severity::Error) {
        write_text(first, d);
        break;
      }
    disagreements.push_back(path.string() + " (" + variants[j].mutation + "): Linux " + kernel.release.str() +
                            (kept ? " keeps" : theirs.loaded ? " drops" : " refuses (errno " + std::to_string(theirs.error) + ")") +
                            " the BTF [" + theirs.messages +
                            "]; elfmeta: " + (we_accept ? "accepts" : first.str()));
  }
  std::cout << "  " << compared << " mutated modules in one boot (" << run.seconds << " s): Linux "
            << kernel.release.str() << " kept the BTF of " << accepted << ", " << disagreements.size()
            << " disagreements\n";
  EXPECT_GE(compared, 300u);
  EXPECT_GE(accepted, compared / 10);
  EXPECT_GE(compared - accepted, compared / 10);
  for (size_t i = 0; i < disagreements.size() && i < 25; ++i) ADD_FAILURE() << disagreements[i];
  EXPECT_EQ(disagreements.size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Debian, VmModuleDifferential, ::testing::Values("debian-6.1", "debian-6.12", "sid-7.2"),
                         debian_vm_name);

}  // namespace
}  // namespace elfmeta::testing
