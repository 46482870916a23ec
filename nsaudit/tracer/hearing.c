// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * hearing.c - whether the kernel's programs still reach this tracer.
 *
 * A recorder that hears nothing writes a log that looks intact and quiet.
 * Its links cannot be detached while it holds them (raw_tp, perf and iter
 * links have no BPF_LINK_DETACH), but whoever reads its pinned rings takes
 * the records, and a kernel may drop a tracepoint. So, every interval, a
 * child of the tracer opens /proc/self/task/PID/ns/TYPE, PID its own: a
 * call its programs must report (the tracer's own process is never
 * traced, a child is). The record is written as any other; what is
 * checked is only that it came. It is known by that path, not by its pid:
 * the kernel's pids are the initial pid namespace's, and a tracer in a
 * container knows its children by its own namespace's (which /proc/self
 * is in: a /proc of another pid namespace has no such path, and the check
 * is said to be off).
 * A canary whose record was counted lost, or that the kernel filters
 * (--pid, --op without open) cannot tell: said, never taken for deafness.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "nstype.h"
#include "tracer_impl.h"

/* how long a canary's record may take: the drain polls every 50 ms, but a
 * flood may keep the reserve ring's reader busy for seconds; at most the
 * interval, at least a second */
#define HEARING_DEADLINE_NS (10 * NSEC_PER_SEC)
#define HEARING_DEADLINE_MIN_NS NSEC_PER_SEC
/* and past the deadline, how long a backlog in the rings may be read first */
#define HEARING_DRAIN_MAX_NS (60 * NSEC_PER_SEC)
/* misses in a row (nothing lost meanwhile) that mean deaf */
#define HEARING_MISSES 2

const struct optab tracer_hearing_optab[] = {
	{ "hearing-interval", TRACER_OPT_HEARING, "SECONDS",
	  "every SECONDS (default 60; 0: never) a child of\n"
	  "nsaudit opens its /proc/self/task/PID/ns/net (or of\n"
	  "a type --type lets through), whose record must come\n"
	  "from the kernel (it is shown like any other, comm\n"
	  "nsaudit): if two in a row do not (and none was\n"
	  "counted lost), nsaudit is deaf: it says DEAF, stops\n"
	  "and exits 1 (record first writes a \"deaf\" record,\n"
	  "which verify reports)" },
	OPTAB_END,
};

/* The type the canary opens: one the kernel's type filter lets through. */
static int canary_type(const struct tracer *t)
{
	int i;

	for (i = 0; i < NSAUDIT_NS_MAX; i++)
		if (t->o.type_mask & (1u << i))
			return i;
	return -1;
}

/* The path a canary of pid opens: its own thread's in /proc/self. */
static void canary_path(char *buf, size_t len, pid_t pid, int type)
{
	snprintf(buf, len, "/proc/self/task/%d/ns/%s", (int)pid, nstype_proc_name(type, false));
}

static pid_t send_canary(struct hearing *h, int type)
{
	pid_t pid = fork();

	if (pid == 0) {	/* async-signal-safe calls only: the parent has threads */
		char path[sizeof(h->path)], digits[12];
		const char *name = nstype_proc_name(type, false);
		pid_t me = getpid();
		size_t n = 0, i = 0;

		do {
			digits[i++] = (char)('0' + me % 10);
			me /= 10;
		} while (me && i < sizeof(digits));
		memcpy(path, "/proc/self/task/", 16);
		n = 16;
		while (i)
			path[n++] = digits[--i];
		memcpy(path + n, "/ns/", 4);
		n += 4;
		for (i = 0; name[i] && n < sizeof(path) - 1; i++)
			path[n++] = name[i];
		path[n] = '\0';
		_exit(open(path, O_RDONLY | O_CLOEXEC) < 0);
	}
	if (pid > 0)
		canary_path(h->path, sizeof(h->path), pid, type);
	return pid;
}

/*
 * Whether everything the rings held when the canary had exited has been
 * read: its record, if the kernel made one, was in a ring by then (made at
 * the open's exit, flushed at the latest at its process's exit). Waits for
 * the child first; a reader that cannot catch up within
 * HEARING_DRAIN_MAX_NS is judged on what it has read.
 */
static bool all_read(struct tracer_stream *s, struct hearing *h, int64_t now)
{
	const struct ringbuf_reader *r[2] = { &s->rb, &s->rb_rare };
	int i, st;

	if (!h->reaped && waitpid(h->pid, &st, 0) == h->pid) {
		h->reaped = true;
		h->status = st;
	}
	if (!h->snap) {
		for (i = 0; i < 2; i++)
			h->prod[i] = ringbuf_reader_producer(r[i]);
		h->snap = true;
		h->snap_ns = now;
	}
	if (now - h->snap_ns >= HEARING_DRAIN_MAX_NS)
		return true;
	for (i = 0; i < 2; i++)
		if (ringbuf_reader_released(r[i]) < h->prod[i])
			return false;
	return true;
}

int tracer_hearing_tick(struct tracer *t, char *why, size_t len)
{
	struct hearing *h = &t->stream.hearing;
	int64_t interval_ns = t->o.hearing_ns;
	int64_t now = clock_ns(CLOCK_MONOTONIC);
	int type = canary_type(t), st;
	int64_t deadline = interval_ns < HEARING_DEADLINE_NS ? interval_ns : HEARING_DEADLINE_NS;

	if (t->bpf.links_gone[0]) {	/* pins missing links: deaf from the start */
		snprintf(why, len, "%s", t->bpf.links_gone);
		return -1;
	}
	if (h->off)
		return 0;
	if (!interval_ns || t->o.pid || !(t->o.op_mask & (1u << NSAUDIT_OP_OPEN)) || type < 0) {
		h->off = true;
		snprintf(why, len, "%s", !interval_ns ? "" :
			 t->o.pid ? "--pid: the kernel traces that process only" :
			 "--op or --type leave no open of a namespace file to test with");
		return interval_ns ? 1 : 0;
	}
	if (h->pid > 0 && !h->reaped && waitpid(h->pid, &st, WNOHANG) == h->pid) {
		h->reaped = true;
		h->status = st;
	}
	if (deadline < HEARING_DEADLINE_MIN_NS)
		deadline = HEARING_DEADLINE_MIN_NS;
	if (h->pid > 0 && !h->heard && now - h->sent_ns < deadline)
		return 0;
	if (h->pid > 0 && !h->heard && !all_read(&t->stream, h, now))
		return 0;	/* a backlog: its record may still be in a ring */
	if (h->pid > 0) {	/* the canary's time is up: came, lost or not */
		if (!h->reaped && waitpid(h->pid, &st, 0) == h->pid)
			h->status = st;	/* no zombie left behind */
		h->pid = 0;
		if (h->heard) {
			h->misses = 0;
		} else if (WIFEXITED(h->status) && WEXITSTATUS(h->status)) {
			/* its open failed (no /proc here?): nothing was asked of
			 * the kernel, so nothing can be told from its silence */
			h->off = true;
			snprintf(why, len, "a child of the recorder cannot open %s (a /proc "
				 "of another pid namespace?)", h->path);
			return 1;
		} else if (WIFEXITED(h->status) && t->stream.stats.lost == h->lost_at_send) {
			h->misses++;	/* opened, not lost, not heard */
		}
		if (h->misses >= HEARING_MISSES) {
			snprintf(why, len, "%u calls of pid %d and %d in a row (open of "
				 "/proc/self/task/PID/ns/%s) never came from the kernel, and no "
				 "record was counted lost: its programs no longer reach this reader",
				 h->misses, (int)h->prev_pid, (int)h->last_pid,
				 nstype_proc_name(type, false));
			return -1;
		}
		/* a miss: at once again; else at the interval */
		if (h->misses)
			h->next_ns = now;
	}
	if (now < h->next_ns)
		return 0;
	h->heard = false;
	h->reaped = false;
	h->snap = false;
	h->status = -1;
	h->lost_at_send = t->stream.stats.lost;
	h->sent_ns = now;
	h->next_ns = now + interval_ns;
	h->prev_pid = h->last_pid;
	h->pid = send_canary(h, type);
	if (h->pid < 0) {
		h->pid = 0;	/* no process to spare: next time */
		return 0;
	}
	h->last_pid = h->pid;
	h->sent++;
	return 0;
}

void stream_hearing_saw(struct tracer_stream *s, const struct nsaudit_event *e)
{
	struct hearing *h = &s->hearing;

	if (h->pid > 0 && e->op == NSAUDIT_OP_OPEN &&
	    !strncmp(e->path, h->path, sizeof(e->path))) {
		h->heard = true;
		h->heard_total++;
		h->heard_real_ns = clock_ns(CLOCK_REALTIME);
	}
}

void tracer_hearing_counts(const struct tracer *t, uint64_t *sent, uint64_t *heard,
			   int64_t *last_ns)
{
	*sent = t->stream.hearing.sent;
	*heard = t->stream.hearing.heard_total;
	*last_ns = t->stream.hearing.heard_real_ns;
}
