// SPDX-License-Identifier: GPL-2.0
/*
 * pins_mount.bpf.c - pins by bind mount: mount(2) with MS_BIND or MS_MOVE,
 * move_mount() of the new mount API, and umount2(). The source of a bind is
 * resolved at entry where the caller names its own namespace; user space
 * keeps the nsfs mount table and resolves the rest from mountinfo.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "nsaudit.h"
#include "nsaudit_core.bpf.h"
#include "emit.bpf.h"
#include "nsfile.bpf.h"
#include "seccomp.bpf.h"
#include "mount_source.bpf.h"

#include "pins.bpf.h"
#include "pin_sweep.bpf.h"

/* ---- pins by bind mount ------------------------------------------------ */

/*
 * A user path (up to PATH_MAX) into a record's NSAUDIT_PATH_LEN bytes: when
 * it does not fit, the record holds its first bytes and says it was cut
 * (cut, e->flags), never passing a prefix off as the path (a 4 KiB path's
 * first 255 bytes can be an existing directory).
 */
static __always_inline void read_user_path(struct nsaudit_event *e, char *dst, __u64 upath,
					   __u32 cut)
{
	long n = bpf_probe_read_user_str(dst, NSAUDIT_PATH_LEN, (void *)upath);

	if (user_str_cut(n, upath, NSAUDIT_PATH_LEN))
		e->flags |= cut;
}

/*
 * mount(2): MS_BIND (a new bind; an nsfs source pins) and MS_MOVE (a
 * mount moves: a pin there moves with it). MS_BIND|MS_REMOUNT changes the
 * flags of a mount that exists and pins nothing: not recorded. The source
 * is resolved at entry while it still means what the caller meant; the
 * record goes at exit with both paths (captured at entry). Sources this
 * cannot resolve go to user space with no namespace, which looks the target
 * up in mountinfo (keyed by the actor's mount namespace, mnt_ns_inum) and
 * drops binds of ordinary files.
 */
static __always_inline int enter_mount(struct trace_event_raw_sys_enter *ctx, bool others)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	__u64 flags = ctx->args[3];
	struct ns_common *ns;
	struct src_buf src = {};
	struct tstate *ts;

	if (!(flags & (MS_BIND | MS_MOVE)) || (flags & MS_REMOUNT) ||
	    !op_wanted(NSAUDIT_OP_MOUNT))
		return 0;
	ts = tstate_get(NSAUDIT_OP_MOUNT);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_MOUNT;
	ts->p.probe = NSAUDIT_PROBE_TP_SYSCALLS;
	ts->p.arg = flags;
	ts->p.fd = -1;
	ts->p.args[0] = ctx->args[0];	/* source */
	ts->p.args[1] = ctx->args[1];	/* target */
	ts->p.target_inum = 0;
	ts->p.target_type = NSAUDIT_NS_UNKNOWN;
	if (flags & MS_MOVE)
		return 0;
	/* the exit finds the new mount: the newest, if not this one */
	ts->p.args[2] = mntns_newest_mark();
	bpf_probe_read_user_str(src.b, sizeof(src.b), (void *)ctx->args[0]);
	ns = mount_source_ns(task, src.b, others);
	if (ns) {
		ts->p.target_type = ns_type(ns);
		ns_ident(ns, &ts->p.target_inum, &ts->p.target_id);
	}
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_mount")
int tp_enter_mount(struct trace_event_raw_sys_enter *ctx)
{
	return enter_mount(ctx, false);
}

/* The same, resolving another process's namespace too: loaded instead of
 * tp_enter_mount where the kernel has bpf_task_from_vpid (6.13+). */
SEC("tracepoint/syscalls/sys_enter_mount")
int tp_enter_mount_vpid(struct trace_event_raw_sys_enter *ctx)
{
	return enter_mount(ctx, true);
}

/* pin_note_at()'s pin while it is made: 6.1's verifier takes a map value
 * or the stack as a map update's value, not a subprogram's argument. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct nsaudit_pin);
} pin_note_scratch SEC(".maps");

/* pin_note() of the mount at address m (pins.bpf.h says why global). */
__noinline int pin_note_at(__u64 m, struct nsaudit_pin *pin)
{
	struct nsaudit_pin *p;
	__u32 zero = 0;

	if (!pin)
		return 0;
	p = bpf_map_lookup_elem(&pin_note_scratch, &zero);
	if (!p || !pin_note((struct mount___pins *)m, p))
		return 0;
	__builtin_memcpy(pin, p, sizeof(*pin));
	return 1;
}

/* The caller's mount namespace: the key of user space's mount table (a
 * global subprogram in nsaudit.bpf.c: one look, no BTF scans). */
__u32 cur_mnt_ns_inum(void);

/*
 * A refused bind mount of an nsfs file (EPERM: a probe by bind mount),
 * when its source named a namespace (type, inum, id): a record (op,
 * target, errno), coalesced like the other refused calls of a thread;
 * kflags: NSAUDIT_F_SECCOMP when a seccomp filter refused it.
 */
static __always_inline void refused_bind_rec(__u32 type, __u32 inum, __u64 id, __u64 flags,
					     __u64 target, long ret, __u32 kflags)
{
	const struct path_buf *path;
	struct pin_walk *w;
	struct ev_key k;

	if (!inum || !type_wanted(type))
		return;
	/* a path scratch of its own (a claimed walk's): as an umount exit's */
	w = pin_walk_claim();
	key_init(&k, NSAUDIT_OP_MOUNT, NSAUDIT_PROBE_TP_SYSCALLS);
	k.result = ret;
	k.arg = flags;
	k.ns_type = type;
	k.ns_inum = inum;
	k.ns_id = id;
	k.flags |= NSAUDIT_F_HAS_NS | kflags;
	/* none free (four preempted exits on this CPU): the first, shared */
	path = user_path_buf(&k, w ? w->slot : 0, (void *)target);
	commit_path(&k, 0, path);
	pin_walk_release(w);
}

/* The same, of the call whose source the entry resolved. */
static __always_inline void refused_bind(struct tstate *ts, long ret)
{
	if (!(ts->p.arg & MS_MOVE))
		refused_bind_rec(ts->p.target_type, ts->p.target_inum, ts->p.target_id,
				 ts->p.arg, ts->p.args[1], ret, ts->p.kflags);
	ts->p.kflags = 0;
}

/*
 * A bind mount a seccomp filter refused (seccomp.bpf.h): no entry ran.
 * Its pending call is made now, as the entry makes it, from the saved
 * registers and its source resolved now (nothing changed since): 1 if
 * made (the exit then records it). A global subprogram: off the exit's
 * common path; the record is not made in it (6.1: 512 bytes of stack for
 * a chain of frames, and the exit's own holds a pin).
 */
static __always_inline int mount_refused_as(long nr, long ret, bool others)
{
	struct src_ns sn = {};
	struct tstate *ts;
	__u64 a[4];

	if (!op_wanted(NSAUDIT_OP_MOUNT))
		return 0;
	syscall_args4(cur_syscall_regs(), a);
	if (!(a[3] & MS_BIND) || (a[3] & (MS_REMOUNT | MS_MOVE)) || !seccomp_refused(nr, ret))
		return 0;
	if (others)
		mount_source_at_vpid(a[0], &sn);
	else
		mount_source_at(a[0], &sn);
	if (!sn.inum)
		return 0;	/* names no namespace it can tell: no record */
	ts = tstate_get(NSAUDIT_OP_MOUNT);	/* none: counted lost */
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_MOUNT;
	ts->p.probe = NSAUDIT_PROBE_TP_SYSCALLS;
	ts->p.arg = a[3];
	ts->p.fd = -1;
	ts->p.args[0] = a[0];
	ts->p.args[1] = a[1];
	ts->p.target_inum = sn.inum;
	ts->p.target_type = sn.type;
	ts->p.target_id = sn.id;
	ts->p.kflags = NSAUDIT_F_SECCOMP;
	return 1;
}

__noinline int mount_refused(long nr, long ret)
{
	return mount_refused_as(nr, ret, false);
}

/* The same, resolving another process's /proc/PID/ns/TYPE too (6.13+). */
__noinline int mount_refused_vpid(long nr, long ret)
{
	return mount_refused_as(nr, ret, true);
}

static __always_inline int exit_mount(struct trace_event_raw_sys_exit *ctx, bool others)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_MOUNT);
	struct nsaudit_event *e;
	struct nsaudit_pin pin;
	bool found = false;

	if (!ts) {	/* no entry: refused by seccomp? */
		if (ctx->ret >= 0)
			return 0;
		if (!(others ? mount_refused_vpid((int)ctx->id, ctx->ret)
			     : mount_refused((int)ctx->id, ctx->ret)))
			return 0;
		ts = tstate_pending(NSAUDIT_OP_MOUNT);
		if (!ts)
			return 0;
	}
	ts->p.op = NSAUDIT_OP_NONE;
	if (ctx->ret != 0) {
		refused_bind(ts, ctx->ret);
		return 0;
	}
	/* a new bind: the mount tree says what it pins, exactly (a recursive
	 * one where its top mount can be told: new_mount_pin) */
	if (!(ts->p.arg & MS_MOVE))
		found = new_mount_pin(ts->p.args[2], ts->p.arg & MS_REC, &pin);
	if (found && !pin.ns_inum)
		return 0;	/* an ordinary bind mount: no pin */
	if (found)
		ts->p.target_type = pin.ns_type;
	if (!type_wanted(ts->p.target_type))
		return 0;
	e = event_reserve(NSAUDIT_OP_MOUNT, NSAUDIT_PROBE_TP_SYSCALLS, sizeof(*e), true);
	if (!e)
		return 0;
	e->arg = ts->p.arg;
	if (ts->p.arg & MS_MOVE)
		e->flags |= NSAUDIT_F_MOVE;
	if (found) {
		event_set_pin(e, &pin);
	} else if (ts->p.target_inum) {
		e->ns_type = ts->p.target_type;
		e->ns_inum = ts->p.target_inum;
		e->ns_id = ts->p.target_id;
		e->flags |= NSAUDIT_F_HAS_NS;
	}
	e->mnt_ns_inum = cur_mnt_ns_inum();
	read_user_path(e, e->path, ts->p.args[1], NSAUDIT_F_PATH_CUT);
	read_user_path(e, e->src_path, ts->p.args[0], NSAUDIT_F_SRC_PATH_CUT);
	event_submit(e);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_mount")
int tp_exit_mount(struct trace_event_raw_sys_exit *ctx)
{
	return exit_mount(ctx, false);
}

/* The same, where a bind a seccomp filter refused may name another
 * process's namespace (6.13+: loaded instead of tp_exit_mount, as
 * tp_enter_mount_vpid is). */
SEC("tracepoint/syscalls/sys_exit_mount")
int tp_exit_mount_vpid(struct trace_event_raw_sys_exit *ctx)
{
	return exit_mount(ctx, true);
}

#define MOVE_MOUNT_F_EMPTY_PATH 0x04

/*
 * The new mount API: move_mount(from_dfd, from_path, to_dfd, to_path,
 * flags), arguments captured at entry. An open_tree(OPEN_TREE_CLONE) copy
 * of an nsfs file (its mount in an anonymous namespace) attached somewhere
 * is a new pin; a mount already attached that moves (by fd or by path) is
 * NSAUDIT_F_MOVE. Moves of other mounts go to user space too (it keeps the
 * nsfs mount table and drops the rest).
 */
SEC("tracepoint/syscalls/sys_enter_move_mount")
int tp_enter_move_mount(struct trace_event_raw_sys_enter *ctx)
{
	struct tstate *ts;

	if (!op_wanted(NSAUDIT_OP_MOUNT))
		return 0;
	ts = tstate_get(NSAUDIT_OP_MOUNT);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_MOUNT;
	ts->p.fd = ctx->args[0];		/* from_dfd */
	ts->p.args[0] = ctx->args[1];		/* from_path */
	ts->p.args[1] = ctx->args[3];		/* to_path */
	ts->p.arg = ctx->args[4];		/* flags */
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_move_mount")
int tp_exit_move_mount(struct trace_event_raw_sys_exit *ctx)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_MOUNT);
	struct nsaudit_event *e;
	struct ns_common *ns = NULL;
	struct file *file = NULL;
	bool anon = false, by_fd, pinned = false;
	__u32 type = NSAUDIT_NS_UNKNOWN;
	struct nsaudit_pin pin;

	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_NONE;
	if (ctx->ret != 0)
		return 0;
	by_fd = ts->p.arg & MOVE_MOUNT_F_EMPTY_PATH;
	if (by_fd) {
		file = cur_fd_file(ts->p.fd);
		if (file && file_is_nsfs(file)) {
			ns = file_ns(file);
			type = ns_type(ns);
			file_mnt_ns(file, &anon);
			/* the fd's own mount is the one now attached */
			pinned = pin_note_at((__u64)file_mount(file), &pin);
		}
	}
	if (!type_wanted(type))
		return 0;
	e = event_reserve(NSAUDIT_OP_MOUNT, NSAUDIT_PROBE_TP_SYSCALLS, sizeof(*e), true);
	if (!e)
		return 0;
	e->ns_type = type;
	event_set_ns(e, ns);
	if (pinned)
		event_set_pin(e, &pin);
	e->flags |= NSAUDIT_F_NEW_MOUNT_API;
	if (!(ns && anon))
		e->flags |= NSAUDIT_F_MOVE;	/* not a fresh clone: it moves */
	e->fd = by_fd ? ts->p.fd : -1;
	e->arg = ts->p.arg;
	e->mnt_ns_inum = cur_mnt_ns_inum();
	read_user_path(e, e->path, ts->p.args[1], NSAUDIT_F_PATH_CUT);
	if (!by_fd)
		read_user_path(e, e->src_path, ts->p.args[0], NSAUDIT_F_SRC_PATH_CUT);
	event_submit(e);
	return 0;
}

/*
 * umount2(target, flags): the pins the call detached are found by mount
 * identity in the kernel side's pin table (pins.bpf.h), whatever spelling
 * the target had: one record each. An umount that detached no known pin
 * goes to user space as before (pins that predate the tracer are known
 * there only, by path).
 */
SEC("tracepoint/syscalls/sys_enter_umount")
int tp_enter_umount(struct trace_event_raw_sys_enter *ctx)
{
	struct tstate *ts;

	if (!op_wanted(NSAUDIT_OP_UMOUNT))
		return 0;
	ts = tstate_get(NSAUDIT_OP_UMOUNT);
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_UMOUNT;
	ts->p.args[0] = ctx->args[0];
	ts->p.arg = ctx->args[1];
	/* before it detaches anything: the sweep leaves its pins to its exit */
	ts->p.args[2] = umount_inflight_enter(mntns_key(cur_mntns()));
	return 0;
}

/* What an umount's records need of its call: scalars, so that the record
 * loop below can run as a bpf_loop callback. */
struct umount_call {
	__u64 path;	/* the user's target argument */
	__u64 flags;
	struct pins_gone *g;
	__u32 claim;	/* pins_claimed(): bit i, g->key[i] */
	bool found;
};

static __always_inline void umount_record(const struct umount_call *c, const struct nsaudit_pin *pin)
{
	struct nsaudit_event *e;

	if (pin && !type_wanted(pin->ns_type))
		return;
	e = event_reserve(NSAUDIT_OP_UMOUNT, NSAUDIT_PROBE_TP_SYSCALLS, sizeof(*e), true);
	if (!e)
		return;
	e->arg = c->flags;
	e->mnt_ns_inum = cur_mnt_ns_inum();
	if (pin)
		event_set_pin(e, pin);
	read_user_path(e, e->path, c->path, NSAUDIT_F_PATH_CUT);
	event_submit(e);
}

/*
 * One detached pin of the call: its record, and it leaves the tables. A
 * bpf_loop step rather than an unrolled loop: unrolled, the verifier walked
 * every combination of the eight pins' branches (625k instructions, 1.2 s
 * of every start); as a callback it walks one pin.
 */
static long umount_pin_step(__u64 i, struct umount_call *c)
{
	struct pins_gone *g = c->g;
	struct nsaudit_pin *pin, mine;
	__u64 key;

	if (i >= PINS_GONE_MAX || i >= g->n)
		return 1;
	if (!(c->claim & (1u << i)))
		return 0;
	key = g->key[i & (PINS_GONE_MAX - 1)];
	pin = bpf_map_lookup_elem(&pin_mounts, &key);
	if (!pin)
		return 0;
	/*
	 * The delete is the claim: of two exits that both took the pin for
	 * theirs, only the one whose delete succeeds records it (recorded
	 * first, both did: one umount named twice).
	 */
	mine = *pin;
	if (bpf_map_delete_elem(&pin_mounts, &key))
		return 0;
	umount_record(c, &mine);
	pin_slot_free(g->mnt_ns_key, g->loc[i & (PINS_GONE_MAX - 1)], key);
	bpf_map_delete_elem(&pin_names, &key);
	c->found = true;
	return 0;
}

/*
 * A refused umount (EPERM, EINVAL ...): a record (op, target, errno),
 * coalesced like the other refused calls. When its path names one pin
 * still attached in the caller's mount namespace, by all of its last names
 * (pins_named_here), with that pin's namespace. Otherwise without one:
 * user space names the pin from its table when the path is one the kernel
 * side did not see made (older than the recorder: known from mountinfo at
 * start), and drops the record when it is none (an ordinary mount).
 */
static __always_inline void refused_umount(__u64 upath, __u64 flags, long ret,
					   struct pin_walk *w, __u32 kflags)
{
	struct nsaudit_pin *pin = NULL;
	const struct path_buf *path;
	struct ev_key k;
	__u64 key;

	if (pins_maybe_here()) {
		umount_path_read(w->slot, (void *)upath);
		if (pins_named_here(w)) {
			key = w->g.key[0];
			pin = bpf_map_lookup_elem(&pin_mounts, &key);
			if (!pin || !type_wanted(pin->ns_type))
				return;
		}
	}
	key_init(&k, NSAUDIT_OP_UMOUNT, NSAUDIT_PROBE_TP_SYSCALLS);
	k.result = ret;
	k.arg = flags;
	k.flags = kflags;
	if (pin) {
		k.ns_type = pin->ns_type;
		k.ns_inum = pin->ns_inum;
		k.ns_id = pin->ns_id;
		k.flags |= NSAUDIT_F_HAS_NS;
	}
	path = user_path_buf(&k, w->slot, (void *)upath);
	commit_path(&k, 0, path);
}

/*
 * An umount2() a seccomp filter refused (seccomp.bpf.h): no entry ran.
 * Its pending call is made now from the saved registers (target, flags;
 * not counted in flight: it detaches nothing): 1 if made, and the exit
 * records it as refused_umount() does, marked. A global subprogram: off
 * the exit's common path; the record is made by the exit (6.1: 512 bytes
 * of stack for a chain of frames).
 */
__noinline int umount_refused(long nr, long ret)
{
	struct tstate *ts;
	__u64 upath, flags;

	if (!op_wanted(NSAUDIT_OP_UMOUNT) || !seccomp_refused(nr, ret))
		return 0;
	syscall_args2(cur_syscall_regs(), &upath, &flags);
	ts = tstate_get(NSAUDIT_OP_UMOUNT);	/* none: counted lost */
	if (!ts)
		return 0;
	ts->p.op = NSAUDIT_OP_UMOUNT;
	ts->p.args[0] = upath;
	ts->p.arg = flags;
	ts->p.args[2] = 0;
	ts->p.kflags = NSAUDIT_F_SECCOMP;
	return 1;
}

SEC("tracepoint/syscalls/sys_exit_umount")
int tp_exit_umount(struct trace_event_raw_sys_exit *ctx)
{
	struct tstate *ts = tstate_pending(NSAUDIT_OP_UMOUNT);
	struct umount_call c = {};
	struct pin_walk *w;

	/* counted whatever the filters: the sweep's cue (pin_sweep.bpf.h) */
	if (!ctx->ret)
		__sync_fetch_and_add(&pin_umounts, 1);
	if (!ts) {	/* no entry: refused by seccomp? */
		if (ctx->ret >= 0 || !umount_refused((int)ctx->id, ctx->ret))
			return 0;
		ts = tstate_pending(NSAUDIT_OP_UMOUNT);
		if (!ts)
			return 0;
	}
	ts->p.op = NSAUDIT_OP_NONE;
	w = pin_walk_claim();
	if (ctx->ret != 0) {
		if (w)
			refused_umount(ts->p.args[0], ts->p.arg, ctx->ret, w, ts->p.kflags);
		ts->p.kflags = 0;
		goto out;
	}
	c.path = ts->p.args[0];
	c.flags = ts->p.arg;
	/* no pin was ever noted in this mount namespace: nothing to look for */
	if (!w || !pins_maybe_here())
		goto record;	/* no walk to be had: the sweep tells its pin */
	umount_path_read(w->slot, (void *)c.path);
	pins_gone_here(w);
	c.g = &w->g;
	/* another umount in flight here: take only the pin our path names */
	c.claim = pins_claimed(c.g, !ts->p.args[2] || umount_inflight_count(ts->p.args[2]) <= 1);
	bpf_loop(PINS_GONE_MAX, umount_pin_step, &c, 0);
record:
	if (!c.found)
		umount_record(&c, NULL);
out:
	pin_walk_release(w);
	/* only now: the pins it detached are out of pin_mounts */
	umount_inflight_exit(ts->p.args[2]);
	return 0;
}
