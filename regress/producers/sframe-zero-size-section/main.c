int branchy(int x);
int with_alloca(int n);
int realigned(int n);
int drap(int n);

int main(int argc, char** argv) {
  (void)argv;
  return branchy(argc) + with_alloca(argc) + realigned(argc) + drap(argc) > 1000000;
}
