// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * tracer_drain.c - a record's way from the BPF rings to the consumer: read
 * a batch from both rings, put it in kernel order, skip what a crashed
 * predecessor already wrote, enrich it and hand it on (on_event,
 * on_commit). Losses become records in tracer_loss.c.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "attribution.h"
#include "clock.h"
#include "enrich/enrich.h"
#include "enrich/nsnames.h"
#include "log_budget.h"
#include "output/record_fmt.h"
#include "ringbuf_reader.h"
#include "rules/rules.h"
#include "tracer_impl.h"

static bool already_written(struct tracer_stream *s, uint64_t kseq)
{
	size_t i;

	for (i = 0; i < s->nresume; i++) {
		if (s->resume_kseq[i] == kseq) {
			s->resume_kseq[i] = s->resume_kseq[--s->nresume];
			return true;
		}
	}
	return false;
}

/* The container the record is about (nsnames.h), into its extra fields. */
void stream_record_container(struct tracer *t, const struct nsaudit_event *e, struct event_extra *x)
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
bool stream_container_wanted(struct tracer *t, const struct event_extra *x)
{
	const char *want = t->o.container;
	size_t n = strlen(want);
	char tag[CONTAINER_NAME_LEN + 16];

	if (t->stream.container_waiting)
		return stream_container_started(t, x);
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
static int batch_take(struct tracer_stream *s, struct ringbuf_reader *r)
{
	struct batch_rec *b;
	const void *data;
	uint32_t len;

	do {
		if (!ringbuf_reader_next(r, &data, &len))
			return 0;
	} while (len < NSAUDIT_EVENT_SHORT);	/* not one of ours: skipped */
	b = &s->recs[s->nrecs++];
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
static bool batch_in_order(const struct tracer_stream *s)
{
	size_t i;

	for (i = 1; i < s->nrecs; i++)
		if (s->recs[i - 1].kseq > s->recs[i].kseq)
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
static void resume_check(struct tracer_stream *s)
{
	if (s->nresume && ringbuf_reader_released(&s->rb) >= s->resume_end &&
	    ringbuf_reader_released(&s->rb_rare) >= s->resume_end_rare)
		s->nresume = 0;
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

size_t stream_drain(struct tracer *t)
{
	/* a flood faster than the writer never empties the rings: one pass
	 * ends after a poll interval, so that the loop's duties (the log's
	 * group sync, its seals and tail anchors, the loss ledger) still run
	 * every poll interval instead of when the flood stops */
	int64_t until = clock_ns(CLOCK_MONOTONIC) + (int64_t)t->o.poll_ms * 1000000;
	size_t i, total = 0;

	while (!t->stream.cb_err) {
		t->stream.nrecs = 0;
		while (t->stream.nrecs < TRACER_BATCH_MAX &&
		       batch_take(&t->stream, &t->stream.rb_rare))
			;
		while (t->stream.nrecs < TRACER_BATCH_MAX && batch_take(&t->stream, &t->stream.rb))
			;
		if (!t->stream.nrecs)
			break;
		if (!batch_in_order(&t->stream))
			qsort(t->stream.recs, t->stream.nrecs, sizeof(*t->stream.recs), by_kseq);
		/* a lineage mark the kernel side could not make, before any
		 * record read is evaluated: once per batch, after its records
		 * were read (the flag lives on a page the programs write on
		 * every call: read per record it was a cache miss each) */
		tracer_lineage_check(t);
		for (i = 0; i < t->stream.nrecs; i++)
			process_event(t, t->stream.recs[i].data, t->stream.recs[i].len);
		if (!t->stream.cb_err && t->stream.cb.on_commit &&
		    t->stream.cb.on_commit(t->stream.ctx) < 0)
			t->stream.cb_err = -ECANCELED;
		/* not written: the records stay in the rings (a successor on
		 * the pinned rings writes them) */
		if (t->stream.cb_err)
			break;
		ledger_report_budget_losses(t);
		ringbuf_reader_release(&t->stream.rb_rare);
		ringbuf_reader_release(&t->stream.rb);
		resume_check(&t->stream);
		total += t->stream.nrecs;
		if (t->stream.nrecs < TRACER_BATCH_MAX || clock_ns(CLOCK_MONOTONIC) >= until)
			break;
	}
	t->stream.nrecs = 0;
	return total;
}

/* Wait for a wakeup of either ring (forced past a fill threshold) or the
 * timeout; the records are read by stream_drain(), not here. */
static int wait_rings(struct tracer_stream *s, int ms)
{
	struct epoll_event ev[2];
	int n = epoll_wait(s->epoll_fd, ev, 2, ms);

	return n < 0 ? -errno : n;
}

/*
 * The one way a record leaves the tracer, whoever made it (the kernel
 * side, an alert, the loss ledger): it takes the next seq, is counted,
 * and goes to the consumer's on_event. 0, or -1 once the consumer stopped.
 */
int stream_hand_on(struct tracer_stream *s, const struct nsaudit_event *e, struct event_extra *x)
{
	if (s->cb_err)
		return -1;
	x->seq = ++s->seq;
	s->stats.records++;
	if (x->alert)
		s->stats.alerts++;
	if (s->cb.on_event(s->ctx, e, x) < 0) {
		s->cb_err = -ECANCELED;
		return -1;
	}
	return 0;
}

/*
 * Whether a completed record is one the command asked for: --container,
 * --type, --op and the filter (--pid, --uid, --comm). A lost record always
 * is: a filter never hides a loss.
 */
bool stream_wanted(struct tracer *t, const struct nsaudit_event *e, const struct event_extra *x)
{
	if (e->op == NSAUDIT_OP_LOST)
		return true;
	if (t->o.container[0] && !stream_container_wanted(t, x))
		return false;
	if (e->ns_type < NSAUDIT_NS_MAX && !(t->o.type_mask & (1u << e->ns_type)))
		return false;
	if (e->op >= NSAUDIT_OP_MAX || !(t->o.op_mask & (1u << e->op)))
		return false;
	return stream_filter_match(t, e, x);
}

/*
 * An alert (nsaudit/rules/) as a record of its own, right after the one it
 * is about (about: NULL for one found by time, a pin left behind).
 */
static int emit_alert(void *ctx, const struct rule_alert *a, const struct nsaudit_event *about)
{
	struct tracer *t = ctx;
	struct nsaudit_event e;
	struct event_extra x = { 0 };

	if (t->stream.cb_err)
		return -1;
	if (about) {
		e = *about;
	} else {
		memset(&e, 0, sizeof(e));
		e.ts_boot_ns = (uint64_t)boot_ns();
		e.ns_type = NSAUDIT_NS_UNKNOWN;
		e.fd = -1;
		e.probe = NSAUDIT_PROBE_USER;
	}
	x.realtime_ns = enrich_realtime(t->en, e.ts_boot_ns);
	x.alert = a;
	x.exe = a->exe;
	return stream_hand_on(&t->stream, &e, &x);
}

/* Whether the log budget lets e's actor write it (no budget: always). */
static bool budget_ok(struct tracer *t, const struct nsaudit_event *e)
{
	return !t->stream.budget ||
	       log_budget_take(t->stream.budget, e, enrich_container_key(t->en, e->cgroup_id),
			       (uint64_t)clock_ns(CLOCK_MONOTONIC));
}

static int process_event(struct tracer *t, const void *data, size_t len)
{
	struct nsaudit_event e;
	struct event_extra x = { 0 };
	uint64_t seq;

	if (t->stream.cb_err || len < NSAUDIT_EVENT_SHORT)
		return 0;
	/* three lengths: short, with path, whole (with src_path); only the
	 * part a shorter one lacks is zeroed (most are short: ~230 of ~760) */
	if (len > sizeof(e))
		len = sizeof(e);
	memcpy(&e, data, len);
	memset((char *)&e + len, 0, sizeof(e) - len);
	e.comm[sizeof(e.comm) - 1] = '\0';
	e.path[sizeof(e.path) - 1] = '\0';
	e.src_path[sizeof(e.src_path) - 1] = '\0';
	if (t->stream.nresume && already_written(&t->stream, e.kseq))
		return 0;
	stream_hearing_saw(&t->stream, &e);
	if (!stream_comm_may_match(t, e.comm))
		return 0;
	if (!enrich_complete(t->en, &e)) {
		t->stream.stats.dropped++;
		return 0;
	}
	/* mount(2) learns its type only here */
	if (e.ns_type < NSAUDIT_NS_MAX && !(t->o.type_mask & (1u << e.ns_type)))
		return 0;
	/* the log's budget (log_budget.h), before the cost of enriching */
	if (!t->o.container[0] && !budget_ok(t, &e))
		return 0;
	x.realtime_ns = enrich_realtime(t->en, e.ts_boot_ns);
	x.exe = enrich_exe(t->en, &e, &x.exe_mntns, &x.exe_mntns_id, &x.exe_cut);
	x.cgroup = enrich_cgroup(t->en, e.pid, e.comm, e.cgroup_id);
	nsnames_for_event(t->names, &e, x.cgroup, &x.ns_name, &x.old_name);
	x.unresolved = enrich_unresolved(t->en, &e, x.exe, x.cgroup);
	stream_record_container(t, &e, &x);
	if (!stream_wanted(t, &e, &x))
		return 0;
	/* with --container, only its records spend the budget */
	if (t->o.container[0] && !budget_ok(t, &e))
		return 0;
	stream_name_link_before(&t->stream, &e, &x);
	if (stream_hand_on(&t->stream, &e, &x))
		return 0;
	seq = t->stream.cb.written_seq ? t->stream.cb.written_seq(t->stream.ctx) : x.seq;
	stream_name_link_after(&t->stream, &e, &x, seq);
	if (t->o.rules)
		rules_eval(t->o.rules, &e, &x, seq, emit_alert, t);
	return 0;
}

/*
 * Coalesced records held by threads that went quiet: one pass of the
 * flush_held iterator sends them (every few polls, and when stopping).
 */
static void flush_held(struct tracer_bpf *b)
{
	char buf[64];
	int fd;

	if (b->flush_link_fd < 0)
		return;
	fd = bpf_iter_create(b->flush_link_fd);
	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

/*
 * The drain loop's slower duties, in ticks of --poll-ms (50 ms by
 * default): held (coalesced) records of quiet threads every 4th tick
 * (~200 ms: a held record is never older than that when it leaves), the
 * boot-to-wall clock offset and the recursion counter every 20th (~1 s).
 */
#define FLUSH_HELD_TICKS 4
#define CLOCK_SYNC_TICKS 20

/* a record reserved and not yet submitted when stopping: how long (ms) */
#define TRACER_STOP_BUSY_MS 100

/*
 * Stopping: everything the rings held at the stop goes out, however slow
 * the consumer. One stream_drain() pass ends after a poll interval (so a
 * flood does not starve the loop's duties), which into a slow pipe left
 * most of a full ring unread and unreported. Draining up to the producer
 * positions read here, not until the rings are empty, ends even under a
 * flood that outruns the writer: what comes after the stop is left to the
 * kernel's ring like any record after the end.
 */
static void stream_drain_all(struct tracer *t)
{
	unsigned long end = ringbuf_reader_producer(&t->stream.rb);
	unsigned long end_rare = ringbuf_reader_producer(&t->stream.rb_rare);
	int busy = 0;

	while (!t->stream.cb_err && (ringbuf_reader_released(&t->stream.rb) < end ||
				     ringbuf_reader_released(&t->stream.rb_rare) < end_rare)) {
		if (stream_drain(t)) {
			busy = 0;
			continue;
		}
		if (++busy > TRACER_STOP_BUSY_MS)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
}

int tracer_run(struct tracer *t, const struct tracer_callbacks *cb, void *ctx,
	       volatile sig_atomic_t *stop)
{
	int (*on_batch)(void *) = cb->on_batch;
	int n, ticks = 0;
	size_t drained;

	t->stream.cb = *cb;
	t->stream.ctx = ctx;
	while (!*stop && !t->stream.cb_err) {
		/*
		 * Records are submitted without wakeups (the producer then pays
		 * almost nothing); a full-ish ring forces one. So poll mostly
		 * times out, and every timeout drains what has accumulated.
		 */
		n = wait_rings(&t->stream, t->o.poll_ms);
		if (n < 0 && n != -EINTR)
			return n;
		/* coalesced records of quiet threads, every ~200 ms */
		if (ticks % FLUSH_HELD_TICKS == FLUSH_HELD_TICKS - 1)
			flush_held(&t->bpf);
		drained = stream_drain(t);
		ledger_report_lost(t);
		ledger_report_user_losses(t);
		ledger_report_vanished_pins(t, false);
		ledger_report_dead_pins(t);
		if (t->o.rules && !t->stream.cb_err)
			rules_tick(t->o.rules, emit_alert, t);
		if (on_batch && on_batch(ctx) < 0)
			return -EIO;
		if (++ticks % CLOCK_SYNC_TICKS == 0) {
			enrich_sync_clock(t->en);
			ledger_report_recursion(t);
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
	flush_held(&t->bpf);
	stream_drain_all(t);
	ledger_report_vanished_pins(t, true);
	ledger_report_recursion(t);
	ledger_report_lost_final(t);
	ledger_report_user_losses(t);

	if (cb->on_commit && !t->stream.cb_err && cb->on_commit(ctx) < 0)
		t->stream.cb_err = -ECANCELED;
	if (on_batch)
		on_batch(ctx);
	return t->stream.cb_err == -ECANCELED ? -ECANCELED : t->stream.cb_err;
}
