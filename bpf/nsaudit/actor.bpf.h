/* SPDX-License-Identifier: GPL-2.0 */
/*
 * actor.bpf.h - who acted, as the kernel knows it at the call: the actor's
 * own namespaces and the identity of the exec it runs. These are what a
 * process in a container cannot forge (its exe path, comm and cgroup view
 * are its own to choose); docs/attribution.md lists the record fields.
 *
 * Cost on the hot path (every record): plain BTF loads off the current
 * task for mnt, user and cgroup; three probe reads for the active pid
 * namespace (a variable index into struct pid's numbers[]).
 *
 * Included once, by emit.bpf.h.
 */
#ifndef NSAUDIT_ACTOR_BPF_H
#define NSAUDIT_ACTOR_BPF_H

#include "tstate.bpf.h"
#include "task_read.bpf.h"

/* Set by the loader before load (random): exe keys are no kernel addresses. */
extern const volatile __u64 exe_key_salt;

/*
 * One exec's identity: its mm->exe_file, which fork shares and the next
 * exec replaces, mixed with the per-load salt (a bijection: distinct files
 * give distinct keys). 0 for none (kernel threads).
 */
static __always_inline __u64 exe_key_of(__u64 file)
{
	return file ? (file ^ exe_key_salt) * 0x9e3779b97f4a7c15ULL : 0;
}

/*
 * The task's active pid namespace (task_active_pid_ns: thread_pid's
 * numbers[level].ns), not pid_ns_for_children, which unshare changes.
 * Constant indices: plain BTF loads (the verifier lets them into the
 * flexible array; a variable one would need probe reads). Nesting deeper
 * than 8 levels reads as unknown (NULL).
 */
static __always_inline struct pid_namespace *task_active_pidns(struct task_struct *task)
{
	struct pid *tp = task->thread_pid;

	switch (tp->level) {
	case 0: return tp->numbers[0].ns;
	case 1: return tp->numbers[1].ns;
	case 2: return tp->numbers[2].ns;
	case 3: return tp->numbers[3].ns;
	case 4: return tp->numbers[4].ns;
	case 5: return tp->numbers[5].ns;
	case 6: return tp->numbers[6].ns;
	case 7: return tp->numbers[7].ns;
	}
	return NULL;
}

/* The task's active pid namespace (probe reads: any task pointer). */
static __always_inline struct ns_common *task_active_pidns_any(struct task_struct *task)
{
	struct pid *tp = BPF_CORE_READ(task, thread_pid);
	struct pid_namespace *ns = NULL;
	__u32 level;

	if (!tp)
		return NULL;
	/* levels run 0..32 (MAX_PID_NS_LEVEL): a mask of 31 read level 32,
	 * which an unprivileged user reaches by nesting, as the host's */
	level = BPF_CORE_READ(tp, level);
	if (level > 32)
		return NULL;
	bpf_probe_read_kernel(&ns, sizeof(ns),
			      (void *)tp + bpf_core_field_offset(struct pid, numbers) +
				      level * bpf_core_type_size(struct upid) +
				      bpf_core_field_offset(struct upid, ns));
	return ns ? &ns->ns : NULL;
}

/* The actor's namespaces now (mnt, pid, user, cgroup) into e; cred: the
 * task's, loaded once by the caller (each pointer loaded off the trusted
 * task costs 6.18's verifier scans of the kernel's BTF by name). A NULL
 * nsproxy (an exiting task) reads as 0: BTF loads are fault-safe. */
static __always_inline void actor_namespaces(struct nsaudit_event *e, struct task_struct *task,
					     const struct cred *cred)
{
	struct nsproxy *nsp = task->nsproxy;
	struct user_namespace *user = cred->user_ns;
	struct pid_namespace *pidns = task_active_pidns(task);

	e->actor_mntns = nsp->mnt_ns->ns.inum;
	e->actor_cgroupns = nsp->cgroup_ns->ns.inum;
	e->actor_userns = user->ns.inum;
	if (bpf_core_field_exists(user->ns.ns_id)) {
		e->actor_mntns_id = nsp->mnt_ns->ns.ns_id;
		e->actor_cgroupns_id = nsp->cgroup_ns->ns.ns_id;
		e->actor_userns_id = user->ns.ns_id;
	}
	if (pidns)
		ns_ident_btf(&pidns->ns, &e->actor_pidns, &e->actor_pidns_id);
}

/*
 * setns and unshare records are made at the call's exit: the actor's
 * namespaces of the types the call changed are the ones it had before
 * (p->old_*, taken at entry or from the thread's cache). 0 there: unknown,
 * the current one stays; so does all of it without a pending call (p NULL:
 * a record sent without a thread state).
 */
static __always_inline void actor_before(struct nsaudit_event *e, const struct pending *p)
{
	__u32 m;

	if (!p || (e->op != NSAUDIT_OP_SETNS && e->op != NSAUDIT_OP_UNSHARE))
		return;
	m = p->nsmask;
	if ((m & (1u << NSAUDIT_NS_MNT)) && p->old_inum[NSAUDIT_NS_MNT]) {
		e->actor_mntns = p->old_inum[NSAUDIT_NS_MNT];
		e->actor_mntns_id = p->old_id[NSAUDIT_NS_MNT];
	}
	if ((m & (1u << NSAUDIT_NS_USER)) && p->old_inum[NSAUDIT_NS_USER]) {
		e->actor_userns = p->old_inum[NSAUDIT_NS_USER];
		e->actor_userns_id = p->old_id[NSAUDIT_NS_USER];
	}
	if ((m & (1u << NSAUDIT_NS_CGROUP)) && p->old_inum[NSAUDIT_NS_CGROUP]) {
		e->actor_cgroupns = p->old_inum[NSAUDIT_NS_CGROUP];
		e->actor_cgroupns_id = p->old_id[NSAUDIT_NS_CGROUP];
	}
}

#endif /* NSAUDIT_ACTOR_BPF_H */
