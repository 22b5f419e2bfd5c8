# A CFI row at the function's last byte: FRE start == function size
# (PR libsframe/33131), as gas 2.40 and ld 2.40 write it.
	.text
	.globl	row_at_end
	.type	row_at_end, @function
row_at_end:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_def_cfa_offset 16
	.cfi_endproc
	.size	row_at_end, .-row_at_end
	.section	.note.GNU-stack,"",@progbits
