// The blobs elfmeta's verdicts are compared on with real kernels: random type
// graphs valid for the target release and for the newest one, special-field
// graphs, type-closed samples of a real vmlinux BTF, four single mutations of
// each, the trigger and twin of every rule case, and the shapes whose verdict
// changed between releases.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "btf/btf.h"
#include "btf/kernel_profile.h"
#include "btf/verifier.h"

namespace elfmeta::testing {

struct Sample {
  std::string source;  // "random graph + ByteFlip", "rule case BTF-VER-011", ...
  std::vector<uint8_t> blob;
};

struct CorpusSpec {
  uint64_t seed = 20261122;
  btf::Release kernel = btf::kDefaultRelease;  // the release judging the blobs
  size_t graphs = 1000;                        // half valid for `kernel`, half for the newest release
  size_t special_field_graphs = 600;
  size_t vmlinux_samples = 300;
  const btf::Btf* vmlinux = nullptr;           // source of the samples
  bool rule_cases = true;
  bool release_shapes = true;  // tests/btf/release_shapes.h
};

std::vector<Sample> differential_corpus(const CorpusSpec& spec);

// The running kernel's BTF, checked once per process (nothing where
// /sys/kernel/btf/vmlinux is absent): the usual source of vmlinux samples.
// Its model points into the bytes read, which live as long.
const btf::CheckedBtf& running_kernel_btf();

// elfmeta's accept/reject verdict on a blob, as the kernel of `options` would
// give it (lints off, the blob in host order).
struct Verdict {
  bool accepts = false;
  bool undecidable = false;  // hinges on the kernel's destructor list (BTF-FIELD-021)
  std::string reason;        // "accepted", or the first error
};
Verdict verdict_of(const std::vector<uint8_t>& blob, btf::CheckOptions options);

// The part of a sample's source before its mutation, for per-source counts.
std::string source_family(const std::string& source);

}  // namespace elfmeta::testing
