# CFI that gas 2.40 encodes wrongly in SFrame, without a warning:
# a CFA in r10 becomes "sp+0" (../shared/spec/sframe.md §3.2), and an empty
# function gets a size-0 FDE at the start of the next one (§3.3).
	.text
	.globl	cfa_in_r10
	.type	cfa_in_r10, @function
cfa_in_r10:
	.cfi_startproc
	leaq	8(%rsp), %r10
	.cfi_def_cfa 10, 0
	nop
	.cfi_def_cfa 7, 8
	ret
	.cfi_endproc
	.size	cfa_in_r10, .-cfa_in_r10

	.globl	empty
	.type	empty, @function
empty:
	.cfi_startproc
	.cfi_endproc
	.size	empty, .-empty

	.globl	after_empty
	.type	after_empty, @function
after_empty:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	after_empty, .-after_empty
	.section	.note.GNU-stack,"",@progbits
