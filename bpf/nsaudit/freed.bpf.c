// SPDX-License-Identifier: GPL-2.0
/*
 * freed.bpf.c - the moment a namespace dies, on stock kernels (op freed).
 *
 * The kernel says nothing when a namespace goes, but it frees memory
 * where a tracepoint sees it (kmem:kmem_cache_free, kmem:kfree), and
 * the memory of what held the namespace goes the same way:
 *
 *   last_ref  the holder that let go last is being freed and the
 *             namespace's count is 0: a task's nsproxy (exit, exec of a
 *             thread group, setns and unshare away: free_nsproxy puts
 *             each namespace, then frees the nsproxy) or an nsfs inode
 *             (the last bind mount gone) or an nsfs file (the last fd
 *             closed).
 *   let_go    a holder went and the namespace lives on (its count read
 *             then in ns_refs): a task's nsproxy, its nsfs inode (the
 *             nsfs dentry that all its fds and bind mounts share), or a
 *             socket of a net namespace (UNIX, TCP, UDP caches), as
 *             "nsaudit holders" counts them; for a namespace learned
 *             alive only. A socket that let go last is a last_ref too.
 *   released  the kernel's own free of the namespace: net returns to
 *             cache net_namespace from cleanup_net, pid to pid_namespace
 *             after a grace period; free_ipc, free_time_ns,
 *             free_cgroup_ns, free_uts_ns, free_user_ns kfree it, named
 *             by the call site (6.18 frees uts, time, cgroup and user
 *             with kfree_rcu in bulk, which no tracepoint sees: there
 *             last_ref is the moment).
 *
 * Costs on the two busiest free paths of the kernel: kmem_cache_free
 * compares the cache with the few it learned (by object size, then name,
 * once each); kfree compares the call site with the free functions'
 * ranges (from kallsyms, in .rodata) before any map look-up. An address
 * is a key only while its namespace lives: each match is checked against
 * the namespace's ns_id (6.18) or inode and type read from the object,
 * and the entry goes with it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "nsaudit.h"
#include "nsaudit_core.bpf.h"
#include "emit.bpf.h"
#include "freed_caches.bpf.h"
#include "freed_object.bpf.h"
#include "freed_known.bpf.h"
#include "freed_userns.bpf.h"
#include "freed_mount.bpf.h"
#include "freed_exit.bpf.h"

#define FREED_SITES 8
#define KCF NSAUDIT_PROBE_TP_KMEM_CACHE_FREE

/* Set by the loader (kallsyms): the free functions whose kfree call sites
 * free a namespace, [lo, lo + len), and the type each frees. */
const volatile __u64 kfree_site_lo[FREED_SITES] = {};
const volatile __u64 kfree_site_len[FREED_SITES] = {};
const volatile __u32 kfree_site_type[FREED_SITES] = {};
/* the site that is free_user_ns (its work item names the namespace) */
const volatile __s32 kfree_site_userns = -1;

/* cleanup_net's address (kallsyms; 0: not known, its hook stays out) */
const volatile __u64 cleanup_net_fn = 0;
/* file_free_rcu (6.1 to 6.6: a struct file is freed after a grace period,
 * not by the task that closed it): a filp freed from there has no actor */
const volatile __u64 filp_rcu_lo = 0;
const volatile __u64 filp_rcu_len = 0;

/* nsfs's file operations, learned from the first nsfs inode freed */
__u64 freed_nsfs_fops = 0;

/* A namespace nsaudit has seen: its address is a key from now until it
 * is freed. */
__noinline int freed_learn(__u64 ns_addr, __u32 type)
{
	struct ns_common *ns = (void *)ns_addr;
	struct freed_known k = { .type = type };
	__u64 obj;

	obj = ns_object(ns, type);
	if (!obj)
		return 0;
	ns_ident(ns, &k.inum, &k.ns_id);
	bpf_map_update_elem(&freed_addrs, &obj, &k, BPF_ANY);
	return 0;
}

/* The current thread's namespace of type (its pointer probe-read: a
 * plain number to the callee). */
__noinline int freed_learn_cur(__u32 type)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct ns_common *ns;

	if (type >= NSAUDIT_NS_MAX)
		return 0;
	ns = task_ns(task, type);
	if (ns)
		freed_learn((__u64)ns, type);
	return 0;
}

/* stage, holder, the count left (let_go; else 0), and no actor where the
 * hook ran in no holder's context (an RCU callback runs on whoever); then
 * sent. */
static __always_inline void freed_finish(struct nsaudit_event *e, __u32 stage, __u32 holder,
					 bool own_actor, __u32 refs)
{
	__u32 zero = 0;

	e->arg = stage | (holder << 8);
	e->ns_refs = refs;
	if (holder == NSAUDIT_FREED_BY_CHILD) {
		struct freed_child_ns *c = bpf_map_lookup_elem(&freed_child, &zero);

		if (c && c->inum) {
			e->old_inum = c->inum;
			e->old_ns_id = c->ns_id;
			e->flags |= NSAUDIT_F_HAS_OLD;
		}
	}
	if (!own_actor) {
		e->pid = 0;
		e->tid = 0;
		e->ppid = 0;
		e->anchor = 0;
		e->uid = 0;
		e->euid = 0;
		e->auid = (__u32)-1;
		e->exe_key = 0;
		e->comm[0] = '\0';
		e->flags |= NSAUDIT_F_NO_ACTOR;
	}
	event_submit(e);
}

/* One freed record, with the ns_id given (0: none), not read from the
 * object: by now its memory may hold something else there. */
static __always_inline void freed_emit_id(struct ns_common *ns, __u32 type, __u32 probe,
					  __u32 stage, __u32 holder, bool own_actor, __u64 id)
{
	struct nsaudit_event *e;

	e = event_ns(NSAUDIT_OP_FREED, probe, type, ns, NSAUDIT_EVENT_SHORT, true);
	if (!e)
		return;
	e->ns_id = id;
	freed_finish(e, stage, holder, own_actor, 0);
}

/*
 * A holder went and the namespace lives on with refs references: told
 * for a namespace learned alive (its inode and type still the object's),
 * so that each holder's going is in the log, as "holders" counts them.
 */
static __always_inline void freed_let_go(struct ns_common *ns, __u32 type, __u32 holder,
					 __u32 how, __u32 probe, __u32 refs)
{
	struct nsaudit_event *e;
	struct freed_known *k;
	__u32 inum;
	__u64 id, obj;

	ns_ident(ns, &inum, &id);
	obj = ns_object(ns, type);
	k = bpf_map_lookup_elem(&freed_addrs, &obj);
	if (!freed_is(k, inum, type, false) || !freed_named(k))
		return;
	id = k->ns_id;
	e = event_ns(NSAUDIT_OP_FREED, probe, type, ns, NSAUDIT_EVENT_SHORT, true);
	if (!e)
		return;
	e->ns_id = id;
	freed_finish(e, NSAUDIT_FREED_LET_GO, holder, how & FREED_OWN_ACTOR, refs);
}

__noinline int freed_check(__u64 ns_addr, __u32 type, __u32 holder, __u32 how, __u32 probe)
{
	struct ns_common *ns = (void *)ns_addr;
	struct freed_known *k;
	__u8 one = 1;
	__u32 inum, refs;
	__u64 id, key, obj;

	if (!ns || type >= NSAUDIT_NS_MAX)
		return 0;
	refs = ns_refcount(ns);
	if (refs && (how & FREED_LET_GO))
		freed_let_go(ns, type, holder, how, probe, refs);
	if (refs || (how & FREED_NO_LAST))
		return 0;
	ns_ident(ns, &inum, &id);
	/* the ns_id learned while it lived; a mount namespace's own is gone
	 * by now (put_mnt_ns puts its RCU head over it) */
	obj = ns_object(ns, type);
	k = bpf_map_lookup_elem(&freed_addrs, &obj);
	if (freed_is(k, inum, type, how & FREED_OWN_ACTOR))
		id = k->ns_id;
	else if (how & FREED_STRICT)
		return 0;
	else if (type == NSAUDIT_NS_MNT)
		id = 0;
	key = id ?: ns_addr ^ ((__u64)inum << 32);
	if (bpf_map_update_elem(&freed_seen, &key, &one, BPF_NOEXIST))
		return 0;
	if (k && k->rel_tid)	/* its memory went first: nothing follows */
		bpf_map_delete_elem(&freed_addrs, &obj);
	else if (obj) {	/* for the kfree or the cache free that follows */
		struct freed_known nk = { .ns_id = id, .inum = inum, .type = type };

		bpf_map_update_elem(&freed_addrs, &obj, &nk, BPF_ANY);
	}
	freed_emit_id(ns, type, probe, NSAUDIT_FREED_LAST_REF, holder, how & FREED_OWN_ACTOR, id);
	return 0;
}

/* how to check the namespaces of an object from cache i */
static __always_inline __u32 freed_how(int i, bool own_actor)
{
	return (own_actor ? FREED_OWN_ACTOR : 0) |
	       (freed_cache_merged & (1u << (i & 7)) ? FREED_STRICT : 0);
}

/*
 * A let_go of what the current task's own nsproxy (the one that replaced
 * the freed one: setns or unshare of another type) still names: the task
 * holds it still, no holder went (holders counts nsproxies, and the new
 * one took the reference the old one gave back). At exit it has none.
 */
#define FREED_GONE(cur, field, ns) \
	(FREED_LET_GO & ((cur) && (void *)BPF_CORE_READ(cur, field) == (void *)(ns) ? 0 : ~0u))
/* time: either slot of the new nsproxy may name it */
#define FREED_TIME_GONE(cur, ns) \
	(FREED_GONE(cur, time_ns, ns) & FREED_GONE(cur, time_ns_for_children, ns))

/* free_nsproxy: each namespace was put before the nsproxy is freed. */
__noinline int freed_nsproxy(__u64 addr)
{
	struct nsproxy *p = (void *)addr;
	struct task_struct *task = (void *)bpf_get_current_task();
	struct nsproxy *cur = BPF_CORE_READ(task, nsproxy);
	struct cgroup_namespace *cg = BPF_CORE_READ(p, cgroup_ns);
	struct time_namespace *tm = BPF_CORE_READ(p, time_ns);
	struct time_namespace *tmc = BPF_CORE_READ(p, time_ns_for_children);
	struct pid_namespace *pid = BPF_CORE_READ(p, pid_ns_for_children);
	struct mnt_namespace *mnt = BPF_CORE_READ(p, mnt_ns);
	struct uts_namespace *uts = BPF_CORE_READ(p, uts_ns);
	struct ipc_namespace *ipc = BPF_CORE_READ(p, ipc_ns);
	struct net *net = BPF_CORE_READ(p, net_ns);
	__u32 how = freed_how(FC_NSPROXY, true);

	if (uts)
		freed_check((__u64)&uts->ns, NSAUDIT_NS_UTS, NSAUDIT_FREED_BY_TASK,
			    how | FREED_GONE(cur, uts_ns, uts), KCF);
	if (ipc)
		freed_check((__u64)&ipc->ns, NSAUDIT_NS_IPC, NSAUDIT_FREED_BY_TASK,
			    how | FREED_GONE(cur, ipc_ns, ipc), KCF);
	if (mnt)
		freed_check((__u64)&mnt->ns, NSAUDIT_NS_MNT, NSAUDIT_FREED_BY_TASK,
			    how | FREED_GONE(cur, mnt_ns, mnt), KCF);
	if (pid)
		freed_check((__u64)&pid->ns, NSAUDIT_NS_PID, NSAUDIT_FREED_BY_TASK,
			    how | FREED_GONE(cur, pid_ns_for_children, pid), KCF);
	if (cg)
		freed_check((__u64)&cg->ns, NSAUDIT_NS_CGROUP, NSAUDIT_FREED_BY_TASK,
			    how | FREED_GONE(cur, cgroup_ns, cg), KCF);
	if (tm)
		freed_check((__u64)&tm->ns, NSAUDIT_NS_TIME, NSAUDIT_FREED_BY_TASK,
			    how | FREED_TIME_GONE(cur, tm), KCF);
	if (tmc && tmc != tm)
		freed_check((__u64)&tmc->ns, NSAUDIT_NS_TIME, NSAUDIT_FREED_BY_TASK,
			    how | FREED_TIME_GONE(cur, tmc), KCF);
	if (net) {
		freed_check((__u64)&net->ns, NSAUDIT_NS_NET, NSAUDIT_FREED_BY_TASK,
			    how | FREED_GONE(cur, net_ns, net), KCF);
		if (!cur)	/* an exit: no nsproxy of its own now */
			freed_exit_note((__u64)&net->ns);
	}
	return 0;
}

/*
 * An nsfs inode goes: its namespace was put at its eviction (the last fd
 * closed: freed_file saw that first; the last bind mount gone). Freed
 * after a grace period, on whatever runs then: no actor. A namespace that
 * lives on was let go by its nsfs dentry (let_go, all types). No last_ref
 * for mnt from its count here: putting a mount namespace waits for a grace
 * period itself, so an nsfs inode released earlier can be freed while the
 * task that really let go is still in free_nsproxy. A last bind mount
 * that an umount removed is told from the mark that umount made, with
 * the umounter (freed_mount.bpf.h), for every type.
 */
__noinline int freed_inode(__u64 addr)
{
	struct inode *ino = (void *)addr;
	struct ns_common *ns;
	__u32 type;

	if (BPF_CORE_READ(ino, i_sb, s_magic) != NSFS_MAGIC)
		return 0;
	/* its file operations are every nsfs file's: freed_file's compare */
	if (!freed_nsfs_fops)
		freed_nsfs_fops = (__u64)BPF_CORE_READ(ino, i_fop);
	ns = BPF_CORE_READ(ino, i_private);
	if (!ns)
		return 0;
	/* before any read of the namespace: 6.1 freed a mnt's already */
	if (freed_mount_last(addr, ns))
		return 0;
	type = ns_type(ns);
	freed_check((__u64)ns, type, NSAUDIT_FREED_BY_NSFS,
		    freed_how(FC_INODE, false) | FREED_LET_GO |
		    (type == NSAUDIT_NS_MNT ? FREED_NO_LAST : 0), KCF);
	return 0;
}

/*
 * A struct file goes (__fput, in the closing task, after it put its
 * dentry): an nsfs file's namespace may have gone with it, the closer let
 * go last. One read (f_op) for every other file. From file_free_rcu (6.1
 * to 6.6) the closer is long gone: the fd is the holder, without an actor.
 */
__noinline int freed_file(__u64 addr, __u64 call_site)
{
	struct file *f = (void *)addr;
	__u64 fops = (__u64)BPF_CORE_READ(f, f_op);
	struct ns_common *ns;

	/* learned from the loader's own open and close of an nsfs file at
	 * start (prime_tgid: tracer.c's prime_open_check) or from an nsfs
	 * inode freed (freed_inode); until then the inode's own free names
	 * the namespace, without the closer */
	if (!freed_nsfs_fops && prime_tgid && prime_tgid == bpf_get_current_pid_tgid() >> 32 &&
	    BPF_CORE_READ(f, f_inode, i_sb, s_magic) == NSFS_MAGIC)
		freed_nsfs_fops = fops;
	if (!fops || fops != freed_nsfs_fops)
		return 0;
	ns = BPF_CORE_READ(f, f_inode, i_private);
	if (ns)
		freed_check((__u64)ns, ns_type(ns), NSAUDIT_FREED_BY_FD,
			    freed_how(FC_FILP, call_site - filp_rcu_lo >= filp_rcu_len), KCF);
	return 0;
}

/*
 * A socket of one of the protocols' caches is freed (freed_caches.bpf.h):
 * __sk_destruct put its net namespace just before, so the count read now
 * is what is left. From an RCU callback, a timer or the closer: no actor.
 * Strict: a learned namespace only (a merged cache frees other objects).
 */
__noinline int freed_sock(__u64 addr)
{
	struct sock *sk = (void *)addr;
	struct net *net;

	if (!sock_net_ref(sk))
		return 0;	/* a kernel socket took no reference */
	net = BPF_CORE_READ(sk, __sk_common.skc_net.net);
	if (net)
		freed_check((__u64)&net->ns, NSAUDIT_NS_NET, NSAUDIT_FREED_BY_SOCKET,
			    FREED_STRICT | FREED_LET_GO, KCF);
	return 0;
}

/* A learned namespace's memory went: in a task (own), kept for that
 * thread's holder free that follows; else forgotten. */
static __always_inline void freed_released(struct freed_known *k, __u64 obj, bool own)
{
	if (!k)
		return;
	if (own)
		k->rel_tid = (__u32)bpf_get_current_pid_tgid();
	else
		bpf_map_delete_elem(&freed_addrs, &obj);
}

static __always_inline int freed_object_cache(__u32 type)
{
	switch (type) {
	case NSAUDIT_NS_NET:
		return FC_NET;
	case NSAUDIT_NS_PID:
		return FC_PID;
	case NSAUDIT_NS_UTS:
		return FC_UTS;
	}
	return FC_USER;
}

/* A namespace object returned to its own cache (net, pid; uts and user
 * where they are not kfree_rcu'd): the object says which. */
__noinline int freed_object(__u64 obj, __u32 type)
{
	struct ns_common *ns = object_ns(obj, type);
	struct freed_known *k;
	__u32 inum;
	__u64 id = 0, mem_id;

	if (!ns)
		return 0;
	ns_ident(ns, &inum, &mem_id);
	k = bpf_map_lookup_elem(&freed_addrs, &obj);
	if (!freed_is(k, inum, type, false))
		k = NULL;
	if (k)
		id = k->ns_id;
	else if (freed_how(freed_object_cache(type), false) & FREED_STRICT)
		return 0;
	/* net's ns_id shares its memory with the RCU head by now, and its
	 * inode may be another's already: only a net learned while it
	 * lived is named (by its inode where the kernel has no ns_id) */
	if (type == NSAUDIT_NS_NET && !(id || (k && freed_named(k) && k->inum == inum)))
		return 0;
	freed_emit_id(ns, type, NSAUDIT_PROBE_TP_KMEM_CACHE_FREE, NSAUDIT_FREED_RELEASED,
		      NSAUDIT_FREED_BY_KERNEL, type != NSAUDIT_NS_NET && type != NSAUDIT_NS_PID,
		      type == NSAUDIT_NS_NET ? id : (id ?: mem_id));
	freed_released(k, obj, type != NSAUDIT_NS_NET && type != NSAUDIT_NS_PID);
	return 0;
}

/* The free function at call site i freed ptr: one of ours if its address
 * is known and the object still says it is that namespace. */
__noinline int freed_kfree(__u64 ptr, __u32 type)
{
	struct freed_known *k = bpf_map_lookup_elem(&freed_addrs, &ptr);
	struct ns_common *ns;
	__u32 inum;
	__u64 id;

	if (!k || k->type != type || k->rel_tid)
		return 0;
	ns = object_ns(ptr, type);
	if (!ns)
		return 0;
	ns_ident(ns, &inum, &id);
	/* the inode and type (ns_id may be under the RCU head by now) */
	if (inum == k->inum && ns_type(ns) == type)
		freed_emit_id(ns, type, NSAUDIT_PROBE_TP_KFREE, NSAUDIT_FREED_RELEASED,
			      NSAUDIT_FREED_BY_KERNEL, 1, k->ns_id);
	freed_released(k, ptr, true);
	return 0;
}

/* kfree(call_site, ptr): ptr read only at a free function's call site */
SEC("tp_btf/kfree")
int tp_kfree(__u64 *ctx)
{
	unsigned long call_site = ctx[0];
	int i;

#pragma unroll
	for (i = 0; i < FREED_SITES; i++) {
		if (call_site - kfree_site_lo[i] < kfree_site_len[i]) {
			if (i == kfree_site_userns)
				return freed_userns_work(kfree_site_lo[i]);
			return freed_kfree(freed_ptr_arg(ctx), kfree_site_type[i]);
		}
	}
	return 0;
}

/* A work item ends: free_user_ns's pass (freed_userns.bpf.h). Its
 * function argument is read with a helper: 6.1 and 6.18 refuse a direct
 * load of it ("arg1 type FUNC_PROTO is not a struct"). */
SEC("tp_btf/workqueue_execute_end")
int tp_wq_end(__u64 *ctx)
{
	if (kfree_site_userns < 0 || freed_ptr_arg(ctx) != kfree_site_lo[kfree_site_userns & 7])
		return 0;
	return freed_userns_end(ctx[0]);
}

/*
 * cleanup_net starts: every net namespace whose last reference went
 * before is in its batch. Whatever let go of those nsaudit did not see
 * (a socket, a device, a timer), their count is 0 now: a last_ref
 * without a holder (once per namespace, as always), then the cleanup
 * moment. Only namespaces learned while they lived, whose object still
 * says so (type, inode, ns_id, count 0), are named.
 */
struct cleanup_ctx {
	__u64 n;
};

static long cleanup_one(void *map, __u64 *obj, struct freed_known *k,
			struct cleanup_ctx *c)
{
	struct ns_common *ns;
	__u32 inum;
	__u64 id;

	if (k->type != NSAUDIT_NS_NET || !freed_named(k) || k->cleaned || k->rel_tid)
		return 0;
	ns = object_ns(*obj, NSAUDIT_NS_NET);
	if (!ns || ns_refcount(ns) != 0)
		return 0;
	ns_ident(ns, &inum, &id);
	if (inum != k->inum || id != k->ns_id)
		return 0;
	freed_exit_tell((__u64)ns, inum);	/* an exit's claim first */
	freed_check((__u64)ns, NSAUDIT_NS_NET, NSAUDIT_FREED_BY_KERNEL, 0, NSAUDIT_PROBE_TP_WQ);
	freed_emit_id(ns, NSAUDIT_NS_NET, NSAUDIT_PROBE_TP_WQ, NSAUDIT_FREED_CLEANUP,
		      NSAUDIT_FREED_BY_KERNEL, 0, id);
	/* its memory waits for a later batch's end; the entry anew (a
	 * last_ref just told replaced it: k is the old element's memory,
	 * and a later batch would tell this cleanup again) */
	k = bpf_map_lookup_elem(&freed_addrs, obj);
	if (k)
		k->cleaned = 1;
	c->n++;
	return 0;
}

SEC("tp_btf/workqueue_execute_start")
int BPF_PROG(tp_wq_start, struct work_struct *work)
{
	struct cleanup_ctx c = {};
	__u64 fn = (__u64)work->func, key;

	if (fn != cleanup_net_fn) {
		/* free_user_ns's pass starts afresh: a stale one (its end
		 * not seen) at this work's address is not this one's */
		if (kfree_site_userns >= 0 && fn == kfree_site_lo[kfree_site_userns & 7]) {
			key = (__u64)work;
			bpf_map_delete_elem(&freed_userns, &key);
		}
		return 0;
	}
	bpf_for_each_map_elem(&freed_addrs, cleanup_one, &c, 0);
	return 0;
}

/*
 * A work item is queued: a net or user namespace's release, by its last
 * put, in the putter's context: the umounter's cleanup of the bind mount
 * that held it last (freed_mount_queued), or what a task's exit put after
 * its nsproxy (freed_exit_queued). One load and two compares for every
 * other work of the machine.
 */
SEC("tp_btf/workqueue_queue_work")
int tp_wq_queue(__u64 *ctx)
{
	struct work_struct *work = (void *)ctx[2];
	__u64 fn = (__u64)work->func, w = 0;
	__u32 type;

	if (fn == cleanup_net_fn)
		type = NSAUDIT_NS_NET;
	else if (kfree_site_userns >= 0 && fn == kfree_site_lo[kfree_site_userns & 7])
		type = NSAUDIT_NS_USER;
	else
		return 0;
	/* the callee takes a plain number: the work's address read again */
	bpf_probe_read_kernel(&w, sizeof(w), &ctx[2]);
	freed_mount_queued(w, type);
	if (type == NSAUDIT_NS_NET)
		freed_exit_queued();	/* once told, not again (freed_seen) */
	return 0;
}

/*
 * umount2()'s exit: a bind mount it removed may hold a mount namespace
 * last (freed_mount.bpf.h). The look-ups by id that could give one a new
 * holder meanwhile: ioctl NS_MNT_GET_NEXT/PREV (type 0xb7, nr 11, 12) and
 * open_by_handle_at, counted from entry to exit.
 */
SEC("tracepoint/syscalls/sys_exit_umount")
int tp_freed_umount(struct trace_event_raw_sys_exit *ctx)
{
	if (ctx->ret || !cleanup_mnt_fn)
		return 0;
	return freed_umount_marks();
}

SEC("tracepoint/syscalls/sys_enter_ioctl")
int tp_freed_ioctl(struct trace_event_raw_sys_enter *ctx)
{
	__u32 cmd = ctx->args[1];

	if (((cmd >> 8) & 0xff) == 0xb7 && ((cmd & 0xff) == 11 || (cmd & 0xff) == 12))
		freed_revive_enter();
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_ioctl")
int tp_freed_ioctl_exit(struct trace_event_raw_sys_exit *ctx)
{
	freed_revive_exit();
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_open_by_handle_at")
int tp_freed_handle(struct trace_event_raw_sys_enter *ctx)
{
	freed_revive_enter();
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_open_by_handle_at")
int tp_freed_handle_exit(struct trace_event_raw_sys_exit *ctx)
{
	freed_revive_exit();
	return 0;
}
