/* SPDX-License-Identifier: GPL-2.0 */
/*
 * birth.bpf.h - the namespaces each thread was born with, for the
 * namespace a thread's first setns leaves: until its first namespace
 * change (which fills its cache: c_changed) a thread is in these.
 *
 * What a fork pays here is the pages it touches (the TLB is cold after
 * every syscall on machines with PTI and no PCID), and a cold line: when
 * a child's slot held its namespaces (112 bytes a slot, 1.8 MB), its first
 * touch cost ~260 ns a fork, and reading the eight namespaces ~120 more.
 * So two tables:
 *
 *  - birth_sets: 1,024 namespace sets (the inode numbers and ids of all
 *    eight types), hashed by their inode numbers. The children of one
 *    container find theirs already there and write nothing to it.
 *  - birth: a slot per thread id (modulo 16,384), 16 bytes (four children
 *    to a line), that names its thread (tid, start time) and its set
 *    (index and the set's generation).
 *
 * The host's own namespaces, those of the kernel's threads, are never
 * freed (init_nsproxy holds them for good), so their addresses say which
 * they are: the start-up snapshot notes them from kthreadd into one more
 * set (BIRTH_SET_HOST) that is never rewritten. A child with the host's
 * nsproxy (init_nsproxy, which most host processes share) and user
 * namespace takes it after two compares, reading no namespace and no
 * other set. Another nsproxy that holds the host's eight namespaces takes
 * it after comparing their addresses. Any other address is read: one that
 * is freed may come back as another namespace.
 *
 * A set that another set's fork rewrites bumps its generation, so the
 * children born with the old one get records without the namespace they
 * left, never a wrong one (children waiting in 150 sets at once: ~7 % of
 * them, tests/integration/17-setns-exit-hook.sh). A slot keeps only the
 * generation's low bits; a set also keeps when it was written (the start
 * time of the child whose fork wrote it), and a thread takes it only if
 * that is not after the thread's own birth: a generation that wrapped
 * came after the birth. The same holds for a thread whose slot a later
 * thread took (same low bits of the thread id). Not task storage: making
 * one for every child at fork cost ~1.3 us per fork here (bpf_stats).
 */
#ifndef NSAUDIT_BIRTH_BPF_H
#define NSAUDIT_BIRTH_BPF_H

#include "tstate.bpf.h"

#define BIRTH_SLOT_BITS 14
#define BIRTH_SET_BITS 10			/* the hashed sets */
#define BIRTH_SET_HOST (1u << BIRTH_SET_BITS)	/* and the host's */
#define BIRTH_REF_BITS (BIRTH_SET_BITS + 1)
#define BIRTH_GEN_MASK ((1u << (32 - BIRTH_REF_BITS)) - 1)

struct birth_set {
	__u64 seq;	/* odd while written; +2 for each rewrite */
	__u64 since;	/* start_boottime of the child whose fork wrote it */
	__u32 inum[NSAUDIT_NS_MAX];
	__u64 id[NSAUDIT_NS_MAX];
	/* BIRTH_SET_HOST only: where each namespace is, and the nsproxy
	 * and user namespace that hold them all (init_nsproxy's, init's) */
	__u64 addr[NSAUDIT_NS_MAX];
	__u64 nsproxy;
	__u64 user;
};

struct birth_sets_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BIRTH_SET_HOST + 1);
	__type(key, __u32);
	__type(value, struct birth_set);
};
extern struct birth_sets_map birth_sets SEC(".maps");

struct birth_ns {
	__u64 start;	/* the thread's start_boottime; 0 while it is written */
	__u32 tid;
	__u32 ref;	/* set index (low BIRTH_REF_BITS), generation (the rest) */
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

static __always_inline __u32 birth_ref(__u32 idx, __u64 seq)
{
	return idx | (((__u32)(seq >> 1) & BIRTH_GEN_MASK) << BIRTH_REF_BITS);
}

/* Where a set of namespaces goes: a hash of its inode numbers (not of
 * the nsproxy's address: the verifier keeps that a pointer). */
static __always_inline __u32 birth_set_index(const __u32 *inum)
{
	__u64 h = 0;
	int t;

	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++)
		h = (h ^ inum[t]) * 0x9e3779b97f4a7c15ULL;
	return h >> (64 - BIRTH_SET_BITS);
}

/*
 * The reference of a set that holds inum/id: the one already there, or
 * that set rewritten (since: the child's start). False if another fork is
 * writing it: the child then has no birth namespaces.
 */
static __always_inline bool birth_set_ref(const __u32 *inum, const __u64 *id, __u64 since,
					  __u32 *ref)
{
	__u32 idx = birth_set_index(inum);
	struct birth_set *e = bpf_map_lookup_elem(&birth_sets, &idx);
	__u64 seq;
	bool same = true;
	int t;

	if (!e)
		return false;
	seq = *(volatile __u64 *)&e->seq;
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++)
		if (e->inum[t] != inum[t] || e->id[t] != id[t])
			same = false;
	if (same && !(seq & 1) && seq && *(volatile __u64 *)&e->seq == seq) {
		*ref = birth_ref(idx, seq);
		return true;
	}
	/* another set's (or none yet): claim it, or give up if busy */
	if ((seq & 1) || __sync_val_compare_and_swap(&e->seq, seq, seq | 1) != seq)
		return false;
	e->since = since;
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		e->inum[t] = inum[t];
		e->id[t] = id[t];
	}
	held_release(&e->seq, seq | 1, seq + 2);
	*ref = birth_ref(idx, seq + 2);
	return true;
}

/* The host's set, once the snapshot has noted it: NULL before. */
static __always_inline struct birth_set *birth_host(void)
{
	__u32 idx = BIRTH_SET_HOST;
	struct birth_set *h = bpf_map_lookup_elem(&birth_sets, &idx);

	return h && *(volatile __u64 *)&h->seq == 2 ? h : NULL;
}

/* Whether set's namespaces are all the host's, by their addresses. */
static __always_inline bool birth_is_host(const struct birth_set *h,
					  const struct task_nsset *set, const bool btf)
{
	bool all = true;
	int t;

	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++)
		if ((__u64)nsset_ns_as(set, t, btf) != h->addr[t])
			all = false;
	return all;
}

/* The snapshot's note of the host's set, from kthreadd (PF_KTHREAD,
 * pid 2: forked by the idle task with no new namespace). Once. */
static __always_inline void birth_host_note(struct task_struct *task)
{
	__u32 idx = BIRTH_SET_HOST;
	struct task_nsset set;
	struct birth_set *h;
	int t;

	if (task->pid != 2 || !(task->flags & PF_KTHREAD))
		return;
	h = bpf_map_lookup_elem(&birth_sets, &idx);
	if (!h || __sync_val_compare_and_swap(&h->seq, 0, 1) != 0)
		return;
	task_nsset_btf(&set, task);
	if (!set.nsp)
		return;	/* stays odd: never the host's set */
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		struct ns_common *ns = nsset_ns_btf(&set, t);

		h->addr[t] = (__u64)ns;
		h->inum[t] = 0;
		h->id[t] = 0;
		if (ns)
			ns_ident_btf(ns, &h->inum[t], &h->id[t]);
	}
	h->nsproxy = (__u64)set.nsp;
	h->user = (__u64)set.user;
	h->since = 0;	/* since boot */
	held_release(&h->seq, 1, 2);
}

/* Thread tid, started at start, was born in the set ref names. */
static __always_inline void birth_slot_write(__u32 tid, __u64 start, __u32 ref)
{
	struct birth_ns *b = birth_slot(tid);

	if (!b)
		return;
	*(volatile __u64 *)&b->start = 0;
	b->tid = tid;
	b->ref = ref;
	held_release(&b->start, 0, start);
}

/* Thread tid, started at start, was born in set (btf: its pointers are
 * typed): the host's set, or a hashed one. */
static __always_inline void birth_write(const struct task_nsset *set, const bool btf, __u32 tid,
					__u64 start)
{
	struct birth_set *h = birth_host();
	__u32 inum[NSAUDIT_NS_MAX];
	__u64 id[NSAUDIT_NS_MAX];
	__u32 ref = 0;

	if (h && birth_is_host(h, set, btf)) {
		ref = birth_ref(BIRTH_SET_HOST, 2);
	} else {
		nsset_idents_as(set, inum, id, btf);
		if (!birth_set_ref(inum, id, start, &ref))
			start = 0;	/* no birth namespaces (nor an older thread's) */
	}
	birth_slot_write(tid, start, ref);
}

/* The thread's cache from its birth slot and set, if both still speak
 * for it. */
static __always_inline void cache_from_birth(struct tstate *ts)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct birth_ns *b = birth_slot(tid);
	struct birth_set *e;
	__u64 start, seq;
	__u32 ref, idx;
	int t;

	if (!b)
		return;
	start = *(volatile __u64 *)&b->start;
	if (!start || start != task->start_boottime || b->tid != tid)
		return;
	ref = b->ref;
	if (*(volatile __u64 *)&b->start != start)
		return;	/* rewritten meanwhile */
	idx = ref & ((1u << BIRTH_REF_BITS) - 1);
	e = bpf_map_lookup_elem(&birth_sets, &idx);
	if (!e)
		return;
	seq = *(volatile __u64 *)&e->seq;
	if ((seq & 1) || birth_ref(idx, seq) != ref || e->since > start)
		return;	/* rewritten since this thread's birth */
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		ts->cur_inum[t] = e->inum[t];
		ts->cur_id[t] = e->id[t];
	}
	if (*(volatile __u64 *)&e->seq != seq)
		return;	/* rewritten meanwhile: c_valid stays as it was */
	ts->c_valid = (1u << NSAUDIT_NS_MAX) - 1;
}

/* The thread changed namespaces and has no cache to say so (no thread
 * slot could be had): its birth slot must not speak for it. */
static __always_inline void birth_forget(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct birth_ns *b = birth_slot(tid);

	if (b && b->tid == tid)
		*(volatile __u64 *)&b->start = 0;
}

#endif /* NSAUDIT_BIRTH_BPF_H */
