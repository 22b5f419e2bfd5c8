/* Nested anonymous structs behind pointers: each level keeps its
   declarator on the shared stack while the next is emitted. */
struct s { struct { struct { struct { struct { struct { struct { struct { struct { int x; } *a; } *b; } *c; } *d; } *e; } *f; } *g; } *h; } v;
