// Generators of BTF for differential tests and fuzzing: random type graphs
// over every kind, type-closed samples of real BTF, and single mutations of
// either. Deterministic for a given seed.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "btf/btf.h"
#include "btf/kernel_profile.h"
#include "synth/btf_builder.h"

namespace elfmeta::synth {

using Rng = std::mt19937_64;

// Which words of a record (name_off, info, size/type, payload...) hold type
// ids and which hold name offsets, by the record's kind and vlen.
std::vector<size_t> type_id_words(const std::vector<uint32_t>& record);
std::vector<size_t> name_words(const std::vector<uint32_t>& record);

// A random, well-formed type graph using every kind: scalars, structs and
// unions with natural layout and bitfields, pointers (also forward ones, so
// that cycles go through pointers), qualifier chains, type tags under
// pointers, arrays, functions, variables in sorted data sections, and
// declaration tags. With `shuffle`, ids are permuted afterwards, which keeps
// the graph but exercises the id-order dependent parts of the kernel's checks.
// Only what `kernel` accepts is used (FLOAT from 5.13, tags with kind_flag
// from 6.15, names longer than 128 bytes from 6.1, ...), so the graph is
// valid BTF for that release.
struct GraphOptions {
  bool shuffle = false;
  btf::Release kernel = btf::kNewestRelease;
};
BtfBuilder random_type_graph(Rng& rng, const GraphOptions& options);
inline BtfBuilder random_type_graph(Rng& rng, bool shuffle) { return random_type_graph(rng, GraphOptions{shuffle}); }

// Structs that embed BPF runtime objects (spin locks, list/rbtree roots with
// their "contains:" tags, nodes, refcounts, kptrs, arrays and nested structs
// of them), mostly laid out as the kernel requires and sometimes not, to
// exercise BPF_BTF_LOAD's special-field pass.
BtfBuilder special_fields_graph(Rng& rng);

// `b` (base BTF) without type `id` and without every type that refers to it,
// directly or not; a DATASEC loses the entries of removed variables instead.
// Ids are renumbered. Valid BTF stays valid, which makes this the shrinking
// step of generated graphs.
BtfBuilder remove_type(const BtfBuilder& b, uint32_t id);

// A builder holding every record and the string section of `btf` (base or
// split BTF), so that real BTF can be mutated like generated BTF.
BtfBuilder builder_from(const btf::Btf& btf);

// The types reachable from one random root of `btf`, renumbered from 1 with
// fresh strings; empty if the closure of the chosen root exceeds max_types.
std::optional<BtfBuilder> sample_subgraph(const btf::Btf& btf, Rng& rng, size_t max_types);

enum class Mutation {
  ByteFlip,        // xor one byte anywhere
  FieldOverwrite,  // set one record word to an interesting value
  Truncate,        // cut the blob (keeping or fixing the header)
  SwapRecords,     // exchange two records (ids move)
  DuplicateRecord, // insert a copy of a record
  DeleteRecord,    // drop a record
  HeaderTweak,     // change one header field
  StringFlip,      // change one byte of the string section
};
inline constexpr int kMutationCount = 8;
std::string_view mutation_name(Mutation m);

// One mutation of `original`; returns the mutated blob.
std::vector<uint8_t> mutate(const BtfBuilder& original, Rng& rng, Mutation m);

}  // namespace elfmeta::synth
