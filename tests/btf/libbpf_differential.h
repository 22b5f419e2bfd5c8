// The libbpf differential, shared by every libbpf it runs against (the
// installed bookworm 1.1, linked; sid's 1.7, built from its source and
// loaded): `--libbpf X.Y`, with X.Y the release of the libbpf under test, must
// give btf__new()'s accept/reject verdict on every blob of the differential
// corpus, on the other byte order of every third one, and on the trigger and
// twin of every libbpf-relevant rule case.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "btf/kernel_profile.h"
#include "tests/btf/differential_corpus.h"

namespace elfmeta::testing {

// The blobs: the differential corpus (judged by the running kernel's BTF
// samples where there is one), byte-swapped copies and the rule cases.
std::vector<Sample> libbpf_differential_samples();

// libbpf's verdict on a blob: whether btf__new() returned a BTF object.
using LibbpfAccepts = std::function<bool(const std::vector<uint8_t>& blob)>;

struct LibbpfDifferential {
  size_t blobs = 0, accepted = 0, rejected = 0;
  std::map<std::string, std::pair<size_t, size_t>> per_source;  // family -> (accepted, rejected) by libbpf
  std::vector<std::string> disagreements;  // "source: libbpf X.Y accepts; elfmeta:\nfindings"
};

// Both verdicts on every sample; the counts are printed.
LibbpfDifferential run_libbpf_differential(const std::vector<Sample>& samples, btf::Release release,
                                           const LibbpfAccepts& libbpf_accepts);

// elfmeta's verdict with `--libbpf release`.
bool model_accepts(const std::vector<uint8_t>& blob, btf::Release release);

// A failure per disagreement (the first 20 shown) and none when there is none.
void expect_no_disagreement(const LibbpfDifferential& d);

}  // namespace elfmeta::testing
