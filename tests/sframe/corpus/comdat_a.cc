// Two translation units that both emit the same inline members (COMDAT
// groups, a destructor with its aliases, a part split off as cold): ld -r
// keeps one copy of each group and drops the other, and R_X86_64_NONE takes
// the place of the dropped FDEs' relocations in .rela.sframe (PR ld/33401).
void sink(void *);
struct Holder {
  long value;
  bool ready();
  void flush(long);
  void finish() {
    if (ready()) flush(value);
  }
  ~Holder() { finish(); }
};
struct Node {
  int *owned;
  Holder held;
  char tag;
  virtual ~Node() {
    sink(&tag);
    sink(&tag);
    delete owned;
  }
};
Node node_a;
