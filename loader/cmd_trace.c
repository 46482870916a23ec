// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cmd_trace.c - "nsaudit trace": stream namespace events live. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "event_json.h"
#include "privs.h"
#include "sink.h"
#include "tracer.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

struct trace_out {
	bool json;
	bool colour;
	bool flush_each;	/* stdout is a pipe or terminal: no batching */
	struct sinks *sinks;	/* --sink: syslog, audit */
};

static int print_record(void *ctx, struct json_object *rec)
{
	struct trace_out *out = ctx;

	sinks_emit(out->sinks, rec);
	if (out->json) {
		fputs(record_to_json_line(rec), stdout);
		fputc('\n', stdout);
	} else {
		record_print_text(stdout, rec, out->colour);
	}
	if (out->flush_each)
		fflush(stdout);
	return ferror(stdout) ? -1 : 0;
}

static int flush_batch(void *ctx)
{
	return fflush(stdout) ? -1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: nsaudit trace [--format text|json] [FILTERS]\n\n"
		"Trace, live, who entered (setns), created (unshare, clone), pinned (open of\n"
		"/proc/PID/ns/*, bind mount, nsfd) or unpinned (umount) which namespace.\n"
		"One record per operation and namespace type. Prints 'nsaudit: ready' on\n"
		"stderr once attached; Ctrl-C (SIGINT) or SIGTERM drains and exits 0.\n\n"
		"Options:\n"
		"  -f, --format FMT     text (default: one readable line, net:[4026531833])\n"
		"                       or json (one flat JSON object per line)\n"
		"%s%s"
		"  -h, --help           this text\n\n"
		"Examples:\n"
		"  nsaudit trace\n"
		"  nsaudit trace --format json | jq 'select(.op == \"setns\")'\n"
		"  nsaudit trace --type net --op setns,unshare\n"
		"  nsaudit trace --comm ip      # then: ip netns add blue\n"
		"  nsaudit trace --sink syslog:udp:127.0.0.1:514 --sink audit >/dev/null\n",
		tracer_opts_help, sink_opts_help);
}

int cmd_trace(int argc, char **argv)
{
	struct sinks sinks = { 0 };
	struct trace_out out = { .sinks = &sinks };
	struct tracer_opts o;
	struct tracer_stats st;
	struct sigaction sa = { .sa_handler = on_signal };
	struct tracer *t;
	struct stat sb;
	char err[256];
	int i, used, rc;

	tracer_opts_init(&o);
	for (i = 1; i < argc; i += used) {
		used = 1;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-f") || !strcmp(argv[i], "--format")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "nsaudit trace: --format needs a value (text, json)\n");
				return EXIT_USAGE;
			}
			if (!strcmp(argv[i + 1], "json")) {
				out.json = true;
			} else if (strcmp(argv[i + 1], "text")) {
				fprintf(stderr, "nsaudit trace: --format '%.32s': not text or json\n",
					argv[i + 1]);
				return EXIT_USAGE;
			}
			used = 2;
			continue;
		}
		rc = sinks_parse_opt(&sinks, argc - i, argv + i, &used, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "nsaudit trace: %s\n", err);
			return EXIT_USAGE;
		}
		if (rc > 0)
			continue;
		rc = tracer_parse_opt(&o, argc - i, argv + i, &used, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "nsaudit trace: %s\n", err);
			return EXIT_USAGE;
		}
		if (rc == 0) {
			fprintf(stderr, "nsaudit trace: unknown option '%.64s' (see --help)\n",
				argv[i]);
			return EXIT_USAGE;
		}
	}

	out.flush_each = fstat(STDOUT_FILENO, &sb) || !S_ISREG(sb.st_mode);
	/* no-color.org: NO_COLOR set and not empty turns colour off */
	out.colour = !out.json && isatty(STDOUT_FILENO) &&
		     !(getenv("NO_COLOR") && *getenv("NO_COLOR"));

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (sinks_open(&sinks, err, sizeof(err))) {
		fprintf(stderr, "nsaudit trace: %s\n", err);
		return 1;
	}
	t = tracer_open(&o, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "nsaudit trace: %s\n", err);
		sinks_close(&sinks);
		return 1;
	}
	if (drop_privileges(o.verbose, err, sizeof(err))) {
		fprintf(stderr, "nsaudit trace: %s\n", err);
		tracer_close(t);
		sinks_close(&sinks);
		return 1;
	}
	fprintf(stderr, "nsaudit: ready (hooks: %s)\n", tracer_hooks(t));
	rc = tracer_run(t, print_record, out.flush_each ? NULL : flush_batch, &out, &stop);
	tracer_get_stats(t, &st);
	tracer_close(t);
	sinks_close(&sinks);
	fflush(stdout);
	if (o.verbose)
		fprintf(stderr, "nsaudit: %llu records, %llu lost\n",
			(unsigned long long)st.records, (unsigned long long)st.lost);
	if (rc == -ECANCELED) /* stdout went away (a closed pipe): not an error */
		return 0;
	if (rc < 0) {
		fprintf(stderr, "nsaudit trace: reading events: %s\n", strerror(-rc));
		return 1;
	}
	return 0;
}
