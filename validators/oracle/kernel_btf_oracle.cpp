#include "oracle/kernel_btf_oracle.h"

#include <linux/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace elfmeta::oracle {
namespace {

int btf_load(std::span<const uint8_t> blob, char* log, uint32_t log_size, uint32_t log_level) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.btf = reinterpret_cast<uint64_t>(blob.data());
  attr.btf_size = static_cast<uint32_t>(blob.size());
  attr.btf_log_buf = reinterpret_cast<uint64_t>(log);
  attr.btf_log_size = log_size;
  attr.btf_log_level = log_level;
  return static_cast<int>(::syscall(__NR_bpf, BPF_BTF_LOAD, &attr, sizeof attr));
}

std::string last_line(const char* log) {
  std::string s(log);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  const auto nl = s.find_last_of('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

}  // namespace

std::string errno_name(int e) {
  switch (e) {
    case 0: return "0";
    case EINVAL: return "EINVAL";
    case E2BIG: return "E2BIG";
    case ENOSPC: return "ENOSPC";
    case EFAULT: return "EFAULT";
    case ENOENT: return "ENOENT";
    case EEXIST: return "EEXIST";
    case ELOOP: return "ELOOP";
    case EPERM: return "EPERM";
    case ENOMEM: return "ENOMEM";
    case 524: return "ENOTSUPP";
    default: return std::to_string(e);
  }
}

KernelVerdict kernel_btf_load(std::span<const uint8_t> blob, bool want_reason) {
  KernelVerdict v;
  if (blob.size() > UINT32_MAX) {
    v.available = true;
    v.error = E2BIG;
    return v;
  }
  int fd = btf_load(blob, nullptr, 0, 0);
  if (fd >= 0) {
    ::close(fd);
    v.available = v.accepted = true;
    return v;
  }
  v.error = errno;
  if (v.error == EPERM || v.error == ENOSYS || v.error == EACCES) {
    v.unavailable_reason = "bpf(BPF_BTF_LOAD) is not permitted here (" + errno_name(v.error) +
                           "): it needs CAP_BPF/root and a kernel with CONFIG_BPF_SYSCALL";
    return v;
  }
  v.available = true;
  if (want_reason) {
    static thread_local std::vector<char> log(16u << 20);
    log[0] = 0;
    fd = btf_load(blob, log.data(), static_cast<uint32_t>(log.size()), 1);
    if (fd >= 0) ::close(fd);
    log.back() = 0;
    v.reason = last_line(log.data());
  }
  return v;
}

bool kernel_btf_oracle_available(std::string* why) {
  // The smallest valid blob: one INT.
  static const uint8_t probe[] = {
      0x9f, 0xeb, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 16, 0, 0, 0, 5, 0, 0, 0,
      1, 0, 0, 0, 0, 0, 0, 1, 4, 0, 0, 0, 32, 0, 0, 0, 0, 'i', 'n', 't', 0};
  KernelVerdict v = kernel_btf_load(probe, false);
  if (!v.available && why) *why = v.unavailable_reason;
  if (v.available && !v.accepted && why) *why = "the probe blob was rejected (" + errno_name(v.error) + ")";
  return v.available && v.accepted;
}

}  // namespace elfmeta::oracle
