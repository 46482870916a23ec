// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cmd_verify.c - "nsaudit verify": check a recorded log with the log
 * library's verifier (audit/verify.h) and say intact or the first thing
 * that is wrong.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "verify.h"

static void verify_usage(FILE *f)
{
	fprintf(f,
		"Usage: nsaudit verify --log-dir DIR [--key FILE] [--quiet]\n\n"
		"Check that a log written by 'nsaudit record' is intact: every record's chained\n"
		"MAC, sequence numbers without gaps, every segment present (or dropped by a\n"
		"rotation the log records), and the tail against the state file.\n\n"
		"  --log-dir DIR   the log directory\n"
		"  --key FILE      the key (default DIR/.key)\n"
		"  --quiet         no summary line when intact\n\n"
		"Exit status: 0 intact, 1 not intact (stderr names the first bad segment and\n"
		"line) or not checkable, 2 usage error.\n\n"
		"Examples:\n"
		"  nsaudit verify --log-dir /var/log/nsaudit\n"
		"  nsaudit verify --log-dir /mnt/copy --key /root/nsaudit.key\n");
}

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"log-dir", required_argument, NULL, 'd'},
	    {"key", required_argument, NULL, 'k'},
	    {NULL, 0, NULL, 0},
	};
	const char *dir = NULL, *key = NULL;
	struct audit_verify v;
	bool quiet = false;
	char err[512], moved[96] = "";
	int c, rc;

	cmd_getopt_reset();
	while ((c = getopt_long(argc, argv, ":hq", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			verify_usage(stdout);
			return 0;
		case 'q':
			quiet = true;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'k':
			key = optarg;
			break;
		case ':':
			return cmd_error("verify", EXIT_USAGE, "%s: needs a value",
					 argv[optind - 1]);
		default:
			return cmd_error("verify", EXIT_USAGE,
					 "unknown argument '%.64s' (try --help)",
					 cmd_bad_option(argv));
		}
	}
	if (optind < argc)
		return cmd_error("verify", EXIT_USAGE, "unknown argument '%.64s' (try --help)",
				 argv[optind]);
	if (!dir || !*dir)
		return cmd_error("verify", EXIT_USAGE, "--log-dir DIR is required (try --help)");
	rc = audit_verify_dir(dir, key, isatty(STDERR_FILENO), &v, err, sizeof(err));
	if (rc < 0)
		return cmd_error("verify", 1, "%s", err);
	if (rc > 0) {
		fprintf(stderr, "nsaudit verify: %s%s%s: NOT INTACT: %s", dir,
			v.where[0] ? "/" : "", v.where, v.what);
		if (v.bad_seq)
			fprintf(stderr, " (seq %" PRIu64 ")", v.bad_seq);
		fprintf(stderr, "\n");
		return 1;
	}
	if (v.moved_segments) /* SIGHUP reopen or logrotate: the log says so */
		snprintf(moved, sizeof(moved), ", %u segment%s moved away while open (last %06u)",
			 v.moved_segments, v.moved_segments == 1 ? "" : "s", v.last_moved);
	if (!quiet)
		printf("nsaudit verify: %s: intact: %u segment%s (%06u..%06u), %" PRIu64
		       " records, seq %" PRIu64 "..%" PRIu64 ", %" PRIu64 " lost, %" PRIu64
		       " start%s, %" PRIu64 " unclean stop%s%s, %s\n",
		       dir, v.segments, v.segments == 1 ? "" : "s", v.first_segment, v.last_segment,
		       v.records, v.first_seq, v.last_seq, v.lost, v.starts,
		       v.starts == 1 ? "" : "s", v.recoveries, v.recoveries == 1 ? "" : "s", moved,
		       v.closed ? "closed cleanly" : "still open (recorder running or killed)");
	return 0;
}
