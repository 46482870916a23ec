// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cmd_trace.c - "nsaudit trace": stream namespace events live. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "commands.h"
#include "output/ecs.h"
#include "output/metrics.h"
#include "output/event_json.h"
#include "output/ocsf.h"
#include "output/schema_map.h"
#include "tracer/privs.h"
#include "rules/rules.h"
#include "output/sink.h"
#include "tracer/tracer.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

enum trace_format { FMT_TEXT, FMT_JSON, FMT_OCSF, FMT_ECS };

struct trace_out {
	enum trace_format fmt;
	bool json;		/* fmt is FMT_JSON */
	bool colour;
	bool flush_each;	/* stdout is a pipe or terminal: what is read goes out at once */
	struct sbuf line;	/* one JSON line */
	struct sinks *sinks;	/* --sink: syslog, audit */
	int werr;		/* errno of the first failed write to stdout, 0: none */
	unsigned long long written, unwritten; /* records out; read but not out */
	struct metrics metrics;	/* --metrics-file */
	struct tracer *t;
	bool deaf;		/* the kernel's records stopped coming */
	char deaf_why[320];
};

/* A failed write: remembered once, with the record it cut. */
static int out_failed(struct trace_out *out)
{
	if (!out->werr)
		out->werr = errno ?: EIO;
	return -1;
}

static int print_record(void *ctx, const struct nsaudit_event *e, const struct event_extra *x)
{
	struct trace_out *out = ctx;
	struct json_object *rec = NULL;

	if (out->werr) {	/* stdout failed: what is still read is counted */
		out->unwritten++;
		return 0;
	}
	metrics_count(&out->metrics, e, x);
	/* an object only for whoever reads one: sinks, the text renderer */
	if (out->sinks->n || !out->json) {	/* text, ocsf, ecs, sinks */
		rec = event_to_json(e, x);
		if (!rec)
			return -1;
		sinks_emit(out->sinks, rec);
	}
	if (out->json) {
		out->line.len = 0;
		record_json_line(&out->line, e, x);
		if (out->line.oom)
			return -1;
		fwrite(out->line.p, 1, out->line.len, stdout);
	} else if (out->fmt != FMT_TEXT) {
		struct json_object *doc = out->fmt == FMT_OCSF ? ocsf_event(rec) : ecs_event(rec);

		out->line.len = 0;
		if (doc)
			map_line(&out->line, doc);
		json_object_put(doc);
		if (!doc || out->line.oom) {
			json_object_put(rec);
			return -1;
		}
		fwrite(out->line.p, 1, out->line.len, stdout);
	} else {
		record_print_text(stdout, rec, out->colour);
	}
	json_object_put(rec);
	if (ferror(stdout)) {
		out->unwritten++;
		return out_failed(out);
	}
	out->written++;
	return 0;
}

static int flush_out(void *ctx)
{
	struct trace_out *out = ctx;

	if (out->werr)
		return -1;
	return fflush(stdout) ? out_failed(out) : 0;
}

/*
 * The kernel's records must still come (tracer_hearing_tick): a trace that
 * hears nothing says so and stops with exit status 1, rather than show a
 * quiet host. -1: deaf.
 */
static int hearing_tick(struct trace_out *out)
{
	if (!cmd_hearing_tick("trace", out->t, out->deaf_why, sizeof(out->deaf_why)))
		return 0;
	out->deaf = true;
	return -1;
}

/* after each drain: stdout flushed, metrics when due, still hearing */
static int end_batch(void *ctx)
{
	struct trace_out *out = ctx;

	cmd_metrics_tick(&out->metrics, out->t, out->sinks, false);
	if (flush_out(ctx) < 0)
		return -1;
	return hearing_tick(out);
}

#define OPT_FORMAT 'f'

static const struct optab trace_optab[] = {
	OPTAB_HEADING("Options:"),
	{ "format", OPT_FORMAT, "FMT",
	  "text (default: one readable line, net:[4026531833])\n"
	  "or json (one flat JSON object per line), ocsf\n"
	  "(OCSF 1.8.0: alerts as Detection Findings, records as\n"
	  "Process Activity) or ecs (Elastic Common Schema 8.17),\n"
	  "one JSON object per line (docs/formats.md)" },
	{ "help", 'h', NULL, "this text" },
	OPTAB_END,
};

static void usage(FILE *f, const struct cmd_opts *opts)
{
	fprintf(f,
		"Usage: nsaudit trace [--format text|json|ocsf|ecs] [FILTERS]\n\n"
		"Trace, live, who entered (setns), created (unshare, clone), pinned (open of\n"
		"/proc/PID/ns/*, bind mount, nsfd) or unpinned (umount) which namespace.\n"
		"One record per operation and namespace type; detections (an escape from a\n"
		"container, a container entering another's namespace...) are records too,\n"
		"\"op\":\"alert\" (docs/rules.md). Prints 'nsaudit: ready' on\n"
		"stderr once attached; Ctrl-C (SIGINT) or SIGTERM drains what the kernel\n"
		"holds, ends on a whole line and exits 0 (a second one: at once). If stdout\n"
		"fails it says how many records it could not write and exits 1 (a closed\n"
		"pipe, as with '| head': 0). If the kernel's records stop coming\n"
		"(--hearing-interval) it says DEAF and exits 1.\n\n");
	cmd_help(f, opts);
	fprintf(f,
		"\nExamples:\n"
		"  nsaudit trace\n"
		"  nsaudit trace --format json | jq 'select(.op == \"setns\")'\n"
		"  nsaudit trace --type net --op setns,unshare\n"
		"  nsaudit trace --comm ip      # then: ip netns add blue\n"
		"  nsaudit trace --format json | jq 'select(.op == \"alert\")'\n"
		"  nsaudit trace --rules /etc/nsaudit/rules.yaml\n"
		"  nsaudit trace --sink syslog:udp:127.0.0.1:514 --sink audit >/dev/null\n");
}

/* The command line into o and out: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct tracer_opts *o, struct trace_out *out)
{
	struct cmd_opts opts;
	const char *name;
	char err[256];
	int c, rc;

	cmd_lib_opts(&opts, trace_optab, false);
	cmd_getopt_reset();
	while ((c = cmd_getopt(&opts, argc, argv, &name)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout, &opts);
			return 0;
		case OPT_FORMAT:
			if (!strcmp(optarg, "json"))
				out->fmt = FMT_JSON;
			else if (!strcmp(optarg, "ocsf"))
				out->fmt = FMT_OCSF;
			else if (!strcmp(optarg, "ecs"))
				out->fmt = FMT_ECS;
			else if (!strcmp(optarg, "text"))
				out->fmt = FMT_TEXT;
			else
				return cmd_error("trace", EXIT_USAGE,
						 "--format '%.32s': not text, json, ocsf or ecs", optarg);
			out->json = out->fmt == FMT_JSON;
			break;
		case METRICS_OPT:
			if (metrics_set_opt(&out->metrics, name, optarg, err, sizeof(err)) < 0)
				return cmd_error("trace", EXIT_USAGE, "%s", err);
			break;
		case ':':
			if (optopt == OPT_FORMAT)
				return cmd_error("trace", EXIT_USAGE,
						 "--format needs a value (text, json, ocsf, ecs)");
			return cmd_needs_value("trace", &opts, argv);
		case '?':
			return cmd_error("trace", EXIT_USAGE, "unknown option '%.64s' (see --help)",
					 cmd_bad_option(argv));
		default:
			rc = cmd_lib_opt("trace", out->sinks, NULL, o, name, optarg);
			if (rc)
				return rc;
		}
	}
	if (optind < argc)
		return cmd_error("trace", EXIT_USAGE, "unknown option '%.64s' (see --help)",
				 argv[optind]);
	return -1;
}

int cmd_trace(int argc, char **argv)
{
	struct sinks sinks = { 0 };
	struct trace_out out = { .sinks = &sinks };
	struct tracer_opts o;
	struct tracer_stats st;
	/* SA_RESTART: a write to a slow pipe blocked when the signal comes
	 * finishes its line instead of failing half-way with EINTR;
	 * SA_RESETHAND: a second signal ends the drain at once */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART | SA_RESETHAND };
	struct tracer *t;
	struct stat sb;
	char err[256];
	int i, rc;
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);

	tracer_opts_init(&o);
	rc = parse_args(argc, argv, &o, &out);
	if (rc >= 0)
		return rc;
	out.flush_each = fstat(STDOUT_FILENO, &sb) || !S_ISREG(sb.st_mode);
	/* no-color.org: NO_COLOR set and not empty turns colour off */
	out.colour = out.fmt == FMT_TEXT && isatty(STDOUT_FILENO) &&
		     !(getenv("NO_COLOR") && *getenv("NO_COLOR"));

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (tracer_rules_open(&o, err, sizeof(err)))	/* a bad --rules: now */
		return cmd_error("trace", EXIT_USAGE, "%s", err);
	cmd_host_identity("trace");
	if (sinks_open(&sinks, err, sizeof(err))) {
		cmd_error("trace", 1, "%s", err);
		rules_free(o.rules);
		return 1;
	}
	t = tracer_open(&o, err, sizeof(err));
	if (!t) {
		cmd_error("trace", 1, "%s", err);
		sinks_close(&sinks);
		rules_free(o.rules);
		return 1;
	}
	for (i = 0; i < sinks.n; i++)	/* a sink's drops: lost records on stdout */
		tracer_add_loss_source(t, sink_loss_source, sinks.s[i]);
	if (drop_privileges(o.verbose, err, sizeof(err))) {
		cmd_error("trace", 1, "%s", err);
		tracer_close(t);
		sinks_close(&sinks);
		return 1;
	}
	cmd_ready(t, t0, o.verbose, NULL);
	{
		struct tracer_callbacks cb = {
			.on_event = print_record,
			/* a pipe or terminal: what the ring held is out at once
			 * (per chunk read, not per record: no write per record) */
			.on_commit = out.flush_each ? flush_out : NULL,
			.on_batch = end_batch,
		};

		out.t = t;
		rc = tracer_run(t, &cb, &out, &stop);
	}
	cmd_metrics_tick(&out.metrics, t, &sinks, true);
	sb_free(&out.line);
	tracer_get_stats(t, &st);
	tracer_close(t);
	sinks_close(&sinks);
	rules_free(o.rules);
	if (fflush(stdout) && !out.werr)
		out.werr = errno ?: EIO;
	if (o.verbose)
		fprintf(stderr, "nsaudit: %llu records (%llu alerts), %llu lost\n",
			(unsigned long long)st.records, (unsigned long long)st.alerts,
			(unsigned long long)st.lost);
	if (out.werr == EPIPE) /* the reader went away ("| head"): not an error */
		return 0;
	if (out.werr) {
		cmd_error("trace", 1,
			  "writing stdout: %s: %llu records written, %llu read but not written, "
			  "the rest left in the kernel's ring",
			  strerror(out.werr), out.written, out.unwritten);
		return 1;
	}
	if (out.deaf)	/* said when it was found */
		return 1;
	if (rc == -ECANCELED)
		return 0;
	if (rc < 0) {
		cmd_error("trace", 1, "reading events: %s", strerror(-rc));
		return 1;
	}
	return 0;
}
