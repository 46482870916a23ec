// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tracer_hooks.c - which programs load: the hook set for this kernel
 * (stock, patched with fentry, patched with tracepoints only) and the
 * operations asked for, and its name for "nsaudit: ready (hooks: ...)".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "array.h"
#include "probe/kfeatures.h"
#include "probe/ksyms.h"
#include "tracer_impl.h"

/* tp_exit_openat's other tracepoints: open(), openat2(). */
const struct open_sibling open_siblings[OPEN_SIBLINGS] = {
	{ "open", "sys_exit_open" },
	{ "openat2", "sys_exit_openat2" },
};

/* Which of them this kernel has (arm64 has no open); tp_exit_openat also
 * goes there. */
static void open_siblings_probe(struct tracer_bpf *b)
{
	int i;

	for (i = 0; i < OPEN_SIBLINGS; i++)
		b->open_sibling[i] = bpf_program__autoload(b->open_prog) &&
				     tracepoint_exists("syscalls", open_siblings[i].event);
#ifdef SYS_open
	b->skel->rodata->nr_open = SYS_open;
#endif
}

/*
 * tp_exit_openat's other attachments (open_siblings_probe()). 0, or a
 * negative errno.
 */
int tbpf_open_siblings_attach(struct tracer_bpf *b)
{
	int i;

	for (i = 0; i < OPEN_SIBLINGS; i++) {
		if (!b->open_sibling[i])
			continue;
		b->open_links[i] = bpf_program__attach_tracepoint(b->open_prog, "syscalls",
								  open_siblings[i].event);
		if (!b->open_links[i])
			return -errno;
	}
	return 0;
}

/* Add a syscall's name to the comma-separated list calls, once (a
 * syscall traced at its entry and exit is named once). */
static void add_call(char *calls, size_t size, const char *name)
{
	char tok[40], have[270];

	snprintf(tok, sizeof(tok), ",%s,", name);
	snprintf(have, sizeof(have), ",%s,", calls);
	if (!strstr(have, tok))
		snprintf(calls + strlen(calls), size - strlen(calls), "%s%s", calls[0] ? "," : "",
			 name);
}

/*
 * Name the hook set from the programs that will load, e.g.
 * "tracepoint/syscalls:setns,unshare,openat raw_tp/sched_process_fork".
 */
static void describe_hooks(struct tracer_bpf *b)
{
	static const char sys[] = "tracepoint/syscalls/sys_";
	char calls[TRACER_HOOKS_CALLS_LEN] = "", other[TRACER_HOOKS_OTHER_LEN] = "";
	struct bpf_program *p;
	int i;

	bpf_object__for_each_program(p, b->skel->obj) {
		const char *sec = bpf_program__section_name(p);

		if (!bpf_program__autoload(p))
			continue;
		if (strncmp(sec, sys, sizeof(sys) - 1)) {
			snprintf(other + strlen(other), sizeof(other) - strlen(other), " %s", sec);
			continue;
		}
		add_call(calls, sizeof(calls), strchr(sec + sizeof(sys) - 1, '_') + 1);
		if (p != b->open_prog)
			continue;
		for (i = 0; i < OPEN_SIBLINGS; i++)
			if (b->open_sibling[i])
				add_call(calls, sizeof(calls), open_siblings[i].name);
	}
	snprintf(b->hooks, sizeof(b->hooks), "%s%s%s",
		 calls[0] ? "tracepoint/syscalls:" : "", calls, calls[0] ? other : other + 1);
}

/* The socket structs whose caches op freed follows (freed_caches.bpf.h),
 * sized from the running kernel's BTF; a type it lacks stays 0 (off). */
static void freed_sock_sizes(struct nsaudit_bpf *s)
{
	static const char *const types[] = { "unix_sock", "tcp_sock", "tcp6_sock", "udp_sock",
					     "udp6_sock" };
	struct btf *btf = btf__load_vmlinux_btf();
	size_t i;

	_Static_assert(sizeof(types) / sizeof(types[0]) ==
			       sizeof(s->rodata->freed_sock_sizes) /
				       sizeof(s->rodata->freed_sock_sizes[0]),
		       "socket types");
	if (!btf)
		return;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		__s32 id = btf__find_by_name_kind(btf, types[i], BTF_KIND_STRUCT);
		__s64 size = id > 0 ? btf__resolve_size(btf, id) : 0;

		s->rodata->freed_sock_sizes[i] = size > 0 ? (uint32_t)size : 0;
	}
	btf__free(btf);
}

/*
 * op freed's umount exit, which marks a mount namespace held last by the
 * bind mount it removed, and the look-ups by id that void a mark
 * (bpf/nsaudit/freed_mount.bpf.h); without __cleanup_mnt's address they
 * stay out, and such a namespace's last holder is not told.
 */
static void choose_freed_mount_hooks(struct nsaudit_bpf *s, bool on)
{
	bpf_program__set_autoload(s->progs.tp_freed_umount, on);
	bpf_program__set_autoload(s->progs.tp_freed_ioctl, on);
	bpf_program__set_autoload(s->progs.tp_freed_ioctl_exit, on);
	bpf_program__set_autoload(s->progs.tp_freed_handle,
				  on && tracepoint_exists("syscalls", "sys_enter_open_by_handle_at"));
	bpf_program__set_autoload(s->progs.tp_freed_handle_exit,
				  on && tracepoint_exists("syscalls", "sys_exit_open_by_handle_at"));
}

/*
 * op freed (bpf/nsaudit/freed.bpf.c): the free functions whose kfree call
 * sites free a namespace, from kallsyms. Without them (no root view of
 * kallsyms) kfree's hook stays out: the kmem_cache_free one still gives
 * every last_ref and net's and pid's release.
 */
static void choose_freed_hooks(struct tracer_bpf *b, bool want)
{
	static const struct {
		const char *fn;
		uint32_t type;
	} fns[] = {
		{ "free_ipc", NSAUDIT_NS_IPC },	{ "free_time_ns", NSAUDIT_NS_TIME },
		{ "free_cgroup_ns", NSAUDIT_NS_CGROUP }, { "free_uts_ns", NSAUDIT_NS_UTS },
		{ "free_mnt_ns", NSAUDIT_NS_MNT }, { "mnt_ns_release", NSAUDIT_NS_MNT },
		{ "free_user_ns", NSAUDIT_NS_USER },
		{ "cleanup_net", NSAUDIT_NS_NET },	/* the workqueue hook's */
		/* 6.1 to 6.6 free a struct file after a grace period, on
		 * whatever task runs then: no closer there */
		{ "file_free_rcu", NSAUDIT_NS_MAX },
		/* a mount's cleanup, queued on the task that let it go: a
		 * mnt's last bind mount (bpf/nsaudit/freed_mount.bpf.h) */
		{ "__cleanup_mnt", NSAUDIT_NS_MNT },
	};
	/* the caches' own variables: a cache merged into another of its
	 * size (SLAB_MERGE_DEFAULT) has that one's name and size */
	static const char *const vars[NSAUDIT_FC_MAX] = {
		[NSAUDIT_FC_NET] = "net_cachep",	[NSAUDIT_FC_PID] = "pid_ns_cachep",
		[NSAUDIT_FC_NSPROXY] = "nsproxy_cachep", [NSAUDIT_FC_INODE] = "inode_cachep",
		[NSAUDIT_FC_UTS] = "uts_ns_cache",	[NSAUDIT_FC_USER] = "user_ns_cachep",
		[NSAUDIT_FC_FILP] = "filp_cachep",
	};
	enum { NF = sizeof(fns) / sizeof(fns[0]) };
	struct ksym_range r[NF + NSAUDIT_FC_MAX] = {};
	struct nsaudit_bpf *s = b->skel;
	size_t i, n = 0;

	_Static_assert(sizeof(fns) / sizeof(fns[0]) - 3 <= sizeof(s->rodata->kfree_site_lo) /
		       sizeof(s->rodata->kfree_site_lo[0]), "kfree sites");
	s->rodata->freed_wanted = want;
	bpf_program__set_autoload(s->progs.tp_kmem_cache_free, want);
	for (i = 0; i < NF; i++)
		r[i].name = fns[i].fn;
	for (i = 0; i < NSAUDIT_FC_MAX; i++) {
		r[NF + i].name = vars[i];
		r[NF + i].data = 1;
	}
	if (!want || ksym_ranges(r, NF + NSAUDIT_FC_MAX) <= 0) {
		bpf_program__set_autoload(s->progs.tp_kfree, false);
		bpf_program__set_autoload(s->progs.tp_wq_start, false);
		bpf_program__set_autoload(s->progs.tp_wq_end, false);
		bpf_program__set_autoload(s->progs.tp_wq_queue, false);
		choose_freed_mount_hooks(s, false);
		return;
	}
	for (i = 0; i < NSAUDIT_FC_MAX; i++)
		s->rodata->freed_cache_var[i] = r[NF + i].lo;
	freed_sock_sizes(s);
	for (i = 0; i < NF; i++) {
		if (!r[i].lo)
			continue;
		if (fns[i].type == NSAUDIT_NS_NET) {
			s->rodata->cleanup_net_fn = r[i].lo;
			continue;
		}
		if (!strcmp(fns[i].fn, "__cleanup_mnt")) {
			s->rodata->cleanup_mnt_fn = r[i].lo;
			continue;
		}
		if (fns[i].type == NSAUDIT_NS_MAX) {
			s->rodata->filp_rcu_lo = r[i].lo;
			s->rodata->filp_rcu_len = r[i].len;
			continue;
		}
		if (fns[i].type == NSAUDIT_NS_USER)
			s->rodata->kfree_site_userns = (int32_t)n;
		s->rodata->kfree_site_lo[n] = r[i].lo;
		s->rodata->kfree_site_len[n] = r[i].len;
		s->rodata->kfree_site_type[n] = fns[i].type;
		n++;
	}
	bpf_program__set_autoload(s->progs.tp_kfree, true);
	/* cleanup_net's start; the start and end of free_user_ns's pass (a
	 * parent its last child left alive) */
	bpf_program__set_autoload(s->progs.tp_wq_start, s->rodata->cleanup_net_fn != 0 ||
				  s->rodata->kfree_site_userns >= 0);
	bpf_program__set_autoload(s->progs.tp_wq_end, s->rodata->kfree_site_userns >= 0);
	/* their queueing: the last put's own context (a bind mount's
	 * umounter, an exit's task works) */
	bpf_program__set_autoload(s->progs.tp_wq_queue, s->rodata->cleanup_net_fn != 0 ||
				  s->rodata->kfree_site_userns >= 0);
	choose_freed_mount_hooks(s, s->rodata->cleanup_mnt_fn != 0);
}

/*
 * Decide which programs to load, and name the resulting hook set. On the
 * patched kernel (its nsfd sysctl, namespace:ns_change in BTF) setns,
 * unshare and clone get the kernel's old namespace from ns_change, with
 * fentry on sys_setns where allowed; everywhere else, the syscall
 * tracepoints.
 */
#define WANT_NSFD(t) ((t)->o.op_mask & (1u << NSAUDIT_OP_NSFD))

/* Some syscalls do not exist on every kernel (open on arm64, ...): their
 * programs stay out. */
static void skip_missing_syscalls(struct nsaudit_bpf *s)
{
	const struct {
		struct bpf_program *prog;
		const char *event;	/* syscalls/EVENT that must exist */
	} syscalls[] = {
		{ s->progs.tp_exit_move_mount, "sys_exit_move_mount" },
		{ s->progs.tp_enter_move_mount, "sys_enter_move_mount" },
		{ s->progs.tp_enter_clone3, "sys_enter_clone3" },
		{ s->progs.tp_exit_clone3, "sys_exit_clone3" },
		{ s->progs.tp_enter_pidfd_getfd, "sys_enter_pidfd_getfd" },
		{ s->progs.tp_exit_pidfd_getfd, "sys_exit_pidfd_getfd" },
		{ s->progs.tp_enter_open_by_handle_at, "sys_enter_open_by_handle_at" },
		{ s->progs.tp_exit_open_by_handle_at, "sys_exit_open_by_handle_at" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(syscalls); i++)
		if (!tracepoint_exists("syscalls", syscalls[i].event))
			bpf_program__set_autoload(syscalls[i].prog, false);
}

void tbpf_choose_hooks(struct tracer *t)
{
	struct nsaudit_bpf *s = t->bpf.skel;
	struct features ft;
	bool patched, fentry, nstp, exit_only, vpid;

	skip_missing_syscalls(s);
	features_probe(&ft, true);
	patched = ft.have[FEAT_SYS_NSFD] && ft.have[FEAT_NS_CHANGE];
	fentry = patched && ft.have[FEAT_FENTRY];
	nstp = ft.have[FEAT_NS_TRACEPOINTS];
	/* NSAUDIT_HOOKS=stock: a stock kernel's hook set on any kernel (the
	 * guest tests load it on the patched 6.1 this way) */
	if (getenv("NSAUDIT_HOOKS") && !strcmp(getenv("NSAUDIT_HOOKS"), "stock"))
		patched = fentry = nstp = false;
	s->rodata->have_nsfd = ft.have[FEAT_SYS_NSFD];
	s->rodata->nsfd_fexit = fentry;
	/* where tp_btf/nsfd records the pidfd ioctls, the ioctl hook does not */
	s->rodata->pidfd_ioctl_tp = nstp && patched && WANT_NSFD(t);
	/* an operation nobody asked for costs nothing: its hooks stay out
	 * (the open hooks alone tax every open on the machine) */
#define WANT(op) (t->o.op_mask & (1u << NSAUDIT_OP_##op))
	bpf_program__set_autoload(s->progs.fexit_sys_nsfd, fentry && WANT(NSFD));
	bpf_program__set_autoload(s->progs.fentry_sys_setns, fentry && WANT(SETNS));
	bpf_program__set_autoload(s->progs.fexit_sys_setns, fentry && WANT(SETNS));
	/*
	 * Without fentry, setns is traced by its exit tracepoint alone: what
	 * the thread left is its namespace cache, which the start-up snapshot
	 * fills and every namespace change keeps (unshare's exit hook too,
	 * recorded or not), or before its first change what it was born with
	 * (tp_fork writes it). Only the patched kernel's
	 * ns_change tracepoint, reporting into the pending call, needs
	 * the entry hook.
	 */
	exit_only = !fentry && !(nstp && patched) && WANT(SETNS);
	s->rodata->setns_exit_only = exit_only;
	bpf_program__set_autoload(s->progs.tp_enter_setns, !fentry && !exit_only && WANT(SETNS));
	bpf_program__set_autoload(s->progs.tp_exit_setns, !fentry && WANT(SETNS));
	/* with fentry, tp_nsfd only records the PIDFD_GET_*_NAMESPACE ioctls */
	bpf_program__set_autoload(s->progs.tp_nsfd, nstp && patched && WANT(NSFD));
	/* ns_change: the kernel's old namespace of setns and unshare, and
	 * clone's records (then tp_fork stays out) */
	bpf_program__set_autoload(s->progs.tp_ns_change, nstp && patched &&
				  (WANT(SETNS) || WANT(UNSHARE) || WANT(CLONE)));
	bpf_program__set_autoload(s->progs.tp_ns_free, nstp && WANT(NS_FREE));
	bpf_program__set_autoload(s->progs.tp_enter_unshare, WANT(UNSHARE));
	bpf_program__set_autoload(s->progs.tp_exit_unshare, WANT(UNSHARE) || exit_only);
	/* tp_fork: clone's records, and the birth slots of exit_only
	 * (which the patched kernel's tracepoints never need) */
	bpf_program__set_autoload(s->progs.tp_fork, (WANT(CLONE) || exit_only) && !(nstp && patched));
	bpf_program__set_autoload(s->progs.tp_enter_clone, WANT(CLONE));
	bpf_program__set_autoload(s->progs.tp_exit_clone, WANT(CLONE));
	/* a refused bind of another process's namespace names it where the
	 * kernel has bpf_task_from_vpid (6.13); a program that calls it does
	 * not load before (pins_mount.bpf.c) */
	vpid = kernel_at_least(6, 13);
	bpf_program__set_autoload(s->progs.tp_enter_mount, WANT(MOUNT) && !vpid);
	bpf_program__set_autoload(s->progs.tp_enter_mount_vpid, WANT(MOUNT) && vpid);
	bpf_program__set_autoload(s->progs.tp_exit_mount, WANT(MOUNT) && !vpid);
	bpf_program__set_autoload(s->progs.tp_exit_mount_vpid, WANT(MOUNT) && vpid);
	bpf_program__set_autoload(s->progs.tp_enter_umount, WANT(UMOUNT));
	bpf_program__set_autoload(s->progs.tp_exit_umount, WANT(UMOUNT));
	bpf_program__set_autoload(s->progs.tp_enter_ioctl, WANT(NSFD) || WANT(QUERY));
	bpf_program__set_autoload(s->progs.tp_exit_ioctl, WANT(NSFD) || WANT(QUERY));
	/* coalescing: threads' held records out at their exit and on a timer */
	bpf_program__set_autoload(s->progs.tp_exit_flush, !t->o.no_coalesce);
	bpf_program__set_autoload(s->progs.flush_held, !t->o.no_coalesce);
	if (!WANT(CLONE)) {
		bpf_program__set_autoload(s->progs.tp_enter_clone3, false);
		bpf_program__set_autoload(s->progs.tp_exit_clone3, false);
	}
	if (!WANT(NSFD)) {
		bpf_program__set_autoload(s->progs.tp_enter_pidfd_getfd, false);
		bpf_program__set_autoload(s->progs.tp_exit_pidfd_getfd, false);
		bpf_program__set_autoload(s->progs.tp_enter_open_by_handle_at, false);
		bpf_program__set_autoload(s->progs.tp_exit_open_by_handle_at, false);
	}
	if (!WANT(MOUNT)) {
		bpf_program__set_autoload(s->progs.tp_enter_move_mount, false);
		bpf_program__set_autoload(s->progs.tp_exit_move_mount, false);
	}
	/*
	 * The open program tells nsfs files apart by ns_ioctl's address in an
	 * instruction where the kernel takes one (ld_imm64 of a function:
	 * 6.4+), else by the f_op it learns (bpf/nsaudit/nsfile.bpf.h).
	 */
	t->bpf.open_prog =
	    kernel_at_least(6, 4) ? s->progs.tp_exit_openat : s->progs.tp_exit_openat_fops;
	bpf_program__set_autoload(s->progs.tp_exit_openat, false);
	bpf_program__set_autoload(s->progs.tp_exit_openat_fops, false);
	bpf_program__set_autoload(t->bpf.open_prog, WANT(OPEN));
	choose_freed_hooks(&t->bpf, WANT(FREED));
	/* runtimes' lineage, for the rules (bpf/nsaudit/lineage.bpf.h) */
	bpf_program__set_autoload(s->progs.tp_exec_lineage, s->rodata->lineage_on);
	bpf_program__set_autoload(s->progs.tp_fork_lineage, s->rodata->lineage_on);
#undef WANT
	open_siblings_probe(&t->bpf);
	describe_hooks(&t->bpf);
}
