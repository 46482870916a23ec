/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freed_userns.bpf.h - op freed: a user namespace's free work
 * (free_user_ns) and the parents it frees in the same pass, let go last by
 * their child (holder child), or left alive by it (let_go of holder child
 * at the work's end). Included by freed.bpf.c alone, after the checks it
 * uses (kept apart for its size).
 */
#ifndef NSAUDIT_FREED_USERNS_BPF_H
#define NSAUDIT_FREED_USERNS_BPF_H

/*
 * The child user namespace a record of holder child names (old_inum,
 * old_ns_id): set just before its check, on this CPU (a program runs to
 * its end on one CPU, unnested); freed.bpf.c's freed_finish reads it.
 */
struct freed_child_ns {
	__u64 ns_id;
	__u32 inum;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct freed_child_ns);
} freed_child SEC(".maps");

/*
 * A user namespace's free work (free_user_ns) frees it, then puts its
 * parent and, while that put was the last, frees the parent in the same
 * loop: a parent whose count is 0 in its child's work was let go last by
 * that child (the child held it until this put; the parent's own work is
 * never scheduled). Where the pass is, per work item: the namespace being
 * freed (the child) and its parent, read while the child's memory is still
 * its own (6.1 and 6.12 free it to its cache before the parent's turn).
 */
struct freed_userns_pass {
	__u64 parent;		/* the parent's ns_common: the next to go */
	__u64 cur_id;		/* the one being freed: the parent's child */
	__u32 cur_inum;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 256);
	__type(key, __u64);	/* the work item's address */
	__type(value, struct freed_userns_pass);
} freed_userns SEC(".maps");

/* the pass moves on to ns: it is the one being freed now */
static __always_inline void userns_pass_at(struct freed_userns_pass *p, struct user_namespace *ns)
{
	struct freed_known *k;
	__u64 obj = (__u64)ns;

	ns_ident(&ns->ns, &p->cur_inum, &p->cur_id);
	k = bpf_map_lookup_elem(&freed_addrs, &obj);
	if (freed_is(k, p->cur_inum, NSAUDIT_NS_USER, true) && freed_named(k))
		p->cur_id = k->ns_id;	/* the learned one (6.18's may be gone) */
	ns = BPF_CORE_READ(ns, parent);
	p->parent = ns ? (__u64)&ns->ns : 0;
}

/* the child of a record of holder child: the pass's current namespace */
static __always_inline void userns_child_is(const struct freed_userns_pass *p)
{
	struct freed_child_ns *c;
	__u32 zero = 0;

	c = bpf_map_lookup_elem(&freed_child, &zero);
	if (c) {
		c->inum = p->cur_inum;
		c->ns_id = p->cur_id;
	}
}

/* free_user_ns (at fn) runs as the namespace's work item: the worker's
 * current work names the first namespace of the pass; a kfree at its call
 * site runs in each turn of its loop. */
__noinline int freed_userns_work(__u64 fn)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct freed_userns_pass *p, np = {};
	struct user_namespace *ns;
	struct kthread *kt;
	struct worker *w;
	__u64 work;
	int i;

	/* a kworker: its struct kthread's data is its struct worker */
	if (!bpf_core_field_exists(task->worker_private) || !(task->flags & PF_KTHREAD))
		return 0;
	kt = BPF_CORE_READ(task, worker_private);
	w = BPF_CORE_READ(kt, data);
	work = (__u64)BPF_CORE_READ(w, current_work);
	if ((__u64)BPF_CORE_READ(w, current_func) != fn)
		return 0;
	if (!work)
		return 0;
	p = bpf_map_lookup_elem(&freed_userns, &work);
	if (!p) {
		/* the first turn: whoever held it last (creds, a namespace it
		 * owned, its nsfs inode) put it and scheduled this work */
		ns = (void *)(work - bpf_core_field_offset(struct user_namespace, work));
		freed_check((__u64)&ns->ns, NSAUDIT_NS_USER, NSAUDIT_FREED_BY_OWNER,
			    FREED_OWN_ACTOR, NSAUDIT_PROBE_TP_KFREE);
		userns_pass_at(&np, ns);
		bpf_map_update_elem(&freed_userns, &work, &np, BPF_ANY);
		return 0;
	}
	/* a later turn: each parent at 0 went with the child before it */
	for (i = 0; i < 8 && p->parent; i++) {
		struct ns_common *parent = (void *)p->parent;

		if (ns_refcount(parent))
			break;	/* still the child's turn: its put is to come */
		userns_child_is(p);
		freed_check(p->parent, NSAUDIT_NS_USER, NSAUDIT_FREED_BY_CHILD, FREED_OWN_ACTOR,
			    NSAUDIT_PROBE_TP_KFREE);
		userns_pass_at(p, (void *)ns_object(parent, NSAUDIT_NS_USER));
	}
	return 0;
}

/*
 * The pass of work ends: the last child's put left its parent alive (the loop
 * stops when a put is not the last), a let_go of holder child with the
 * count read now. A parent at 0 by now was put by another holder after
 * the child: its own work tells it.
 */
static __always_inline int freed_userns_end(__u64 work)
{
	struct freed_userns_pass *p;

	p = bpf_map_lookup_elem(&freed_userns, &work);
	if (!p)
		return 0;
	if (p->parent) {
		userns_child_is(p);
		freed_check(p->parent, NSAUDIT_NS_USER, NSAUDIT_FREED_BY_CHILD,
			    FREED_OWN_ACTOR | FREED_LET_GO | FREED_NO_LAST, NSAUDIT_PROBE_TP_WQ_END);
	}
	bpf_map_delete_elem(&freed_userns, &work);
	return 0;
}

#endif
