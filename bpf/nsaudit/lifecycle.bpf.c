// SPDX-License-Identifier: GPL-2.0
/*
 * lifecycle.bpf.c - a process's life as the other programs need it: the
 * path behind each executable (exec); at fork, a clone's new namespaces
 * and the child's birth slot; its held record sent before it goes (exit);
 * the reader's flush of held records; the start-up snapshot of who is
 * where; and (patched kernel) a namespace freed.
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
#include "exe_path.bpf.h"

/* ---- exec: the path behind each executable's identity ----------------- */

/*
 * Records carry only the identity of the actor's executable (a few loads);
 * user space turns it into a path through this map. Reading /proc/PID/exe
 * when the record is read would fail for the short-lived (ip netns add has
 * exited by then) and name the wrong program once the process has exec'd
 * (unshare CMD). LRU: a busy machine's executables, not its exec count.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);			/* a record's exe_key */
	__type(value, struct nsaudit_exe_hist);
} exe_paths SEC(".maps");

/* task gives up slot s, which (tid, start) holds: its held record is
 * sent and the slot freed (unless the reader's flush is still sending
 * from it: then the next thread with this tid takes it). */
static __always_inline void tslot_release(struct tslot *s, __u64 start, struct task_struct *task)
{
	held_flush_ts(&s->ts, task);
	if (s->ts.held_state == HELD_EMPTY)
		tslot_free(s, start);
}

/* The exec'ing thread leaves slot s, if it is tagged with its old tid. */
static __always_inline void tslot_leave(struct tslot *s, __u32 old_tid, struct task_struct *task)
{
	__u64 start;

	if (!s)
		return;
	start = *(volatile __u64 *)&s->start;
	if (!start || start == TSLOT_BUSY || s->tid != old_tid)
		return;
	tslot_release(s, start, task);
}

/*
 * A thread other than the leader exec'd (de_thread): it has taken the
 * leader's tid and start time, so the slot it had (tagged with its old tid)
 * is no longer found as its own. It leaves that slot; its state under the
 * new identity has the namespaces it has now.
 */
static __always_inline void tstate_exec_move(__u32 old_tid)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct task_nsset set;
	struct tstate *ts;

	tslot_leave(tslot_of(old_tid, false), old_tid, task);
	tslot_leave(tslot_of(old_tid, true), old_tid, task);
	if (!setns_exit_only)
		return;
	ts = tstate_find_cur(true);
	if (ts) {
		task_nsset_btf(&set, task);
		cache_refill(ts, &set);
	}
}

/*
 * Every exec, always (not only when a record is wanted): the process may
 * make its namespace calls long after. Keyed by the exec (exe_key), not by
 * the file: a busybox binary run as sh, sleep and nsenter has one inode and
 * three paths, and a record must name its own process's.
 */
SEC("raw_tp/sched_process_exec")
int BPF_PROG(tp_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct nsaudit_exe_hist *old;
	struct nsaudit_exe_info *v;
	struct exe_walk_buf *w;
	struct ns_common *mnt;
	const char *interp;
	char next = 0;
	__u32 zero = 0;
	__u64 k;
	long n;

	if ((__u32)old_pid != (__u32)bpf_get_current_pid_tgid())
		tstate_exec_move(old_pid);
	k = exe_key_of((__u64)BPF_CORE_READ(p, mm, exe_file));
	w = bpf_map_lookup_elem(&exe_walk, &zero);
	if (!k || !w)
		return 0;
	/* the exec this key named until now stays, as the previous one */
	old = bpf_map_lookup_elem(&exe_paths, &k);
	if (old)
		bpf_probe_read_kernel(&w->hist.prev, sizeof(w->hist.prev), &old->cur);
	else
		__builtin_memset(&w->hist.prev, 0, sizeof(w->hist.prev));
	v = &w->hist.cur;
	v->ino = BPF_CORE_READ(bprm, file, f_inode, i_ino);
	v->exec_ns = bpf_ktime_get_boot_ns();
	v->mntns = 0;
	v->mntns_id = 0;
	v->flags = 0;
	v->path[0] = '\0';
	/* interp: the file finally run (a script's interpreter, not the script);
	 * longer than the record's room: its first bytes, marked cut */
	interp = BPF_CORE_READ(bprm, interp);
	n = bpf_probe_read_kernel_str(v->path, sizeof(v->path), interp);
	if (n == sizeof(v->path)) {
		bpf_probe_read_kernel(&next, 1, interp + sizeof(v->path) - 1);
		if (next)
			v->flags |= NSAUDIT_EXE_F_CUT;
	}
	/* relative names, fexecve's /dev/fd/N and busybox's /proc/self/exe
	 * say nothing: the file's own path, from its dentries (else none:
	 * the entry is written anyway, an older one for the key is stale) */
	if ((v->path[0] != '/' || word8(v->path) == word8("/dev/fd/") ||
	     (word8(v->path) & 0xffffffffffffULL) == (word8("/proc/..") & 0xffffffffffffULL)) &&
	    !exe_path_walk(BPF_CORE_READ(bprm, file), v->path, &v->flags))
		v->path[0] = '\0';
	/* the path is relative to the exec'ing thread's mount namespace */
	mnt = task_ns(p, NSAUDIT_NS_MNT);
	if (mnt)
		ns_ident(mnt, &v->mntns, &v->mntns_id);
	bpf_map_update_elem(&exe_paths, &k, &w->hist, BPF_ANY);
	return 0;
}

/*
 * Every exec, when the rules follow runtimes' lineage (lineage.bpf.h): a
 * trusted executable marks the task, any other file clears the mark. Its
 * own program: tp_exec returns early for the execs it cannot key.
 */
SEC("raw_tp/sched_process_exec")
int BPF_PROG(tp_exec_lineage, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	lineage_exec(BPF_CORE_READ(bprm, file));
	return 0;
}

/* ---- clone/clone3/fork with CLONE_NEW*: the child has other namespaces -- */

/*
 * One type of a clone: a record if the child has another namespace of it.
 * A global subprogram (verified once); the tasks come as plain numbers,
 * since 6.1 takes no struct task_struct pointer into one.
 */
__noinline int fork_type(__u64 parent_addr, __u64 child_addr, int t)
{
	struct task_struct *parent = (void *)parent_addr, *child = (void *)child_addr;
	struct ns_common *old_ns, *new_ns;
	struct nsaudit_event *e;

	if (t < 0 || t >= NSAUDIT_NS_MAX)
		return 0;
	old_ns = task_ns(parent, t);
	new_ns = task_ns(child, t);
	if (old_ns == new_ns || !new_ns)
		return 0;
	if (freed_wanted)
		freed_learn((__u64)new_ns, t);
	e = event_ns(NSAUDIT_OP_CLONE, NSAUDIT_PROBE_RAW_TP_FORK, t, new_ns, NSAUDIT_EVENT_SHORT,
		     true);
	if (!e)
		return 0;	/* counted in lost_reason */
	e->target_pid = BPF_CORE_READ(child, tgid);
	event_set_old(e, old_ns);
	if (t == NSAUDIT_NS_PID || t == NSAUDIT_NS_TIME)
		e->flags |= NSAUDIT_F_FOR_CHILDREN;
	event_submit(e);
	return 0;
}

/*
 * The child's birth slot, for setns' exit hook (only then): the child is
 * in set's namespaces (its parent's, when it has no new one). The child
 * is a raw_tp argument, a plain number: its few fields are probe-read.
 */
static __always_inline void fork_birth(const struct task_nsset *set, const bool btf,
				       __u64 child_addr)
{
	struct task_struct *child = (void *)child_addr;

	if (filter_tgid && BPF_CORE_READ(child, tgid) != filter_tgid)
		return;
	birth_write(set, btf, BPF_CORE_READ(child, pid), BPF_CORE_READ(child, start_boottime));
}

/* The same for a child in its parent's (the current task's) namespaces
 * when they are not all the host's by their nsproxy (a global
 * subprogram: out of the common path's pages). */
__noinline int fork_birth_cur(__u64 child_addr)
{
	struct task_nsset set;

	if (setns_exit_only) {
		task_nsset_btf(&set, bpf_get_current_task_btf());
		fork_birth(&set, true, child_addr);
	}
	return 0;
}

/* The same from the child's own namespaces, probe-read (a global
 * subprogram: its stack is not on fork_type's chain). */
__noinline int fork_birth_child(__u64 child_addr)
{
	struct task_nsset set;

	task_nsset(&set, (struct task_struct *)child_addr);
	fork_birth(&set, false, child_addr);
	return 0;
}

/* A fork with new namespaces (or, in no kernel we know, by another task
 * than the parent): the child's records, and its birth slot (a global
 * subprogram: out of the common path's page). */
__noinline int fork_new(__u64 parent_addr, __u64 child_addr)
{
	int t;

	if (op_wanted(NSAUDIT_OP_CLONE))
		for (t = 0; t < NSAUDIT_NS_MAX; t++)
			fork_type(parent_addr, child_addr, t);
	if (setns_exit_only)
		fork_birth_child(child_addr);
	return 0;
}

/*
 * Every fork on the machine: clone's records of the child's new
 * namespaces, and (setns traced at its exit alone) the child's birth
 * slot. One program for both, not a raw_tp and a tp_btf: a second program
 * run and a second walk to the child's task cost ~250 ns a fork here.
 */
SEC("raw_tp/sched_process_fork")
int BPF_PROG(tp_fork, struct task_struct *parent, struct task_struct *child)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	__u64 cur_addr = (__u64)cur;
	struct task_nsset set;
	struct birth_set *h;

	/*
	 * The common case, no new namespace: same nsproxy, same user ns.
	 * The parent is the current task (kernel_clone() fires the
	 * tracepoint): its side is plain loads, only the child's (an
	 * untyped raw_tp argument) is probe-read. The child's namespaces
	 * are then the parent's, also plain loads. cur_addr is opaque, or
	 * the compiler loads off the equal, untyped parent instead of cur.
	 */
	barrier_var(cur_addr);
	if (cur_addr == (__u64)parent) {
		task_nsset_btf(&set, cur);
		if (set.nsp == BPF_CORE_READ(child, nsproxy) &&
		    set.user == BPF_CORE_READ(child, cred, user_ns)) {
			/* the host's namespaces: two compares, and the slot
			 * (birth.bpf.h); h is there only when setns is
			 * traced at its exit alone. Any child, whatever
			 * filter_tgid says: a slot costs less than reading
			 * the filter's .rodata page. */
			h = birth_host();
			if (h && (__u64)set.nsp == h->nsproxy && (__u64)set.user == h->user)
				birth_slot_write(BPF_CORE_READ(child, pid),
						 BPF_CORE_READ(child, start_boottime),
						 birth_ref(BIRTH_SET_HOST, 2));
			else
				fork_birth_cur((__u64)child);
			return 0;
		}
	}
	fork_new((__u64)parent, (__u64)child);
	return 0;
}

/*
 * A marked task's child is marked too (lineage.bpf.h). Typed arguments
 * (tp_btf): task storage takes only those. Every other fork costs one
 * load. Loaded only when the rules follow lineage.
 */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(tp_fork_lineage, struct task_struct *parent, struct task_struct *child)
{
	struct lineage_val *l = lineage_get(parent), *c;

	if (!l)
		return 0;
	c = bpf_task_storage_get(&lineage_tasks, child, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!c) {
		__sync_fetch_and_add(&lineage_lost, 1);
		return 0;
	}
	c->root_size = l->root_size;
	c->flags = l->flags;
	return 0;
}

/* A thread's held (coalesced) record goes out before the thread does,
 * and its slot goes free: both, if a race at the start-up snapshot left
 * it two (a slot left owned by a thread gone is another tid's spare that
 * cannot be had). */
__noinline int thread_exit(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u64 start = task->start_boottime;
	__u32 tid = task->pid;
	struct tslot *s = tslot_of(tid, false);

	if (tslot_mine(s, tid, start))
		tslot_release(s, start, task);
	s = tslot_of(tid, true);
	if (tslot_mine(s, tid, start))
		tslot_release(s, start, task);
	return 0;
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(tp_exit_flush, struct task_struct *p)
{
	/* most threads never had a state: one load off the task (the rest
	 * is a global subprogram, out of this common path's code page) */
	if (cur_may_have_storage())
		thread_exit();
	return 0;
}

/*
 * The reader's timer: one pass over every thread sends the held records of
 * threads that went quiet (a coalesced record must not wait for the next
 * call of its thread). Run by bpf_iter_create() + read() every few polls.
 */
SEC("iter/task")
int flush_held(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;

	if (!task)
		return 0;
	held_flush_task(task);
	return 0;
}

/* The last reference went: the namespace itself is freed (patched kernel:
 * namespace:ns_free(nstype, ns), loaded where events/namespace/ exists). */
SEC("tp_btf/ns_free")
int BPF_PROG(tp_ns_free, unsigned int nstype, struct ns_common *ns)
{
	struct nsaudit_event *e;

	e = event_ns(NSAUDIT_OP_NS_FREE, NSAUDIT_PROBE_TP_NS_FREE, clone_flag_to_type(nstype),
		     ns, NSAUDIT_EVENT_SHORT, true);
	if (!e)
		return 0;
	e->arg = nstype;
	e->ns_refs = 0;	/* it is going: the count says nothing */
	event_submit(e);
	return 0;
}

/* ---- startup snapshot: who is where before we started ------------------ */

/* nsaudit.bpf.c: set by the loader once the start-up pass is taken */
extern __u32 snapshot_taken;

/*
 * The start-up pass gives every thread there before us its state (a
 * thread slot with its namespace cache), lineage and the host's birth
 * set. The same iterator runs again later for enrich (a task's namespaces
 * where /proc refuses us): then it only reads. Claiming slots and
 * refilling caches of running threads several times a second raced their
 * own hooks (a call pending in a slot taken again, a cache refilled
 * half-way through a setns) and took slots for threads already gone.
 */
SEC("iter/task")
int snapshot_tasks(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;
	struct nsaudit_task_snap s = {};
	bool first = !snapshot_taken;
	int t;

	if (!task)
		return 0;
	if (first) {
		cache_fill_task(task);
		lineage_note(task);
		if (setns_exit_only)
			birth_host_note(task);
	}
	/*
	 * One line per process, and one per thread that is in other namespaces
	 * than its leader (a thread's setns or unshare changes only its own):
	 * their mount namespaces and pins must be known too.
	 */
	if (task->pid != task->tgid &&
	    BPF_CORE_READ(task, nsproxy) == BPF_CORE_READ(task, group_leader, nsproxy))
		return 0;
	s.pid = task->tgid;
	s.tid = task->pid;
	s.ppid = BPF_CORE_READ(task, real_parent, tgid);
	s.uid = BPF_CORE_READ(task, cred, uid.val);
	s.start_boot_ns = BPF_CORE_READ(task, start_boottime);
	bpf_probe_read_kernel_str(s.comm, sizeof(s.comm), task->comm);
	s.exe_key = exe_key_of((__u64)BPF_CORE_READ(task, mm, exe_file));
	#pragma unroll
	for (t = 0; t < NSAUDIT_NS_MAX; t++) {
		struct ns_common *ns = task_ns(task, t);
		__u64 id;

		if (!ns)
			continue;
		ns_ident(ns, &s.inum[t], &id);
		/* what was there before us: its kfree must be known */
		if (first && freed_wanted && s.inum[t] < 0xeffffff0u) /* not a static init_*_ns */
			freed_learn((__u64)ns, t);
	}
	bpf_seq_write(seq, &s, sizeof(s));
	return 0;
}
