/* The strong definitions of weak.c's variables. */
int counter = 7;
const long limits[4] = {5, 6, 7, 8};
int read_counter(void);
int main(void) { return read_counter(); }
