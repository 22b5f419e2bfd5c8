# outermost-x86_64.s for s390x: .cfi_undefined 14 (r14, the return
# address column) marks the outermost frame, from the start (_start) and
# after an instruction (late).
	.text
	.globl	_start
	.type	_start, @function
_start:
	.cfi_startproc
	.cfi_undefined 14
	lghi	%r11,0
	brasl	%r14,framed
	brasl	%r14,late
	j	.
	.cfi_endproc
	.size	_start, .-_start

	.globl	framed
	.type	framed, @function
framed:
	.cfi_startproc
	stmg	%r11,%r15,88(%r15)
	.cfi_offset 11, -72
	.cfi_offset 14, -48
	.cfi_offset 15, -40
	lmg	%r11,%r15,88(%r15)
	.cfi_restore 15
	.cfi_restore 14
	.cfi_restore 11
	br	%r14
	.cfi_endproc
	.size	framed, .-framed

	.globl	late
	.type	late, @function
late:
	.cfi_startproc
	nopr
	.cfi_undefined 14
	lghi	%r11,0
	j	.
	.cfi_endproc
	.size	late, .-late
	.section	.note.GNU-stack,"",@progbits
