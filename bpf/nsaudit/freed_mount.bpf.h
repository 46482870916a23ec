/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freed_mount.bpf.h - op freed: a namespace let go last by a bind mount
 * of its nsfs file (holder mount), named with the umount2() caller.
 * Included by freed.bpf.c alone (kept apart for its size).
 *
 * The nsfs inode's free (a grace period after the put) knows no actor,
 * and for a mount namespace not even the moment: putting one waits for a
 * grace period itself (namespace_unlock), so an nsfs inode let go earlier
 * can be freed, and read a count of 0, while the task that really let go
 * is still in free_nsproxy. The proof is made instead at the umount's
 * exit, in the umounter's context, where every reference can still be
 * counted:
 *
 *   - the bind mount's last reference went in this call: its cleanup
 *     (__cleanup_mnt, which puts its root dentry) is queued on this
 *     thread's task_works, run before it returns to user space (or in its
 *     exit), after this tracepoint;
 *   - the root dentry's count is the number of those queued cleanups of it
 *     (umount propagated to copies of the bind: each is one of them), the
 *     inode's is 1 (its dentry; an inotify watch would be another);
 *   - the namespace's count is 1: the nsfs inode's, no task, fd, socket,
 *     owned namespace or other holder.
 * Then the dentry's last put is that cleanup, which evicts the inode, which
 * puts the namespace to 0: a mark keyed by the inode's address, which
 * freed_inode turns into last_ref holder mount when that inode is freed.
 *
 * Nothing can take a new reference between the exit and the cleanup but
 * what looks a namespace up by id (6.11+: ioctl NS_MNT_GET_NEXT/PREV on
 * another mount namespace's nsfs fd; 6.18: open_by_handle_at of an nsfs
 * handle, any type; nothing else reaches a namespace that only its nsfs
 * inode holds): each such call in flight refuses a mark, and each one that
 * enters after the mark voids it (freed_revive_*). Anything not proven is
 * no mark: "cannot tell", never a wrong holder.
 */
#ifndef NSAUDIT_FREED_MOUNT_BPF_H
#define NSAUDIT_FREED_MOUNT_BPF_H

/* __cleanup_mnt's address (kallsyms; 0: not known, no marks) */
const volatile __u64 cleanup_mnt_fn = 0;

/* Only the members used, in the kernel's names; CO-RE finds them at load. */
struct callback_head___fm {
	struct callback_head___fm *next;
	void *func;
} __attribute__((preserve_access_index));

struct task_struct___fm {
	struct callback_head___fm *task_works;
} __attribute__((preserve_access_index));

struct inode___fm {
	atomic_t i_count;
	unsigned long i_ino;
	void *i_private;
	struct super_block *i_sb;
} __attribute__((preserve_access_index));

struct lockref___fm {
	int count;
} __attribute__((preserve_access_index));

struct dentry___fm {
	struct lockref___fm d_lockref;
	struct inode___fm *d_inode;
} __attribute__((preserve_access_index));

struct vfsmount___fm {
	struct dentry___fm *mnt_root;
	struct super_block *mnt_sb;
} __attribute__((preserve_access_index));

struct mount___fm {
	struct vfsmount___fm mnt;
	struct callback_head___fm mnt_rcu;	/* the task work of its cleanup */
} __attribute__((preserve_access_index));

/* the task works looked at (a umount queues one per mount it frees) */
#define FREED_WORKS 8
/* a mark not turned into a record within this is dropped (the inode's
 * free follows the cleanup by a grace period: up to about 10 s where RCU
 * callbacks are lazy, docs/hooks.md) */
#define FREED_MARK_NS (60ULL * 1000000000ULL)

/*
 * The calls that look a mount namespace up by id and take a reference:
 * entered (ever; read before a mark and at its use) and in flight (by
 * thread). full: a thread's entry was not kept: no mark from then on.
 */
__u64 freed_revive_enters = 0;
__u64 freed_revive_n = 0;
__u32 freed_revive_full = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u8);
} freed_revive SEC(".maps");

/* In flight first, then entered: a mark that read the new count of
 * entries sees the call in flight (freed_mount_mark reads them the other
 * way round). */
static __always_inline void freed_revive_enter(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u8 one = 1;

	if (!bpf_map_update_elem(&freed_revive, &tid, &one, BPF_NOEXIST))
		__sync_fetch_and_add(&freed_revive_n, 1);
	else if (!bpf_map_lookup_elem(&freed_revive, &tid))
		freed_revive_full = 1;
	__sync_fetch_and_add(&freed_revive_enters, 1);
}

static __always_inline void freed_revive_exit(void)
{
	__u32 tid;

	if (!freed_revive_n)
		return;
	tid = (__u32)bpf_get_current_pid_tgid();
	if (!bpf_map_delete_elem(&freed_revive, &tid))
		__sync_fetch_and_add(&freed_revive_n, -1);
}

/* A mark: the namespace, the umounter (a record's actor fields, filled at
 * the umount's exit), when, and the count of look-ups by id then. */
struct freed_mount_mark {
	__u64 ns;		/* its ns_common */
	__u64 ns_id;		/* 6.18; 0 before */
	__u64 ts;		/* bpf_ktime_get_boot_ns() at the umount's exit */
	__u64 revive;		/* freed_revive_enters then */
	__u32 inum;
	__u32 type;		/* enum nsaudit_ns_type */
	struct ev_short head;	/* fill_actor(): the umounter */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 256);
	__type(key, __u64);	/* the nsfs inode's address */
	__type(value, struct freed_mount_mark);
} freed_mount_marks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct freed_mount_mark);
} freed_mount_scratch SEC(".maps");

/*
 * A net or user namespace's release is queued by its last put, in the
 * putter's context: cleanup_net's work (net), free_user_ns's (user), both
 * running before the nsfs inode's grace period ends. The umounter thread
 * whose cleanup may make that put: the inode key of its mark, made at
 * this umount's exit (0: two of them in one umount, neither proven by a
 * queue), checked when the thread queues that work (freed_mount_queued).
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);	/* the umounter's tid */
	__type(value, __u64);	/* its mark's key, or 0 */
} freed_mount_tid SEC(".maps");

/*
 * The root dentry of a mount whose cleanup this thread runs next, held by
 * n of the cleanups queued (the task works seen): a mark if all its
 * references are proven as above. A global subprogram: verified once.
 */
__noinline int freed_mount_mark(__u64 dentry_addr, __u32 n, __u64 revive)
{
	struct dentry___fm *d = (void *)dentry_addr;
	struct inode___fm *ino = BPF_CORE_READ(d, d_inode);
	struct freed_mount_mark *mk;
	struct ns_common *ns;
	__u64 key = (__u64)ino;
	__u32 zero = 0, type;

	if (!ino || BPF_CORE_READ(ino, i_sb, s_magic) != NSFS_MAGIC)
		return 0;
	ns = BPF_CORE_READ(ino, i_private);
	if (!ns)
		return 0;
	type = ns_type(ns);
	if (type >= NSAUDIT_NS_MAX || !type_wanted(type))
		return 0;
	if (BPF_CORE_READ(d, d_lockref.count) != (int)n || BPF_CORE_READ(ino, i_count.counter) != 1 ||
	    ns_refcount(ns) != 1)
		return 0;
	mk = bpf_map_lookup_elem(&freed_mount_scratch, &zero);
	if (!mk)
		return 0;
	mk->ns = (__u64)ns;
	ns_ident(ns, &mk->inum, &mk->ns_id);
	if (mk->inum != BPF_CORE_READ(ino, i_ino))
		return 0;
	mk->ts = bpf_ktime_get_boot_ns();
	mk->revive = revive;
	mk->type = type;
	__builtin_memset(&mk->head, 0, sizeof(mk->head));
	fill_actor(&mk->head);
	bpf_map_update_elem(&freed_mount_marks, &key, mk, BPF_ANY);
	if (type == NSAUDIT_NS_NET || type == NSAUDIT_NS_USER) {
		__u32 tid = (__u32)bpf_get_current_pid_tgid();
		__u64 none = 0;

		/* a second one in this umount: neither is the queue's */
		if (bpf_map_update_elem(&freed_mount_tid, &tid, &key, BPF_NOEXIST))
			bpf_map_update_elem(&freed_mount_tid, &tid, &none, BPF_ANY);
	}
	return 0;
}

/*
 * A successful umount2()'s exit: the mounts it freed whose cleanup is
 * queued on this thread (their task work's function is __cleanup_mnt);
 * each distinct nsfs root among them is checked by freed_mount_mark.
 */
static __always_inline int freed_umount_marks(void)
{
	struct task_struct___fm *task = (void *)bpf_get_current_task();
	struct callback_head___fm *w;
	__u64 root[FREED_WORKS] = {}, revive;
	__u32 off = bpf_core_field_offset(struct mount___fm, mnt_rcu);
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	int i, j, n;

	/* a mark of this thread's last umount is not this one's */
	bpf_map_delete_elem(&freed_mount_tid, &tid);
	/* entered first, in flight after (see freed_revive_enter); fetching
	 * adds: ordered reads, on a weakly ordered CPU too */
	revive = __sync_fetch_and_add(&freed_revive_enters, 0);
	if (__sync_fetch_and_add(&freed_revive_n, 0) || freed_revive_full)
		return 0;
	w = BPF_CORE_READ(task, task_works);
#pragma unroll
	for (i = 0; i < FREED_WORKS; i++) {
		struct mount___fm *m;

		/* past the list's end w is NULL: its reads give 0 */
		if ((__u64)BPF_CORE_READ(w, func) == cleanup_mnt_fn) {
			m = (void *)w - off;
			if (BPF_CORE_READ(m, mnt.mnt_sb, s_magic) == NSFS_MAGIC)
				root[i] = (__u64)BPF_CORE_READ(m, mnt.mnt_root);
		}
		w = BPF_CORE_READ(w, next);
	}
#pragma unroll
	for (i = 0; i < FREED_WORKS; i++) {
		bool first = true;

		n = 0;
#pragma unroll
		for (j = 0; j < FREED_WORKS; j++) {
			if (root[j] != root[i])
				continue;
			n++;
			if (j < i)
				first = false;	/* told at its first */
		}
		if (root[i] && first)
			freed_mount_mark(root[i], n, revive);
	}
	return 0;
}

/* A mark still good: no look-up by id entered since, not stale. */
static __always_inline bool freed_mark_good(const struct freed_mount_mark *mk, __u64 ns)
{
	return mk->ns == ns && mk->type < NSAUDIT_NS_MAX && mk->revive == freed_revive_enters &&
	       bpf_ktime_get_boot_ns() - mk->ts < FREED_MARK_NS;
}

/*
 * The record of a mark proven: last_ref of holder (mount: the umounter's
 * actor fields, copied from the mark; task: an exit's, freed.bpf.c's
 * freed_exit_queued), once per namespace (freed_seen), its address kept
 * for the free of its memory that follows.
 */
static __always_inline void freed_mount_tell(struct freed_mount_mark *mk, __u32 probe,
					     __u32 holder)
{
	struct ns_common *ns = (void *)mk->ns;
	struct nsaudit_event *e;
	struct freed_known *k;
	__u64 ts, kseq, id = mk->ns_id, key, obj;
	__u32 inum = mk->inum, type = mk->type;
	__u8 one = 1;

	key = id ?: (__u64)ns ^ ((__u64)inum << 32);
	if (bpf_map_update_elem(&freed_seen, &key, &one, BPF_NOEXIST))
		return;
	/* its memory: gone already (a mnt on 6.1, 6.12 in the cleanup; a
	 * uts or time kfree'd in the put), else for the free that follows */
	obj = ns_object(ns, type);
	k = bpf_map_lookup_elem(&freed_addrs, &obj);
	if (k && k->rel_tid) {
		bpf_map_delete_elem(&freed_addrs, &obj);
	} else if (obj) {
		struct freed_known nk = { .ns_id = id, .inum = inum, .type = type };

		bpf_map_update_elem(&freed_addrs, &obj, &nk, BPF_ANY);
	}
	if (!op_wanted(NSAUDIT_OP_FREED))
		return;
	e = event_reserve(NSAUDIT_OP_FREED, probe, NSAUDIT_EVENT_SHORT, true);
	if (!e)
		return;
	/* the umounter's actor fields, this record's own time and sequence */
	ts = e->ts_boot_ns;
	kseq = e->kseq;
	__builtin_memcpy(e, &mk->head, NSAUDIT_EVENT_SHORT);
	e->ts_boot_ns = ts;
	e->kseq = kseq;
	e->op = NSAUDIT_OP_FREED;
	e->probe = probe;
	e->fd = -1;
	e->ns_type = type;
	e->ns_inum = inum;
	e->ns_id = id;
	e->flags = NSAUDIT_F_HAS_NS;
	e->arg = NSAUDIT_FREED_LAST_REF | (holder << 8);
	e->ns_refs = 0;
	event_submit(e);
}

/*
 * An nsfs inode is freed (freed_inode): if a mark names it, and no look-up
 * by id entered since, its namespace's last reference was the bind mount
 * the marked umount removed: last_ref holder mount, the umounter as actor
 * (unless told already: a net or user namespace at its release's queue).
 * 1 if told; 0 leaves the inode to the checks of every nsfs inode (a mark
 * left at this address by an inode whose free was not seen, a voided one).
 */
static __always_inline int freed_mount_last(__u64 ino_addr, struct ns_common *ns)
{
	struct inode___fm *ino = (void *)ino_addr;
	struct freed_mount_mark *mk;

	mk = bpf_map_lookup_elem(&freed_mount_marks, &ino_addr);
	if (!mk)
		return 0;
	if (!freed_mark_good(mk, (__u64)ns) || mk->inum != BPF_CORE_READ(ino, i_ino)) {
		bpf_map_delete_elem(&freed_mount_marks, &ino_addr);
		return 0;
	}
	freed_mount_tell(mk, NSAUDIT_PROBE_TP_KMEM_CACHE_FREE, NSAUDIT_FREED_BY_MOUNT);
	/* only now: the mark's memory is the record's source until here */
	bpf_map_delete_elem(&freed_mount_marks, &ino_addr);
	return 1;
}

/*
 * The current thread queues a net or user namespace's release (the work
 * at work, of type): its last put is being made here. If this thread's
 * last umount marked a namespace of that type (the only one it marked),
 * the mark is good, and that namespace is the one released (user: the
 * work is its own; net: cleanup_net's work is shared, the marked one's
 * count is 0 now), the put is its bind mount's cleanup, run by this
 * thread after that umount: last_ref holder mount, told now, at the
 * moment of the put (the inode's free a grace period later finds it
 * told). A net namespace whose put finds cleanup_net's list not empty
 * queues nothing: its record stays the kernel's (not told). Not proven
 * for net by the mark alone: a look-up by nsid (maybe_get_net) can take
 * a reference after it, and its holder then puts the last, elsewhere.
 */
__noinline int freed_mount_queued(__u64 work, __u32 type)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct freed_mount_mark *mk;
	struct ns_common *ns;
	__u64 *key, ino;

	key = bpf_map_lookup_elem(&freed_mount_tid, &tid);
	if (!key || !*key)
		return 0;
	ino = *key;
	bpf_map_delete_elem(&freed_mount_tid, &tid);
	mk = bpf_map_lookup_elem(&freed_mount_marks, &ino);
	if (!mk || mk->type != type || !freed_mark_good(mk, mk->ns))
		return 0;
	ns = (void *)mk->ns;
	if (type == NSAUDIT_NS_USER &&
	    mk->ns != work - bpf_core_field_offset(struct user_namespace, work) +
			  bpf_core_field_offset(struct user_namespace, ns))
		return 0;
	if (ns_refcount(ns) != 0)
		return 0;
	freed_mount_tell(mk, NSAUDIT_PROBE_TP_WQ_QUEUE, NSAUDIT_FREED_BY_MOUNT);
	return 0;
}

#endif
