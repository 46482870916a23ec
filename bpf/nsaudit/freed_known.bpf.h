/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freed_known.bpf.h - op freed: the namespaces it knows by the address of
 * their object (learned alive, or at their last reference), the last_refs
 * it told, and how a check is asked for. Included by freed.bpf.c alone
 * (kept apart for its size, and for freed_userns.bpf.h's use).
 */
#ifndef NSAUDIT_FREED_KNOWN_BPF_H
#define NSAUDIT_FREED_KNOWN_BPF_H

/*
 * Namespaces by the address of their object, learned when nsaudit first
 * sees them (start-up snapshot, clone, unshare) or sees them die
 * (last_ref): a kfree'd one (kmalloc cache) is only told by its address,
 * and a released one's ns_id is gone from its memory (6.18 puts the RCU
 * head over ns_id; a dying mount namespace clears it). LRU: an entry
 * whose free is never seen (kfree_rcu) goes first; a live one evicted
 * costs only its released moment's ns_id, last_ref stays.
 */
struct freed_known {
	__u64 ns_id;
	__u32 inum;
	__u16 type;
	__u16 cleaned;	/* net: its cleanup was reported */
	/* released: the thread that freed it, 0 while it lives. Kept for
	 * that thread's holder free that follows (6.1, 6.12 free uts, time
	 * and cgroup inside free_nsproxy's puts, before the nsproxy), and
	 * for nothing else: a new namespace at the address is learned anew */
	__u32 rel_tid;
	__u32 pad;
};

/* the entry for a namespace learned alive, or released by this thread */
static __always_inline bool freed_is(const struct freed_known *k, __u32 inum, __u32 type,
				     bool by_me)
{
	if (!k || k->inum != inum || k->type != type)
		return false;
	return !k->rel_tid || (by_me && k->rel_tid == (__u32)bpf_get_current_pid_tgid());
}

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct freed_known);
} freed_addrs SEC(".maps");

/* A learned namespace has its identity: its ns_id, or where the kernel
 * has none (6.1 to 6.17) its inode, which the kernel does not give to
 * another namespace while this one lives (the entry goes at its free). */
static __always_inline bool freed_named(const struct freed_known *k)
{
	if (bpf_core_field_exists(struct ns_common, ns_id))
		return k->ns_id != 0;
	return k->inum != 0;
}

/* last_ref once per namespace: two holders on two CPUs may both see 0. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u8);
} freed_seen SEC(".maps");

/* How freed_check is asked: ns (of type) lost its last reference, if its
 * count is 0 (a record, once, and its address learned for the kfree that
 * follows), and with FREED_LET_GO a holder went if it is not. */
#define FREED_OWN_ACTOR	1u	/* the current task let go: it is the actor */
#define FREED_STRICT	2u	/* from a merged cache: a learned namespace only */
#define FREED_LET_GO	4u	/* the holder's put is done: a count left is told */
#define FREED_NO_LAST	8u	/* not a last_ref (mnt's nsfs inode, see freed_inode) */

/* the check of a namespace whose holder went (freed.bpf.c) */
int freed_check(__u64 ns_addr, __u32 type, __u32 holder, __u32 how, __u32 probe);

#endif
