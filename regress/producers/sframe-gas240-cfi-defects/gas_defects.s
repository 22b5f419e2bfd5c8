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

# gas 2.40 ignores where .cfi_offset puts the return address (RA stays at
# CFA-8: SFRAME-CFI-003) and .cfi_undefined rip (SFRAME-CFI-004), and
# leaves out a function whose RA is in a register (SFRAME-ELF-007).
	.text
	.globl	ra_elsewhere
	.type	ra_elsewhere, @function
ra_elsewhere:
	.cfi_startproc
	push	%rax
	.cfi_adjust_cfa_offset 8
	.cfi_offset rip, -16
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	ra_elsewhere, .-ra_elsewhere

	.globl	outermost
	.type	outermost, @function
outermost:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	call	ra_elsewhere
	hlt
	.cfi_endproc
	.size	outermost, .-outermost

	.globl	ra_in_rcx
	.type	ra_in_rcx, @function
ra_in_rcx:
	.cfi_startproc
	popq	%rcx
	.cfi_register 16, 2
	.cfi_adjust_cfa_offset -8
	jmp	*%rcx
	.cfi_endproc
	.size	ra_in_rcx, .-ra_in_rcx

# gas 2.40 also leaves out, silently, a function whose CFI starts with
# .cfi_remember_state, one with DW_CFA_GNU_args_size, and one with
# .cfi_val_offset (SFRAME-ELF-007); it accepts .cfi_signal_frame, which
# version 1 cannot say, without a trace.
	.text
	.globl	remember_first
	.type	remember_first, @function
remember_first:
	.cfi_startproc
	.cfi_remember_state
	nop
	.cfi_restore_state
	ret
	.cfi_endproc
	.size	remember_first, .-remember_first

	.globl	args_size
	.type	args_size, @function
args_size:
	.cfi_startproc
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	.cfi_escape 0x2e, 0x10
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	args_size, .-args_size

	.globl	val_offset
	.type	val_offset, @function
val_offset:
	.cfi_startproc
	.cfi_val_offset 6, -16
	ret
	.cfi_endproc
	.size	val_offset, .-val_offset

	.globl	signal_tramp
	.type	signal_tramp, @function
signal_tramp:
	.cfi_startproc
	.cfi_signal_frame
	nop
	ret
	.cfi_endproc
	.size	signal_tramp, .-signal_tramp
	.section	.note.GNU-stack,"",@progbits
