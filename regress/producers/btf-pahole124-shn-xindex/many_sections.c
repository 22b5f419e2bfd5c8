// 66,000 one-byte text sections from gas macros, then a function with DWARF
// in a section of its own whose index needs SHN_XINDEX (as -ffunction-sections kernels get).
asm(".altmacro\n"
    ".macro mksec n\n.section .text.s\\n,\"ax\",@progbits\nnop\n.endm\n"
    ".set i,0\n.rept 66000\nmksec %i\n.set i,i+1\n.endr\n.text\n");

struct item { int key; long value; };

__attribute__((section(".text.last_function"))) long lookup(struct item *it, int key) {
  return it->key == key ? it->value : -1;
}
