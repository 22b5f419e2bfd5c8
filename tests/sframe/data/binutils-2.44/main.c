int use_alloca(int n);
int main(int argc, char **argv) { (void)argv; return use_alloca(argc + 10) & 0x7f; }
