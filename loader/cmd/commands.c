// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* commands.c - what the subcommands share: one error line, getopt_long. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "commands.h"
#include "log.h"
#include "output/host_id.h"
#include "output/metrics.h"
#include "output/record_fmt.h"
#include "output/sink.h"
#include "tracer/tracer.h"

int cmd_error(const char *cmd, int rc, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "nsaudit %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return rc;
}

void cmd_getopt_reset(void)
{
	optind = 0; /* GNU: reinitialise completely, also mid-cluster state */
	opterr = 0; /* the commands print their own one-line errors */
}

const char *cmd_bad_option(char **argv)
{
	static char shortopt[3] = "-?";
	const char *a = optind > 0 ? argv[optind - 1] : NULL;

	if (a && !strncmp(a, "--", 2))
		return a;
	if (optopt > 0 && optopt < 256) {
		shortopt[1] = (char)optopt;
		return shortopt;
	}
	return a ? a : "?";
}

void cmd_opts_cat(struct option *dst, size_t cap, const struct option *src)
{
	size_t n = 0;

	while (n < cap && dst[n].name)
		n++;
	for (; src->name; src++) {
		if (n + 1 >= cap) { /* a table too small drops options: never silently */
			fprintf(stderr, "nsaudit: internal error: option table too small\n");
			abort();
		}
		dst[n++] = *src;
	}
	memset(&dst[n], 0, sizeof(dst[n]));
}

const char *cmd_opt_name(const struct option *opts, int c, int idx)
{
	if (idx >= 0)
		return opts[idx].name;
	for (; opts->name; opts++)
		if (opts->val == c && !opts->flag)
			return opts->name;
	return NULL;
}

void cmd_lib_options(struct option *opts, size_t cap, const struct option *own, int log)
{
	cmd_opts_cat(opts, cap, own);
	cmd_opts_cat(opts, cap, sink_options);
	if (log)
		cmd_opts_cat(opts, cap, audit_log_options);
	cmd_opts_cat(opts, cap, tracer_options);
}

int cmd_needs_value(const char *cmd, const struct option *opts, char **argv)
{
	if (optopt == SINK_OPT_SINK)
		return cmd_error(cmd, EXIT_USAGE, "--sink needs a value (syslog[:ADDRESS], audit)");
	if (optopt >= AUDIT_OPT_BASE && optopt < AUDIT_OPT_BASE + 16)
		return cmd_error(cmd, EXIT_USAGE, "--%s needs a value",
				 cmd_opt_name(opts, optopt, -1));
	return cmd_error(cmd, EXIT_USAGE, "%s needs a value", argv[optind - 1]);
}

int cmd_lib_opt(const char *cmd, struct sinks *sinks, struct audit_log_opts *lo,
		struct tracer_opts *to, const char *name, const char *val)
{
	char err[512];
	int rc = sinks_set_opt(sinks, name, val, err, sizeof(err));

	if (!rc && lo)
		rc = audit_log_set_opt(lo, name, val, err, sizeof(err));
	if (!rc)
		rc = tracer_set_opt(to, name, val, err, sizeof(err));
	return rc < 0 ? cmd_error(cmd, EXIT_USAGE, "%s", err) : 0;
}

void cmd_ready(const struct tracer *t, int64_t t0, bool verbose, const char *log_dir)
{
	int64_t total = (clock_ns(CLOCK_MONOTONIC) - t0) / 100000, in;
	char phases[256];

	if (verbose) {
		in = tracer_startup(t, phases, sizeof(phases));
		fprintf(stderr,
			"nsaudit: start-up %lld.%lld ms: %s, outside the tracer %lld.%lld\n",
			(long long)(total / 10), (long long)(total % 10), phases,
			(long long)((total - in) / 10), (long long)((total - in) % 10));
	}
	if (log_dir)
		fprintf(stderr, "nsaudit: ready (hooks: %s; log: %s)\n", tracer_hooks(t), log_dir);
	else
		fprintf(stderr, "nsaudit: ready (hooks: %s)\n", tracer_hooks(t));
}

void cmd_host_identity(const char *cmd)
{
	static struct host_id host;
	const char *why;

	host_id_load(&host, &why);
	if (why)
		cmd_error(cmd, 0, "%s: records carry no such field", why);
	record_set_host(&host);
}

void cmd_metrics_tick(struct metrics *m, const struct tracer *t, struct sinks *sk, bool final)
{
	static const char *const rings[2] = { "main", "reserve" };
	struct sink_stats st;
	int i;

	if (!m->path || (!metrics_due(m) && !final))
		return;
	for (i = 0; i < 2; i++) {
		m->ring[i].name = NULL;
		if (t && tracer_ring_fill(t, i, &m->ring[i].used, &m->ring[i].size))
			m->ring[i].name = rings[i];
	}
	m->nsinks = 0;
	for (i = 0; i < sk->n && i < METRICS_SINKS_MAX; i++) {
		if (!sk->s[i])
			continue;
		sink_get_stats(sk->s[i], &st);
		m->sink[m->nsinks].name = sk->specs[i].spec;
		m->sink[m->nsinks].depth = st.depth;
		m->sink[m->nsinks++].lost = st.lost;
	}
	metrics_write(m);
}
