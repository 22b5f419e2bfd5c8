// BTF-vs-DWARF corpus: _Atomic. pahole 1.24 does not know DW_TAG_atomic_type
// and encodes the members below with type void (type id 0): a real
// disagreement, XC-DW-001 (docs/btf-dwarf.md).
struct with_atomics {
  int plain;
  _Atomic int counter;
  _Atomic(struct with_atomics *) next;
};

struct with_atomics g_with_atomics;
