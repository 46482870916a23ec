/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freed_exit.bpf.h - op freed: a net namespace let go last by a task's
 * exit after its nsproxy went (holder task): what the exit's task works
 * put (a bind mount of its nsfs file in the task's own mount namespace,
 * dying with it; a file). Included by freed.bpf.c alone, after
 * freed_mount.bpf.h (kept apart for its size).
 */
#ifndef NSAUDIT_FREED_EXIT_BPF_H
#define NSAUDIT_FREED_EXIT_BPF_H

/*
 * A task's exit let its net namespace go with references left (its
 * nsproxy freed): the net namespace, by the task's tid. What is left may
 * be the exit's own to put, after the nsproxy (exit_task_work): a mount
 * of the task's own mount namespace that holds it (a bind mount of its
 * nsfs file), a file it had open. If that put is the last, the exit
 * queues cleanup_net (freed_exit_queued).
 */
struct freed_exit_ns {
	__u64 ns;	/* the net namespace's ns_common */
	__u64 ts;	/* bpf_ktime_get_boot_ns() at the nsproxy's free */
	__u32 inum;	/* its inode then: an entry a reused tid finds is stale */
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);	/* the exiting task's tid */
	__type(value, struct freed_exit_ns);
} freed_exit_net SEC(".maps");

#define PF_EXITING_FREED 0x00000004	/* task->flags: in do_exit() */

/* the exit's nsproxy let net (its ns_common at key) go, with references left */
static __always_inline void freed_exit_note(__u64 key)
{
	struct ns_common *ns = (void *)key;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct freed_exit_ns v = { .ns = key };
	__u64 id;

	if (!ns_refcount(ns))
		return;
	ns_ident(ns, &v.inum, &id);
	v.ts = bpf_ktime_get_boot_ns();
	bpf_map_update_elem(&freed_exit_net, &tid, &v, BPF_ANY);
}

/*
 * The current task queues cleanup_net: it put a net namespace's last
 * reference. An exiting task (PF_EXITING) whose nsproxy let its net
 * namespace go with references left, that namespace at 0 now: the exit
 * put it after the nsproxy (its task works: a mount of its own mount
 * namespace, a file). A claim of holder task, the exit the actor, kept
 * (freed_exit_claim) until cleanup_net starts (cleanup_one), not told at
 * once: a socket or nsfs file whose put this was is freed right after
 * the put and tells its own last_ref first (socket, fd), also a socket
 * that an RCU callback frees while it interrupts this exit.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 256);
	__type(key, __u64);	/* the net namespace's ns_common */
	__type(value, struct freed_mount_mark);
} freed_exit_claim SEC(".maps");

__noinline int freed_exit_queued(void)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), zero = 0;
	struct freed_exit_ns *v = bpf_map_lookup_elem(&freed_exit_net, &tid);
	struct freed_mount_mark *mk;
	struct ns_common *ns;
	struct freed_known *k;
	__u64 key, obj, ts;
	__u32 inum;

	if (!v)
		return 0;
	key = v->ns;
	ts = v->ts;
	inum = v->inum;
	bpf_map_delete_elem(&freed_exit_net, &tid);
	ns = (void *)key;
	if (!(BPF_CORE_READ(task, flags) & PF_EXITING_FREED) ||
	    bpf_ktime_get_boot_ns() - ts >= FREED_MARK_NS || ns_refcount(ns) != 0)
		return 0;
	mk = bpf_map_lookup_elem(&freed_mount_scratch, &zero);
	if (!mk)
		return 0;
	ns_ident(ns, &mk->inum, &mk->ns_id);
	if (mk->inum != inum)
		return 0;
	/* a learned namespace, named as learned */
	obj = ns_object(ns, NSAUDIT_NS_NET);
	k = bpf_map_lookup_elem(&freed_addrs, &obj);
	if (!freed_is(k, mk->inum, NSAUDIT_NS_NET, false) || !freed_named(k))
		return 0;
	mk->ns_id = k->ns_id;
	mk->ns = key;
	mk->type = NSAUDIT_NS_NET;
	mk->ts = bpf_ktime_get_boot_ns();
	mk->revive = 0;
	__builtin_memset(&mk->head, 0, sizeof(mk->head));
	fill_actor(&mk->head);
	bpf_map_update_elem(&freed_exit_claim, &key, mk, BPF_ANY);
	return 0;
}

/* cleanup_net starts with ns (its inode inum) at 0: an exit's claim no
 * socket or fd told before is told now (freed_seen: once) */
static __always_inline void freed_exit_tell(__u64 ns, __u32 inum)
{
	struct freed_mount_mark *mk = bpf_map_lookup_elem(&freed_exit_claim, &ns);

	if (!mk)
		return;
	if (mk->inum == inum && bpf_ktime_get_boot_ns() - mk->ts < FREED_MARK_NS)
		freed_mount_tell(mk, NSAUDIT_PROBE_TP_WQ, NSAUDIT_FREED_BY_TASK);
	bpf_map_delete_elem(&freed_exit_claim, &ns);
}

#endif
