// Real kernels as oracles: boot a kernel image under qemu-system-x86_64 with
// a tiny initramfs whose /init (tools/vm-init) loads every blob with
// bpf(BPF_BTF_LOAD) and every module with finit_module, and read the
// verdicts from the serial console. Many blobs go in one boot.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace elfmeta::oracle {

struct VmBlobVerdict {
  bool answered = false;  // false: the VM did not get to this blob
  bool accepted = false;
  int error = 0;
  std::string reason;  // last line of the verifier log
};

struct VmModule {
  std::string name;  // the module's own name (for /sys/kernel/btf/<name> and unloading)
  std::vector<uint8_t> bytes;
};

struct VmModuleVerdict {
  bool answered = false;
  bool loaded = false;
  int error = 0;
  bool btf_accepted = false;  // /sys/kernel/btf/<name> appeared
  bool unloaded = false;      // removed again (a module without an exit function stays)
  std::string messages;       // the kernel's BPF/BTF log lines while loading
};

struct VmRun {
  std::string error;  // non-empty: the VM could not be run or did not finish
  std::string accel;  // "kvm" or "tcg"
  double seconds = 0;
  std::vector<VmBlobVerdict> blobs;
  std::vector<VmModuleVerdict> modules;
};

class VmOracle {
 public:
  // `init_path`: the static vm-init program built with elfmeta.
  explicit VmOracle(std::string init_path) : init_path_(std::move(init_path)) {}

  // Whether qemu and the init program are here; `why` says what is missing.
  bool available(std::string* why = nullptr) const;

  // Boots `kernel` (a vmlinuz, or a Debian package holding one: linux-image
  // up to 6.18, linux-binary from 6.19) once for all blobs and modules.
  VmRun run(const std::string& kernel, const std::vector<std::vector<uint8_t>>& blobs,
            const std::vector<VmModule>& modules = {}) const;

 private:
  std::string init_path_;
};

// The kernel image of a Debian package: boot/vmlinuz-* of a linux-image or
// 6.19-7.1 linux-binary package, usr/lib/modules/VER/vmlinuz of a 7.2+
// linux-binary package (vmlinuz.unsigned of linux-binary-unsigned).
std::optional<std::vector<uint8_t>> kernel_from_package(const std::string& deb, std::string& error);

// The vm-init program next to the running executable, or $ELFMETA_VM_INIT.
std::string default_vm_init_path();

// A module with its appended signature removed (a modified signed module is
// refused with EKEYREJECTED; an unsigned one loads, tainting the kernel).
std::vector<uint8_t> strip_module_signature(std::vector<uint8_t> ko);

}  // namespace elfmeta::oracle
