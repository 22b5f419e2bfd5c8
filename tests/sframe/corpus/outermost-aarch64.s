# outermost-x86_64.s for AArch64: .cfi_undefined x30 (the return address
# column) marks the outermost frame, from the start (_start) and after an
# instruction (late).
	.text
	.globl	_start
	.type	_start, %function
_start:
	.cfi_startproc
	.cfi_undefined x30
	mov	x29, #0
	bl	framed
	bl	late
	b	.
	.cfi_endproc
	.size	_start, .-_start

	.globl	framed
	.type	framed, %function
framed:
	.cfi_startproc
	stp	x29, x30, [sp, -16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov	x29, sp
	ldp	x29, x30, [sp], 16
	.cfi_restore 30
	.cfi_restore 29
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	framed, .-framed

	.globl	late
	.type	late, %function
late:
	.cfi_startproc
	nop
	.cfi_undefined x30
	mov	x29, #0
	b	.
	.cfi_endproc
	.size	late, .-late
	.section	.note.GNU-stack,"",@progbits
