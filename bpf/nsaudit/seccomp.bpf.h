/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seccomp.bpf.h - calls a seccomp filter refused.
 *
 * A filter that returns SECCOMP_RET_ERRNO (docker's default profile does
 * for unshare, mount, umount2, setns ... in a container
 * without CAP_SYS_ADMIN; systemd's SystemCallFilter=, bubblewrap and
 * firejail install such filters too) makes syscall_trace_enter() skip the
 * call before the sys_enter tracepoint: the entry hook never runs. The
 * sys_exit tracepoint still fires, with the errno, the syscall's number in
 * orig_ax and its arguments in the saved user registers. An exit hook that
 * finds no pending entry asks seccomp_refused(); if so it makes the
 * record from the registers, marked NSAUDIT_F_SECCOMP ("refused_by":
 * "seccomp"), coalesced and budgeted as any other refused call.
 */
#ifndef NSAUDIT_SECCOMP_BPF_H
#define NSAUDIT_SECCOMP_BPF_H

/*
 * 1 if the current thread's call nr that failed with ret (< 0) is one its
 * seccomp filter refused: the exit of a call whose entry hook did not run,
 * by a thread under a filter whose action cache does not allow nr whatever
 * the arguments (the kernel computes that cache for every filter; a call
 * it allows always reaches the entry tracepoint). A global subprogram in
 * nsaudit.bpf.c: several parts call it.
 */
int seccomp_refused(long nr, long ret);

#endif
