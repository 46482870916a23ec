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

/*
 * One line, whatever the message quotes: a path, a name or an argument
 * given by the caller may hold a newline (a second, forged line of an
 * error log) or a terminal's escape. Control bytes and DEL are written as
 * \xNN; other bytes as they are (UTF-8 names stay readable).
 */
int cmd_error(const char *cmd, int rc, const char *fmt, ...)
{
	char msg[4096];
	const unsigned char *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "nsaudit %s: ", cmd);
	for (p = (const unsigned char *)msg; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
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

static void build(struct cmd_opts *o)
{
	optab_getopt(o->tab, o->longopts, CMD_OPTS_MAX, o->shortopts, sizeof(o->shortopts));
}

void cmd_opts_set(struct cmd_opts *o, const struct optab *own)
{
	memset(o, 0, sizeof(*o));
	optab_cat(o->tab, CMD_OPTS_MAX, own);
	build(o);
}

void cmd_lib_opts(struct cmd_opts *o, const struct optab *own, bool log)
{
	static const struct optab log_heading[] = { OPTAB_HEADING("Log:"), OPTAB_END },
				  sink_heading[] = { OPTAB_HEADING("Sinks:"), OPTAB_END },
				  metrics_heading[] = { OPTAB_HEADING("Metrics:"), OPTAB_END },
				  filter_heading[] = { OPTAB_HEADING("Filters:"), OPTAB_END };

	memset(o, 0, sizeof(*o));
	optab_cat(o->tab, CMD_OPTS_MAX, own);
	optab_cat(o->tab, CMD_OPTS_MAX, tracer_hearing_optab);
	if (log) {
		optab_cat(o->tab, CMD_OPTS_MAX, log_heading);
		optab_cat(o->tab, CMD_OPTS_MAX, audit_log_optab);
	}
	optab_cat(o->tab, CMD_OPTS_MAX, filter_heading);
	optab_cat(o->tab, CMD_OPTS_MAX, tracer_optab);
	optab_cat(o->tab, CMD_OPTS_MAX, sink_heading);
	optab_cat(o->tab, CMD_OPTS_MAX, sink_optab);
	optab_cat(o->tab, CMD_OPTS_MAX, metrics_heading);
	optab_cat(o->tab, CMD_OPTS_MAX, metrics_optab);
	build(o);
}

int cmd_getopt(const struct cmd_opts *o, int argc, char **argv, const char **name)
{
	const struct optab *row;
	int c, idx = -1;

	c = getopt_long(argc, argv, o->shortopts, o->longopts, &idx);
	row = c == ':' || c == '?' || c == -1 ? NULL : optab_find(o->tab, c, idx);
	*name = row ? row->name : NULL;
	return c;
}

void cmd_help(FILE *f, const struct cmd_opts *o)
{
	optab_help(f, o->tab);
}

int cmd_needs_value(const char *cmd, const struct cmd_opts *o, char **argv)
{
	const char *typed = optind > 0 ? argv[optind - 1] : "";
	const struct optab *row;

	if (optopt == SINK_OPT_SINK)
		return cmd_error(cmd, EXIT_USAGE, "--sink needs a value (syslog[:ADDRESS], audit)");
	/* the row of what was typed (getopt takes unique prefixes) */
	for (row = o->tab; row->name || row->help; row++)
		if (row->name && row->val == optopt && row->arg &&
		    (optopt < 0x80 || (!strncmp(typed, "--", 2) &&
				       !strncmp(row->name, typed + 2, strlen(typed + 2)))))
			return cmd_error(cmd, EXIT_USAGE, "%s needs a value (%s)", typed, row->arg);
	return cmd_error(cmd, EXIT_USAGE, "%s needs a value", typed);
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

int cmd_hearing_tick(const char *cmd, struct tracer *t, char *why, size_t len)
{
	int rc = tracer_hearing_tick(t, why, len);

	if (rc > 0)
		cmd_error(cmd, 0, "note: cannot check that the kernel's records still come (%s)",
			  why);
	if (rc >= 0)
		return 0;
	cmd_error(cmd, 0, "DEAF: %s; stopping", why);
	return -1;
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
