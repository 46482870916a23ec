/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nscache.bpf.h - what namespaces a thread is in, without looking before
 * the call: its cache in task storage (tstate), kept whole by the start-up
 * snapshot and every change, and before its first change its birth slot.
 * Also the records of a switch (setns, unshare): switch_key, emit_switch.
 * The global subprograms and the maps are defined in setns.bpf.c.
 */
#ifndef NSAUDIT_NSCACHE_BPF_H
#define NSAUDIT_NSCACHE_BPF_H

/* Set by the loader: setns is traced by its exit tracepoint alone (stock
 * kernels); what a thread had before a setns must then be known without
 * looking before it (cache_fill, birth_ns). */
extern const volatile bool setns_exit_only;

/* setns.bpf.c's global subprograms (verified once). */
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

/* The same for a task the start-up snapshot visits (once per thread). */
static __always_inline void cache_fill_task(struct task_struct *task)
{
	struct task_nsset set;
	struct tstate *ts;

	if (!setns_exit_only || (filter_tgid && BPF_CORE_READ(task, tgid) != filter_tgid))
		return;
	ts = tstate_find(task, true);
	if (ts) {
		task_nsset(&set, task);
		cache_refill(ts, &set);
	}
}

/*
 * The namespaces each thread was born with, for the namespace a thread's
 * first setns leaves: until its first namespace change (which fills its
 * cache: c_changed) a thread is in these. Not task storage: making one for
 * every child at fork cost ~1.3 us per fork here (bpf_stats); a slot of a
 * table indexed by thread id costs a few stores. A slot is tagged with its
 * thread's id and start time, and "start" is 0 while it is written; a
 * thread whose slot a later one took (same low bits of the thread id)
 * gets records without the namespace it left, never a wrong one.
 */
#define BIRTH_SLOT_BITS 14

struct birth_ns {
	__u64 start; /* the thread's start_boottime; 0 while it is written */
	__u32 tid;
	__u32 inum[NSAUDIT_NS_MAX];
	__u64 id[NSAUDIT_NS_MAX];
};

struct birth_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1 << BIRTH_SLOT_BITS);
	__type(key, __u32);
	__type(value, struct birth_ns);
};
extern struct birth_map birth SEC(".maps");

/* The slot of thread tid (another thread's, if a later one took it). */
static __always_inline struct birth_ns *birth_slot(__u32 tid)
{
	__u32 idx = tid & ((1 << BIRTH_SLOT_BITS) - 1);

	return bpf_map_lookup_elem(&birth, &idx);
}

/* The thread's cache from its birth slot, if the slot is still its own. */
static __always_inline void cache_from_birth(struct tstate *ts)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct birth_ns *b = birth_slot(tid);
	__u64 start;
	int t;

	if (!b)
		return;
	start = *(volatile __u64 *)&b->start;
	if (!start || start != task->start_boottime || b->tid != tid)
		return;
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		ts->cur_inum[t] = b->inum[t];
		ts->cur_id[t] = b->id[t];
	}
	if (*(volatile __u64 *)&b->start != start)
		return;	/* rewritten meanwhile: c_valid stays as it was */
	ts->c_valid = (1u << NSAUDIT_NS_MAX) - 1;
}

/* The thread changed namespaces and has no cache to say so (its task
 * storage could not be made): its birth slot must not speak for it. */
static __always_inline void birth_forget(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct birth_ns *b = birth_slot(tid);

	if (b && b->tid == tid)
		*(volatile __u64 *)&b->start = 0;
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
