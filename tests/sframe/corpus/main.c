int branchy(int x);
int with_alloca(int n);
int realigned(int n);

int main(int argc, char** argv) {
  (void)argv;
  return branchy(argc) + with_alloca(argc) + realigned(argc) > 1000000;
}
