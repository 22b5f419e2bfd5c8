# A CFA offset that does not fit 32 bits (PR gas/33277): gas 2.40 stops with
# "Fatal error: SFrame unsupported offset value" instead of skipping the FDE.
	.text
	.globl	huge_cfa
	.type	huge_cfa, @function
huge_cfa:
	.cfi_startproc
	nop
	.cfi_def_cfa_offset 0x100000008
	nop
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	huge_cfa, .-huge_cfa

	.section	.note.GNU-stack,"",@progbits
