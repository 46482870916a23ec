// SPDX-License-Identifier: GPL-2.0
/*
 * nsaudit.bpf.c - the tracer's BPF object: the maps and globals its parts
 * share, defined once (emit.bpf.h, tslot.bpf.h, nscache.bpf.h and
 * nsfile.bpf.h declare them), and the global subprograms of emit.bpf.h,
 * tslot.bpf.h and nscache.bpf.h. The Makefile links this
 * file first: libbpf 1.1's static linker misplaces an extern map whose
 * definition comes in a later object. A map only one part uses is defined
 * in that part. The parts, one concern each, are linked into one object
 * and one skeleton (bpftool gen object):
 *
 *   setns.bpf.c          setns: the namespace entered and the one left;
 *                        the patched kernel's namespace:ns_change
 *   unshare_clone.bpf.c  unshare; clone/clone3 with CLONE_NEW* that failed
 *   pins_fd.bpf.c        pins by fd: open, NS_GET_* and pidfd ioctls,
 *                        pidfd_getfd, open_by_handle_at, nsfd
 *   pins_mount.bpf.c     pins by bind mount: mount, move_mount, umount
 *   lifecycle.bpf.c      exec; fork (a clone's new namespaces, a child's
 *                        birth slot); exit; the flush and snapshot
 *                        iterators; ns_free
 *
 * The Makefile links them in that order, which is the skeleton's program
 * order and so the order "nsaudit: ready (hooks: ...)" names the hooks in.
 *
 * Stock-kernel hook set (works under lockdown=integrity, no fentry, no
 * kprobes): the per-syscall tracepoints of the syscalls that touch
 * namespaces, and raw_tp/sched_process_fork for clone with CLONE_NEW*.
 * The per-syscall tracepoints are preferred to raw sys_enter/sys_exit:
 * those fire on every syscall and tax unrelated work.
 *
 * Each observation becomes one struct nsaudit_event per namespace type.
 * Records are submitted without a wakeup; the consumer polls with a short
 * timeout and we force a wakeup only when the ring is filling up. Per-event
 * wakeups cost the traced task more than everything else here together.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "nsaudit.h"
#include "nsaudit_core.bpf.h"
#include "emit.bpf.h"
#include "nscache.bpf.h"
#include "nsfile.bpf.h"
#include "lineage.bpf.h"
#include "seccomp.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Declared in emit.bpf.h, which says what each one is for. */
const volatile __u32 filter_tgid = 0;
const volatile __u32 op_mask = 0xffffffff;
const volatile __u32 type_mask = 0xffffffff;
const volatile __u64 wakeup_bytes = 1 << 20;
const volatile __u64 rare_wakeup_bytes = 1 << 18;
const volatile __u32 self_tgid = 0;
const volatile bool have_nsfd = false;
const volatile bool freed_wanted = false;
const volatile bool coalesce = true;
const volatile bool pidfd_ioctl_tp = false;
__u64 lost_events = 0;
__u64 lost_reason[NSAUDIT_LOST_MAX] = {};
__u64 next_kseq = 0;
__u64 nsfs_fops SEC(".data.nsfs") = 0;
__u32 prime_tgid = 0;
/* set by the loader once the start-up snapshot is taken: snapshot_tasks
 * runs again later only to read (lifecycle.bpf.c) */
__u32 snapshot_taken = 0;
/* Written by user space only, never by a program: the links a recorder
 * pinned, their number and the sum of their names' hashes, so that one
 * reusing the pins can tell that some were removed while none ran (its
 * programs gone, those calls unheard): tracer_pins.c, pin_owner.c. */
__u32 pinned_links = 0;
__u64 pinned_links_sum = 0;
struct events_map events SEC(".maps");
struct rare_map rare SEC(".maps");
struct held_path_map held_path SEC(".maps");
struct path_scratch_map path_scratch SEC(".maps");

/* Declared in tslot.bpf.h, which says what each one is for. */
struct tslots_map tslots SEC(".maps");
struct tslot_mark_map tslot_mark SEC(".maps");

/*
 * Whose child rare first counts an actor as (issue 47): its parent, or,
 * while the parent is younger than ANCHOR_AGE_NS, the nearest ancestor
 * that old, up to ANCHOR_DEPTH levels up, marked NSAUDIT_ANCHOR_TREE
 * (NSAUDIT_ANCHOR_YOUNG if none). A tree that gives each caller a parent
 * of its own (P forks a middle, the middle forks the caller) then counts
 * as one, P's young trees, not as thousands of quiet parents; and apart
 * from P's own children (a flood's first 100 ms, while P itself is young,
 * counts as its parent's young trees, not as that parent's children, a
 * quiet sibling of P among them). Budgets only: the record's ppid stays
 * its parent.
 */
#define ANCHOR_DEPTH	4
#define ANCHOR_AGE_NS	(100ULL * 1000000)

static __always_inline __u32 anchor_of(struct task_struct *task)
{
	struct task_struct *p = task->real_parent;
	__u64 now = bpf_ktime_get_boot_ns();
	__u32 tgid;
	int i;

	for (i = 0; i < ANCHOR_DEPTH; i++) {
		tgid = p->tgid;
		if (tgid <= 1 || now - p->group_leader->start_boottime >= ANCHOR_AGE_NS)
			return i ? tgid | NSAUDIT_ANCHOR_TREE : tgid;
		p = p->real_parent;
	}
	return NSAUDIT_ANCHOR_YOUNG;
}

__noinline int anchor_current(void)
{
	return (int)anchor_of(current_to_read());
}

/* The actor: what every record carries about who did it. A global
 * subprogram: verified once per program, not at each of its call sites. */
__noinline int fill_actor(struct ev_short *head)
{
	struct nsaudit_event *e = (void *)head;

	struct task_struct *task = current_to_read();
	__u64 id = bpf_get_current_pid_tgid();
	__u64 ugid = bpf_get_current_uid_gid();
	const struct cred *cred;
	struct file *exe;

	if (!head)
		return 0;
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->uid = (__u32)ugid;
	/* direct BTF loads: no helper call per pointer. Those off the task
	 * first, before any branch: each costs 6.18's verifier scans of the
	 * kernel's BTF by name, at every walk that reaches it */
	cred = task->cred;
	e->ppid = task->real_parent->tgid;
	e->anchor = anchor_of(task);
	exe = task->mm->exe_file; /* NULL for kernel threads: loads give 0 */
	actor_namespaces(e, task, cred);
	e->euid = cred->euid.val;
	e->auid = task_loginuid(task);
	e->cgroup_id = bpf_get_current_cgroup_id();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	e->exe_ino = exe->f_inode->i_ino;
	e->exe_dev = exe->f_inode->i_sb->s_dev;
	/* the verifier lets no arithmetic touch a pointer: through memory,
	 * it comes back a plain number (privileged programs may store one) */
	*(volatile __u64 *)&e->exe_key = (__u64)exe;
	e->exe_key = exe_key_of(*(volatile __u64 *)&e->exe_key);
	e->lineage = lineage_of_current();
	return 0;
}

/*
 * Loads off the current task that many call sites make, here once, off
 * current_to_read() (task_read.bpf.h: no BTF scans by 6.18's verifier).
 * Only this part may call bpf_rdonly_cast: libbpf 1.1's static linker
 * fails on an extern function that more than one part uses.
 */
__noinline int cur_may_have_storage(void)
{
	return task_may_have_storage(current_to_read());
}

/* The caller's mount namespace: the key of user space's mount table. */
__noinline __u32 cur_mnt_ns_inum(void)
{
	struct ns_common *ns = task_ns_btf(current_to_read(), NSAUDIT_NS_MNT);

	return ns ? ns->inum : 0;
}

#define NSA_SECCOMP_MODE_FILTER 2

/*
 * seccomp.bpf.h says when a call counts as refused by seccomp. The top
 * filter's action cache has bit nr set when every filter of the stack
 * allows nr whatever the arguments (seccomp_cache_prepare(): a stacked
 * filter starts from its predecessor's bits). A kernel without
 * CONFIG_SECCOMP_FILTER has no filters: nothing is refused there.
 */
__noinline int seccomp_refused(long nr, long ret)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	struct seccomp_filter *f;
	unsigned long word = 0;
	__u64 off;

	if (ret >= 0 || nr < 0 || nr >= 8 * 64)
		return 0;
	/* without CONFIG_SECCOMP_FILTER struct seccomp has no filter (and
	 * without CONFIG_SECCOMP no fields at all: the 6.1 guests') */
	if (!bpf_core_field_exists(t->seccomp.mode) || !bpf_core_field_exists(t->seccomp.filter))
		return 0;
	if (BPF_CORE_READ(t, seccomp.mode) != NSA_SECCOMP_MODE_FILTER)
		return 0;
	f = BPF_CORE_READ(t, seccomp.filter);
	if (!f)
		return 0;
	if (!bpf_core_field_exists(f->cache))
		return 1;	/* no cache to ask: the filter may refuse it */
	off = bpf_core_field_offset(f->cache.allow_native) + (nr / 64) * sizeof(word);
	if (bpf_probe_read_kernel(&word, sizeof(word), (void *)f + off))
		return 0;
	return !(word & (1UL << (nr % 64)));
}

/* The current task runs in the host's mount and pid namespaces (lineage). */
__noinline int cur_lineage_host(void)
{
	return lineage_host(current_to_read());
}

/*
 * Global subprograms (non-static, noinline): the verifier checks each once
 * per program instead of at every call site, which keeps the load (attach
 * time) short. 6.1's rules for them: scalar return, pointer arguments are
 * memory of the pointee's size that may be NULL (checked first thing).
 */
__noinline int tslot_claim(struct tslot *s, __u32 tid, __u64 start, __u32 tgid)
{
	__u64 old;

	if (!s || !start || start == TSLOT_BUSY)
		return 0;
	old = *(volatile __u64 *)&s->start;
	/* already this thread's: the start-up snapshot made it so for the
	 * thread (or the thread for itself: the snapshot's look came first)
	 * since the caller looked. Taken again, the state would be wiped,
	 * and with it a call pending since then: its exit would find no
	 * entry and the call would be neither a record nor a lost count */
	if (old == start && s->tid == tid)
		return 1;
	if (old == TSLOT_BUSY || (old && s->tid != tid))
		return 0;	/* another thread's, or being taken */
	if (__sync_val_compare_and_swap(&s->start, old, TSLOT_BUSY) != old)
		return 0;
	s->tid = tid;
	s->ops = ops_wanted_by(tgid);
	s->types = type_mask;
	s->cfg = (coalesce ? TCFG_COALESCE : 0) | (setns_exit_only ? TCFG_SETNS_EXIT_ONLY : 0);
	__builtin_memset(&s->ts, 0, sizeof(s->ts));
	/* published last, with a full barrier (an atomic compare-and-swap): who
	 * sees start sees the tid and the zeroed state */
	__sync_val_compare_and_swap(&s->start, TSLOT_BUSY, start);
	return 1;
}

/* ---- an actor's budget and losses (declared in actor_budget.bpf.h) ----- */

__noinline int actor_lost_count(const struct actor *a, __u32 reason, __u64 n)
{
	if (a)
		lost_count(a, reason, n);
	return 0;
}

/*
 * One token from a cell, GCRA: the cell holds when its bucket will be
 * full again ("tat"); a token is there while that is at most burst ahead
 * of now. Not atomic: two CPUs of one actor at once may both take the
 * last token, a bound off by one per CPU.
 */
static __always_inline bool cell_take(__u64 key, __u64 now, __u64 interval, __u64 burst)
{
	__u64 *tat = bpf_map_lookup_elem(&actor_budget, &key), t;

	if (!tat) {
		t = now + interval;
		bpf_map_update_elem(&actor_budget, &key, &t, BPF_ANY);
		return true;
	}
	t = *tat > now ? *tat : now;
	if (t - now > burst)
		return false;
	*tat = t + interval;
	return true;
}

/*
 * Rare first (issue 47): within one uid, a thread group that makes few
 * records keeps them when a sibling floods. Once its uid's bucket is
 * spent, a thread group with at most RARE_TOKENS of its own tokens in use
 * draws on its uid's reserve (an eighth of the uid's rate); what the
 * children of one parent draw from it is bounded too (a sixteenth), so a
 * fork flood, whose children are each new and quiet, shares one parent's
 * part of it. Three quarters of the reserve are for quiet parents (at
 * most RARE_TOKENS of their part in use), a quarter for any: however many
 * parents of a uid fork-flood at once, a quiet parent's children keep the
 * quiet part. A parent is the actor's anchor (anchor_of(): a tree of
 * young middles counts as its oldest ancestor's children). The same rule
 * as the log's budget (nsaudit/tracer/log_budget.c), at the rings. Cells:
 * kind 2 the uid's shared part, kind 4 its quiet part, kind 3 a parent's
 * part, kind 5 a uid's young trees' part.
 */
#define RARE_TOKENS 32

static __always_inline bool tgid_quiet(__u32 tgid, __u64 now)
{
	__u64 key = tgid, *tat = bpf_map_lookup_elem(&actor_budget, &key);

	return !tat || *tat <= now + RARE_TOKENS * tgid_interval_ns;
}

static __always_inline bool parent_quiet(__u64 key, __u64 now)
{
	__u64 *tat = bpf_map_lookup_elem(&actor_budget, &key);

	return !tat || *tat <= now + RARE_TOKENS * uid_interval_ns * 16;
}

static __always_inline bool rare_first(const struct actor *a, __u64 now)
{
	__u32 anchor = a->ppid;
	__u64 parent;
	bool quiet;

	if (!anchor || !tgid_quiet(a->pid, now))
		return false;
	if (anchor == ACTOR_ANCHOR_CURRENT)
		anchor = (__u32)anchor_current();
	/* the parent's cell: its anchor's; a uid's young trees are one */
	parent = anchor == NSAUDIT_ANCHOR_YOUNG ? (5ULL << 32) | a->uid : (3ULL << 32) | anchor;
	quiet = parent_quiet(parent, now);
	if (!cell_take(parent, now, uid_interval_ns * 16, uid_burst_ns))
		return false;
	if (quiet && cell_take((4ULL << 32) | a->uid, now, uid_interval_ns * 32 / 3, uid_burst_ns))
		return true;
	return cell_take((2ULL << 32) | a->uid, now, uid_interval_ns * 32, uid_burst_ns);
}

/* The thread group's token first (per-tgid before per-uid), then the
 * uid's, else, for a quiet thread group, the reserve. The clock is read
 * only here (the coarse clock is not a tracing program's helper). */
__noinline int actor_budget_spent(const struct actor *a)
{
	__u64 now;

	if (!a)
		return 0;
	now = bpf_ktime_get_ns();
	if (cell_take(a->pid, now, tgid_interval_ns, tgid_burst_ns) &&
	    (cell_take((1ULL << 32) | a->uid, now, uid_interval_ns, uid_burst_ns) ||
	     rare_first(a, now)))
		return 0;
	return 1;
}
__noinline int state_lost(__u32 op)
{
	struct actor a;

	actor_current(&a, op);
	actor_lost_count(&a, NSAUDIT_LOST_STORAGE, 1);
	return 0;
}

__noinline int held_send(struct tstate *ts, struct path_buf *hp)
{
	struct nsaudit_event *h, *e;
	__u32 why = 0;
	struct actor a;
	bool rare_rec;

	if (!ts)
		return 0;
	h = HELD(ts);
	a.pid = h->pid;
	a.uid = h->uid;
	a.op = h->op;
	a.ppid = h->anchor;
	a.comm = h->comm;
	rare_rec = is_rare(h->op, h->result);
	why = rare_rec ? NSAUDIT_LOST_RARE_RING : NSAUDIT_LOST_RING;

	/* two reservations of constant sizes: the verifier wants one */
	if (ts->held_has_path && hp) {
		e = ring_reserve(rare_rec, NSAUDIT_EVENT_PATH, h->repeat ?: 1, &a, &why);
		if (!e)
			return 1 + why;
		copy_words(e, h, NSAUDIT_EVENT_SHORT);
		copy_words(e->path, hp, NSAUDIT_PATH_LEN);
	} else {
		e = ring_reserve(rare_rec, NSAUDIT_EVENT_SHORT, h->repeat ?: 1, &a, &why);
		if (!e)
			return 1 + why;
		copy_words(e, h, NSAUDIT_EVENT_SHORT);
	}
	e->kseq = __sync_fetch_and_add(&next_kseq, 1) + 1;
	event_submit(e);
	return 0;
}

/* held_send()'s record the rings did not take (r: its return, 1 + the
 * reason): counted for the held record's actor, before the slot is used
 * again */
static __always_inline void held_lost(struct tstate *ts, int r)
{
	struct nsaudit_event *h = HELD(ts);
	struct actor a = { .pid = h->pid, .uid = h->uid, .op = h->op, .ppid = h->anchor,
			   .comm = h->comm };

	actor_lost_count(&a, (__u32)(r - 1), h->repeat ?: 1);
}

__noinline int held_flush(struct tstate *ts, struct path_buf *hp)
{
	int full;

	if (!ts)
		return 0;
	if (__sync_val_compare_and_swap(&ts->held_state, HELD_IDLE, HELD_FLUSHER) != HELD_IDLE)
		return 0;
	full = held_send(ts, hp);
	if (full)
		held_lost(ts, full);
	held_release(&ts->held_state, HELD_FLUSHER, HELD_EMPTY);
	return 0;
}

__noinline int rec_direct(const struct ev_key *k, __u32 refs, const struct path_buf *path,
			  const struct pending *p)
{
	struct nsaudit_event *e;
	__u32 why = 0;
	struct actor a;
	__u64 now = bpf_ktime_get_boot_ns();

	if (!k)
		return 0;
	why = is_rare(k->op, k->result) ? NSAUDIT_LOST_RARE_RING : NSAUDIT_LOST_RING;
	actor_current(&a, k->op);
	if (path) {
		e = ring_reserve(is_rare(k->op, k->result), NSAUDIT_EVENT_PATH, 1, &a, &why);
		if (!e)
			return 1 + why;
		copy_words(e->path, path, NSAUDIT_PATH_LEN);
	} else {
		e = ring_reserve(is_rare(k->op, k->result), NSAUDIT_EVENT_SHORT, 1, &a, &why);
		if (!e)
			return 1 + why;
	}
	short_fill(e, k, now, refs, __sync_fetch_and_add(&next_kseq, 1) + 1, p);
	event_submit(e);
	return 0;
}

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
__noinline int commit_rec(struct tstate *ts, const struct ev_key *k, __u32 refs,
			  const struct path_buf *path, struct path_buf *hp)
{
	__u64 st;
	int full;

	if (!k)
		return 0;
	if (!coalesce || !ts || (path && !hp))
		goto direct;	/* (no held_path: storage failed, rare enough to
				 * accept that the held record goes after it) */
	st = __sync_val_compare_and_swap(&ts->held_state, HELD_IDLE, HELD_OWNER);
	if (st == HELD_IDLE) {
		if (key_equal(HELD(ts), k) && ts->held_has_path == (path != NULL) &&
		    (!path || path_equal(hp, path))) {
			held_repeat(ts);
			held_release(&ts->held_state, HELD_OWNER, HELD_IDLE);
			return 0;
		}
		/* a change: the held record goes, this one takes its place */
		full = held_send(ts, hp);
		if (full)
			held_lost(ts, full);
	} else if (st != HELD_EMPTY || __sync_val_compare_and_swap(&ts->held_state, HELD_EMPTY,
								   HELD_OWNER) != HELD_EMPTY) {
		goto direct; /* the reader's flush is at it */
	}
	short_fill(HELD(ts), k, bpf_ktime_get_boot_ns(), refs, 0, &ts->p);
	ts->held_has_path = path != NULL;
	if (path && hp)
		copy_words(hp, path, NSAUDIT_PATH_LEN);
	ts->held_tick = held_tick();
	held_release(&ts->held_state, HELD_OWNER, HELD_IDLE);
	return 0;
direct:
	full = rec_direct(k, refs, path, ts ? &ts->p : NULL);
	if (full) {
		struct actor a;

		actor_current(&a, k->op);
		actor_lost_count(&a, (__u32)(full - 1), 1);
	}
	return 0;
}

/* Declared in nscache.bpf.h, which says what each one is for. */
const volatile bool setns_exit_only = false;

/* The global subprograms nscache.bpf.h declares: setns.bpf.c and
 * unshare_clone.bpf.c both call them. */

/*
 * The thread's namespace cache, filled whole from a namespace set (probe
 * reads: the set may be another task's). On a stock kernel setns has one
 * hook, at its exit, which takes the namespace the call left from this
 * cache: so it is filled for every thread at start (snapshot_tasks), and
 * again after a call that changed several types at once; a thread born
 * since has its birth_ns slot until its first change. A global
 * subprogram: verified once.
 */
__noinline int cache_fill(struct tstate *ts)
{
	struct task_nsset set;

	if (!ts)
		return 0;
	/* scalars here: a global subprogram takes no kernel pointer */
	set.nsp = (void *)ts->c_nsproxy;
	set.user = (void *)ts->c_userns;
	nsset_idents_as(&set, ts->cur_inum, ts->cur_id, false);
	ts->c_valid = (1u << NSAUDIT_NS_MAX) - 1;
	ts->c_changed = 1;
	return 0;
}

/* Remember the namespaces of the types in p->nsmask before the call
 * (a global subprogram: verified once). */
__noinline int pending_save_old(struct tstate *ts)
{
	struct task_nsset set;
	struct pending *p;
	int t;

	if (!ts)
		return 0;
	p = &ts->p;
	cache_check(ts, &set);
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		if (p->nsmask & (1u << t))
			cur_ns(ts, &set, t, &p->old_inum[t], &p->old_id[t]);
	}
	return 0;
}

/*
 * One record per namespace type the call was about: the namespace the task
 * has now (entered or created), and the one it had before. The slow path:
 * unshare, setns through a pidfd; setns of an nsfs fd takes setns_exit()
 * (setns.bpf.c).
 */
__noinline int emit_switch(struct tstate *ts, long ret)
{
	struct task_nsset set;
	struct pending *p;
	struct ev_key k;
	int t;

	if (!ts)
		return 0;
	p = &ts->p;
	task_nsset_btf(&set, current_to_read());
	if (!p->nsmask) {
		/* setns(-1, 0), a pidfd with flags 0, ...: the type is unknown */
		switch_key(&k, p, NSAUDIT_NS_UNKNOWN, ret);
		commit_key(ts, &k, 0);
		if (ret == 0)	/* something changed, we cannot say what */
			cache_refill(ts, &set);
		return 0;
	}
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		struct ns_common *ns;
		__u32 refs = 0;

		if (!(p->nsmask & (1u << t)) || !(type_mask & (1u << t)))
			continue;
		switch_key(&k, p, t, ret);
		if (ret == 0) {
			ns = nsset_ns_btf(&set, t);
			if (ns) {
				ns_ident_btf(ns, &k.ns_inum, &k.ns_id);
				refs = ns_refcount_btf(ns);
				k.flags |= NSAUDIT_F_HAS_NS;
				/* a new one: its identity for op freed */
				if (freed_wanted && p->op == NSAUDIT_OP_UNSHARE)
					freed_learn_cur(t);
			}
		}
		commit_key(ts, &k, refs);
	}
	/* the thread's namespaces changed: the cache is refilled whole */
	if (ret == 0)
		cache_refill(ts, &set);
	return 0;
}

/* Declared in birth.bpf.h, which says what each one is for. */
struct birth_map birth SEC(".maps");
struct birth_sets_map birth_sets SEC(".maps");

/* Declared in nsfile.bpf.h, which says what each one is for. */
struct fd_origins_map fd_origins SEC(".maps");

/* Declared in actor_budget.bpf.h, which says what each one is for. */
const volatile __u64 rare_budget_bytes = 1 << 19;
const volatile __u64 main_budget_bytes = 2 << 20;
const volatile __u64 tgid_interval_ns = 1000000000ULL / 256;
const volatile __u64 tgid_burst_ns = 1000000000ULL;
const volatile __u64 uid_interval_ns = 1000000000ULL / 1024;
const volatile __u64 uid_burst_ns = 1000000000ULL;
struct actor_lost_map actor_lost SEC(".maps");
struct lost_epoch_map lost_epoch SEC(".maps");
struct actor_budget_map actor_budget SEC(".maps");

/* Declared in actor.bpf.h, which says what each one is for. */
const volatile __u64 exe_key_salt = 1;
const volatile bool can_rdonly_cast = false;

/* Declared in lineage.bpf.h, which says what each one is for. */
const volatile bool lineage_on = false;
const volatile __u32 host_mntns_inum = 0;
const volatile __u32 host_pidns_inum = 0;
__u64 lineage_since SEC(".data") = ~0ULL;
__u64 lineage_lost = 0;
struct runtime_exes_map runtime_exes SEC(".maps");
struct lineage_map lineage_tasks SEC(".maps");
