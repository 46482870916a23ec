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
		"Usage: nsaudit verify --log-dir DIR [--verification-key KEY | --key FILE]\n"
		"                      [--anchor FILE]... [--quiet]\n\n"
		"Check that a log written by 'nsaudit record' is intact: every record's chained\n"
		"MAC with the key of its own sealing epoch (and no later one), sequence numbers\n"
		"without gaps, every segment present (or dropped by a rotation the log records),\n"
		"the tail against the state file and against anchors that left the host.\n\n"
		"  --log-dir DIR             the log directory\n"
		"  --verification-key KEY    as printed by 'nsaudit keygen' (or a file holding\n"
		"                            it): checks every epoch\n"
		"  --key FILE                the sealing state (checks the epochs whose keys it\n"
		"                            still has, the order of the others) or a static key;\n"
		"                            default DIR/.key, which proves nothing against\n"
		"                            whoever can write DIR (said on stderr)\n"
		"  --anchor FILE             a syslog file (as rsyslog wrote it) or an auditd log\n"
		"                            holding the log's anchors: nothing up to the last\n"
		"                            one may be missing\n"
		"  --quiet                   no summary line when intact\n\n"
		"Exit status: 0 intact, 1 not intact (stderr names the first bad segment and\n"
		"line) or not checkable, 2 usage error.\n\n"
		"Examples:\n"
		"  nsaudit verify --log-dir /var/log/nsaudit --verification-key nsaudit-vk2-...\n"
		"  nsaudit verify --log-dir /mnt/copy --verification-key /root/nsaudit.vk \\\n"
		"                 --anchor /var/log/auth.log\n");
}

#define MAX_ANCHORS 16

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "log-dir", required_argument, NULL, 'd' },
		{ "key", required_argument, NULL, 'k' },
		{ "verification-key", required_argument, NULL, 'V' },
		{ "anchor", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	const char *anchors[MAX_ANCHORS + 1] = { 0 };
	struct audit_verify_opts vo = { 0 };
	struct audit_verify v;
	bool quiet = false;
	char err[512], extra[512] = "";
	size_t na = 0, el;
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
			vo.dir = optarg;
			break;
		case 'k':
			vo.key_path = optarg;
			break;
		case 'V':
			vo.vk = optarg;
			break;
		case 'a':
			if (na == MAX_ANCHORS)
				return cmd_error("verify", EXIT_USAGE, "at most %d --anchor files",
						 MAX_ANCHORS);
			anchors[na++] = optarg;
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
	if (!vo.dir || !*vo.dir)
		return cmd_error("verify", EXIT_USAGE, "--log-dir DIR is required (try --help)");
	if (vo.vk && vo.key_path)
		return cmd_error("verify", EXIT_USAGE,
				 "--verification-key and --key: give one of them");
	vo.anchors = anchors;
	vo.progress = isatty(STDERR_FILENO);
	rc = audit_verify(&vo, &v, err, sizeof(err));
	/* said once the verdict is known, so that a failure stays one line */
	if (rc == 0 && !vo.vk && !vo.key_path)
		fprintf(stderr,
			"nsaudit verify: warning: no --verification-key or --key: checked with "
			"%s/.key, the log's own key: whoever can rewrite the log can rewrite that "
			"key too, so this proves nothing against tampering\n",
			vo.dir);
	if (rc < 0)
		return cmd_error("verify", 1, "%s", err);
	if (rc > 0) {
		fprintf(stderr, "nsaudit verify: %s%s%s: NOT INTACT: %s", vo.dir,
			v.where[0] ? "/" : "", v.where, v.what);
		if (v.bad_seq)
			fprintf(stderr, " (seq %" PRIu64 ")", v.bad_seq);
		fprintf(stderr, "\n");
		return 1;
	}
#define EXTRA(...)                                                                                 \
	do {                                                                                       \
		el = strlen(extra);                                                                \
		snprintf(extra + el, sizeof(extra) - el, __VA_ARGS__);                             \
	} while (0)
	if (v.moved_segments) /* put back after a SIGHUP reopen */
		EXTRA(", %u segment%s moved away while open and put back (last %06u)",
		      v.moved_segments, v.moved_segments == 1 ? "" : "s", v.last_moved);
	if (v.sealed_log) {
		EXTRA(", sealed: epochs %" PRIu64 "..%" PRIu64 ", %" PRIu64 " seal%s", v.first_epoch,
		      v.last_epoch, v.seals, v.seals == 1 ? "" : "s");
		if (v.unsealed)
			EXTRA(", %" PRIu64 " record%s of epoch %" PRIu64 " not sealed yet",
			      v.unsealed, v.unsealed == 1 ? "" : "s", v.last_epoch);
		if (v.late)
			EXTRA(", %" PRIu64 " event%s drained late after a restart", v.late,
			      v.late == 1 ? "" : "s");
	}
	if (v.unchecked)
		EXTRA(", %" PRIu64 " record%s of epochs before %" PRIu64 " checked for order only "
		      "(their keys are erased: --verification-key checks them)",
		      v.unchecked, v.unchecked == 1 ? "" : "s", v.unchecked_below);
	if (v.anchors)
		EXTRA(", anchored up to seq %" PRIu64 " (%u anchor%s)", v.anchored_seq, v.anchors,
		      v.anchors == 1 ? "" : "s");
	if (v.default_key)
		EXTRA(", checked with the log's own key only");
	if (!quiet)
		printf("nsaudit verify: %s: intact: %u segment%s (%06u..%06u), %" PRIu64
		       " records, seq %" PRIu64 "..%" PRIu64 ", %" PRIu64 " lost, %" PRIu64
		       " start%s, %" PRIu64 " unclean stop%s%s, %s\n",
		       vo.dir, v.segments, v.segments == 1 ? "" : "s", v.first_segment,
		       v.last_segment, v.records, v.first_seq, v.last_seq, v.lost, v.starts,
		       v.starts == 1 ? "" : "s", v.recoveries, v.recoveries == 1 ? "" : "s", extra,
		       v.closed ? "closed cleanly" : "still open (recorder running or killed)");
	return 0;
}
