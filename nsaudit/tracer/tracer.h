/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * tracer.h - load and attach the BPF programs, drain the ring buffer,
 * enrich each record and hand it on (the kernel's record and what user
 * space added; record_fmt.h formats them). Shared by
 * "nsaudit trace" (print) and "nsaudit record" (durable log).
 */
#ifndef NSAUDIT_TRACER_H
#define NSAUDIT_TRACER_H

#include <signal.h>
#include <getopt.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdint.h>

#include "enrich/containers.h"
#include "nsaudit.h"
#include "optab.h"
#include "output/record_fmt.h"
#include "search.h"

struct tracer_opts {
	uint32_t pid;		/* --pid given once: filtered in the kernel; 0 = all */
	struct audit_filter filter; /* --pid, --uid, --comm: search's filter,
				 * applied to every record kind (tracer_filter.c) */
	uint32_t type_mask;	/* --type: 1 << enum nsaudit_ns_type */
	uint32_t op_mask;	/* --op: 1 << enum nsaudit_op */
	size_t ring_size;	/* --ring-size bytes, power of two */
	int poll_ms;		/* how long a quiet ring waits before a drain */
	bool verbose;		/* --verbose: libbpf's messages, hook choices */
	bool no_coalesce;	/* --no-coalesce: one record per call */
	const char *pin_dir;	/* record: keep links and ring pinned here so
				 * events survive a recorder crash; NULL: none */
	char container[CONTAINER_NAME_LEN]; /* --container: id, id prefix or name */
	const char *rules_file;	/* --rules FILE: tune and extend the rules */
	bool no_rules;		/* --no-rules: no detections */
	struct rules *rules;	/* the detections (nsaudit/rules/), made by the
				 * command from the two above; NULL: none */
	uint32_t log_budget;	/* --log-budget: records/s per uid where records
				 * are written (log_budget.h); 0: none (trace's
				 * default; record's is LOG_BUDGET_UID) */
	int64_t hearing_ns;	/* --hearing-interval (hearing.c); 0: not checked */
};

#define NSAUDIT_PIN_DIR "/sys/fs/bpf/nsaudit"

void tracer_opts_init(struct tracer_opts *o);
/*
 * This process's pid as the kernel's programs report pids (the initial pid
 * namespace's), or 0 when it runs in a pid namespace of its own (a
 * container's): getpid() is then that namespace's, which may be another
 * process's pid in the kernel's records.
 */
pid_t tracer_kernel_pid(void);

/*
 * The tracer's options (filters, rules, --ring-size, --verbose...) as a
 * table for a command's getopt_long and --help (optab.h), and one of them
 * applied by its long name: 1 done, 0 not a tracer option, -1 a bad value
 * with a one-line reason in err.
 */
#define TRACER_OPT_RING_SIZE 0x101
#define TRACER_OPT_CONTAINER 0x102
#define TRACER_OPT_NO_COALESCE 0x103
#define TRACER_OPT_RUNTIME_ROOT 0x104
#define TRACER_OPT_RULES 0x105
#define TRACER_OPT_NO_RULES 0x106
#define TRACER_OPT_UID 0x107
#define TRACER_OPT_LOG_BUDGET 0x108
#define TRACER_OPT_HEARING 0x109
extern const struct optab tracer_optab[];
/* --hearing-interval (hearing.c): not a filter, so a table of its own,
 * listed with the command's own options */
extern const struct optab tracer_hearing_optab[];
int tracer_set_opt(struct tracer_opts *o, const char *name, const char *val, char *err,
		   size_t errlen);
/*
 * The same for one option at argv[0] as typed (value in argv[1] if it
 * takes one). Returns 1 when consumed (*used = 1 or 2), 0 if not a trace
 * option, -1 on a bad value with a one-line reason in err.
 */
int tracer_parse_opt(struct tracer_opts *o, int argc, char **argv, int *used, char *err,
		     size_t errlen);
/*
 * The rules (nsaudit/rules/rules.h) --rules and --no-rules ask for, into
 * o->rules: 0, or -1 with a line naming the file and line in err.
 */
int tracer_rules_open(struct tracer_opts *o, char *err, size_t errlen);

struct tracer;

/* What the consumer of records is called with; each returns <0 to stop. */
struct tracer_callbacks {
	/* per record: the kernel's and what user space added (record_fmt.h),
	 * both valid during the call only */
	int (*on_event)(void *ctx, const struct nsaudit_event *e, const struct event_extra *x);
	/* after each batch of records read from the rings (at most
	 * TRACER_BATCH_MAX), before the rings get their space back: make what
	 * on_event took survive a crash of this process (the recorder writes
	 * its batch with write(2)); may be NULL (then the space is given back
	 * right after on_event) */
	int (*on_commit)(void *ctx);
	/* after each drain of the ring (flush, fsync); may be NULL */
	int (*on_batch)(void *ctx);
	/* the seq the last record handed to on_event was written with (the
	 * log's own): what an alert about it names; NULL: the tracer's seq */
	uint64_t (*written_seq)(void *ctx);
};

/*
 * Records of one batch, at most: what a recorder killed between writing a
 * batch and releasing its ring space leaves written but still in the ring.
 * Its successor skips them by kseq, from the last AUDIT_RESUME_MAX the
 * log holds: this must not be larger.
 */
#define TRACER_BATCH_MAX 256

struct tracer *tracer_open(const struct tracer_opts *o, char *err, size_t errlen);
/*
 * A recorder restarted on a pinned ring: kernel sequence numbers its
 * predecessor already wrote (skipped once more), and the kernel's lost
 * counter as last reported.
 */
void tracer_resume(struct tracer *t, const uint64_t *kseqs, size_t n, uint64_t lost_total);
/* True when tracer_open() found pinned programs and reused them. */
bool tracer_reused_pins(const struct tracer *t);
/* Remove the pinned links and maps (only the names nsaudit pins) and the
 * directory; 0, or -errno. Missing dir: -ENOENT; not on bpffs: -EMEDIUMTYPE
 * (nothing removed). */
int tracer_unpin(const char *pin_dir);
/* --container among c (tracer_filter.c): an id, a name or an id prefix
 * only one has (0, *out); -1 none such, -2 several, with list naming the
 * candidates ("web (c1f69d1c01ba), ..."). */
struct containers;
struct container_info;
int containers_resolve(struct containers *c, const char *want,
		       const struct container_info **out, char *list, size_t len);
/* The pid of the recorder using pin_dir now (-1: one, pid unknown), or 0. */
pid_t tracer_pin_dir_user(const char *pin_dir);

/* The hook set in use, e.g. "tracepoint/syscalls raw_tp/sched_process_fork". */
const char *tracer_hooks(const struct tracer *t);
/* Where tracer_open()'s time went, ms per phase: "names 12.3, open 4.0,
 * load 150.2, attach 20.1, snapshot 9.8, ring 0.2" (--verbose prints it);
 * returns their sum in tenths of a ms. */
int64_t tracer_startup(const struct tracer *t, char *buf, size_t len);
/*
 * Run until *stop becomes non-zero or a callback fails; then drain what the
 * kernel still holds and report lost records. Returns 0 or -errno.
 */
int tracer_run(struct tracer *t, const struct tracer_callbacks *cb, void *ctx,
	       volatile sig_atomic_t *stop);
void tracer_close(struct tracer *t);

/*
 * A stage after the tracer that can drop records (a sink with a bounded
 * queue): fn returns its running count of dropped records and says what
 * drops them in what. Each increase becomes a lost record (probe user,
 * count, cause) in the command's own output: never silent.
 */
void tracer_add_loss_source(struct tracer *t, uint64_t (*fn)(void *ctx, char *what, size_t len),
			    void *ctx);

/* Counters for the closing summary. */
struct tracer_stats {
	uint64_t records;	/* handed to on_event */
	uint64_t lost;		/* the kernel side could not deliver */
	uint64_t dropped;	/* not about a namespace after all (ordinary binds) */
	uint64_t alerts;	/* of the records, alerts (nsaudit/rules/) */
};
void tracer_get_stats(const struct tracer *t, struct tracer_stats *s);

/*
 * Whether the kernel's programs still reach this reader (hearing.c): every
 * --hearing-interval (o.hearing_ns) a child opens /proc/self/task/PID/ns/TYPE, whose record
 * must come.
 * Call it often (each batch); 0: heard, or not due yet; 1: this tracer's
 * kernel filters leave nothing to test with, why says which (once; "" and
 * 0 for an interval of 0: not asked); -1: deaf, why says what did not come.
 */
int tracer_hearing_tick(struct tracer *t, char *why, size_t len);
/* canaries sent and heard so far, and when the last came (CLOCK_REALTIME
 * ns; 0: none yet) */
void tracer_hearing_counts(const struct tracer *t, uint64_t *sent, uint64_t *heard,
			   int64_t *last_ns);

/* How full ring i is (0 the main ring, 1 the reserve ring): bytes the
 * kernel wrote that were not given back yet, of size. false: no ring i. */
bool tracer_ring_fill(const struct tracer *t, int i, uint64_t *used, uint64_t *size);

#endif
