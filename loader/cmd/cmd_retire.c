// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cmd_retire.c - "nsaudit retire --log-dir DIR": end a log for good. An
 * "end" record, the clean stop, and an anchor saying why=end through the
 * sinks, so that a new log begun later under the same key is no "another
 * history under this key" for verify --anchor; the directory takes no
 * more records after it (record refuses it).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "output/sink.h"

static void retire_usage(FILE *f)
{
	fprintf(f,
		"Usage: nsaudit retire --log-dir DIR [--key FILE] [--sink SINK]...\n\n"
		"End the log in DIR for good, deliberately: write an 'end' record, close and\n"
		"seal it as a clean stop does, and send its last anchor, saying why=end,\n"
		"through every --sink (give the recorder's). verify --anchor then accepts a\n"
		"new log under the same key (a clean stop is no end: without this, a new\n"
		"log under a key that anchored another one is 'another history under this\n"
		"key'). A retired directory takes no more records: 'nsaudit record' refuses\n"
		"it; begin the new log in an empty directory. Stop the recorder first\n"
		"(SIGTERM: a running one holds DIR's lock, and retire refuses).\n\n"
		"  --log-dir DIR        the log to retire\n"
		"  --key FILE           its sealing state (as given to record; default\n"
		"                       DIR/.key)\n"
		"%s\n"
		"Examples:\n"
		"  nsaudit retire --log-dir /var/log/nsaudit --key /etc/nsaudit/seal --sink syslog\n",
		sink_opts_help);
}

static void to_sinks(void *ctx, struct json_object *anchor)
{
	sinks_emit_anchor(ctx, anchor);
}

/* The options: 0 to go on, or the exit status. */
static int retire_args(int argc, char **argv, struct audit_log_opts *lo, struct sinks *sk)
{
	static const struct option own[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct option opts[16] = { 0 };
	char err[512];
	int c, idx = -1, rc;

	cmd_opts_cat(opts, 16, own);
	cmd_opts_cat(opts, 16, sink_options);
	cmd_opts_cat(opts, 16, audit_log_options);
	audit_log_opts_init(lo);
	cmd_getopt_reset();
	while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
		const char *name = cmd_opt_name(opts, c, idx);

		idx = -1;
		if (c == 'h') {
			retire_usage(stdout);
			return 0;
		}
		if (c == ':')
			return cmd_needs_value("retire", opts, argv);
		if (c == '?')
			return cmd_error("retire", EXIT_USAGE, "unknown option '%.64s' (see --help)",
					 cmd_bad_option(argv));
		rc = sinks_set_opt(sk, name, optarg, err, sizeof(err));
		if (!rc)
			rc = audit_log_set_opt(lo, name, optarg, err, sizeof(err));
		if (rc < 0)
			return cmd_error("retire", EXIT_USAGE, "%s", err);
	}
	if (optind < argc)
		return cmd_error("retire", EXIT_USAGE, "unknown option '%.64s' (see --help)",
				 argv[optind]);
	if (!lo->dir)
		return cmd_error("retire", EXIT_USAGE, "--log-dir DIR is required (see --help)");
	return -1;
}

int cmd_retire(int argc, char **argv)
{
	struct audit_log_opts lo;
	struct sinks sk = { 0 };
	struct audit_log *l;
	char err[512];
	int rc = retire_args(argc, argv, &lo, &sk);

	if (rc >= 0)
		return rc;
	if (sinks_open(&sk, err, sizeof(err)))
		return cmd_error("retire", 1, "%s", err);
	l = audit_log_open(&lo, err, sizeof(err));
	if (!l) {
		sinks_close(&sk);
		return cmd_error("retire", 1, "%s", err);
	}
	if (sk.n)
		audit_log_set_anchor(l, to_sinks, &sk);
	rc = audit_log_retire(l, err, sizeof(err));
	sinks_close(&sk); /* flushes the end anchor */
	if (rc)
		return cmd_error("retire", 1, "%s", err);
	if (!sk.n)
		cmd_error("retire", 0, "%s: retired, but no --sink took the end anchor: nothing "
			  "off this host says the log ended", lo.dir);
	else
		cmd_error("retire", 0, "%s: retired; the end anchor went to %d sink%s", lo.dir,
			  sk.n, sk.n == 1 ? "" : "s");
	return 0;
}
