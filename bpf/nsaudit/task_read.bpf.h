/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_read.bpf.h - a task pointer to read fields through, at no cost to
 * the verifier.
 *
 * Every pointer loaded off a trusted task (bpf_get_current_task_btf(), an
 * iterator's or tp_btf's task: ->cred, ->nsproxy, ->files, ->mm,
 * ->bpf_storage ...) makes 6.18's verifier look up the field's type by
 * name in all of the kernel's BTF (btf_nested_type_is_trusted: up to four
 * linear scans of ~126,000 types), at every walk that reaches the load:
 * ~180 such loads were ~36 % of a start's CPU after fill_actor's were
 * gone. Off bpf_rdonly_cast()'s pointer, none: the verifier holds it
 * untrusted, so what is loaded off it is untrusted too (as most results
 * of such loads off the trusted task were already). The loads are the same fault-safe BTF loads
 * (every BTF load is), the values the same; the kfunc is a register move
 * once JITed. Helpers and kfuncs that want a trusted task (task storage)
 * are given the task itself, never this.
 *
 * Only nsaudit.bpf.c may call these: libbpf 1.1's static linker fails on
 * an extern function (the kfunc) used by more than one part ("failed to
 * resolve size of underlying type"). Other parts call its global
 * subprograms (cur_may_have_storage() ...). Included by actor.bpf.h;
 * can_rdonly_cast is defined in nsaudit.bpf.c.
 */
#ifndef NSAUDIT_TASK_READ_BPF_H
#define NSAUDIT_TASK_READ_BPF_H

/* A typed pointer as one the verifier does not hold trusted (6.2+). */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;

/* Set by the loader before load (.rodata): the kernel has bpf_rdonly_cast
 * and lets tracepoint programs call it (6.12+). Without it the cast below
 * is dead code, which the verifier (6.1 included) drops before it looks
 * at the call, and the task is read as it is. */
extern const volatile bool can_rdonly_cast;

/* task, to load its fields from (never to give to a helper) */
static __always_inline struct task_struct *task_to_read(struct task_struct *task)
{
	if (can_rdonly_cast)
		return bpf_rdonly_cast(task, bpf_core_type_id_kernel(struct task_struct));
	return task;
}

/* the current task, to load its fields from */
static __always_inline struct task_struct *current_to_read(void)
{
	return task_to_read(bpf_get_current_task_btf());
}

#endif /* NSAUDIT_TASK_READ_BPF_H */
