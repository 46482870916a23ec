// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* tracer.c - the BPF side's user-space half: load, attach, drain, enrich. */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "actor_lost.h"
#include "attribution.h"
#include "bpf_log.h"
#include "clock.h"
#include "enrich.h"
#include "record_fmt.h"
#include "kfeatures.h"
#include "nsnames.h"
#include "nstype.h"
#include "pin_sweep.h"
#include "prog_misses.h"
#include "ringbuf_reader.h"
#include "rules.h"
#include "runtime_state.h"
#include "tracer.h"
#include "nsaudit.skel.h"

#define RESUME_MAX 256
_Static_assert(RESUME_MAX >= TRACER_BATCH_MAX, "the resume set holds a batch");
#define LOSS_SOURCES_MAX 8
#define BPF_FS_MAGIC 0xcafe4a11

/* One batch: records of both rings, read in place, put in kseq order. */
struct batch_rec {
	uint64_t kseq;
	const void *data;	/* in the ring's mapping, until it is released */
	uint32_t len;
};

/* Pins a sweep found no longer attached (bpf/pins.bpf.h). */
#define GONE_MAX 64

struct gone_list {
	struct nsaudit_pin_gone v[GONE_MAX];
	size_t n;
};

struct tracer {
	struct tracer_opts o;
	struct nsaudit_bpf *skel;	/* NULL when reusing pinned programs */
	int ring_fd;
	int rare_fd;			/* the reserve ring: rare records */
	int bss_fd;			/* .bss: lost_events, next_kseq */
	int actor_lost_fd;		/* per-actor lost calls (actor_lost.h) */
	int lost_epoch_fd;		/* and the epoch they are counted under */
	/* the kernel's per-reason counters at the previous pass: everything
	 * in them has been taken from actor_lost by the next one */
	uint64_t reason_prev[NSAUDIT_LOST_MAX];
	uint64_t events_prev;		/* and their sum, lost_events */
	bool reason_prev_valid;
	struct actor_loss *losses;	/* one pass of them */
	int flush_link_fd;		/* iter/task flush_held: coalesced records out */
	int sweep_link_fd;		/* iter/task sweep_pins: pins that left */
	int pins_fd;			/* pin_mounts: the kernel side's pins */
	struct prog_misses misses;	/* programs skipped for recursion */
	struct gone_list gone;		/* pins the last sweep found gone */
	int64_t gone_ns;		/* when (CLOCK_MONOTONIC) */
	bool reused;
	struct ringbuf_reader rb;	/* the main ring */
	struct ringbuf_reader rb_rare;	/* the reserve ring */
	int epoll_fd;			/* both rings' wakeups */
	/* one batch of records from both rings, put back in kernel order */
	struct batch_rec recs[TRACER_BATCH_MAX];
	size_t nrecs;
	uint64_t resume_kseq[RESUME_MAX]; /* already written by a predecessor */
	size_t nresume;
	/* where the rings' producers were at the restart: the predecessor's
	 * written but unreleased records lie before; past them, no record
	 * can be one it wrote and the search above stops */
	unsigned long resume_end, resume_end_rare;
	struct enrich *en;
	struct nsnames *names;		/* ns_name, old_name */
	char hooks[768];
	uint64_t seq;
	uint64_t lost_seen;	/* of the kernel's lost_events counter */
	uint64_t reason_seen[NSAUDIT_LOST_MAX]; /* of its lost_reason[]: reported,
						 * per actor or anonymous */
	struct tracer_stats stats;
	struct tracer_callbacks cb;
	void *ctx;
	int cb_err;
	struct {			/* user-space stages that may drop records */
		uint64_t (*fn)(void *ctx, char *what, size_t len);
		void *ctx;
		uint64_t seen;
	} loss[LOSS_SOURCES_MAX];
	int nloss;
};

const char tracer_opts_help[] =
	"  -p, --pid PID        only events of this process (its threads included)\n"
	"  -c, --comm NAME      only events of processes with this command name\n"
	"  -t, --type LIST      only these namespace types: net,uts,ipc,mnt,pid,user,\n"
	"                       cgroup,time\n"
	"  -o, --op LIST        only these operations: setns,unshare,clone,open,mount,\n"
	"                       umount,nsfd,ns_free,query (lost records always pass)\n"
	"      --container C    only records about container C (id, 12+ character id\n"
	"                       prefix or podman name): its namespaces, entered, left,\n"
	"                       made or pinned, from the runtimes' state (docker's\n"
	"                       names work too)\n"
	"      --runtime-root KIND=DIR  where a runtime keeps its state: runc, crun,\n"
	"                       docker-exec, docker-data, containerd, podman\n"
	"                       (docs/attribution.md has the defaults)\n"
	"      --rules FILE     tune the detection rules, add one's own (YAML,\n"
	"                       docs/rules.md); alerts are records \"op\":\"alert\"\n"
	"      --no-rules       no detections (on by default: container-escape,\n"
	"                       cross-container, attempted-escape, persistence,\n"
	"                       userns-privilege)\n"
	"      --ring-size N    kernel ring buffer size in bytes, power of two\n"
	"                       (default 4194304; K and M suffixes work)\n"
	"      --no-coalesce    one record per call, even for identical consecutive\n"
	"                       calls of a thread (default: one record with repeat=N)\n"
	"  -v, --verbose        show libbpf's messages and the hooks chosen\n";

void tracer_opts_init(struct tracer_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->type_mask = o->op_mask = 0xffffffff;
	o->ring_size = 4 << 20;
	o->poll_ms = 50;
}

const struct option tracer_options[] = {
	{ "verbose", no_argument, NULL, 'v' },
	{ "pid", required_argument, NULL, 'p' },
	{ "comm", required_argument, NULL, 'c' },
	{ "type", required_argument, NULL, 't' },
	{ "op", required_argument, NULL, 'o' },
	{ "ring-size", required_argument, NULL, TRACER_OPT_RING_SIZE },
	{ "no-coalesce", no_argument, NULL, TRACER_OPT_NO_COALESCE },
	{ "container", required_argument, NULL, TRACER_OPT_CONTAINER },
	{ "runtime-root", required_argument, NULL, TRACER_OPT_RUNTIME_ROOT },
	{ "rules", required_argument, NULL, TRACER_OPT_RULES },
	{ "no-rules", no_argument, NULL, TRACER_OPT_NO_RULES },
	{ NULL, 0, NULL, 0 },
};

int tracer_set_opt(struct tracer_opts *o, const char *name, const char *v, char *err,
		   size_t errlen)
{
	long n;

	if (!strcmp(name, "verbose")) {
		o->verbose = true;
	} else if (!strcmp(name, "no-coalesce")) {
		o->no_coalesce = true;
	} else if (!strcmp(name, "no-rules")) {
		o->no_rules = true;
	} else if (!strcmp(name, "rules")) {
		o->rules_file = v;
	} else if (!strcmp(name, "pid")) {
		if (parse_long(v, 1, 0x3fffffff, &n)) {
			snprintf(err, errlen, "--pid '%.32s': not a process id", v);
			return -1;
		}
		/* a pid that is not there now can only be another process later */
		if (kill((pid_t)n, 0) && errno == ESRCH) {
			snprintf(err, errlen, "--pid %ld: no such process", n);
			return -1;
		}
		o->pid = (uint32_t)n;
	} else if (!strcmp(name, "comm")) {
		if (!*v || strlen(v) >= sizeof(o->comm)) {
			snprintf(err, errlen, "--comm: a command name is 1 to %zu bytes",
				 sizeof(o->comm) - 1);
			return -1;
		}
		strcpy(o->comm, v);
	} else if (!strcmp(name, "type")) {
		if (parse_nstype_list(v, &o->type_mask, err, errlen))
			return -1;
	} else if (!strcmp(name, "op")) {
		if (parse_op_list(v, &o->op_mask, err, errlen))
			return -1;
	} else if (!strcmp(name, "ring-size")) {
		uint64_t size;

		if (parse_size(v, &size) || size < 4096 || size > (1u << 30) ||
		    (size & (size - 1))) {
			snprintf(err, errlen, "--ring-size '%.32s': need a power of two "
				 "from 4096 to 1G", v);
			return -1;
		}
		o->ring_size = size;
	} else if (!strcmp(name, "container")) {
		const char *s;

		for (s = v; *s && (unsigned char)*s > ' ' && *s != 0x7f; s++)
			;
		if (!*v || *s || strlen(v) >= sizeof(o->container)) {
			snprintf(err, errlen, "--container: a container id or name is 1 to %zu "
				 "printable bytes without spaces", sizeof(o->container) - 1);
			return -1;
		}
		strcpy(o->container, v);
	} else if (!strcmp(name, "runtime-root")) {
		if (runtime_root_set(v, err, errlen))
			return -1;
	} else {
		return 0;
	}
	return 1;
}

int tracer_rules_open(struct tracer_opts *o, char *err, size_t errlen)
{
	if (o->no_rules && o->rules_file) {
		snprintf(err, errlen, "--rules and --no-rules together: which one?");
		return -1;
	}
	if (o->no_rules)
		return 0;
	o->rules = rules_new();
	if (!o->rules) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (o->rules_file && rules_load_file(o->rules, o->rules_file, err, errlen)) {
		rules_free(o->rules);
		o->rules = NULL;
		return -1;
	}
	return 0;
}

int tracer_parse_opt(struct tracer_opts *o, int argc, char **argv, int *used, char *err,
		     size_t errlen)
{
	const struct option *opt;
	const char *a = argv[0];

	for (opt = tracer_options; opt->name; opt++)
		if ((a[0] == '-' && a[1] == opt->val && !a[2]) ||
		    (!strncmp(a, "--", 2) && !strcmp(a + 2, opt->name)))
			break;
	if (!opt->name)
		return 0;
	*used = opt->has_arg ? 2 : 1;
	if (opt->has_arg && argc < 2) {
		snprintf(err, errlen, "%s needs a value", a);
		return -1;
	}
	return tracer_set_opt(o, opt->name, opt->has_arg ? argv[1] : NULL, err, errlen);
}

/*
 * Name the hook set from the programs that will load, e.g.
 * "tracepoint/syscalls:setns,unshare,openat raw_tp/sched_process_fork".
 */
static void describe_hooks(struct tracer *t)
{
	static const char sys[] = "tracepoint/syscalls/sys_";
	char calls[256] = "", other[512] = "";
	struct bpf_program *p;

	bpf_object__for_each_program(p, t->skel->obj) {
		const char *sec = bpf_program__section_name(p);

		if (!bpf_program__autoload(p))
			continue;
		if (!strncmp(sec, sys, sizeof(sys) - 1)) {
			const char *name = strchr(sec + sizeof(sys) - 1, '_') + 1;
			char tok[40], have[270];

			/* enter and exit: once */
			snprintf(tok, sizeof(tok), ",%s,", name);
			snprintf(have, sizeof(have), ",%s,", calls);
			if (!strstr(have, tok))
				snprintf(calls + strlen(calls), sizeof(calls) - strlen(calls),
					 "%s%s", calls[0] ? "," : "", name);
		} else {
			snprintf(other + strlen(other), sizeof(other) - strlen(other), " %s", sec);
		}
	}
	snprintf(t->hooks, sizeof(t->hooks), "%s%s%s", calls[0] ? "tracepoint/syscalls:" : "",
		 calls, calls[0] ? other : other + 1);
}

/*
 * Decide which programs to load, and name the resulting hook set. On the
 * patched kernel (its nsfd sysctl, namespace:ns_change in BTF) setns,
 * unshare and clone get the kernel's old namespace from ns_change, with
 * fentry on sys_setns where allowed; everywhere else, the syscall
 * tracepoints.
 */
#define WANT_NSFD(t) ((t)->o.op_mask & (1u << NSAUDIT_OP_NSFD))

static void choose_hooks(struct tracer *t)
{
	struct nsaudit_bpf *s = t->skel;
	const struct {
		struct bpf_program *prog;
		const char *event;	/* tracefs event that must exist */
	} syscalls[] = {
		{ s->progs.tp_exit_openat2, "syscalls/sys_exit_openat2" },
		{ s->progs.tp_exit_open, "syscalls/sys_exit_open" },
		{ s->progs.tp_exit_move_mount, "syscalls/sys_exit_move_mount" },
		{ s->progs.tp_enter_move_mount, "syscalls/sys_enter_move_mount" },
		{ s->progs.tp_enter_clone3, "syscalls/sys_enter_clone3" },
		{ s->progs.tp_exit_clone3, "syscalls/sys_exit_clone3" },
		{ s->progs.tp_enter_pidfd_getfd, "syscalls/sys_enter_pidfd_getfd" },
		{ s->progs.tp_exit_pidfd_getfd, "syscalls/sys_exit_pidfd_getfd" },
		{ s->progs.tp_enter_open_by_handle_at, "syscalls/sys_enter_open_by_handle_at" },
		{ s->progs.tp_exit_open_by_handle_at, "syscalls/sys_exit_open_by_handle_at" },
	};
	struct features ft;
	bool patched, fentry, nstp, exit_only;
	char path[128];
	size_t i;

	/* some syscalls do not exist on every kernel (open on arm64, ...) */
	for (i = 0; i < sizeof(syscalls) / sizeof(syscalls[0]); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s", syscalls[i].event);
		if (access(path, F_OK))
			bpf_program__set_autoload(syscalls[i].prog, false);
	}
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
	 * (tp_fork_birth). Only the patched kernel's
	 * ns_change tracepoint, reporting into the pending call, needs
	 * the entry hook.
	 */
	exit_only = !fentry && !(nstp && patched) && WANT(SETNS);
	s->rodata->setns_exit_only = exit_only;
	bpf_program__set_autoload(s->progs.tp_enter_setns, !fentry && !exit_only && WANT(SETNS));
	bpf_program__set_autoload(s->progs.tp_exit_setns, !fentry && WANT(SETNS));
	bpf_program__set_autoload(s->progs.tp_fork_birth, exit_only);
	/* with fentry, tp_nsfd only records the PIDFD_GET_*_NAMESPACE ioctls */
	bpf_program__set_autoload(s->progs.tp_nsfd, nstp && patched && WANT(NSFD));
	/* ns_change: the kernel's old namespace of setns and unshare, and
	 * clone's records (then tp_fork stays out) */
	bpf_program__set_autoload(s->progs.tp_ns_change, nstp && patched &&
				  (WANT(SETNS) || WANT(UNSHARE) || WANT(CLONE)));
	bpf_program__set_autoload(s->progs.tp_ns_free, nstp && WANT(NS_FREE));
	bpf_program__set_autoload(s->progs.tp_enter_unshare, WANT(UNSHARE));
	bpf_program__set_autoload(s->progs.tp_exit_unshare, WANT(UNSHARE) || exit_only);
	bpf_program__set_autoload(s->progs.tp_fork, WANT(CLONE) && !(nstp && patched));
	bpf_program__set_autoload(s->progs.tp_enter_clone, WANT(CLONE));
	bpf_program__set_autoload(s->progs.tp_exit_clone, WANT(CLONE));
	bpf_program__set_autoload(s->progs.tp_enter_mount, WANT(MOUNT));
	bpf_program__set_autoload(s->progs.tp_exit_mount, WANT(MOUNT));
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
	if (!WANT(OPEN)) {
		bpf_program__set_autoload(s->progs.tp_exit_openat, false);
		bpf_program__set_autoload(s->progs.tp_exit_open, false);
		bpf_program__set_autoload(s->progs.tp_exit_openat2, false);
	}
#undef WANT
	describe_hooks(t);
}

static bool already_written(struct tracer *t, uint64_t kseq)
{
	size_t i;

	for (i = 0; i < t->nresume; i++) {
		if (t->resume_kseq[i] == kseq) {
			t->resume_kseq[i] = t->resume_kseq[--t->nresume];
			return true;
		}
	}
	return false;
}

/* The container the record is about (nsnames.h), into its extra fields. */
static void record_container(struct tracer *t, const struct nsaudit_event *e,
			     struct event_extra *x)
{
	const struct container_info *ci = nsnames_container(t->names);

	if (ci) {
		x->container = ci->id;
		x->container_name = ci->name[0] ? ci->name : NULL;
		attribution_pod(ci, x);
	}
	attribution_target(t->names, e, x);
	attribution_actor(t->names, e, x);
}

/*
 * --container: the record is about that container (by id, a 12+ character
 * prefix of it, or podman's name), or names one of its namespaces by the
 * cgroup-derived container:ID (docker, containerd, ...).
 */
static bool container_wanted(struct tracer *t, const struct event_extra *x)
{
	const char *want = t->o.container;
	size_t n = strlen(want);
	char tag[CONTAINER_NAME_LEN + 16];

	if (x->container && (!strcmp(x->container, want) ||
			     (n >= 12 && !strncmp(x->container, want, n))))
		return true;
	if (x->container_name && !strcmp(x->container_name, want))
		return true;
	snprintf(tag, sizeof(tag), "container:%s", want);
	n = strlen(tag);
	if ((x->ns_name && !strncmp(x->ns_name, tag, n) && (!x->ns_name[n] || n >= 22)) ||
	    (x->old_name && !strncmp(x->old_name, tag, n) && (!x->old_name[n] || n >= 22)))
		return true;
	/* a podman name given for a record that knows the id only */
	if (x->container) {
		const struct container_info *ci = nsnames_find_container(t->names, want);

		return ci && !strcmp(ci->id, x->container);
	}
	return false;
}

/* Take the next record of a ring into the batch: 1, or 0 when it has none. */
static int batch_take(struct tracer *t, struct ringbuf_reader *r)
{
	struct batch_rec *b;
	const void *data;
	uint32_t len;

	do {
		if (!ringbuf_reader_next(r, &data, &len))
			return 0;
	} while (len < NSAUDIT_EVENT_SHORT);	/* not one of ours: skipped */
	b = &t->recs[t->nrecs++];
	memcpy(&b->kseq, (const char *)data + offsetof(struct nsaudit_event, kseq),
	       sizeof(b->kseq));
	b->data = data;
	b->len = len > sizeof(struct nsaudit_event) ? sizeof(struct nsaudit_event) : len;
	return 1;
}

static int by_kseq(const void *a, const void *b)
{
	const struct batch_rec *x = a, *y = b;

	return x->kseq < y->kseq ? -1 : x->kseq > y->kseq;
}

/* One ring read by one CPU is mostly in kseq order already: sorting it
 * again was ~1 % of a flooded recorder's CPU. */
static bool batch_in_order(const struct tracer *t)
{
	size_t i;

	for (i = 1; i < t->nrecs; i++)
		if (t->recs[i - 1].kseq > t->recs[i].kseq)
			return false;
	return true;
}

static int process_event(struct tracer *t, const void *data, size_t len);

/*
 * A restarted recorder skips what its predecessor wrote (kseqs from the
 * log). Those records are the ones it had not released: once both rings
 * are released past where their producers were at the restart, none can
 * come again and the per-record search ends.
 */
static void resume_check(struct tracer *t)
{
	if (t->nresume && ringbuf_reader_released(&t->rb) >= t->resume_end &&
	    ringbuf_reader_released(&t->rb_rare) >= t->resume_end_rare)
		t->nresume = 0;
}

/*
 * Read both rings in place, at most TRACER_BATCH_MAX records a batch: the
 * reserve ring first (it is small and must never wait behind a flood),
 * then the main ring; hand them on in kernel order (kseq), have them
 * written (on_commit), and only then give the rings their space back. A
 * recorder killed at any point leaves every record it has not written in
 * the pinned rings; the few it wrote and had not released yet (one batch)
 * are among the kseqs its successor skips (the log keeps the last
 * AUDIT_RESUME_MAX, cmd_record.c checks the batch fits).
 */
/* a pass that found fewer records than this pauses before the next */
#define TRACER_PASS_MIN 1024
#define TRACER_PASS_PAUSE_NS 1000000

static size_t drain(struct tracer *t)
{
	size_t i, total = 0;

	while (!t->cb_err) {
		t->nrecs = 0;
		while (t->nrecs < TRACER_BATCH_MAX && batch_take(t, &t->rb_rare))
			;
		while (t->nrecs < TRACER_BATCH_MAX && batch_take(t, &t->rb))
			;
		if (!t->nrecs)
			break;
		if (!batch_in_order(t))
			qsort(t->recs, t->nrecs, sizeof(*t->recs), by_kseq);
		for (i = 0; i < t->nrecs; i++)
			process_event(t, t->recs[i].data, t->recs[i].len);
		if (!t->cb_err && t->cb.on_commit && t->cb.on_commit(t->ctx) < 0)
			t->cb_err = -ECANCELED;
		/* not written: the records stay in the rings (a successor on
		 * the pinned rings writes them) */
		if (t->cb_err)
			break;
		ringbuf_reader_release(&t->rb_rare);
		ringbuf_reader_release(&t->rb);
		resume_check(t);
		total += t->nrecs;
		if (t->nrecs < TRACER_BATCH_MAX)
			break;
	}
	t->nrecs = 0;
	return total;
}

/* Wait for a wakeup of either ring (forced past a fill threshold) or the
 * timeout; the records are read by drain(), not here. */
static int wait_rings(struct tracer *t, int ms)
{
	struct epoll_event ev[2];
	int n = epoll_wait(t->epoll_fd, ev, 2, ms);

	return n < 0 ? -errno : n;
}

/*
 * An alert (loader/rules/) as a record of its own, right after the one it
 * is about (about: NULL for one found by time, a pin left behind).
 */
static int emit_alert(void *ctx, const struct rule_alert *a, const struct nsaudit_event *about)
{
	struct tracer *t = ctx;
	struct nsaudit_event e;
	struct event_extra x = { 0 };
	struct timespec ts;

	if (t->cb_err)
		return -1;
	if (about) {
		e = *about;
	} else {
		memset(&e, 0, sizeof(e));
		clock_gettime(CLOCK_BOOTTIME, &ts);
		e.ts_boot_ns = (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		e.ns_type = NSAUDIT_NS_UNKNOWN;
		e.fd = -1;
		e.probe = NSAUDIT_PROBE_USER;
	}
	x.realtime_ns = enrich_realtime(t->en, e.ts_boot_ns);
	x.alert = a;
	x.exe = a->exe;
	x.seq = ++t->seq;
	t->stats.records++;
	t->stats.alerts++;
	if (t->cb.on_event(t->ctx, &e, &x) < 0) {
		t->cb_err = -ECANCELED;
		return -1;
	}
	return 0;
}

static int process_event(struct tracer *t, const void *data, size_t len)
{
	struct nsaudit_event e;
	struct event_extra x = { 0 };

	if (t->cb_err || len < NSAUDIT_EVENT_SHORT)
		return 0;
	/* three lengths: short, with path, whole (with src_path) */
	memset(&e, 0, sizeof(e));
	memcpy(&e, data, len < sizeof(e) ? len : sizeof(e));
	e.comm[sizeof(e.comm) - 1] = '\0';
	e.path[sizeof(e.path) - 1] = '\0';
	e.src_path[sizeof(e.src_path) - 1] = '\0';
	if (t->nresume && already_written(t, e.kseq))
		return 0;
	if (t->o.comm[0] && strncmp(e.comm, t->o.comm, sizeof(e.comm)))
		return 0;
	if (!enrich_complete(t->en, &e)) {
		t->stats.dropped++;
		return 0;
	}
	/* mount(2) learns its type only here */
	if (e.ns_type < NSAUDIT_NS_MAX && !(t->o.type_mask & (1u << e.ns_type)))
		return 0;
	x.realtime_ns = enrich_realtime(t->en, e.ts_boot_ns);
	x.exe = enrich_exe(t->en, &e, &x.exe_mntns, &x.exe_mntns_id);
	x.cgroup = enrich_cgroup(t->en, e.pid, e.comm, e.cgroup_id);
	nsnames_for_event(t->names, &e, &x.ns_name, &x.old_name);
	x.unresolved = enrich_unresolved(t->en, &e, x.exe, x.cgroup);
	record_container(t, &e, &x);
	if (t->o.container[0] && !container_wanted(t, &x))
		return 0;
	x.seq = ++t->seq;
	t->stats.records++;
	if (t->cb.on_event(t->ctx, &e, &x) < 0)
		t->cb_err = -ECANCELED;
	else if (t->o.rules)
		rules_eval(t->o.rules, &e, &x, t->cb.written_seq ? t->cb.written_seq(t->ctx) : x.seq,
			   emit_alert, t);
	return 0;
}

/* One lost record: an actor's (a) or an anonymous remainder (a NULL). */
/* CLOCK_BOOTTIME, the clock of the kernel's records, for user-space ones */
static uint64_t boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void emit_lost(struct tracer *t, const struct actor_loss *a, unsigned int r, uint64_t n)
{
	struct nsaudit_event e;
	struct event_extra x = { 0 };

	actor_lost_record(&e, a, r, n, boot_ns());
	t->reason_seen[r] += n;
	t->lost_seen += n;
	e.arg = t->lost_seen;
	t->stats.lost += n;
	x.seq = ++t->seq;
	x.realtime_ns = enrich_realtime(t->en, e.ts_boot_ns);
	if (t->cb.on_event(t->ctx, &e, &x) < 0)
		t->cb_err = -ECANCELED;
}

/* The kernel's totals at this pass, for the anonymous part of the next. */
static void keep_lost_totals(struct tracer *t, const struct nsaudit_bpf__bss *bss)
{
	memcpy(t->reason_prev, bss->lost_reason, sizeof(t->reason_prev));
	t->events_prev = bss->lost_events;
	t->reason_prev_valid = true;
}

/*
 * The kernel counts the calls it could not deliver per actor (pid, uid,
 * comm, op) and reason, and in total per reason: one record per actor's
 * count, so that a reader tells a flooder's losses from root's, and one
 * per reason for what no actor entry explains (the map was full). A pass
 * takes the entries counted before the previous pass (actor_lost_pass),
 * so the totals read at the previous pass are what they add up to; the
 * rest of those totals is the anonymous part. lost_total (arg) is the
 * running total over all reasons (what a restarted recorder resumes from).
 */
static void report_lost(struct tracer *t)
{
	struct nsaudit_bpf__bss bss;
	uint64_t avail, d;
	uint32_t zero = 0;
	size_t i, n;
	unsigned int r;

	/* through the map, not the skeleton's mmap: pinned reuse has no skeleton */
	if (t->cb_err || bpf_map_lookup_elem(t->bss_fd, &zero, &bss))
		return;
	if (bss.lost_events <= t->lost_seen)
		return;
	n = t->losses ? actor_lost_pass(t->actor_lost_fd, t->lost_epoch_fd, t->losses,
					ACTOR_LOST_MAX) : 0;
	for (i = 0; i < n && !t->cb_err; i++)
		if (t->losses[i].k.reason < NSAUDIT_LOST_MAX)
			emit_lost(t, &t->losses[i], t->losses[i].k.reason, t->losses[i].v.count);
	/* without the per-actor map (older pins), the totals say it all */
	if (t->actor_lost_fd < 0 || t->lost_epoch_fd < 0)
		keep_lost_totals(t, &bss);
	/*
	 * The anonymous part, per reason, but never more in all than the
	 * total says is unreported: after a restart the per-reason split of
	 * what the predecessor reported is an estimate (tracer_resume_lost),
	 * the total is exact, and a call is never reported twice.
	 */
	avail = t->events_prev > t->lost_seen ? t->events_prev - t->lost_seen : 0;
	for (r = 0; r < NSAUDIT_LOST_MAX && !t->cb_err && t->reason_prev_valid && avail; r++) {
		if (t->reason_prev[r] <= t->reason_seen[r])
			continue;
		d = t->reason_prev[r] - t->reason_seen[r];
		d = d < avail ? d : avail;
		emit_lost(t, NULL, r, d);
		avail -= d;
	}
	keep_lost_totals(t, &bss);
}

/* Stopping: passes until everything counted so far has been taken. */
static void report_lost_final(struct tracer *t)
{
	int i;

	for (i = 0; i < 3; i++) {
		report_lost(t);
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	}
}

/*
 * Coalesced records held by threads that went quiet: one pass of the
 * flush_held iterator sends them (every few polls, and when stopping).
 */
static void flush_held(struct tracer *t)
{
	char buf[64];
	int fd;

	if (t->flush_link_fd < 0)
		return;
	fd = bpf_iter_create(t->flush_link_fd);
	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

/* One record user space makes (not the kernel side), with what made it. */
static void emit_user_record(struct tracer *t, struct nsaudit_event *e, const char *cause)
{
	struct event_extra x = { 0 };

	if (t->cb_err)
		return;
	x.realtime_ns = enrich_realtime(t->en, e->ts_boot_ns);
	x.cause = cause;
	if (e->op != NSAUDIT_OP_LOST) {
		nsnames_for_event(t->names, e, &x.ns_name, &x.old_name);
		record_container(t, e, &x);
		if (t->o.container[0] && !container_wanted(t, &x))
			return;
		if (e->ns_type < NSAUDIT_NS_MAX && !(t->o.type_mask & (1u << e->ns_type)))
			return;
		if (!(t->o.op_mask & (1u << e->op)))
			return;
	}
	x.seq = ++t->seq;
	t->stats.records++;
	if (t->cb.on_event(t->ctx, e, &x) < 0)
		t->cb_err = -ECANCELED;
}

static void gone_add(void *ctx, const struct nsaudit_pin_gone *g)
{
	struct gone_list *l = ctx;

	if (l->n < GONE_MAX)
		l->v[l->n++] = *g;
}

static bool gone_has(const struct gone_list *l, uint64_t key)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].key == key)
			return true;
	return false;
}

/*
 * Pins the kernel side saw leave without an umount call (sweep_pins):
 * umount records with the cause. The kernel side already leaves out the
 * pins of a mount namespace with an umount in flight (its exit reports
 * them, bpf/umount_inflight.bpf.h); as a fallback where that could not be
 * counted, a pin is reported when two sweeps in a row, at least
 * PIN_SWEEP_NS apart by the clock (not by passes: a flooded reader makes
 * passes back to back), found it gone. The rings are drained before: a
 * pin's mount record, made before it could leave, is then in the table.
 * final: stopping, the second sweep follows the first after a pause.
 */
#define PIN_SWEEP_NS 200000000LL
static void report_vanished_pins(struct tracer *t, bool final)
{
	struct gone_list now = { .n = 0 };
	struct nsaudit_event e;
	char cause[160];
	int64_t now_ns = clock_ns(CLOCK_MONOTONIC);
	bool died;
	size_t i;

	if (final) {
		pin_sweep(t->sweep_link_fd, gone_add, &t->gone);
		nanosleep(&(struct timespec){ .tv_nsec = 50000000 }, NULL);
	} else if (now_ns - t->gone_ns < PIN_SWEEP_NS) {
		return;
	}
	if (pin_sweep(t->sweep_link_fd, gone_add, &now) < 0)
		return;
	drain(t);
	for (i = 0; i < now.n && !t->cb_err; i++) {
		struct nsaudit_pin *pin = &now.v[i].pin;

		if (!gone_has(&t->gone, now.v[i].key))
			continue;
		pin_forget(t->pins_fd, now.v[i].key);
		if (!enrich_pin_left(t->en, pin, &e, &died))
			continue;
		if (died)
			snprintf(cause, sizeof(cause), "its mount namespace mnt:[%u] died",
				 pin->mnt_ns_inum);
		else
			snprintf(cause, sizeof(cause),
				 "it left mount namespace mnt:[%u] without an umount call seen "
				 "(a lazy or propagated umount)", pin->mnt_ns_inum);
		emit_user_record(t, &e, cause);
	}
	t->gone = now;
	t->gone_ns = now_ns;
}

static void recursion_lost(void *ctx, const char *name, uint64_t more)
{
	struct tracer *t = ctx;
	struct nsaudit_event e;
	char cause[96];

	actor_lost_record(&e, NULL, NSAUDIT_LOST_RECURSION, more, boot_ns());
	t->stats.lost += more;
	snprintf(cause, sizeof(cause), "program %s skipped by the kernel (recursion_misses)",
		 name);
	emit_user_record(t, &e, cause);
}

/* Calls no program saw: the kernel skipped it (recursion), say so. */
static void report_recursion(struct tracer *t)
{
	if (!t->cb_err)
		prog_misses_poll(&t->misses, recursion_lost, t);
}

/* Pins whose mount namespace died went with it: unpins, made by user space. */
static void report_dead_pins(struct tracer *t)
{
	struct nsaudit_event e;
	char cause[96];
	uint32_t mntns;

	enrich_check_mntns(t->en);
	while (!t->cb_err && enrich_dead_pin(t->en, &e, &mntns)) {
		snprintf(cause, sizeof(cause), "its mount namespace mnt:[%u] died", mntns);
		emit_user_record(t, &e, cause);
	}
}

void tracer_add_loss_source(struct tracer *t, uint64_t (*fn)(void *ctx, char *what, size_t len),
			    void *ctx)
{
	if (t->nloss < LOSS_SOURCES_MAX) {
		t->loss[t->nloss].fn = fn;
		t->loss[t->nloss].ctx = ctx;
		t->loss[t->nloss++].seen = 0;
	}
}

/* What later stages in user space (sinks) dropped: lost records with why. */
static void report_user_losses(struct tracer *t)
{
	struct nsaudit_event e;
	char what[256], cause[320];
	uint64_t n;
	int i;

	for (i = 0; i < t->nloss && !t->cb_err; i++) {
		n = t->loss[i].fn(t->loss[i].ctx, what, sizeof(what));
		if (n <= t->loss[i].seen)
			continue;
		actor_lost_record(&e, NULL, NSAUDIT_LOST_SINK, n - t->loss[i].seen, boot_ns());
		e.arg = n;
		t->loss[i].seen = n;
		snprintf(cause, sizeof(cause), "%s", what);
		emit_user_record(t, &e, cause);
	}
}

/* Learn the processes (and their mount namespaces) that predate us. */
static void snapshot(struct tracer *t)
{
	struct nsaudit_task_snap s;
	int fd;

	if (!t->skel || !t->skel->links.snapshot_tasks)
		return;
	fd = bpf_iter_create(bpf_link__fd(t->skel->links.snapshot_tasks));
	if (fd < 0)
		return;
	while (read(fd, &s, sizeof(s)) == sizeof(s))
		enrich_note_task(t->en, &s);
	close(fd);
	enrich_scan_mounts(t->en);
}

static int pin_path(char *buf, size_t len, const char *dir, const char *name)
{
	return snprintf(buf, len, "%s/%s", dir, name) >= (int)len ? -ENAMETOOLONG : 0;
}

/*
 * Pin the ring, the counters and every link, so that the programs keep
 * running and the ring keeps filling while no recorder is alive.
 */
static int pin_all(struct tracer *t, char *err, size_t errlen)
{
	char path[512];
	struct statfs sfs;
	int i, rc = 0;

	if (mkdir(t->o.pin_dir, 0700) && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", t->o.pin_dir, strerror(errno));
		return -errno;
	}
	/* Only a bpf file system can hold pins; never clean up anywhere else. */
	if (statfs(t->o.pin_dir, &sfs) || (unsigned long)sfs.f_type != BPF_FS_MAGIC) {
		snprintf(err, errlen, "--pin-dir %s: not a directory in a bpf file system "
			 "(use one under /sys/fs/bpf)", t->o.pin_dir);
		rmdir(t->o.pin_dir);	/* only if we just made it, i.e. empty */
		return -ENOTDIR;
	}
	if (pin_path(path, sizeof(path), t->o.pin_dir, "events") ||
	    (rc = bpf_map__pin(t->skel->maps.events, path)))
		goto fail;
	if (pin_path(path, sizeof(path), t->o.pin_dir, "rare") ||
	    (rc = bpf_map__pin(t->skel->maps.rare, path)))
		goto fail;
	if (pin_path(path, sizeof(path), t->o.pin_dir, "counters") ||
	    (rc = bpf_map__pin(t->skel->maps.bss, path)))
		goto fail;
	/* the filters the programs were loaded with, checked on reuse */
	if (pin_path(path, sizeof(path), t->o.pin_dir, "config") ||
	    (rc = bpf_map__pin(t->skel->maps.rodata, path)))
		goto fail;
	if (pin_path(path, sizeof(path), t->o.pin_dir, "exe_paths") ||
	    (rc = bpf_map__pin(t->skel->maps.exe_paths, path)))
		goto fail;
	if (pin_path(path, sizeof(path), t->o.pin_dir, "actor_lost") ||
	    (rc = bpf_map__pin(t->skel->maps.actor_lost, path)))
		goto fail;
	if (pin_path(path, sizeof(path), t->o.pin_dir, "lost_epoch") ||
	    (rc = bpf_map__pin(t->skel->maps.lost_epoch, path)))
		goto fail;
	if (pin_path(path, sizeof(path), t->o.pin_dir, "pin_mounts") ||
	    (rc = bpf_map__pin(t->skel->maps.pin_mounts, path)))
		goto fail;
	for (i = 0; i < t->skel->skeleton->prog_cnt; i++) {
		struct bpf_link *link = *t->skel->skeleton->progs[i].link;
		struct bpf_program *prog = *t->skel->skeleton->progs[i].prog;

		/* the snapshot iterator runs once at start: nothing to keep */
		if (!link || prog == t->skel->progs.snapshot_tasks)
			continue;
		snprintf(path, sizeof(path), "%s/link_%s", t->o.pin_dir, bpf_program__name(prog));
		rc = bpf_link__pin(link, path);
		if (rc)
			goto fail;
	}
	return 0;
fail:
	snprintf(err, errlen, "pinning in %s: %s", t->o.pin_dir, strerror(errno ?: -rc));
	tracer_unpin(t->o.pin_dir);
	return -1;
}

/*
 * Reuse programs a previous recorder left pinned: no reload, no gap. Only
 * if they were loaded with the same filters: a recorder asked for other
 * records must not silently get the old ones.
 */
static int reuse_pins(struct tracer *t, char *err, size_t errlen)
{
	struct nsaudit_bpf__rodata cfg;
	char path[512];
	uint32_t zero = 0;
	int cfg_fd;

	pin_path(path, sizeof(path), t->o.pin_dir, "events");
	t->ring_fd = bpf_obj_get(path);
	pin_path(path, sizeof(path), t->o.pin_dir, "rare");
	t->rare_fd = bpf_obj_get(path);
	/* optional: a recorder started with --no-coalesce pinned no flusher */
	pin_path(path, sizeof(path), t->o.pin_dir, "link_flush_held");
	t->flush_link_fd = bpf_obj_get(path);
	/* optional: pins of an older nsaudit have no pin sweep */
	pin_path(path, sizeof(path), t->o.pin_dir, "link_sweep_pins");
	t->sweep_link_fd = bpf_obj_get(path);
	pin_path(path, sizeof(path), t->o.pin_dir, "pin_mounts");
	t->pins_fd = bpf_obj_get(path);
	pin_path(path, sizeof(path), t->o.pin_dir, "counters");
	t->bss_fd = bpf_obj_get(path);
	/* optional: pins of an older nsaudit count losses per reason only */
	pin_path(path, sizeof(path), t->o.pin_dir, "actor_lost");
	t->actor_lost_fd = bpf_obj_get(path);
	pin_path(path, sizeof(path), t->o.pin_dir, "lost_epoch");
	t->lost_epoch_fd = bpf_obj_get(path);
	pin_path(path, sizeof(path), t->o.pin_dir, "config");
	cfg_fd = bpf_obj_get(path);
	if (t->ring_fd < 0 || t->rare_fd < 0 || t->bss_fd < 0 || cfg_fd < 0 ||
	    bpf_map_lookup_elem(cfg_fd, &zero, &cfg)) {
		snprintf(err, errlen, "%s holds incomplete pinned state (%s); "
			 "remove it with 'nsaudit detach'", t->o.pin_dir, strerror(errno));
		if (cfg_fd >= 0)
			close(cfg_fd);
		return -1;
	}
	close(cfg_fd);
	/* optional: pins of an older nsaudit have no exe map (exe from /proc) */
	pin_path(path, sizeof(path), t->o.pin_dir, "exe_paths");
	enrich_set_exe_map(t->en, bpf_obj_get(path), true);
	if (cfg.filter_tgid != t->o.pid || cfg.type_mask != t->o.type_mask ||
	    cfg.op_mask != (t->o.op_mask | (1u << NSAUDIT_OP_LOST)) ||
	    cfg.coalesce != !t->o.no_coalesce) {
		snprintf(err, errlen, "the programs pinned in %s were loaded with other filters "
			 "(--pid/--type/--op/--no-coalesce); restart with the same ones to drain them, or "
			 "remove them with 'nsaudit detach'", t->o.pin_dir);
		return -1;
	}
	t->reused = true;
	snprintf(t->hooks, sizeof(t->hooks), "pinned in %s: %s", t->o.pin_dir,
		 "tracepoint/syscalls raw_tp/sched_process_fork raw_tp/sched_process_exec");
	return 0;
}

struct tracer *tracer_open(const struct tracer_opts *o, char *err, size_t errlen)
{
	struct tracer *t = calloc(1, sizeof(*t));
	char path[512];
	int rc;

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->o = *o;
	t->ring_fd = t->rare_fd = t->bss_fd = t->flush_link_fd = t->epoll_fd = -1;
	t->actor_lost_fd = t->lost_epoch_fd = -1;
	t->losses = calloc(ACTOR_LOST_MAX, sizeof(*t->losses));
	t->sweep_link_fd = t->pins_fd = -1;
	t->rb.map_fd = t->rb_rare.map_fd = -1;
	/*
	 * Big blocks (vmlinux BTF at load, 5+ MiB twice) from mmap, always:
	 * glibc otherwise raises its mmap threshold to the largest block
	 * freed so far (containers.json's read buffer was 16 MiB), puts them
	 * on the heap, and the heap stays resident after they are freed.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 << 10);
	bpf_log_setup(o->verbose);
	rc = ensure_pseudo_fs();
	if (rc) {
		snprintf(err, errlen, "mounting tracefs/bpffs: %s", strerror(-rc));
		goto fail;
	}
	t->en = enrich_new();
	t->names = nsnames_new();
	if (!t->en || !t->names) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (o->rules)	/* owners of namespaces, containers: the names' */
		rules_set_names(o->rules, t->names);
	if (o->pin_dir && !pin_path(path, sizeof(path), o->pin_dir, "events") &&
	    !access(path, F_OK)) {
		if (reuse_pins(t, err, errlen))
			goto fail;
		goto ring;
	}
	t->skel = nsaudit_bpf__open();
	if (!t->skel) {
		snprintf(err, errlen, "opening BPF object: %s", strerror(errno));
		goto fail;
	}
	bpf_map__set_max_entries(t->skel->maps.events, o->ring_size);
	t->skel->rodata->filter_tgid = o->pid;
	t->skel->rodata->op_mask = o->op_mask | (1u << NSAUDIT_OP_LOST);
	t->skel->rodata->type_mask = o->type_mask;
	t->skel->rodata->wakeup_bytes = o->ring_size / 4;
	t->skel->rodata->rare_wakeup_bytes =
		bpf_map__max_entries(t->skel->maps.rare) / 4;
	t->skel->rodata->coalesce = !o->no_coalesce;
	/* past half of a ring, only actors with budget left (issue 32) */
	t->skel->rodata->main_budget_bytes = o->ring_size / 2;
	t->skel->rodata->rare_budget_bytes = bpf_map__max_entries(t->skel->maps.rare) / 2;
	/* exe keys must not be kernel addresses: mixed with a per-load secret */
	if (getrandom((void *)&t->skel->rodata->exe_key_salt,
		      sizeof(t->skel->rodata->exe_key_salt), 0) !=
	    sizeof(t->skel->rodata->exe_key_salt))
		t->skel->rodata->exe_key_salt = (uint64_t)getpid() << 32 | (uint64_t)time(NULL);
	/* a pinned recorder is restarted as another process: trace it too */
	t->skel->rodata->self_tgid = o->pin_dir ? 0 : getpid();
	choose_hooks(t);
	rc = nsaudit_bpf__load(t->skel);
	if (rc) {
		bpf_log_show(-rc);
		snprintf(err, errlen, "loading BPF programs: %s%s", strerror(-rc),
			 rc == -EPERM ? " (run as root, or with CAP_BPF and CAP_PERFMON)" : "");
		goto fail;
	}
	rc = nsaudit_bpf__attach(t->skel);
	if (rc) {
		bpf_log_show(-rc);
		snprintf(err, errlen, "attaching BPF programs: %s", strerror(-rc));
		goto fail;
	}
	if (o->pin_dir && pin_all(t, err, errlen))
		goto fail;
	t->ring_fd = bpf_map__fd(t->skel->maps.events);
	t->rare_fd = bpf_map__fd(t->skel->maps.rare);
	t->bss_fd = bpf_map__fd(t->skel->maps.bss);
	t->actor_lost_fd = bpf_map__fd(t->skel->maps.actor_lost);
	t->lost_epoch_fd = bpf_map__fd(t->skel->maps.lost_epoch);
	if (t->skel->links.flush_held)
		t->flush_link_fd = bpf_link__fd(t->skel->links.flush_held);
	if (t->skel->links.sweep_pins)
		t->sweep_link_fd = bpf_link__fd(t->skel->links.sweep_pins);
	for (int i = 0; i < t->skel->skeleton->prog_cnt; i++) {
		struct bpf_program *prog = *t->skel->skeleton->progs[i].prog;

		prog_misses_add(&t->misses, bpf_program__fd(prog), bpf_program__name(prog));
	}
	t->pins_fd = bpf_map__fd(t->skel->maps.pin_mounts);
	enrich_set_exe_map(t->en, bpf_map__fd(t->skel->maps.exe_paths), false);
	snapshot(t);
	/* what the load parsed (vmlinux BTF) is freed: give it back */
	malloc_trim(0);
ring:
	rc = ringbuf_reader_open(&t->rb, t->ring_fd);
	if (!rc)
		rc = ringbuf_reader_open(&t->rb_rare, t->rare_fd);
	if (rc) {
		snprintf(err, errlen, "ring buffer: %s", strerror(-rc));
		goto fail;
	}
	t->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (t->epoll_fd < 0 ||
	    epoll_ctl(t->epoll_fd, EPOLL_CTL_ADD, t->ring_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.u32 = 0 }) ||
	    epoll_ctl(t->epoll_fd, EPOLL_CTL_ADD, t->rare_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.u32 = 1 })) {
		snprintf(err, errlen, "ring buffer wakeups: %s", strerror(errno));
		goto fail;
	}
	if (o->verbose)
		fprintf(stderr, "nsaudit: hooks: %s\n", t->hooks);
	return t;
fail:
	tracer_close(t);
	return NULL;
}

/*
 * The log says lost_total calls were reported as lost so far: that total
 * is exact, and report_lost() never reports more than the kernel's total
 * beyond it. Per reason, the kernel's counters are taken as seen, less the
 * part not yet reported (lost while no recorder ran): the per-actor map's
 * entries (reported with their actor by the next passes) and the rest
 * (anonymous; its split across reasons is an estimate, the ring first).
 * The map is read before the counters: the kernel counts a call in the
 * map first, so every call read there is in the counters read after.
 */
static void tracer_resume_lost(struct tracer *t, uint64_t lost_total)
{
	struct nsaudit_bpf__bss bss;
	uint64_t gap, take, rest, pending[NSAUDIT_LOST_MAX], sum = 0;
	uint32_t zero = 0;
	unsigned int r;

	t->lost_seen = lost_total;
	actor_lost_pending(t->actor_lost_fd, pending, NSAUDIT_LOST_MAX);
	if (bpf_map_lookup_elem(t->bss_fd, &zero, &bss))
		return;
	gap = bss.lost_events > lost_total ? bss.lost_events - lost_total : 0;
	for (r = 0; r < NSAUDIT_LOST_MAX; r++) {
		if (pending[r] > bss.lost_reason[r])
			pending[r] = bss.lost_reason[r];
		sum += pending[r];
	}
	rest = gap > sum ? gap - sum : 0;
	for (r = 0; r < NSAUDIT_LOST_MAX; r++) {
		take = bss.lost_reason[r] - pending[r];
		take = rest < take ? rest : take;
		t->reason_seen[r] = bss.lost_reason[r] - pending[r] - take;
		rest -= take;
	}
}

void tracer_resume(struct tracer *t, const uint64_t *kseqs, size_t n, uint64_t lost_total)
{
	if (n > RESUME_MAX)
		n = RESUME_MAX;
	memcpy(t->resume_kseq, kseqs, n * sizeof(*kseqs));
	t->nresume = n;
	t->resume_end = ringbuf_reader_producer(&t->rb);
	t->resume_end_rare = ringbuf_reader_producer(&t->rb_rare);
	tracer_resume_lost(t, lost_total);
}

bool tracer_reused_pins(const struct tracer *t)
{
	return t->reused;
}

/* The names pin_all() creates; nothing else in a pin dir is ours. */
static bool our_pin(const char *name)
{
	return !strcmp(name, "events") || !strcmp(name, "rare") || !strcmp(name, "counters") ||
	       !strcmp(name, "config") ||
	       !strcmp(name, "exe_paths") || !strcmp(name, "actor_lost") ||
	       !strcmp(name, "lost_epoch") ||
	       !strcmp(name, "pin_mounts") ||
	       !strncmp(name, "link_", 5);
}

int tracer_unpin(const char *pin_dir)
{
	char path[512];
	struct dirent *d;
	struct statfs sfs;
	DIR *dir = opendir(pin_dir);
	int rc = 0;

	if (!dir)
		return -errno;
	/* A mistyped --pin-dir must never cost anyone their files. */
	if (fstatfs(dirfd(dir), &sfs) || (unsigned long)sfs.f_type != BPF_FS_MAGIC) {
		closedir(dir);
		return -EMEDIUMTYPE;
	}
	/* unlinking a pinned link detaches it once no fd holds it */
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !our_pin(d->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", pin_dir, d->d_name);
		if (unlink(path) && !rc)
			rc = -errno;
	}
	closedir(dir);
	if (rmdir(pin_dir) && !rc)
		rc = -errno;
	return rc;
}

const char *tracer_hooks(const struct tracer *t)
{
	return t->hooks;
}

int tracer_run(struct tracer *t, const struct tracer_callbacks *cb, void *ctx,
	       volatile sig_atomic_t *stop)
{
	int (*on_batch)(void *) = cb->on_batch;
	int n, ticks = 0;
	size_t drained;

	t->cb = *cb;
	t->ctx = ctx;
	while (!*stop && !t->cb_err) {
		/*
		 * Records are submitted without wakeups (the producer then pays
		 * almost nothing); a full-ish ring forces one. So poll mostly
		 * times out, and every timeout drains what has accumulated.
		 */
		n = wait_rings(t, t->o.poll_ms);
		if (n < 0 && n != -EINTR)
			return n;
		/* every 4th tick (~200 ms): coalesced records of quiet threads */
		if (ticks % 4 == 3)
			flush_held(t);
		drained = drain(t);
		report_lost(t);
		report_user_losses(t);
		report_vanished_pins(t, false);
		report_dead_pins(t);
		if (t->o.rules && !t->cb_err)
			rules_tick(t->o.rules, emit_alert, t);
		if (on_batch && on_batch(ctx) < 0)
			return -EIO;
		if (++ticks % 20 == 0) {
			enrich_sync_clock(t->en);
			report_recursion(t);
		}
		/*
		 * The rings poll readable whenever they hold a record, so under a
		 * steady stream the reader comes straight back for the few dozen
		 * that arrived meanwhile, paying a pass's syscalls (epoll, the
		 * loss counters, a write, maybe an fsync) for each handful. A
		 * short pause lets a pass's worth gather: 1 ms is ~1,000 records
		 * at the fastest producer measured, a tenth of what wakes the
		 * reader early, far from filling a ring.
		 */
		if (drained && drained < TRACER_PASS_MIN)
			nanosleep(&(struct timespec){.tv_nsec = TRACER_PASS_PAUSE_NS}, NULL);
	}
	/* stopping: whatever the kernel already holds is still delivered */
	flush_held(t);
	drain(t);
	report_vanished_pins(t, true);
	report_recursion(t);
	report_lost_final(t);
	report_user_losses(t);
	if (cb->on_commit && !t->cb_err && cb->on_commit(ctx) < 0)
		t->cb_err = -ECANCELED;
	if (on_batch)
		on_batch(ctx);
	return t->cb_err == -ECANCELED ? -ECANCELED : t->cb_err;
}

void tracer_get_stats(const struct tracer *t, struct tracer_stats *s)
{
	*s = t->stats;
}

void tracer_close(struct tracer *t)
{
	if (!t)
		return;
	ringbuf_reader_close(&t->rb);
	ringbuf_reader_close(&t->rb_rare);
	if (t->epoll_fd >= 0)
		close(t->epoll_fd);
	if (t->skel) {
		nsaudit_bpf__destroy(t->skel);
	} else {
		if (t->ring_fd >= 0)
			close(t->ring_fd);
		if (t->rare_fd >= 0)
			close(t->rare_fd);
		if (t->flush_link_fd >= 0)
			close(t->flush_link_fd);
		if (t->sweep_link_fd >= 0)
			close(t->sweep_link_fd);
		if (t->pins_fd >= 0)
			close(t->pins_fd);
		if (t->bss_fd >= 0)
			close(t->bss_fd);
		if (t->actor_lost_fd >= 0)
			close(t->actor_lost_fd);
		if (t->lost_epoch_fd >= 0)
			close(t->lost_epoch_fd);
	}
	free(t->losses);
	enrich_free(t->en);
	nsnames_free(t->names);
	free(t);
}
