/* Functions whose sections sort by name in the opposite order of the source:
 * objtool writes ORC in source order; a link that reorders the text
 * (here ld --sort-section=name, like FGKASLR's shuffle) leaves the table
 * unsorted unless something re-sorts it (sorttable, at build time since 5.6). */
__attribute__((noinline)) int z_first(int x) { return x * 3 + 1; }
__attribute__((noinline)) int m_second(int x) { return z_first(x) ^ 5; }
__attribute__((noinline)) int a_third(int x) { return m_second(x) + z_first(x + 1); }
