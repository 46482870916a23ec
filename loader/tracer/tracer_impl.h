/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * tracer_impl.h - the tracer's state, shared by its parts: tracer.c (open,
 * close), tracer_hooks.c (choose the hooks), tracer_drain.c (drain the
 * rings, hand records on), tracer_loss.c (losses as records),
 * tracer_pins.c (pin, reuse, unpin). Not an API: tracer.h is.
 */
#ifndef NSAUDIT_TRACER_IMPL_H
#define NSAUDIT_TRACER_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "actor_lost.h"
#include "pin_sweep.h"
#include "prog_misses.h"
#include "ringbuf_reader.h"
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

/* Pins a sweep found no longer attached (bpf/nsaudit/pins.bpf.h). */
#define GONE_MAX 256	/* a sweep's most: SWEEP_MAX, bpf/nsaudit/pins.bpf.h */

struct gone_list {
	struct nsaudit_pin_gone v[GONE_MAX];
	size_t n;
};

/* The opens tp_exit_openat is attached to besides openat (tracer_hooks.c). */
#define OPEN_SIBLINGS 2
struct open_sibling {
	const char *name;	/* in the ready line and the link's pin name */
	const char *event;	/* its exit tracepoint in syscalls/ */
};
extern const struct open_sibling open_siblings[OPEN_SIBLINGS];

/*
 * The hook set's name: the syscall tracepoints' list ("tracepoint/syscalls:
 * setns,unshare,...") and every other program's section, each bounded.
 */
#define TRACER_HOOKS_CALLS_LEN 256
#define TRACER_HOOKS_OTHER_LEN 512
#define TRACER_HOOKS_LEN (TRACER_HOOKS_CALLS_LEN + TRACER_HOOKS_OTHER_LEN)

/* Where start-up goes, in the order tracer_open() does it (tracer_startup()). */
enum tracer_phase {
	PH_NAMES,	/* enrich_new, nsnames_new: /proc, mounts, runtime state */
	PH_OPEN,	/* the skeleton opened, hooks chosen (features probed) */
	PH_LOAD,	/* the verifier */
	PH_ATTACH,	/* attach, prime the open check, pins */
	PH_SNAPSHOT,	/* the task iterator and the mount scan */
	PH_RING,	/* ring buffers mapped, epoll */
	TRACER_PHASES
};

/* creation records written without a name, for the mount that names them */
#define UNNAMED_BIRTHS 64
struct unnamed_birth {
	uint64_t seq;	/* in the log; 0: free */
	uint64_t id;
	uint32_t inum;
	uint32_t type;
};

/* links a reusing recorder holds: every program's, the open siblings' */
#define HELD_LINKS_MAX 64

struct tracer {
	struct tracer_opts o;
	struct log_budget *budget;	/* --log-budget (log_budget.h); NULL: none */
	void *bss_mmap;			/* the pinned counters, mapped (reuse) */
	size_t bss_mmap_len;
	int64_t phase_ms10[TRACER_PHASES]; /* tenths of a ms, CLOCK_MONOTONIC */
	struct nsaudit_bpf *skel;	/* NULL when reusing pinned programs */
	/* the copies that loaded skel's programs on two CPUs (tracer_load.c);
	 * NULL: skel loaded them itself */
	struct nsaudit_bpf *halves[2];
	/* the open program loaded: tp_exit_openat, or tp_exit_openat_fops
	 * before 6.4 (choose_hooks()) */
	struct bpf_program *open_prog;
	/* its other attachments: sys_exit_open, sys_exit_openat2 */
	struct bpf_link *open_links[OPEN_SIBLINGS];
	bool open_sibling[OPEN_SIBLINGS];	/* whose tracepoint exists here */
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
	struct unnamed_birth unnamed[UNNAMED_BIRTHS]; /* name_link.c */
	unsigned int unnamed_next;
	int pin_lock_fd;		/* the pin dir, flock()ed: one recorder each */
	int held_links[HELD_LINKS_MAX];	/* reused pins: their links, held open */
	int nheld;
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
	char hooks[TRACER_HOOKS_LEN];	/* "nsaudit: ready (hooks: ...)" */
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

/* tracer_pins.c */

int pin_path(char *buf, size_t len, const char *dir, const char *name);
/* tracer_filter.c: o.filter (search's filter) on an event, for every
 * record kind but lost ones; the early --comm test, before enrichment */
bool tracer_filter_match(const struct tracer *t, const struct nsaudit_event *e,
			 const struct event_extra *x);
bool tracer_comm_may_match(const struct tracer *t, const char *comm);
/* --container: to the full id of the one container it names now; a
 * prefix several share is an error listing them; none such is said on
 * stderr (it may be about to start) */
int tracer_container_resolve(struct tracer *t, char *err, size_t errlen);
/* name_link.c: a mount naming a namespace created unnamed gets
 * created_seq (before it is written); a creation written unnamed is
 * remembered with its seq in the log (after) */
void name_link_before(struct tracer *t, const struct nsaudit_event *e, struct event_extra *x);
void name_link_after(struct tracer *t, const struct nsaudit_event *e, const struct event_extra *x,
		     uint64_t log_seq);
/* pin_owner.c: the pin dir's lock (one recorder each), a reusing
 * recorder's hold on the pinned links; release_pins() drops both */
int pin_dir_claim(struct tracer *t, char *err, size_t errlen);
int hold_pinned_links(struct tracer *t, char *err, size_t errlen);
void release_pins(struct tracer *t);

/*
 * Pin the ring, the counters and every link, so that the programs keep
 * running and the ring keeps filling while no recorder is alive.
 */
int pin_all(struct tracer *t, char *err, size_t errlen);

/*
 * Reuse programs a previous recorder left pinned: no reload, no gap. Only
 * if they were loaded with the same filters: a recorder asked for other
 * records must not silently get the old ones.
 */
int reuse_pins(struct tracer *t, char *err, size_t errlen);

/* tracer_loss.c */

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
void report_lost(struct tracer *t);

/* Stopping: passes until everything counted so far has been taken. */
void report_lost_final(struct tracer *t);

void report_vanished_pins(struct tracer *t, bool final);

/* Calls no program saw: the kernel skipped it (recursion), say so. */
void report_recursion(struct tracer *t);

/* Pins whose mount namespace died went with it: unpins, made by user space. */
void report_dead_pins(struct tracer *t);

/* What later stages in user space (sinks) dropped: lost records with why. */
void report_user_losses(struct tracer *t);
/* The calls the log budget refused in the batch just written, into the
 * kernel's loss counts (log_budget.h). */
void report_budget_losses(struct tracer *t);

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
void tracer_resume_lost(struct tracer *t, uint64_t lost_total);

/* tracer_hooks.c */

void choose_hooks(struct tracer *t);
int open_siblings_attach(struct tracer *t);

/* tracer_load.c */

/* Load t->skel's chosen programs, on two CPUs at once where there are two,
 * the skeleton then pointing at them. 0, or a negative errno. */
int tracer_load_programs(struct tracer *t);

/* tracer_drain.c */

/* The container the record is about (nsnames.h), into its extra fields. */
void record_container(struct tracer *t, const struct nsaudit_event *e,
		      struct event_extra *x);

/*
 * --container: the record is about that container (by id, a 12+ character
 * prefix of it, or podman's name), or names one of its namespaces by the
 * cgroup-derived container:ID (docker, containerd, ...).
 */
bool container_wanted(struct tracer *t, const struct event_extra *x);

size_t drain(struct tracer *t);

#endif
