/* SPDX-License-Identifier: GPL-2.0 */
/*
 * actor_budget.bpf.h - fairness between actors on the rings, and losses
 * that name whose they were (issue 32).
 *
 * An actor is a thread group (tgid) and its uid (the kernel's, as the
 * initial user namespace sees it: every process an unprivileged user can
 * start, in any user namespace, has the same one). A ring is shared by
 * everyone; so that what one actor floods cannot take the room of
 * another's records, a ring that holds more than a fill threshold of
 * unread bytes takes a record only from an actor with budget left: one
 * token of its thread group's bucket AND one of its uid's. Below the
 * threshold nothing is looked up (the common case costs one ring query).
 * The buckets are GCRA cells (one u64 "theoretical arrival time" each), so
 * a bucket is one word and one compare; they refill with time, not with
 * the reader, so a slow reader delays records but a quiet actor still has
 * its whole burst when a flood has filled the ring to the threshold.
 *
 * A record that is not written (budget spent, ring full, no task storage)
 * is counted per (pid, uid, op, reason) with the actor's comm, in
 * actor_lost, under the epoch user space set (nsaudit.h); user space turns
 * each count into a lost record that names the actor. The global
 * per-reason counters (lost_reason[]) count the same calls, after the
 * per-actor ones: what could not be attributed (the map full) is what user
 * space finds in the global counter and not in the map, reported as an
 * anonymous lost record. Nothing is silent.
 *
 * Included once, by emit.bpf.h.
 */
#ifndef NSAUDIT_ACTOR_BUDGET_BPF_H
#define NSAUDIT_ACTOR_BUDGET_BPF_H

#include "rings.bpf.h"

/* Set by the loader before load (.rodata): the fill thresholds (bytes of
 * unread records) past which budgets apply, and the buckets: one token per
 * interval, at most burst tokens banked. Defaults for the 1 MiB reserve
 * ring: half of it free for all; past that, 256 records/s (burst 256) per
 * thread group and 1024/s (burst 1024) per uid. */
extern const volatile __u64 rare_budget_bytes;
extern const volatile __u64 main_budget_bytes;
extern const volatile __u64 tgid_interval_ns;
extern const volatile __u64 tgid_burst_ns;
extern const volatile __u64 uid_interval_ns;
extern const volatile __u64 uid_burst_ns;

/* Who a record is of: the current task (comm NULL: read it) or the actor a
 * held record names (a flush from another task's context). */
struct actor {
	__u32 pid;
	__u32 uid;
	__u32 op;
	__u32 ppid;	/* whose child rare first counts it as: the record's
			 * anchor (nsaudit.h), 0 if not known,
			 * ACTOR_ANCHOR_CURRENT the current task's */
	const char *comm;
};

struct actor_lost_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, struct nsaudit_actor_lost_key);
	__type(value, struct nsaudit_actor_lost_val);
};
extern struct actor_lost_map actor_lost SEC(".maps");

/* The epoch new counts go under (user space flips it, see nsaudit.h). */
struct lost_epoch_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
};
extern struct lost_epoch_map lost_epoch SEC(".maps");

/* Budget cells: key (kind << 32 | id), kind 0 tgid, 1 uid, 2 a uid's
 * reserve (the part any parent may use), 3 a parent's part of it, 4 the
 * reserve's part for quiet parents, 5 a uid's young trees' part (rare
 * first: nsaudit.bpf.c). LRU: an actor
 * that went quiet long ago is forgotten (and gets its burst back, which a
 * quiet actor has anyway). */
struct actor_budget_map {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, __u64);
};
extern struct actor_budget_map actor_budget SEC(".maps");

/* The current task's anchor (nsaudit.h): a global subprogram of
 * nsaudit.bpf.c, verified once */
int anchor_current(void);

/* actor.ppid for the current task's anchor, not yet walked: the walk
 * (up to four ancestors and a clock read) is needed only when a budget is
 * spent and rare first decides, not at every reservation. No tgid, with
 * or without NSAUDIT_ANCHOR_TREE, has this value (pids stay below 2^22). */
#define ACTOR_ANCHOR_CURRENT	0xFFFFFFFEU

static __always_inline void actor_current(struct actor *a, __u32 op)
{
	a->pid = bpf_get_current_pid_tgid() >> 32;
	a->uid = (__u32)bpf_get_current_uid_gid();
	a->op = op;
	a->ppid = ACTOR_ANCHOR_CURRENT;
	a->comm = NULL;
}

/*
 * Calls lost, per actor and reason, then in the global counters: inlined
 * where a ring record's reservation failed (a call between the reserve
 * and the caller's NULL test made clang test the record twice, and 6.1's
 * verifier cannot prune the second test on ring memory: "Unreleased
 * reference"); actor_lost_count() elsewhere.
 */
static __always_inline void lost_count(const struct actor *a, __u32 reason, __u64 n)
{
	struct nsaudit_actor_lost_key k = {};
	struct nsaudit_actor_lost_val *v;
	__u32 zero = 0, *ep;

	k.pid = a->pid;
	k.uid = a->uid;
	k.op = a->op;
	k.reason = reason;
	ep = bpf_map_lookup_elem(&lost_epoch, &zero);
	k.epoch = ep ? *ep & 1 : 0;
	v = bpf_map_lookup_elem(&actor_lost, &k);
	if (!v) {
		struct nsaudit_actor_lost_val nv = {};

		if (a->comm)
			bpf_probe_read_kernel(nv.comm, sizeof(nv.comm), a->comm);
		else
			bpf_get_current_comm(nv.comm, sizeof(nv.comm));
		bpf_map_update_elem(&actor_lost, &k, &nv, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&actor_lost, &k);
	}
	if (v)
		__sync_fetch_and_add(&v->count, n);
	if (reason < NSAUDIT_LOST_MAX)
		__sync_fetch_and_add(&lost_reason[reason], n);
	__sync_fetch_and_add(&lost_events, n);
}

/*
 * Calls lost, per actor and reason, then in the global counters. Global
 * subprograms (rare paths: a spent budget, a full ring): the verifier
 * checks each once per program, where inlined they were checked at each
 * of ring_reserve()'s call sites in every program that writes (a third
 * of the instructions it processed for commit_rec()). Pointer arguments
 * may be NULL (6.1's rule for global subprograms): checked first.
 */
int actor_lost_count(const struct actor *a, __u32 reason, __u64 n);

/*
 * The ring is past its threshold: may the actor write one record now?
 * Only with a token of its thread group and of its uid (or the reserve of
 * a quiet thread group); 1 if not, and the caller counts the calls lost.
 * A global subprogram, as actor_lost_count(), that calls none itself:
 * 6.1 allows 512 bytes of stack for a whole chain of calls, each frame
 * rounded up to 32, and tp_exit_umount -> ... -> held_send ->
 * actor_budget_spent -> actor_lost_count came to 544.
 */
int actor_budget_spent(const struct actor *a);

#endif /* NSAUDIT_ACTOR_BUDGET_BPF_H */
