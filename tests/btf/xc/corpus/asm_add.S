// BTF-vs-DWARF corpus: an assembler function linked beside C. GNU as -g
// writes a subprogram of DW_TAG_unspecified_type without parameters for it,
// and pahole 1.24 encodes a FUNC of prototype void(void), as it does for the
// kernel's memcpy, __get_user_1 and the other functions of its .S files.
	.text
	.globl	asm_add
	.type	asm_add, @function
asm_add:
	leal	(%rdi,%rsi), %eax
	ret
	.size	asm_add, .-asm_add
	.section .note.GNU-stack,"",@progbits
