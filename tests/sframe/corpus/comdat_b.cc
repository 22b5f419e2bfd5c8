// The second translation unit of comdat_a.cc.
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
Node node_b;
