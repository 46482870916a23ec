/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emit.bpf.h - the one way a record leaves the kernel.
 *
 *   event_ns()      filter (op, type), reserve, fill actor and namespace:
 *                   for records that go out at once (paths, fork, ns_free)
 *   commit_key()    for the records of a thread's own syscalls (setns,
 *                   unshare, nsfd, query, failed clone; open with its
 *                   path: commit_path()): coalesced with the thread's
 *                   previous record when identical
 *   held_flush()    send a thread's held (coalesced) record
 *
 * Two rings: "events" for successful setns (the only record a process can
 * make at millions per second) and "rare" for everything else, so a setns
 * flood cannot crowd out an unshare, a mount or a failure. Past a fill
 * threshold each ring takes records only from actors with budget left
 * (actor_budget.bpf.h). Every record the rings do not take is counted per
 * actor and reason (calls, not records: a coalesced record that is lost
 * counts its repeat).
 *
 * Included by every part of the tracer's object; what it declares
 * extern is defined once, in nsaudit.bpf.c. Where a thread's state lives:
 * tslot.bpf.h.
 */
#ifndef NSAUDIT_EMIT_BPF_H
#define NSAUDIT_EMIT_BPF_H

#include "rings.bpf.h"
#include "actor_budget.bpf.h"
#include "tstate.bpf.h"
#include "actor.bpf.h"
#include "tslot.bpf.h"

/* A record's path (open), whole words: compared and copied as such. */
struct path_buf {
	__u64 w[NSAUDIT_PATH_LEN / 8];
};

/*
 * Whether a user string read into room bytes (n: what
 * bpf_probe_read_user_str() returned) goes on past them: the room is full
 * and the string's byte at room - 1, where the copy put its NUL, is none.
 * A path of exactly room - 1 bytes is whole. A path may be PATH_MAX long;
 * a record holds its first bytes and says so (NSAUDIT_F_PATH_CUT).
 */
static __always_inline bool user_str_cut(long n, __u64 ustr, __u32 room)
{
	char next = 0;

	if (n < (long)room)
		return false;
	bpf_probe_read_user(&next, 1, (void *)(ustr + room - 1));
	return next != 0;
}

/*
 * The path of a thread's held record, when it has one: its own task
 * storage, made only for threads that repeat opens of nsfs files, so that
 * every other thread's tstate stays short.
 */
struct held_path_map {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct path_buf);
};
extern struct held_path_map held_path SEC(".maps");

/* Where a call's path is read (too big for the stack next to its key). */
struct path_scratch_map {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct path_buf);
};
extern struct path_scratch_map path_scratch SEC(".maps");

/* A record's first NSAUDIT_EVENT_SHORT bytes: what every record has. A
 * global subprogram's pointer argument is memory of the pointee's size,
 * and short records are no bigger than this. */
struct ev_short {
	__u64 w[NSAUDIT_EVENT_SHORT / 8];
};

/* The actor: what every record carries about who did it. A global
 * subprogram: verified once per program, not at each of its call sites. */
int fill_actor(struct ev_short *head);

/*
 * Wake the reader only when this record makes the ring cross the fill
 * threshold. Waking on every record above it would cost the traced task
 * ~3 us per record whenever the reader falls behind; below it, the reader
 * drains on its own poll timeout.
 */
static __always_inline void ring_submit(void *ring, __u64 threshold, void *e)
{
	__u64 avail = bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA);
	__u64 flags = BPF_RB_NO_WAKEUP;

	if (avail >= threshold && avail < threshold + 2 * sizeof(struct nsaudit_event))
		flags = BPF_RB_FORCE_WAKEUP;
	bpf_ringbuf_submit(e, flags);
}

static __always_inline void event_submit(struct nsaudit_event *e)
{
	if (is_rare(e->op, e->result))
		ring_submit(&rare, rare_wakeup_bytes, e);
	else
		ring_submit(&events, wakeup_bytes, e);
}

/*
 * Space for one record of size bytes in the ring its kind goes to, if the
 * actor's budget allows (actor_budget.bpf.h: asked only past the ring's
 * fill threshold); what is not written is counted for the actor: calls,
 * the record's repeat.
 */
static __always_inline struct nsaudit_event *ring_reserve(bool rare_rec, __u64 size, __u64 calls,
							  const struct actor *a, __u32 *why)
{
	struct nsaudit_event *e = NULL;
	__u32 reason;

	if (rare_rec) {
		if (bpf_ringbuf_query(&rare, BPF_RB_AVAIL_DATA) >= rare_budget_bytes &&
		    actor_budget_spent(a)) {
			reason = NSAUDIT_LOST_BUDGET;
			goto refused;
		}
		e = bpf_ringbuf_reserve(&rare, size, 0);
	} else {
		if (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= main_budget_bytes &&
		    actor_budget_spent(a)) {
			reason = NSAUDIT_LOST_BUDGET;
			goto refused;
		}
		e = bpf_ringbuf_reserve(&events, size, 0);
	}
	/* why: the caller counts (held_send(), rec_direct(): why holds the full
	 * ring's reason, set before); nothing may come between the reservation
	 * and its NULL test there (see lost_count()), nor deepen their frames */
	if (!e && !why)
		lost_count(a, rare_rec ? NSAUDIT_LOST_RARE_RING : NSAUDIT_LOST_RING, calls);
	return e;
refused:
	if (why)
		*why = reason;
	else
		actor_lost_count(a, reason, calls);
	return NULL;
}

/* Copy n bytes (a multiple of 8, known at compile time) as words. */
static __always_inline void copy_words(void *dst, const void *src, int n)
{
	int i;

#pragma unroll
	for (i = 0; i < n / 8; i++)
		((__u64 *)dst)[i] = ((const __u64 *)src)[i];
}

/*
 * Send the thread's held record (the caller owns the slot); a full ring
 * counts its calls as lost. Used by the thread itself (a different record
 * follows: commit_rec()), by its exit, and by the reader's timer (iter/task,
 * another CPU: held_flush()). A global subprogram: inlined, the verifier
 * walked its four ways (path or not, which ring) again at each caller.
 */
int held_send(struct tstate *ts, struct path_buf *hp);

/* held_send() and rec_direct() return 0, or 1 + the reason a record was
 * not taken (enum nsaudit_lost_reason): their caller counts it. */

/*
 * Global subprograms (non-static, noinline): the verifier checks each once
 * per program instead of at every call site, which keeps the load (attach
 * time) short. 6.1's rules for them: scalar return, pointer arguments are
 * memory of the pointee's size that may be NULL (checked first thing).
 */
int held_flush(struct tstate *ts, struct path_buf *hp);

/* Send the held record of task's state ts, if one waits (its path, if
 * any, from the task's held_path). */
static __always_inline void held_flush_ts(struct tstate *ts, struct task_struct *task)
{
	if (ts->held_state == HELD_IDLE)
		held_flush(ts, ts->held_has_path ? bpf_task_storage_get(&held_path, task, 0, 0)
						  : NULL);
}

/* Send a task's held record. */
static __always_inline void held_flush_task(struct task_struct *task)
{
	struct tstate *ts = tstate_find(task, false);

	if (ts)
		held_flush_ts(ts, task);
}

/* Before any other record of the current thread: its held one goes first. */
static __always_inline void held_flush_current(void)
{
	struct tstate *ts;

	if (!coalesce)
		return;
	ts = tstate_find_cur(false);
	if (ts)
		held_flush_ts(ts, bpf_get_current_task_btf());
}

/*
 * Reserve a record of size bytes (NSAUDIT_EVENT_SHORT, _PATH, or the whole
 * struct) and fill what every record carries. rare_rec: which ring.
 */
static __always_inline struct nsaudit_event *event_reserve(__u32 op, __u32 probe, __u64 size,
							   bool rare_rec)
{
	struct nsaudit_event *e;
	struct actor a;

	held_flush_current();
	actor_current(&a, op);
	e = ring_reserve(rare_rec, size, 1, &a, NULL);
	if (!e)
		return NULL;
	__builtin_memset(e, 0, NSAUDIT_EVENT_SHORT);
	e->ts_boot_ns = bpf_ktime_get_boot_ns();
	e->kseq = __sync_fetch_and_add(&next_kseq, 1) + 1;
	e->op = op;
	e->probe = probe;
	e->ns_type = NSAUDIT_NS_UNKNOWN;
	e->fd = -1;
	fill_actor((struct ev_short *)e);
	if (size > NSAUDIT_EVENT_SHORT)
		e->path[0] = '\0';
	if (size > NSAUDIT_EVENT_PATH)
		e->src_path[0] = '\0';
	return e;
}

/* The namespace a record is about: identity, reference count. */
static __always_inline void event_set_ns(struct nsaudit_event *e, struct ns_common *ns)
{
	if (!ns)
		return;
	ns_ident(ns, &e->ns_inum, &e->ns_id);
	e->ns_refs = ns_refcount(ns);
	e->flags |= NSAUDIT_F_HAS_NS;
}

static __always_inline void event_set_old(struct nsaudit_event *e, struct ns_common *ns)
{
	if (!ns)
		return;
	ns_ident(ns, &e->old_inum, &e->old_ns_id);
	e->flags |= NSAUDIT_F_HAS_OLD;
}

/*
 * The pattern every hook had: filter on op and type, reserve, fill the
 * actor and the namespace (ns may be NULL: unknown yet). Then the caller
 * sets what is its own and calls event_submit().
 */
static __always_inline struct nsaudit_event *
event_ns(__u32 op, __u32 probe, __u32 type, struct ns_common *ns, __u64 size, bool rare_rec)
{
	struct nsaudit_event *e;

	if (!op_wanted(op) || !type_wanted(type))
		return NULL;
	e = event_reserve(op, probe, size, rare_rec);
	if (!e)
		return NULL;
	e->ns_type = type;
	event_set_ns(e, ns);
	return e;
}

static __always_inline bool key_equal(const struct nsaudit_event *held, const struct ev_key *k)
{
	const __u64 *a = (const void *)held + NSAUDIT_EVENT_KEY, *b = (const void *)k;
	__u64 diff = 0;
	int i;

#pragma unroll
	for (i = 0; i < (int)(sizeof(*k) / 8); i++)
		diff |= a[i] ^ b[i];
	return diff == 0;
}

/*
 * A short record of one call, from its key: into the held slot (kseq 0: it
 * gets one when sent) or straight into a reserved ring record.
 */
static __always_inline void short_fill(struct nsaudit_event *e, const struct ev_key *k, __u64 now,
				       __u32 refs, __u64 kseq, const struct pending *p)
{
	e->ts_boot_ns = now;
	e->last_ts_boot_ns = 0;
	e->repeat = 1;
	e->kseq = kseq;
	e->count = 0;
	e->ns_refs = refs;
	e->mnt_ns_inum = 0;
	e->lost_reason = 0;
	fill_actor((struct ev_short *)e);
	copy_words((void *)e + NSAUDIT_EVENT_KEY, k, sizeof(*k));
	actor_before(e, p);
}

/*
 * Not unrolled: unrolled, clang keeps the 32 words' differences in stack
 * slots (256 bytes of commit_rec's frame), which put setns's chain of calls
 * past the 512-byte combined stack that 6.1's verifier allows.
 */
static __always_inline bool path_equal(const struct path_buf *a, const struct path_buf *b)
{
	int i;

#pragma clang loop unroll(disable)
	for (i = 0; i < NSAUDIT_PATH_LEN / 8; i++)
		if (a->w[i] != b->w[i])
			return false;
	return true;
}

/*
 * The scheduler's clock of when the current thread last ran on (its
 * exec_start, moved at each of its CPU's ticks and each time it is
 * scheduled): a tick that the thread's own task_struct page tells,
 * where jiffies is a page of its own (~10 ns of setns' repeat here).
 */
static __always_inline __u64 held_tick(void)
{
	return bpf_get_current_task_btf()->se.exec_start;
}

/* The held record counts one more call: the clock is read for the first
 * repeat and then once per tick (held_tick), not per call: on a VM's
 * kvm-clock one read costs more than the rest of the repeat (~125 ns,
 * bpf_stats on 6.18). last_ts_boot_ns is so the last call to within one
 * tick of its CPU (1/HZ; a CPU without ticks, nohz_full, has one a
 * second), never after it, and after ts_boot_ns. */
static __always_inline void held_repeat(struct tstate *ts)
{
	__u64 j = held_tick();

	if (HELD(ts)->repeat == 1 || j != ts->held_tick) {
		HELD(ts)->last_ts_boot_ns = bpf_ktime_get_boot_ns();
		ts->held_tick = j;
	}
	HELD(ts)->repeat++;
}

/*
 * A short record identical to the thread's held one counts one more call
 * there, without commit_rec(): a global subprogram is code of its own,
 * and each page of code a call touches costs it (the TLB is cold after
 * every syscall on machines with PTI and no PCID). True if counted; else
 * commit_key() decides (it is the same test, under the same lock).
 */
static __always_inline bool held_repeat_short(struct tstate *ts, const struct ev_key *k,
					      bool coal)
{
	if (!coal || ts->held_has_path || !key_equal(HELD(ts), k) ||
	    __sync_val_compare_and_swap(&ts->held_state, HELD_IDLE, HELD_OWNER) != HELD_IDLE)
		return false;
	held_repeat(ts);
	held_release(&ts->held_state, HELD_OWNER, HELD_IDLE);
	return true;
}

/*
 * One record sent at once (no coalescing, or the held slot is busy); p:
 * the thread's pending call, NULL without a thread state. A global
 * subprogram: commit_rec() reaches it by four paths, each of which the
 * verifier walked through it again.
 */
int rec_direct(const struct ev_key *k, __u32 refs, const struct path_buf *path,
	       const struct pending *p);

/*
 * A record of the current thread's own syscall, described by its key
 * (refs: the namespace's reference count, kept from the first call) and,
 * for an open, its path. If it is identical to the thread's held record
 * (key and path), that one counts one more call; else the held one is
 * sent and this one is held. Without coalescing, without a thread state
 * (ts NULL) or a place for the path (hp NULL), or when the reader's flush
 * holds the slot right now, it is sent at once. hp: the thread's
 * held_path, needed when the held record or this one has a path.
 */
int commit_rec(struct tstate *ts, const struct ev_key *k, __u32 refs,
			  const struct path_buf *path, struct path_buf *hp);

/* A short record of the current thread's own syscall (see commit_rec). */
static __always_inline void commit_key(struct tstate *ts, const struct ev_key *k, __u32 refs)
{
	struct path_buf *hp = NULL;

	if (ts && ts->held_has_path)
		hp = bpf_task_storage_get(&held_path, bpf_get_current_task_btf(), 0, 0);
	commit_rec(ts, k, refs, NULL, hp);
}

/*
 * A record with a path (open) of the current thread: coalesced like the
 * short ones, its path kept in the thread's held_path (made here, the
 * first time the thread repeats such a call).
 */
static __always_inline void commit_path(const struct ev_key *k, __u32 refs,
					const struct path_buf *path)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct tstate *ts = NULL;
	struct path_buf *hp = NULL;

	if (coalesce) {
		ts = tstate_find_cur(true);
		hp = bpf_task_storage_get(&held_path, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	}
	commit_rec(ts, k, refs, path, hp);
}

/* A key for op by the current thread, the rest zero. The ids are loads
 * from the task (the JIT inlines bpf_get_current_task_btf(); the
 * pid/tgid helper is a call). */
static __always_inline void key_init(struct ev_key *k, __u32 op, __u32 probe)
{
	struct task_struct *task = bpf_get_current_task_btf();

	__builtin_memset(k, 0, sizeof(*k));
	k->op = op;
	k->probe = probe;
	k->ns_type = NSAUDIT_NS_UNKNOWN;
	k->fd = -1;
	k->pid = task->tgid;
	k->tid = task->pid;
}

#endif /* NSAUDIT_EMIT_BPF_H */
