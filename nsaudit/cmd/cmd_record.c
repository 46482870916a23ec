// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cmd_record.c - "nsaudit record": the tracer's records into durable,
 * tamper-evident log segments (audit/log.h), as a foreground daemon.
 *
 * Links and the ring buffer stay pinned in bpffs (--pin-dir), so a
 * recorder that crashes or is restarted loses nothing: the kernel keeps
 * filling the ring, and the next recorder drains it. Records the crashed
 * one already wrote are recognised by their kernel sequence number (kseq)
 * and skipped, so nothing is written twice either.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "clock.h"
#include "commands.h"
#include "output/event_json.h"
#include "output/metrics.h"
#include "log.h"
#include "nstype.h"
#include "tracer/privs.h"
#include "rules/rules.h"
#include "segment.h"
#include "output/sink.h"
#include "tracer/tracer.h"
#include "tracer/log_budget.h"

/* every record of an unreleased batch is among those a restart skips */
_Static_assert(TRACER_BATCH_MAX <= AUDIT_RESUME_MAX, "a batch larger than the resume set");

static volatile sig_atomic_t stop, reopen;

static void on_stop(int sig)
{
	stop = 1;
}

static void on_hup(int sig)
{
	reopen = 1;
}

struct recorder {
	struct audit_log *log;
	int failed;
	struct sinks sinks;	/* --sink: syslog, audit */
	struct metrics metrics;	/* --metrics-file */
	struct tracer *t;
	const struct audit_log_opts *lo;
	const char *pin_dir;	/* --pin-dir, or NULL (--no-pin) */
	int64_t pins_checked;	/* when the pins were last looked at */
	bool pins_gone;		/* said once */
	bool deaf;		/* the kernel's records stopped coming */
	char deaf_why[320];
	struct {		/* how long the log space lasts: said once */
		int64_t t0;
		uint64_t bytes0;
		bool said;
	} space;
};

/* What every record the recorder writes about itself starts with. */
static void log_head(struct audit_fields *f, const char *action)
{
	char ts[40];

	audit_time_now(ts);
	audit_f_str(f, "time", ts, strlen(ts));
	audit_f_str(f, "op", "log", 3);
	audit_f_str(f, "action", action, strlen(action));
}

static void pins_gone_fields(struct audit_fields *f, const void *ctx)
{
	const struct recorder *r = ctx;

	log_head(f, "pins-removed");
	audit_f_str(f, "path", r->pin_dir, strlen(r->pin_dir));
}

/*
 * Someone removed the pins under a running recorder (rm, an old detach):
 * it holds its programs and records on, but a crash would now lose what
 * the ring holds and a restart loads new programs. Said on stderr and in
 * the log, once; looked at every 2 s.
 */
static void pins_tick(struct recorder *r)
{
	int64_t now = clock_ns(CLOCK_MONOTONIC);
	char path[4200];

	if (!r->pin_dir || r->pins_gone || now - r->pins_checked < 2000000000LL)
		return;
	r->pins_checked = now;
	snprintf(path, sizeof(path), "%s/events", r->pin_dir);
	if (!access(path, F_OK) || errno != ENOENT)
		return;
	r->pins_gone = true;
	cmd_error("record", 0, "warning: the pins in %.200s were removed: this recorder still "
		  "holds its programs and records on, but a crash now loses what the kernel "
		  "holds for it", r->pin_dir);
	/* as the records go: the same batch, the same sealing */
	if (audit_log_append_fields(r->log, clock_ns(CLOCK_REALTIME), pins_gone_fields, r) < 0 ||
	    audit_log_commit(r->log) < 0)
		r->failed = 1;
}

static void deaf_fields(struct audit_fields *f, const void *ctx)
{
	const struct recorder *r = ctx;
	uint64_t sent, heard;
	int64_t last_ns;
	char ts[40];

	log_head(f, "deaf");
	audit_f_str(f, "reason", r->deaf_why, strlen(r->deaf_why));
	tracer_hearing_counts(r->t, &sent, &heard, &last_ns);
	audit_f_u64(f, "canaries", sent);
	audit_f_u64(f, "heard", heard);
	if (last_ns) {	/* the last moment it is known to have heard */
		format_rfc3339(last_ns, ts, sizeof(ts));
		audit_f_str(f, "heard_until", ts, strlen(ts));
	}
}

/*
 * The kernel's records must still come (tracer_hearing_tick): a recorder
 * that hears nothing says so on stderr and in the log, and stops with
 * exit status 1, rather than write a quiet log that verifies. -1: deaf.
 */
static int hearing_tick(struct recorder *r)
{
	if (!cmd_hearing_tick("record", r->t, r->deaf_why, sizeof(r->deaf_why)))
		return 0;
	r->deaf = true;
	if (audit_log_append_fields(r->log, clock_ns(CLOCK_REALTIME), deaf_fields, r) < 0 ||
	    audit_log_commit(r->log) < 0)
		r->failed = 1;
	return -1;
}

/*
 * Records of a flood at the log budget are about this long (a no-coalesce
 * ioctl flood: docs/flood.md), which the one-uid bound below is made of.
 */
#define FLOOD_RECORD_BYTES 700

/*
 * At start, how long --max-size x --keep lasts: at the average rate of
 * what the log already keeps (a restart), or "cannot tell yet" (a new
 * log), and what one uid flooding at the log budget would leave of it.
 * The rate now is measured and said by space_tick() within a minute.
 */
static void space_start(struct recorder *r, uint32_t budget)
{
	uint64_t space = r->lo->max_size * r->lo->keep, kept;
	int64_t now = clock_ns(CLOCK_REALTIME), first;
	char size[32], total[32], past[64], flood[160], since[40], kept_msg[200];
	double secs, rate;
	bool warn = false;

	audit_size_str(size, sizeof(size), r->lo->max_size);
	audit_size_str(total, sizeof(total), space);
	if (!audit_log_kept(r->lo->dir, &kept, &first) && first && now - first > 10 * NSEC_PER_SEC &&
	    kept > 4096) {
		secs = (double)(now - first) / 1e9;
		rate = (double)kept / secs;
		format_rfc3339(first, since, sizeof(since));
		audit_span_str(past, sizeof(past), (double)space / rate);
		warn = (double)space / rate < 3600;
		snprintf(kept_msg, sizeof(kept_msg),
			 "at the log's average rate since its oldest record kept (%.1f KiB/s "
			 "since %.19sZ) it holds about %s", rate / 1024, since, past);
	} else {
		snprintf(kept_msg, sizeof(kept_msg),
			 "how long at this host's rate: cannot tell yet (a new log)");
	}
	if (budget) {
		rate = (double)(budget + budget / 8) * FLOOD_RECORD_BYTES;
		audit_span_str(past, sizeof(past), (double)space / rate);
		snprintf(flood, sizeof(flood), "; one uid flooding at the log budget (%u "
			 "records/s) fills it in about %s", budget + budget / 8, past);
	} else {
		snprintf(flood, sizeof(flood), "; no log budget: a flood fills it as fast as it "
			 "writes");
	}
	cmd_error("record", 0, "%slog space %u x %s = %s: %s%s; the rate now is said within a "
		  "minute (--max-size, --keep)", warn ? "warning: " : "", r->lo->keep, size, total,
		  kept_msg, flood);
}

/*
 * How long --max-size x --keep lasts at the rate the log grows, said once:
 * after a minute, or after 5 s if the log already grew by an eighth of its
 * space (a flood). A warning when it is less than an hour.
 */
static void space_tick(struct recorder *r)
{
	int64_t now = clock_ns(CLOCK_MONOTONIC), dt;
	uint64_t b, grown, space = r->lo->max_size * r->lo->keep;
	char left[32], size[32], total[32];
	double rate;

	if (r->space.said || audit_log_written(r->lo->dir, r->lo->max_size, &b))
		return;
	if (!r->space.t0) {
		r->space.t0 = now;
		r->space.bytes0 = b;
		return;
	}
	dt = now - r->space.t0;
	grown = b > r->space.bytes0 ? b - r->space.bytes0 : 0;
	if (dt < 5000000000LL || (dt < 60000000000LL && grown < space / 8))
		return;
	r->space.said = true;
	if (!grown || !space)
		return;
	rate = (double)grown / ((double)dt / 1e9);
	audit_span_str(left, sizeof(left), (double)space / rate);
	audit_size_str(size, sizeof(size), r->lo->max_size);
	audit_size_str(total, sizeof(total), space);
	cmd_error("record", 0,
		  "%sat the rate of the last %.0f s (%.0f KiB/s) the log space (%u x %s = %s) "
		  "holds about %s of records; then the oldest segment is deleted (--max-size, "
		  "--keep)", (double)space / rate < 3600 ? "warning: " : "", (double)dt / 1e9,
		  rate / 1024, r->lo->keep, size, total, left);
}

static int write_record(void *ctx, const struct nsaudit_event *e, const struct event_extra *x)
{
	struct recorder *r = ctx;
	struct enriched_event rec = { e, x };

	/* formatted straight into the log's batch: no object per record */
	if (audit_log_append_fields(r->log, x->realtime_ns, record_fields_of, &rec) < 0) {
		r->failed = 1;	/* --on-full stop, or a hard I/O error */
		return -1;
	}
	metrics_count(&r->metrics, e, x);
	/* the kernel's lost counter as last written: kept in the MAC'd state
	 * for a restart on the pinned ring */
	if (e->op == NSAUDIT_OP_LOST && !x->cause)	/* not a sink's loss */
		audit_log_note_lost_total(r->log, e->arg);
	if (r->sinks.n) {
		struct json_object *o = event_to_json(e, x);

		if (o)
			sinks_emit(&r->sinks, o);
		json_object_put(o);
	}
	return 0;
}

/* The log's seq of the record just appended: what its alerts name. */
static uint64_t written_seq(void *ctx)
{
	struct recorder *r = ctx;

	return audit_log_next_seq(r->log) - 1;
}

/* A chunk read from the ring is written before the ring forgets it. */
static int write_batch(void *ctx)
{
	struct recorder *r = ctx;

	if (audit_log_commit(r->log) < 0) {
		r->failed = 1;
		return -1;
	}
	return 0;
}

/* Anchors a sink lost go into the log (audit_log_anchors_lost): a gap in
 * the sink's anchor chain is then a loss the log admitted, not a deletion. */
static void anchor_losses_tick(struct recorder *r)
{
	uint64_t n, first, last;
	const char *spec;
	int i;

	for (i = 0; i < r->sinks.n; i++) {
		n = sink_take_anchor_losses(r->sinks.s[i], &first, &last, &spec);
		if (n && audit_log_anchors_lost(r->log, spec, first, last, n) < 0)
			fprintf(stderr, "nsaudit record: writing that sink %s lost anchors %" PRIu64
				"..%" PRIu64 ": %s\n", spec, first, last, audit_log_error(r->log));
	}
}

static int end_batch(void *ctx)
{
	struct recorder *r = ctx;

	if (reopen) {		/* logrotate moved the file: start a new one */
		reopen = 0;
		if (audit_log_reopen(r->log) < 0)
			cmd_error("record", 1, "reopening the log: %s", audit_log_error(r->log));
	}
	space_tick(r);
	pins_tick(r);
	anchor_losses_tick(r);
	if (hearing_tick(r))
		return -1;
	/* the sealing timer: an epoch ends whether records come or not */
	if (audit_log_tick(r->log) < 0)
		cmd_error("record", 1, "sealing: %s", audit_log_error(r->log));
	if (r->metrics.path) {
		r->metrics.written_seq = audit_log_next_seq(r->log) - 1;
		cmd_metrics_tick(&r->metrics, r->t, &r->sinks, false);
	}
	return audit_log_flush(r->log);
}

/* The chain head leaves the host with the records: every sink gets it. */
static void send_anchor(void *ctx, struct json_object *anchor)
{
	struct recorder *r = ctx;
	struct json_object *v;

	sinks_emit_anchor(&r->sinks, anchor); /* never behind records */
	/* for the metrics: how far the anchors are behind, the last seal */
	r->metrics.anchor_ns = clock_ns(CLOCK_REALTIME);
	if (json_object_object_get_ex(anchor, "seq", &v))
		r->metrics.anchored_seq = (uint64_t)json_object_get_int64(v);
	if (json_object_object_get_ex(anchor, "why", &v) &&
	    !strcmp(json_object_get_string(v) ?: "", "seal"))
		r->metrics.seal_ns = r->metrics.anchor_ns;
}

enum { OPT_NO_PIN = 0x180, OPT_KEEP_PINNED, OPT_PIN_DIR };

static const struct optab record_optab[] = {
	OPTAB_HEADING("Options:"),
	{ "help", 'h', NULL, "this text" },
	OPTAB_HEADING("Kernel state:"),
	{ "pin-dir", OPT_PIN_DIR, "DIR",
	  "where links and the ring stay pinned (default\n"
	  NSAUDIT_PIN_DIR "); a restarted recorder drains\n"
	  "what was traced meanwhile. One recorder per DIR: a\n"
	  "second is refused. A link removed from DIR while no\n"
	  "recorder ran: the next one says DEAF at once (those\n"
	  "calls went unheard). 'nsaudit detach' removes it." },
	{ "keep-pinned", OPT_KEEP_PINNED, NULL,
	  "leave them pinned on a clean stop too (for a restart\n"
	  "or upgrade without a gap); by default only a crash\n"
	  "leaves them, and a clean stop detaches" },
	{ "no-pin", OPT_NO_PIN, NULL, "nothing pinned: stopping the recorder stops tracing" },
	OPTAB_END,
};

static void usage(FILE *f, const struct cmd_opts *opts)
{
	fprintf(f,
		"Usage: nsaudit record --log-dir DIR [LOG OPTIONS] [FILTERS]\n\n"
		"Record every namespace pin, entry and creation into tamper-evident log\n"
		"segments in DIR, as a foreground daemon. Prints 'nsaudit: ready' on stderr\n"
		"once attached. SIGTERM/SIGINT drain, write a closing record and exit 0;\n"
		"SIGHUP reopens the current segment (for logrotate).\n\n");
	cmd_help(f, opts);
	fprintf(f,
		"\nExamples:\n"
		"  nsaudit keygen /etc/nsaudit/key > /root/offhost.vk\n"
		"  nsaudit record --log-dir /var/log/nsaudit --key /etc/nsaudit/key --sink syslog\n"
		"  nsaudit record --log-dir /var/log/nsaudit --type net --max-size 64M --keep 20\n"
		"  nsaudit verify --log-dir /var/log/nsaudit --verification-key /root/offhost.vk\n");
}

/*
 * The command line into o, lo and r's sinks: -1 to go on, or the exit
 * status (--help, a bad option or value).
 */
static int parse_args(int argc, char **argv, struct tracer_opts *o, struct audit_log_opts *lo,
		      struct recorder *r, bool *keep_pinned)
{
	static const char pin_dir_msg[] = "--pin-dir needs an absolute path in a bpf file system";
	struct cmd_opts opts;
	const char *name;
	bool pin = true;
	char err[256];
	pid_t who;
	int c, rc;

	r->lo = lo;
	tracer_opts_init(o);
	audit_log_opts_init(lo);
	o->pin_dir = NSAUDIT_PIN_DIR;
	/* the log's retention is shared: no actor may take it (docs/flood.md) */
	o->log_budget = LOG_BUDGET_UID;
	cmd_lib_opts(&opts, record_optab, true);
	cmd_getopt_reset();
	while ((c = cmd_getopt(&opts, argc, argv, &name)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout, &opts);
			return 0;
		case OPT_NO_PIN:
			pin = false;
			break;
		case OPT_KEEP_PINNED:
			*keep_pinned = true;
			break;
		case OPT_PIN_DIR:
			if (optarg[0] != '/')
				return cmd_error("record", EXIT_USAGE, "%s", pin_dir_msg);
			o->pin_dir = optarg;
			break;
		case METRICS_OPT:
			if (metrics_set_opt(&r->metrics, name, optarg, err, sizeof(err)) < 0)
				return cmd_error("record", EXIT_USAGE, "%s", err);
			break;
		case ':':
			if (optopt == OPT_PIN_DIR)
				return cmd_error("record", EXIT_USAGE, "%s", pin_dir_msg);
			return cmd_needs_value("record", &opts, argv);
		case '?':
			return cmd_error("record", EXIT_USAGE, "unknown option '%.64s' (see --help)",
					 cmd_bad_option(argv));
		default:
			rc = cmd_lib_opt("record", &r->sinks, lo, o, name, optarg);
			if (rc)
				return rc;
		}
	}
	if (optind < argc)
		return cmd_error("record", EXIT_USAGE, "unknown option '%.64s' (see --help)",
				 argv[optind]);
	if (!lo->dir) {
		cmd_error("record", EXIT_USAGE, "--log-dir DIR is required (see --help)");
		return EXIT_USAGE;
	}
	if (!pin)
		o->pin_dir = NULL;
	r->pin_dir = o->pin_dir;
	/* before the log and its key are touched: tracer_open() takes the
	 * lock itself; this only spares a refused recorder's log dir */
	if (o->pin_dir && (who = tracer_pin_dir_user(o->pin_dir)))
		return cmd_error("record", 1, "another recorder (pid %d) records from the programs "
				 "pinned in %.200s: a second one would go deaf when it stops; give "
				 "this one its own --pin-dir, or --no-pin", (int)who, o->pin_dir);
	return -1;
}

/* How the run ended, as the exit status, with the line that says why. */
static int exit_status(int rc, const struct recorder *r, const char *dir)
{
	if (r->deaf)
		return cmd_error("record", 1, "stopped: deaf (the \"deaf\" record in %s says "
				 "why%s)", dir, r->pin_dir ? "; the pins are kept for the next "
				 "recorder" : "");
	if (r->failed)
		return cmd_error("record", 1,
				 "stopped: the log cannot take more records (see the last "
				 "record in %s)",
				 dir);
	if (rc == -EIO) {
		cmd_error("record", 1, "the log was not closed cleanly (the line above says why)");
		return 1;
	}
	if (rc < 0) {
		cmd_error("record", 1, "%s", strerror(-rc));
		return 1;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct sigaction sa_stop = { .sa_handler = on_stop }, sa_hup = { .sa_handler = on_hup };
	struct audit_log_opts lo;
	struct recorder r = { 0 };
	struct tracer_opts o;
	struct tracer *t;
	uint64_t kseqs[AUDIT_RESUME_MAX], lost_total;
	size_t nk;
	char err[512];
	int i, rc;
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	bool keep_pinned = false;

	rc = parse_args(argc, argv, &o, &lo, &r, &keep_pinned);
	if (rc >= 0)
		return rc;

	if (tracer_rules_open(&o, err, sizeof(err)))	/* a bad --rules: now */
		return cmd_error("record", EXIT_USAGE, "%s", err);
	cmd_host_identity("record");
	sigaction(SIGINT, &sa_stop, NULL);
	sigaction(SIGTERM, &sa_stop, NULL);
	sigaction(SIGHUP, &sa_hup, NULL);
	signal(SIGPIPE, SIG_IGN);

	r.log = audit_log_open(&lo, err, sizeof(err));
	if (!r.log) {
		cmd_error("record", 1, "%s", err);
		return 1;
	}
	if (sinks_open(&r.sinks, err, sizeof(err))) {
		cmd_error("record", 1, "%s", err);
		audit_log_close(r.log);
		return 1;
	}
	t = tracer_open(&o, err, sizeof(err));
	if (!t) {
		cmd_error("record", 1, "%s", err);
		sinks_close(&r.sinks);
		audit_log_close(r.log);
		return 1;
	}
	for (i = 0; i < r.sinks.n; i++)	/* a sink's drops: lost records in the log */
		tracer_add_loss_source(t, sink_loss_source, r.sinks.s[i]);
	if (tracer_reused_pins(t)) {
		/* what the predecessor wrote, from records the codec parsed and
		 * the MAC'd state, never from raw bytes */
		nk = audit_log_resume(r.log, kseqs, AUDIT_RESUME_MAX, &lost_total);
		tracer_resume(t, kseqs, nk, lost_total);
	} else if (audit_log_restart_lost_total(r.log)) {
		/* new programs count lost calls from 0 again */
		cmd_error("record", 1, "%s", audit_log_error(r.log));
		tracer_close(t);
		sinks_close(&r.sinks);
		audit_log_close(r.log);
		return 1;
	}
	if (drop_privileges(o.verbose, err, sizeof(err))) {
		cmd_error("record", 1, "%s", err);
		tracer_close(t);
		sinks_close(&r.sinks);
		audit_log_close(r.log);
		return 1;
	}
	if (r.sinks.n)	/* numbered anchors: only those that leave */
		audit_log_set_anchor(r.log, send_anchor, &r);
	space_start(&r, o.log_budget);
	cmd_ready(t, t0, o.verbose, lo.dir);
	{
		struct tracer_callbacks cb = {
			.on_event = write_record,
			.on_commit = write_batch,
			.on_batch = end_batch,
			.written_seq = written_seq,
		};

		r.t = t;
		r.metrics.log = true;
		rc = tracer_run(t, &cb, &r, &stop);
	}
	cmd_metrics_tick(&r.metrics, t, &r.sinks, true);
	r.t = NULL;
	tracer_close(t);
	/* a clean stop was asked for: the ring is drained, nothing to keep */
	if (o.pin_dir && !keep_pinned && stop)
		tracer_unpin(o.pin_dir);
	/* the close record's anchor goes through the sinks: close them last */
	anchor_losses_tick(&r);
	if (audit_log_close(r.log) < 0 && !rc)
		rc = -EIO;
	sinks_close(&r.sinks);
	rules_free(o.rules);
	return exit_status(rc, &r, lo.dir);
}
