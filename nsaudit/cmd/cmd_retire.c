// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cmd_retire.c - "nsaudit retire --log-dir DIR": end a log for good. An
 * "end" record, the clean stop, and an anchor saying why=end through the
 * sinks, so that a new log begun later under the same key is no "another
 * history under this key" for verify --anchor; the directory takes no
 * more records after it (record refuses it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "log.h"
#include "output/sink.h"
#include "segment.h"

enum { OPT_LOG_DIR = 0x100, OPT_KEY, OPT_SINK };

static const struct optab retire_optab[] = {
	{ "log-dir", OPT_LOG_DIR, "DIR", "the log to retire" },
	{ "key", OPT_KEY, "FILE", "its sealing state (as given to record; default\nDIR/.key)" },
	{ "sink", OPT_SINK, "SINK", "where the end anchor goes (repeatable; give the\n"
				    "recorder's): syslog[:unix:PATH|:udp:HOST:PORT|\n"
				    ":tcp:HOST:PORT], audit or journal" },
	{ "help", 'h', NULL, "this help" },
	OPTAB_END,
};

static void retire_usage(FILE *f, const struct cmd_opts *o)
{
	fprintf(f,
		"Usage: nsaudit retire --log-dir DIR [--key FILE] [--sink SINK]...\n\n"
		"End the log in DIR for good, deliberately: write an 'end' record, close and\n"
		"seal it as a clean stop does, and send its last anchor, saying why=end,\n"
		"through every --sink. verify --anchor then accepts a new log under the\n"
		"same key (a clean stop is no end: without this, a new log under a key that\n"
		"anchored another one is 'another history under this key'). A retired\n"
		"directory takes no more records: 'nsaudit record' refuses it; begin the\n"
		"new log in an empty directory. Stop the recorder first (SIGTERM: a\n"
		"running one holds DIR's lock, and retire refuses).\n\n");
	cmd_help(f, o);
	fprintf(f, "\nExamples:\n"
		   "  nsaudit retire --log-dir /var/log/nsaudit --key /etc/nsaudit/seal "
		   "--sink syslog\n");
}

/*
 * Only a log can be retired: opening DIR as the recorder does would make a
 * missing or mistyped directory, a key and a log in it, and "retire" that
 * (exit 0, as if the log the user meant had ended). 0, or -1 with why.
 */
static int has_log(const char *dir, char *err, size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	unsigned int *nums = NULL;
	size_t n = 0;

	if (fd < 0 || audit_seg_list(fd, &nums, &n)) {
		snprintf(err, errlen, "%.200s: %s (nothing retired)", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	free(nums);
	if (!n) {
		snprintf(err, errlen, "%.200s: no log segments (nsaudit-NNNNNN.log): no log to "
			 "retire", dir);
		return -1;
	}
	return 0;
}

static void to_sinks(void *ctx, struct json_object *anchor)
{
	sinks_emit_anchor(ctx, anchor);
}

/* The options: -1 to go on, or the exit status. */
static int retire_args(int argc, char **argv, struct audit_log_opts *lo, struct sinks *sk)
{
	struct cmd_opts opts;
	const char *name;
	char err[512];
	int c, rc;

	cmd_opts_set(&opts, retire_optab);
	audit_log_opts_init(lo);
	cmd_getopt_reset();
	while ((c = cmd_getopt(&opts, argc, argv, &name)) != -1) {
		switch (c) {
		case 'h':
			retire_usage(stdout, &opts);
			return 0;
		case OPT_LOG_DIR:
		case OPT_KEY:
			rc = audit_log_set_opt(lo, name, optarg, err, sizeof(err));
			break;
		case OPT_SINK:
			rc = sinks_set_opt(sk, name, optarg, err, sizeof(err));
			break;
		case ':':
			return cmd_error("retire", EXIT_USAGE, "%s needs a value", argv[optind - 1]);
		default:
			return cmd_error("retire", EXIT_USAGE, "unknown option '%.64s' (see --help)",
					 cmd_bad_option(argv));
		}
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
	if (has_log(lo.dir, err, sizeof(err)))
		return cmd_error("retire", 1, "%s", err);
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
