# The outermost frame: .cfi_undefined rip (the return address column) says
# there is no caller, as in crt1.o's _start and a thread's entry. gas 2.40
# ignores it and writes an ordinary frame (SFRAME-CFI-004, in the object as
# in the link); gas 2.47 writes an FRE without data words ("RA undefined").
# `late` turns outermost after its first instruction.
	.text
	.globl	_start
	.type	_start, @function
_start:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	call	framed
	call	late
	hlt
	.cfi_endproc
	.size	_start, .-_start

	.globl	framed
	.type	framed, @function
framed:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register 6
	popq	%rbp
	.cfi_def_cfa 7, 8
	ret
	.cfi_endproc
	.size	framed, .-framed

	.globl	late
	.type	late, @function
late:
	.cfi_startproc
	nop
	.cfi_undefined rip
	xorl	%ebp, %ebp
	hlt
	.cfi_endproc
	.size	late, .-late
	.section	.note.GNU-stack,"",@progbits
