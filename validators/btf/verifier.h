// Entry point of the BTF verifier: parse, then the kernel's passes in the
// kernel's order (records, references, type tags, special fields), then lints.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "btf/btf.h"
#include "btf/kernel_profile.h"
#include "btf/resolve.h"
#include "core/diagnostic.h"

namespace elfmeta::btf {

struct CheckOptions {
  Consumer consumer = kBpfBtfLoad;
  // The release whose rules apply.
  KernelProfile kernel;
  // With consumer kLibbpf: the libbpf release whose checks decide.
  Release libbpf{1, 8};
  bool lints = true;
  // Judge a byte-swapped blob as the running kernel would (Invalid magic).
  bool assume_host_order = false;
  // The target kernel's own BTF (vmlinux), when known: BPF_BTF_LOAD looks
  // kptr targets up in it (BTF-FIELD-021).
  const Btf* kernel_btf = nullptr;
  // Use a second core for large blobs (the findings are the same either way).
  bool concurrent = true;
  // With `concurrent`: small blobs too, down to one type (tests and fuzzers
  // compare the findings with a check on one core).
  bool concurrent_always = false;
  // Let the common clean records and FUNCs skip the full per-record and
  // resolve steps (the findings are the same either way; tests compare).
  bool shortcuts = true;
};

// A checked blob. Heap-held so that split BTF and resolve state can point
// into it.
struct CheckedBtf {
  std::unique_ptr<Btf> btf;               // null when the header could not be read
  std::unique_ptr<ResolveState> resolve;  // null when the reference pass did not run
  size_t errors = 0;
};

// Check one blob; `base` is the checked base of split BTF (its findings are
// not repeated). btf_parse() (BPF_BTF_LOAD) or btf_parse_base()/
// btf_parse_module() (kernel BTF, consumer module-load): parse.cpp,
// check_records.cpp, resolve.cpp, type_tags.cpp, special_fields.cpp in the
// kernel's order (see check_sequentially()), then lints.cpp; with consumer
// libbpf, libbpf_model.cpp first. Reports what those passes report (each
// function's comment lists its rules).
CheckedBtf check_btf(std::span<const uint8_t> data, const CheckedBtf* base, const CheckOptions& options,
                     const std::string& artifact, const std::string& section, DiagnosticSink& sink);

// The kernel's accept/reject verdict for BPF_BTF_LOAD of `data` on this
// (host-order) machine: no finding of a rule bpf-load enforces.
bool bpf_load_accepts(std::span<const uint8_t> data);

}  // namespace elfmeta::btf
