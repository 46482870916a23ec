// SPDX-License-Identifier: GPL-2.0
/*
 * probe.bpf.c - one trivial program per attach type. The loader loads them
 * one at a time to learn what this kernel (and its lockdown mode) allows:
 * on lockdown=integrity kernels fentry/fexit/lsm fail with EPERM before the
 * verifier even runs, and kprobes may not be compiled in at all.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tracepoint/syscalls/sys_enter_setns")
int probe_tracepoint(void *ctx)
{
	return 0;
}

SEC("raw_tp/sched_process_fork")
int probe_raw_tp(void *ctx)
{
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(probe_tp_btf, struct task_struct *parent, struct task_struct *child)
{
	return 0;
}

SEC("fentry/switch_task_namespaces")
int BPF_PROG(probe_fentry)
{
	return 0;
}

SEC("lsm/file_open")
int BPF_PROG(probe_lsm, struct file *file)
{
	return 0;
}

SEC("iter/task")
int probe_iter_task(struct bpf_iter__task *ctx)
{
	return 0;
}

SEC("iter/task_file")
int probe_iter_task_file(struct bpf_iter__task_file *ctx)
{
	return 0;
}
