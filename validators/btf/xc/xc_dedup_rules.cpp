// XC-DEDUP: what a correct type and string deduplication leaves behind
// (spec btf.md §3.3).
#include <vector>

#include "btf/xc/xc_rules.h"

namespace elfmeta::btf::xc::rules {

const Rule DEDUP_001{"XC-DEDUP-001", Severity::Warning, kNoConsumer, "byte-identical type records",
                     "Two records with the same kind, name, info, size and referenced ids would be merged "
                     "by any correct deduplication; the later one wastes space and splits users of the "
                     "type between two ids.",
                     "pahole 1.16 (libbpf btf__dedup)", "",
                     "[1] int, then two PTRs to int: type 3 is byte-identical to type 2."};
const Rule DEDUP_002{"XC-DEDUP-002", Severity::Warning, kNoConsumer, "structurally identical struct or union",
                     "Two STRUCT/UNION records with the same name whose member graphs are isomorphic "
                     "(equal after following every reference) survived deduplication: code using one id "
                     "does not match code using the other (CO-RE, kfunc argument checks).",
                     "pahole 1.16 (libbpf btf__dedup)", "",
                     "Two copies of STRUCT list { int v; struct list *next }, each pointing at itself."};
const Rule DEDUP_003{"XC-DEDUP-003", Severity::Warning, kNoConsumer,
                     "FWD whose definition is in the same BTF",
                     "Deduplication resolves a forward declaration to the struct or union of the same "
                     "name when there is one; a FWD left beside its definition makes pointers to it "
                     "opaque.",
                     "pahole 1.16 (libbpf btf__dedup)", "",
                     "STRUCT list { int v; struct list *next } and a FWD struct list in the same BTF."};
const Rule DEDUP_004{"XC-DEDUP-004", Severity::Warning, kNoConsumer,
                     "equivalent type records that differ only through duplicated types",
                     "Pointers, qualifiers, typedefs, arrays and prototypes that are not byte-identical "
                     "but equal once structurally identical types are merged: the consequence of a "
                     "duplicated struct (XC-DEDUP-002) further up the graph.",
                     "pahole 1.16 (libbpf btf__dedup)", "",
                     "Two INTs int named by two copies of the string \"int\": equal by content, not by bytes."};
const Rule DEDUP_005{"XC-DEDUP-005", Severity::Warning, kNoConsumer, "duplicate or unreferenced string",
                     "Deduplicated BTF holds each string once, and every string is the name of something. "
                     "Duplicates are warnings; unreferenced strings (left behind by records dropped after "
                     "their names were added, 213 in a 6.18 vmlinux) are notes.",
                     "pahole 1.16 (libbpf btf__dedup)", "",
                     "A string section holding \"int\" twice and an unreferenced \"orphan\"."};
const Rule DEDUP_006{"XC-DEDUP-006", Severity::Warning, kNoConsumer, "split type identical to a base type",
                     "Split BTF deduplicated against its base refers to the base's types; a record "
                     "byte-identical to a base record should have been replaced by the base id.",
                     "pahole 1.19 (module BTF)", "",
                     "Split BTF whose PTR to int repeats base type 2, a PTR to int."};

std::span<const Rule* const> dedup_table() {
  static const std::vector<const Rule*> table{&DEDUP_001, &DEDUP_002, &DEDUP_003, &DEDUP_004, &DEDUP_005, &DEDUP_006};
  return table;
}

}  // namespace elfmeta::btf::xc::rules
