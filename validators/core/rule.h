// Every check elfmeta performs is a Rule declared once in a per-format table.
// The same tables drive `elfmeta rules`, `elfmeta explain`, docs/rules/ and
// the test that every rule has an input that triggers exactly it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace elfmeta {

enum class Severity : uint8_t { Note, Warning, Error };

std::string_view severity_name(Severity s);

// Who refuses an input that breaks a rule. A finding of a rule the selected
// consumer does not enforce is reported as a warning.
enum Consumer : uint32_t {
  kNoConsumer = 0,
  kBpfBtfLoad = 1u << 0,   // bpf(BPF_BTF_LOAD): the full kernel verifier
  kModuleLoad = 1u << 1,   // kernel parse of vmlinux/module BTF (no resolve pass)
  kLibbpf = 1u << 2,       // libbpf's btf__new (its own, lighter checks)
  kUnwinder = 1u << 3,     // the kernel's ORC unwinder, module loader and sorttable
  kLibsframe = 1u << 4,    // libsframe 2.40's sframe_decode and lookups (readelf, ld)
  kSframeKernel = 1u << 5,  // the kernel's SFrame reader (CONFIG_SFRAME_VALIDATION, version 3)
  // A clang BPF object as libbpf opens and loads it: .BTF after libbpf's
  // fix-up (DATASEC sizes, VAR offsets, extern linkage), then BPF_BTF_LOAD;
  // .BTF.ext as btf_ext__new reads it and BPF_PROG_LOAD checks its records.
  kBpfObject = 1u << 6,
};

std::string_view consumer_name(Consumer c);

struct Rule {
  std::string_view id;           // stable, e.g. "BTF-DATASEC-007"
  Severity severity;             // for the consumers in enforced_by
  uint32_t enforced_by;          // Consumer bits
  std::string_view summary;      // one line
  std::string_view explanation;  // why it matters, what to do
  std::string_view since;        // first kernel/tool release with the behaviour
  // What the refusing consumer logs, "" if nothing: the kernel's message, or
  // libbpf's for a rule only libbpf (and a BPF object's load through it)
  // refuses (log_source).
  std::string_view log;
  // The smallest input that breaks the rule, in words: what its rule case
  // (tests/*/…rule_cases…) builds, e.g. "STRUCT s size 4 { int a at bit 32 }".
  std::string_view trigger;
};

// Whose message a rule's log is: "libbpf" for a rule libbpf refuses and no
// kernel consumer does, "kernel" otherwise.
std::string_view log_source(const Rule& rule);
// "kernel log: \"...\"" or "libbpf log: \"...\"", the note a finding of the
// rule carries; "" for a rule without a log.
std::string log_note(const Rule& rule);

// All rules of all formats, in table order.
std::span<const Rule* const> all_rules();
const Rule* find_rule(std::string_view id);

}  // namespace elfmeta
