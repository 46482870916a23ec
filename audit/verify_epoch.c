// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * verify_epoch.c - a record's time against its key's epoch: which epoch a
 * record's key belongs to (headers and seals move it, nothing else), the
 * seal of each epoch in turn, recorded clock steps, and times inside their
 * epoch, never backwards, never in the future. Called by the walk over a
 * segment (verify_walk.c) for each record it reads.
 */
#include <inttypes.h>
#include <string.h>

#include "verify_impl.h"

/*
 * A recorded step of the wall clock (log_seal.c): a step back moves the
 * floors to the step's own time, so that what follows, stamped by the
 * stepped clock, is a record and not "epoch key misuse". At most an hour:
 * a larger step stays a finding (or a key holder could re-date anything).
 */
static void clock_record(struct walk *w, const char *name, uint64_t lineno,
			 const struct audit_rec *r, int64_t t)
{
	int64_t step, lower;

	if (!walk_is_log(r, "clock") || !audit_rec_int(r, "step_ns", &step))
		return;
	w->v->clock_steps++;
	if (step >= 0)
		return;
	if (step < -WALK_CLOCK_STEP_MAX_NS) {
		walk_bad(w, name, lineno, r->seq,
			 "a clock step back of %" PRId64 " s, more than an hour: the records after "
			 "it cannot be told from re-dated ones",
			 -step / 1000000000);
		return;
	}
	/* the step explains the time back to its own record's, no further */
	if (w->last_log_ns && t < w->last_log_ns + step - walk_slack_ns(w)) {
		walk_bad(w, name, lineno, r->seq,
			 "re-dated: a clock step back of %.1f s cannot bring the log's time that "
			 "far back",
			 (double)-step / 1e9);
		return;
	}
	if (-step > w->v->clock_back_ns)
		w->v->clock_back_ns = -step;
	lower = t - walk_slack_ns(w);
	if (lower < w->floor_ns)
		w->floor_ns = lower;
	if (!w->close_floor_ns || lower < w->close_floor_ns)
		w->close_floor_ns = lower;
	if (w->last_log_ns > t)
		w->last_log_ns = t;
}

/*
 * The epoch key may only vouch for what happened in its epoch: a record
 * MAC'd with K(e) whose time lies before epoch e began is one a later key
 * wrote about the past (journald's CVE-2023-31439 accepted exactly that).
 * The log's own records are stamped when written; kernel events may come
 * a little late, or after a restart from the pinned ring (no older than
 * the last record before that restart).
 */
int walk_check_time(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r)
{
	const char *ts = audit_rec_str(r, "time", NULL), *op = audit_rec_str(r, "op", NULL);
	int64_t t, start, lim;
	char a[40], b[40];

	if (!w->sealed || !w->interval)
		return 0;
	if (!ts || audit_time_parse(ts, &t))
		return walk_bad(
		    w, name, lineno, r->seq,
		    "record without a valid time in a sealed log (re-dated or forged?)");
	start = walk_epoch_start_ns(w, w->epoch);
	clock_record(w, name, lineno, r, t);
	/* never beyond now plus the clocks' skew (the verifier may run on
	 * another host): a time no key can vouch for yet */
	if (t > w->now_ns + WALK_FUTURE_SKEW_NS) {
		walk_fmt_time(t, a, sizeof(a));
		return walk_bad(w, name, lineno, r->seq,
				"re-dated: record of %s, in the future (epoch %" PRIu64 ")", a,
				w->epoch);
	}
	lim = (op && !strcmp(op, "log")) ? start - walk_slack_ns(w) : w->floor_ns;
	/* the first run of what is kept of a log, before its first seal: its
	 * key may be ahead of the clock's epoch by a few (a sealing state
	 * that closed another log, or this one before its older segments
	 * were dropped: closing seals early), and a pinned ring may hold
	 * events of any age older than a new log begun in its key's first
	 * epoch (no older history under that key to replace). Its times are
	 * the floor for the rest of the epoch (restarts in it too); counted
	 * late. Older than that, or a new log under a used key telling an
	 * older past, stays key misuse */
	if (t < lim && !w->v->seals && w->v->starts <= 1 && !w->v->recoveries &&
	    ((w->v->first_epoch == 0 && (w->v->records ? w->v->first_seq : r->seq) == 1) ||
	     t >= start - WALK_AHEAD_RUN_EPOCHS * w->interval * 1000000000ll - walk_slack_ns(w))) {
		lim = t - walk_slack_ns(w);
		if (lim < w->floor_ns)
			w->floor_ns = lim;
		if (!w->close_floor_ns || lim < w->close_floor_ns)
			w->close_floor_ns = lim;
	}
	if (op && !strcmp(op, "log") && w->close_floor_ns && w->close_floor_ns < lim)
		lim = w->close_floor_ns;
	if (t < lim) {
		walk_fmt_time(t, a, sizeof(a));
		walk_fmt_time(start, b, sizeof(b));
		return walk_bad(
		    w, name, lineno, r->seq,
		    "epoch key misuse: record of %s sealed with the key of epoch %" PRIu64
		    ", which began %s (a later key cannot vouch for earlier records: "
		    "rewritten after the host was taken?)",
		    a, w->epoch, b);
	}
	if (t < start - walk_slack_ns(w))
		w->v->late++;
	/* a recorder restarting within the epoch drains what the kernel kept
	 * while it was down: as old as the last record before it, no older */
	if (walk_is_log(r, "start") && w->last_time_ns &&
	    w->last_time_ns - walk_slack_ns(w) < w->floor_ns)
		w->floor_ns = w->last_time_ns - walk_slack_ns(w);
	/* the log's own records are stamped as written: never backwards */
	if (op && !strcmp(op, "log") && t < w->last_log_ns - walk_slack_ns(w)) {
		walk_fmt_time(t, a, sizeof(a));
		walk_fmt_time(w->last_log_ns, b, sizeof(b));
		return walk_bad(w, name, lineno, r->seq,
				"re-dated: the log's own record of %s comes after one of %s "
				"(times go backwards)",
				a, b);
	}
	if (op && !strcmp(op, "log") && t > w->last_log_ns)
		w->last_log_ns = t;
	if (t > w->last_time_ns)
		w->last_time_ns = t;
	return 0;
}

/* Epoch bookkeeping before a record's MAC is checked: headers say which
 * epoch their segment starts in; nothing else may move it but a seal. */
int walk_epoch_of(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r,
		  bool first_seg_header)
{
	int64_t e;

	if (!w->sealed || !audit_rec_int(r, "epoch", &e) || e < 0 || walk_is_log(r, "seal"))
		return 0;
	if (first_seg_header || !w->have_epoch) {
		w->epoch = (uint64_t)e;
		w->have_epoch = true;
		w->v->first_epoch = w->epoch;
		w->floor_ns = w->interval ? walk_epoch_start_ns(w, w->epoch) - walk_slack_ns(w) : 0;
		return 0;
	}
	if ((uint64_t)e == w->epoch)
		return 0;
	if ((uint64_t)e < w->epoch) {
		w->epoch = (uint64_t)e; /* resynchronise: one finding, not many */
		return walk_bad(w, name, lineno, r->seq,
				"says sealing epoch %" PRId64
				" but the log already reached epoch %" PRIu64
				" (records replayed or copied from an older log)",
				e, w->epoch);
	}
	walk_bad(w, name, lineno, r->seq,
		 "epoch key misuse: epoch %" PRIu64 " ends without a seal and the log goes on "
		 "with the key of epoch %" PRId64 " (records cut after the host was taken, or "
		 "the sealing key also sealed another log)",
		 w->epoch, e);
	w->epoch = (uint64_t)e;
	return -1;
}

int walk_seal(struct walk *w, const char *name, uint64_t lineno, const struct audit_rec *r)
{
	const char *at = audit_rec_str(r, "at", NULL);
	int64_t e, next;

	if (!audit_rec_int(r, "epoch", &e) || !audit_rec_int(r, "next_epoch", &next) ||
	    (uint64_t)e != w->epoch || next != e + 1) {
		walk_bad(w, name, lineno, r->seq,
			 "epoch key misuse: a seal of epoch %" PRId64 " (next %" PRId64 ") where "
			 "epoch %" PRIu64
			 " ends: every epoch has its own seal, consecutively (the log "
			 "was cut and went on with a later key, or the seal was forged)",
			 e, next, w->epoch);
		if (next > e && e >= 0)
			w->epoch = (uint64_t)next;
		return -1;
	}
	w->sealed_epochs_end = walk_epoch_start_ns(w, (uint64_t)next);
	w->v->seals++;
	w->epoch = (uint64_t)next;
	w->floor_ns = walk_epoch_start_ns(w, w->epoch) - walk_slack_ns(w);
	/* a recorder (re)starting in a later epoch drains what the kernel
	 * kept meanwhile: those events may be as old as its predecessor's end */
	if (at && !strcmp(at, "start") && w->last_time_ns - walk_slack_ns(w) < w->floor_ns)
		w->floor_ns = w->last_time_ns - walk_slack_ns(w);
	/* a clean stop seals its epoch early (the key is gone at close): a
	 * recorder restarted before that epoch's end writes with the next
	 * key, from the close on */
	w->close_floor_ns = 0;
	if (at && !strcmp(at, "close") && w->last_time_ns - walk_slack_ns(w) < w->floor_ns) {
		w->floor_ns = w->last_time_ns - walk_slack_ns(w);
		w->close_floor_ns = w->floor_ns;
		w->sealed_epochs_end = w->last_time_ns; /* sealed up to the close */
	}
	w->v->unsealed = 0;
	return 0;
}
