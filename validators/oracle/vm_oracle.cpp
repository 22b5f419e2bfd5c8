#include "oracle/vm_oracle.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "input/debian_package.h"
#include "input/kernel_package.h"
#include "oracle/cpio.h"

namespace elfmeta::oracle {
namespace {

namespace fs = std::filesystem;

bool executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

std::string find_in_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (executable(dir + "/" + program)) return dir + "/" + program;
  return "";
}

std::vector<uint8_t> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// KVM is used when /dev/kvm can be opened, unless a boot showed that it
// does not work here (nested virtualisation without the MSRs the guest
// needs: the guest stalls). That is remembered for the rest of this host
// boot in the cache, so that only the first run pays for finding out.
// ELFMETA_VM_ACCEL=tcg or kvm overrides both.
std::atomic<bool> kvm_broken{false};

std::string kvm_marker_path() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (cache && *cache) return std::string(cache) + "/elfmeta/kvm-unusable";
  if (home && *home) return std::string(home) + "/.cache/elfmeta/kvm-unusable";
  return "";
}

std::string host_boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return id;
}

bool kvm_usable() {
  if (const char* accel = std::getenv("ELFMETA_VM_ACCEL")) return std::string_view(accel) == "kvm";
  if (kvm_broken || ::access("/dev/kvm", R_OK | W_OK) != 0) return false;
  const std::string marker = kvm_marker_path();
  if (marker.empty()) return true;
  std::ifstream in(marker);
  std::string id;
  std::getline(in, id);
  return id.empty() || id != host_boot_id();
}

void remember_kvm_broken() {
  kvm_broken = true;
  const std::string marker = kvm_marker_path();
  if (marker.empty()) return;
  std::error_code ec;
  fs::create_directories(fs::path(marker).parent_path(), ec);
  std::ofstream(marker) << host_boot_id() << "\n";
}

struct Process {
  int status = -1;
  std::string output;
  bool timed_out = false;
};

// `startup`: how long the guest may take to print its first line.
Process run_qemu(const std::vector<std::string>& args, std::chrono::seconds timeout, std::chrono::seconds startup) {
  Process p;
  int pipefd[2];
  if (::pipe(pipefd) != 0) return p;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(pipefd[1], 1);
    ::dup2(pipefd[1], 2);
    ::close(pipefd[0]);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(pipefd[1]);
  const auto begin = std::chrono::steady_clock::now();
  const auto deadline = begin + timeout;
  char buf[65536];
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    if (left.count() <= 0 || (now - begin > startup && p.output.find("ELFMETA START") == std::string::npos)) {
      p.timed_out = true;
      break;
    }
    pollfd pfd{pipefd[0], POLLIN, 0};
    if (::poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000))) < 0) break;
    if (pfd.revents & (POLLIN | POLLHUP)) {
      const ssize_t n = ::read(pipefd[0], buf, sizeof buf);
      if (n <= 0) break;
      p.output.append(buf, static_cast<size_t>(n));
      // A KVM that cannot run this guest stalls instead of exiting.
      if (p.output.find("KVM internal error") != std::string::npos ||
          p.output.find("failed to set MSR") != std::string::npos) {
        p.timed_out = true;
        break;
      }
    }
  }
  if (p.timed_out) ::kill(pid, SIGKILL);
  ::close(pipefd[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  p.status = status;
  return p;
}

void parse_verdicts(const std::string& output, VmRun& run) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    const size_t at = line.find("ELFMETA ");
    if (at == std::string::npos) continue;
    std::istringstream words(line.substr(at + 8));
    std::string what, verdict;
    size_t index = 0;
    words >> what;
    if (what != "BLOB" && what != "MODULE") continue;
    words >> index >> verdict;
    std::string rest;
    std::getline(words, rest);
    while (!rest.empty() && (rest.back() == '\r' || rest.back() == ' ')) rest.pop_back();
    if (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
    if (what == "BLOB" && index < run.blobs.size()) {
      VmBlobVerdict& v = run.blobs[index];
      v.answered = true;
      v.accepted = verdict == "OK";
      if (!v.accepted) {
        std::istringstream r(rest);
        r >> v.error;
        std::getline(r, v.reason);
        if (!v.reason.empty() && v.reason.front() == ' ') v.reason.erase(0, 1);
      }
    } else if (what == "MODULE" && index < run.modules.size()) {
      VmModuleVerdict& v = run.modules[index];
      v.answered = true;
      v.loaded = verdict == "OK";
      std::istringstream r(rest);
      int number = 0;
      r >> number;
      if (v.loaded) {
        v.btf_accepted = number == 1;
        r >> number;
        v.unloaded = number == 1;
      } else {
        v.error = number;
      }
      std::getline(r, v.messages);
      if (!v.messages.empty() && v.messages.front() == ' ') v.messages.erase(0, 1);
    }
  }
}

// A file that holds `bytes` until it goes out of scope.
struct TempFile {
  std::string path;
  explicit TempFile(std::span<const uint8_t> bytes) {
    char name[] = "/tmp/elfmeta-vm-XXXXXX";
    const int fd = ::mkstemp(name);
    if (fd < 0) return;
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    ::close(fd);
    if (done == bytes.size())
      path = name;
    else
      ::unlink(name);
  }
  ~TempFile() {
    if (!path.empty()) ::unlink(path.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

}  // namespace

std::optional<std::vector<uint8_t>> kernel_from_package(const std::string& deb, std::string& error) {
  auto files = input::read_debian_package(deb, input::is_kernel_image_path, error);
  if (!files) return std::nullopt;
  if (files->empty()) {
    // 6.19+: linux-image-VER depends on linux-binary-VER, which has it.
    std::string no_control;
    const auto id = input::identify_kernel_package(deb, no_control);
    const std::string image = id ? input::companion_package(*id, input::KernelPackageKind::Binary) : "";
    error = deb + ": the package has no kernel image (boot/vmlinuz-* or usr/lib/modules/*/vmlinuz)" +
            (!image.empty() && image != id->package ? "; it is in " + image : "");
    return std::nullopt;
  }
  return std::move(files->front().bytes);
}

std::string default_vm_init_path() {
  if (const char* env = std::getenv("ELFMETA_VM_INIT")) return env;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "elfmeta-vm-init";
  for (const fs::path& candidate : {self.parent_path() / "elfmeta-vm-init", self.parent_path().parent_path() / "elfmeta-vm-init"})
    if (fs::exists(candidate)) return candidate.string();
  return (self.parent_path() / "elfmeta-vm-init").string();
}

bool VmOracle::available(std::string* why) const {
  if (find_in_path("qemu-system-x86_64").empty()) {
    if (why) *why = "qemu-system-x86_64 is not installed (Debian package qemu-system-x86)";
    return false;
  }
  if (!executable(init_path_)) {
    if (why) *why = "the VM init program " + init_path_ + " is missing (it is built with elfmeta)";
    return false;
  }
  return true;
}

std::vector<uint8_t> strip_module_signature(std::vector<uint8_t> ko) {
  static constexpr char kMagic[] = "~Module signature appended~\n";
  constexpr size_t kMagicLen = sizeof(kMagic) - 1, kSigInfo = 12;
  if (ko.size() < kMagicLen + kSigInfo || std::memcmp(ko.data() + ko.size() - kMagicLen, kMagic, kMagicLen) != 0)
    return ko;
  const uint8_t* info = ko.data() + ko.size() - kMagicLen - kSigInfo;
  const uint32_t sig_len = uint32_t(info[8]) << 24 | uint32_t(info[9]) << 16 | uint32_t(info[10]) << 8 | info[11];
  const size_t appended = kMagicLen + kSigInfo + sig_len;
  if (appended <= ko.size()) ko.resize(ko.size() - appended);
  return ko;
}

VmRun VmOracle::run(const std::string& kernel, const std::vector<std::vector<uint8_t>>& blobs,
                    const std::vector<VmModule>& modules) const {
  VmRun run;
  run.blobs.resize(blobs.size());
  run.modules.resize(modules.size());
  std::string why;
  if (!available(&why)) {
    run.error = why;
    return run;
  }
  if (!fs::exists(kernel)) {
    run.error = kernel + ": no such kernel image";
    return run;
  }
  std::optional<TempFile> unpacked;
  std::string kernel_path = kernel;
  if (input::is_debian_package_file(kernel)) {
    auto image = kernel_from_package(kernel, run.error);
    if (!image) return run;
    unpacked.emplace(*image);
    if (unpacked->path.empty()) {
      run.error = "cannot write the kernel image to /tmp";
      return run;
    }
    kernel_path = unpacked->path;
  }
  CpioWriter cpio;
  for (const char* dir : {"proc", "sys", "dev", "blobs", "modules"}) cpio.directory(dir);
  const auto init = read_all(init_path_);
  cpio.file("init", init, 0755);
  for (size_t i = 0; i < blobs.size(); ++i) cpio.file("blobs/" + std::to_string(i) + ".btf", blobs[i]);
  for (size_t i = 0; i < modules.size(); ++i)
    cpio.file("modules/" + std::to_string(i) + "." + modules[i].name + ".ko", modules[i].bytes);
  const auto archive = cpio.finish();

  const TempFile initrd(archive);
  if (initrd.path.empty()) {
    run.error = "cannot write the initramfs to /tmp";
    return run;
  }

  const size_t memory_mb = 512 + archive.size() / (1 << 20) * 2;
  const auto timeout = std::chrono::seconds(90 + blobs.size() / 50 + modules.size() * 2);
  const bool try_kvm = kvm_usable();
  const auto start = std::chrono::steady_clock::now();
  for (const bool kvm : {true, false}) {
    if (kvm && !try_kvm) continue;
    std::vector<std::string> args = {find_in_path("qemu-system-x86_64"),
                                     "-accel", kvm ? "kvm" : "tcg",
                                     "-m", std::to_string(memory_mb),
                                     "-kernel", kernel_path,
                                     "-initrd", initrd.path,
                                     "-append", "console=ttyS0 loglevel=1 panic=-1 rdinit=/init",
                                     "-nographic", "-no-reboot", "-nodefaults", "-serial", "stdio"};
    // A guest boots in a few seconds under TCG; a KVM that cannot run it
    // here (nested virtualisation) stalls, so give KVM little time to start.
    const Process p = run_qemu(args, timeout, std::chrono::seconds(kvm ? 15 : 60));
    run.accel = kvm ? "kvm" : "tcg";
    if (kvm && p.output.find("ELFMETA START") == std::string::npos) {
      remember_kvm_broken();  // and try again without it
      continue;
    }
    parse_verdicts(p.output, run);
    if (p.output.find("ELFMETA DONE") == std::string::npos)
      run.error = std::string(p.timed_out ? "the VM timed out" : "the VM stopped early") + "; last output: " +
                  p.output.substr(p.output.size() > 400 ? p.output.size() - 400 : 0);
    break;
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace elfmeta::oracle
