// The libbpf differential (tests/btf/libbpf_differential.h) against sid's
// libbpf (1.7 today): Debian's source package at the sid root's version,
// compiled here into a shared object by tools/sid-libbpf-source (the
// sid_libbpf fixture) and loaded with dlopen, so that its symbols never meet
// those of bookworm's libbpf 1.1, which the other differential links.
// `--libbpf X.Y`, X.Y the loaded release, must give its btf__new() verdicts.
// The same for the libbpf bpftool carries (1.8 in sid's bpftool 7.8, built
// from the kernel's tools/lib/bpf): `bpftool btf dump file` in the sid root,
// which parses a raw blob with the same checks as btf__new().
#include <dlfcn.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <cstdarg>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "btf/libbpf_model.h"
#include "tests/btf/libbpf_differential.h"
#include "tests/support/toolchain_root.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

// The entry points used, looked up in the loaded library (libbpf's own
// signatures, with the opaque types as void).
struct LoadedLibbpf {
  void* handle = nullptr;
  std::string path, version, why;
  void* (*btf_new)(const void*, uint32_t) = nullptr;
  void (*btf_free)(void*) = nullptr;
  long (*get_error)(const void*) = nullptr;
  uint32_t (*major)() = nullptr;
  uint32_t (*minor)() = nullptr;
  void* (*set_print)(int (*)(int, const char*, va_list)) = nullptr;
};

int quiet(int, const char*, va_list) { return 0; }

// "name: value" of the tool's output.
std::string field(const std::string& output, const std::string& name) {
  const size_t at = output.rfind(name + ": ");
  if (at == std::string::npos) return "";
  const size_t end = output.find('\n', at);
  return output.substr(at + name.size() + 2, end == std::string::npos ? std::string::npos : end - at - name.size() - 2);
}

const LoadedLibbpf& sid_libbpf() {
  static const LoadedLibbpf lib = [] {
    LoadedLibbpf l;
    const CommandResult r =
        run_command(shell_quote((source_dir() / "tools" / "sid-libbpf-source").string()) + " library");
    if (r.status != 0) {
      l.why = r.output.empty() ? "exit status " + std::to_string(r.status) : r.output;
      while (!l.why.empty() && l.why.back() == '\n') l.why.pop_back();
      l.why = l.why.substr(l.why.rfind('\n') + 1);
      return l;
    }
    std::printf("tools/sid-libbpf-source library:\n%s", r.output.c_str());
    l.path = field(r.output, "library");
    const std::string source = field(r.output, "libbpf");
    l.version = source.substr(source.rfind('(') + 1);
    if (!l.version.empty()) l.version.pop_back();
    l.handle = ::dlopen(l.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!l.handle) {
      l.why = std::string("dlopen: ") + ::dlerror();
      return l;
    }
    l.btf_new = reinterpret_cast<decltype(l.btf_new)>(::dlsym(l.handle, "btf__new"));
    l.btf_free = reinterpret_cast<decltype(l.btf_free)>(::dlsym(l.handle, "btf__free"));
    l.get_error = reinterpret_cast<decltype(l.get_error)>(::dlsym(l.handle, "libbpf_get_error"));
    l.major = reinterpret_cast<decltype(l.major)>(::dlsym(l.handle, "libbpf_major_version"));
    l.minor = reinterpret_cast<decltype(l.minor)>(::dlsym(l.handle, "libbpf_minor_version"));
    l.set_print = reinterpret_cast<decltype(l.set_print)>(::dlsym(l.handle, "libbpf_set_print"));
    if (!l.btf_new || !l.btf_free || !l.get_error || !l.major || !l.minor || !l.set_print)
      l.why = l.path + " lacks libbpf's entry points";
    return l;
  }();
  return lib;
}

TEST(LibbpfSidDifferential, VerdictsAgreeWithSidsLibbpf) {
  const LoadedLibbpf& lib = sid_libbpf();
  ELFMETA_REQUIRE_INSTALLED(lib.why.empty(), "tools/sid-libbpf-source library: " + lib.why);
  lib.set_print(quiet);
  const btf::Release release{static_cast<uint16_t>(lib.major()), static_cast<uint16_t>(lib.minor())};
  // The release the library says is the one of the source package it was built from.
  EXPECT_TRUE(lib.version.starts_with(release.str() + ".")) << lib.version << " vs " << release.str();
  // A release bookworm's libbpf is not: this differential adds one.
  EXPECT_GT(release, (btf::Release{1, 1}));
  ASSERT_GE(release, btf::kOldestLibbpf);
  ASSERT_LE(release, btf::kNewestLibbpf);
  // btf__new is the loaded library's, not another libbpf's of the process.
  Dl_info info{};
  ASSERT_NE(::dladdr(reinterpret_cast<void*>(lib.btf_new), &info), 0);
  EXPECT_EQ(std::string(info.dli_fname), lib.path);

  const auto accepts = [&lib](const std::vector<uint8_t>& blob) {
    void* b = lib.btf_new(blob.data(), static_cast<uint32_t>(blob.size()));
    if (!b || lib.get_error(b)) return false;
    lib.btf_free(b);
    return true;
  };
  const std::vector<Sample> samples = libbpf_differential_samples();
  ASSERT_GE(samples.size(), 3000u);
  const LibbpfDifferential d = run_libbpf_differential(samples, release, accepts);
  expect_no_disagreement(d);

  // The corpus tells this release from bookworm's: on some blobs the model's
  // verdicts for the two differ, and libbpf agreed with this release's.
  size_t differ = 0;
  for (const Sample& s : samples) differ += model_accepts(s.blob, release) != model_accepts(s.blob, {1, 1});
  std::cout << "  " << differ << " blobs where --libbpf " << release.str() << " and --libbpf 1.1 differ\n";
  EXPECT_GT(differ, 0u);
}

// "bpftool v7.8.0; using libbpf v1.8; ..." of the root's versions: 1.8.
std::optional<btf::Release> bpftool_libbpf(const std::string& versions) {
  std::smatch m;
  if (!std::regex_search(versions, m, std::regex("bpftool:.*using libbpf v([0-9]+)\\.([0-9]+)"))) return std::nullopt;
  return btf::Release{static_cast<uint16_t>(std::stoi(m[1])), static_cast<uint16_t>(std::stoi(m[2]))};
}

TEST(LibbpfSidDifferential, VerdictsAgreeWithBpftoolsLibbpf) {
  ELFMETA_REQUIRE_TOOLCHAIN_ROOT();
  const std::optional<btf::Release> release = bpftool_libbpf(SidData::root().versions);
  ASSERT_TRUE(release) << "no bpftool libbpf version in:\n" << SidData::root().versions;
  ASSERT_GE(*release, btf::kOldestLibbpf);
  ASSERT_LE(*release, btf::kNewestLibbpf);

  // Every blob a file; one run of the root's bpftool over all of them.
  const std::vector<Sample> samples = libbpf_differential_samples();
  ASSERT_GE(samples.size(), 3000u);
  const fs::path dir = fs::temp_directory_path() / ("elfmeta-bpftool-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (size_t i = 0; i < samples.size(); ++i) {
    std::ofstream out(dir / (std::to_string(i) + ".btf"), std::ios::binary);
    out.write(reinterpret_cast<const char*>(samples[i].blob.data()), static_cast<std::streamsize>(samples[i].blob.size()));
  }
  const CommandResult r = SidData::run(
      "for f in *.btf; do if bpftool btf dump file \"$f\" format raw >/dev/null 2>&1; then echo \"$f 1\"; "
      "else echo \"$f 0\"; fi; done",
      dir);
  fs::remove_all(dir);
  ASSERT_EQ(r.status, 0) << r.output.substr(0, 2000);
  std::vector<int> verdicts(samples.size(), -1);
  std::istringstream lines(r.output);
  for (std::string name; lines >> name;) {
    int v = -1;
    lines >> v;
    const size_t i = std::stoul(name);
    if (i < verdicts.size()) verdicts[i] = v;
  }
  for (size_t i = 0; i < verdicts.size(); ++i) ASSERT_NE(verdicts[i], -1) << "no bpftool verdict on " << i;

  std::map<const std::vector<uint8_t>*, bool> verdict_of;
  for (size_t i = 0; i < samples.size(); ++i) verdict_of[&samples[i].blob] = verdicts[i] == 1;
  const auto accepts = [&verdict_of](const std::vector<uint8_t>& blob) { return verdict_of.at(&blob); };
  expect_no_disagreement(run_libbpf_differential(samples, *release, accepts));

  // The corpus tells this release from the one before it (1.8 from 1.7).
  const btf::Release before{release->major, static_cast<uint16_t>(release->minor - 1)};
  size_t differ = 0;
  for (const Sample& s : samples) differ += model_accepts(s.blob, *release) != model_accepts(s.blob, before);
  std::cout << "  " << differ << " blobs where --libbpf " << release->str() << " and --libbpf " << before.str()
            << " differ\n";
  EXPECT_GT(differ, 0u);
}

}  // namespace
}  // namespace elfmeta::testing
