/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * tracer_stream.h - the tracer's record stream: both rings read in
 * batches, put in kernel order, what a crashed predecessor already wrote
 * skipped (kseq resume), each record completed and handed to the
 * command's callbacks. Its methods are stream_*.
 */
#ifndef NSAUDIT_TRACER_STREAM_H
#define NSAUDIT_TRACER_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "output/record_fmt.h"
#include "ringbuf_reader.h"
#include "tracer.h"

struct tracer;

#define RESUME_MAX 256

_Static_assert(RESUME_MAX >= TRACER_BATCH_MAX, "the resume set holds a batch");

/* One batch: records of both rings, read in place, put in kseq order. */
struct batch_rec {
	uint64_t kseq;
	const void *data; /* in the ring's mapping, until it is released */
	uint32_t len;
};

/*
 * Creation records written without a name, for the mount that names them.
 * Between "ip netns add"'s unshare and its bind mount every other creation
 * on the host takes a slot: 64 lost the link whenever other unshares ran
 * at the same moment (60-audit-log under a parallel flood). 4096 (128 KiB)
 * is searched only for a mount that names a namespace, a rare record.
 */
#define UNNAMED_BIRTHS 4096
struct unnamed_birth {
	uint64_t seq; /* in the log; 0: free */
	uint64_t id;
	uint32_t inum;
	uint32_t type;
};

/* hearing.c: the canary that shows the programs still reach the reader */
struct hearing {
	pid_t pid; /* the canary out now; 0: none */
	char path[48]; /* what it opens: /proc/self/task/PID/ns/TYPE */
	pid_t last_pid, prev_pid;
	int64_t sent_ns, next_ns; /* CLOCK_MONOTONIC */
	uint64_t lost_at_send;	  /* stats.lost then: a loss meanwhile cannot tell */
	uint64_t sent, heard_total;
	int64_t heard_real_ns; /* CLOCK_REALTIME of the last one heard */
	unsigned int misses;   /* in a row */
	int status;	       /* the canary's wait status (-1: none yet) */
	unsigned long prod[2]; /* the rings' producers once it had exited */
	int64_t snap_ns;       /* when they were taken */
	bool heard, reaped, off, snap;
};

struct tracer_stream {
	struct ringbuf_reader rb;      /* the main ring */
	struct ringbuf_reader rb_rare; /* the reserve ring */
	int epoll_fd;		       /* both rings' wakeups */
	/* one batch of records from both rings, put back in kernel order */
	struct batch_rec recs[TRACER_BATCH_MAX];
	size_t nrecs;
	uint64_t resume_kseq[RESUME_MAX]; /* already written by a predecessor */
	size_t nresume;
	/* where the rings' producers were at the restart: the predecessor's
	 * written but unreleased records lie before; past them, no record
	 * can be one it wrote and the search above stops */
	unsigned long resume_end, resume_end_rare;
	struct log_budget *budget;		      /* --log-budget (log_budget.h); NULL: none */
	struct unnamed_birth unnamed[UNNAMED_BIRTHS]; /* name_link.c */
	unsigned int unnamed_next;
	uint64_t seq;
	struct tracer_stats stats;
	struct tracer_callbacks cb;
	void *ctx;
	int cb_err;
	struct hearing hearing;	 /* hearing.c */
	bool container_waiting; /* --container not started yet */
};

/* hearing.c: an event read from the rings, before any filter */
void stream_hearing_saw(struct tracer_stream *s, const struct nsaudit_event *e);

/* tracer_filter.c: o.filter (search's filter) on an event, for every
 * record kind but lost ones; the early --comm test, before enrichment */
bool stream_filter_match(const struct tracer *t, const struct nsaudit_event *e,
			 const struct event_extra *x);
bool stream_comm_may_match(const struct tracer *t, const char *comm);
/* name_link.c: a mount naming a namespace created unnamed gets
 * created_seq (before it is written); a creation written unnamed is
 * remembered with its seq in the log (after) */
void stream_name_link_before(struct tracer_stream *s, const struct nsaudit_event *e,
			     struct event_extra *x);
void stream_name_link_after(struct tracer_stream *s, const struct nsaudit_event *e,
			    const struct event_extra *x, uint64_t log_seq);

/* tracer_drain.c */

/* The container the record is about (nsnames.h), into its extra fields. */
void stream_record_container(struct tracer *t, const struct nsaudit_event *e,
			     struct event_extra *x);

/*
 * --container: the record is about that container (by id, a 12+ character
 * prefix of it, or podman's name), or names one of its namespaces by the
 * cgroup-derived container:ID (docker, containerd, ...).
 */
bool stream_container_wanted(struct tracer *t, const struct event_extra *x);
/* tracer_filter.c: while waiting for --container, whether x is of the first
 * container that starts with that name, id or 12+ character id prefix; if
 * so --container becomes its id (said on stderr) and waiting ends. */
bool stream_container_started(struct tracer *t, const struct event_extra *x);

size_t stream_drain(struct tracer *t);

/*
 * The one way a record leaves the tracer, whoever made it: the next seq
 * into x->seq, counted in the stats (records, alerts), handed to
 * on_event. 0, or -1 once the consumer has stopped (cb_err).
 */
int stream_hand_on(struct tracer_stream *s, const struct nsaudit_event *e, struct event_extra *x);

/* Whether a completed record is one the command asked for (--container,
 * --type, --op, --pid, --uid, --comm); lost records always are. */
bool stream_wanted(struct tracer *t, const struct nsaudit_event *e, const struct event_extra *x);

#endif
