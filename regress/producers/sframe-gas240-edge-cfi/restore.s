# .cfi_restore as a function's first CFI (PR gas/33170): gas 2.40 stops with
# "Internal error in sframe_xlate_do_restore" (no initial row exists yet).
	.text
	.globl	restore_first
	.type	restore_first, @function
restore_first:
	.cfi_startproc
	.cfi_restore 6
	nop
	ret
	.cfi_endproc
	.size	restore_first, .-restore_first

	.section	.note.GNU-stack,"",@progbits
