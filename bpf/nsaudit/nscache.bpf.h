/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nscache.bpf.h - what namespaces a thread is in, without looking before
 * the call: its cache in task storage (tstate), kept whole by the start-up
 * snapshot and every change, and before its first change its birth slot
 * (birth.bpf.h).
 * Also the records of a switch (setns, unshare): switch_key, emit_switch.
 * Its global subprograms and globals are defined in nsaudit.bpf.c, the part
 * every part links with.
 */
#ifndef NSAUDIT_NSCACHE_BPF_H
#define NSAUDIT_NSCACHE_BPF_H

#include "birth.bpf.h"
#include "emit.bpf.h"

/* Set by the loader: setns is traced by its exit tracepoint alone (stock
 * kernels); what a thread had before a setns must then be known without
 * looking before it (cache_fill, birth_ns). */
extern const volatile bool setns_exit_only;

/* Global subprograms (verified once), in nsaudit.bpf.c: setns.bpf.c and
 * unshare_clone.bpf.c use them. */
int cache_fill(struct tstate *ts);
int pending_save_old(struct tstate *ts);
int emit_switch(struct tstate *ts, long ret);

/*
 * The namespace of type t the thread has now, from the cache when the
 * thread's nsproxy and user namespace are those of the last look.
 */
static __always_inline void cur_ns(struct tstate *ts, const struct task_nsset *set, int t,
				   __u32 *inum, __u64 *id)
{
	struct ns_common *ns;

	if (t < 0 || t >= NSAUDIT_NS_MAX)
		return;
	if (ts->c_valid & (1u << t)) {
		*inum = ts->cur_inum[t];
		*id = ts->cur_id[t];
		return;
	}
	ns = nsset_ns_btf(set, t);
	*inum = 0;
	*id = 0;
	if (ns)
		ns_ident_btf(ns, inum, id);
	ts->cur_inum[t] = *inum;
	ts->cur_id[t] = *id;
	ts->c_valid |= 1u << t;
}

/*
 * Load the thread's namespace set, and forget the cache unless its
 * nsproxy and user ns are those of the last look.
 */
static __always_inline void cache_check(struct tstate *ts, struct task_nsset *set)
{
	__u64 nsp, uns;

	task_nsset_btf(set, bpf_get_current_task_btf());
	nsp = (__u64)set->nsp;
	uns = (__u64)set->user;

	if (nsp != ts->c_nsproxy || uns != ts->c_userns) {
		ts->c_valid = 0;
		ts->c_nsproxy = nsp;
		ts->c_userns = uns;
	}
}

static __always_inline void cache_refill(struct tstate *ts, const struct task_nsset *set)
{
	ts->c_nsproxy = (__u64)set->nsp;
	ts->c_userns = (__u64)set->user;
	cache_fill(ts);
}

/*
 * The same for a task the start-up snapshot visits (once per thread). The
 * hooks are attached by then: a thread whose own namespace change has
 * filled its cache since (c_changed) keeps it. Refilled now, it could be
 * read half-way through a setns (the kernel has switched, the exit hook
 * has not run): the record would say it left the namespace it entered.
 */
static __always_inline void cache_fill_task(struct task_struct *task)
{
	struct task_nsset set;
	struct tstate *ts;

	if (!setns_exit_only || (filter_tgid && BPF_CORE_READ(task, tgid) != filter_tgid))
		return;
	ts = tstate_find(task, true);
	if (ts && !ts->c_changed) {
		task_nsset(&set, task);
		cache_refill(ts, &set);
	}
}

/* The key of the record of type t for the pending call p that returned ret. */
static __always_inline void switch_key(struct ev_key *k, struct pending *p, int t, long ret)
{
	key_init(k, p->op, p->probe);
	k->ns_type = t;
	k->result = ret;
	k->arg = p->arg;
	k->fd = p->fd;
	k->via = p->via;
	k->flags |= p->kflags;
	if (t < 0 || t >= NSAUDIT_NS_MAX)
		return;
	k->old_inum = p->old_inum[t];
	k->old_ns_id = p->old_id[t];
	if (k->old_inum)
		k->flags |= NSAUDIT_F_HAS_OLD;
	if (t == NSAUDIT_NS_PID || t == NSAUDIT_NS_TIME)
		k->flags |= NSAUDIT_F_FOR_CHILDREN;
}

#endif
