#include "core/rule.h"

namespace elfmeta {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Note:
      return "note";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "note";
}

std::string_view consumer_name(Consumer c) {
  switch (c) {
    case kBpfBtfLoad:
      return "bpf-load";
    case kModuleLoad:
      return "module-load";
    case kLibbpf:
      return "libbpf";
    case kUnwinder:
      return "unwinder";
    case kLibsframe:
      return "libsframe";
    case kSframeKernel:
      return "kernel-sframe";
    case kBpfObject:
      return "bpf-object";
    default:
      return "none";
  }
}

std::string_view log_source(const Rule& rule) {
  constexpr uint32_t kKernel = kBpfBtfLoad | kModuleLoad | kUnwinder | kSframeKernel;
  return (rule.enforced_by & kLibbpf) && !(rule.enforced_by & kKernel) ? "libbpf" : "kernel";
}

std::string log_note(const Rule& rule) {
  if (rule.log.empty()) return "";
  return std::string(log_source(rule)) + " log: \"" + std::string(rule.log) + "\"";
}

}  // namespace elfmeta
