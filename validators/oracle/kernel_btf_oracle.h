// The running kernel as an oracle: load a blob with bpf(BPF_BTF_LOAD) and
// report the kernel's verdict, errno and reason.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace elfmeta::oracle {

struct KernelVerdict {
  bool available = false;  // false: the syscall is not permitted/present here
  bool accepted = false;
  int error = 0;           // errno of the verdict call (log level 0)
  std::string reason;      // last line of the level-1 verifier log, if rejected
  std::string unavailable_reason;
};

// Two calls: log level 0 for the verdict (a log buffer can change the errno
// to ENOSPC), then, if rejected, level 1 with a 16 MiB buffer for the reason.
KernelVerdict kernel_btf_load(std::span<const uint8_t> blob, bool want_reason = true);

// Whether BPF_BTF_LOAD can be used here; `why` says why not.
bool kernel_btf_oracle_available(std::string* why = nullptr);

std::string errno_name(int e);

}  // namespace elfmeta::oracle
