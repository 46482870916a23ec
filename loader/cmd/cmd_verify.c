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
		"Exit status:\n"
		"  0  intact: every record checked with its own epoch's key\n"
		"  1  NOT INTACT (stdout lists every finding: segment, line, seq; stderr has\n"
		"     the verdict in one line), or the log\n"
		"     could not be checked at all (no key, unreadable directory)\n"
		"  2  usage error\n"
		"  3  intact up to a crash tail: an unfinished last line or an empty newest\n"
		"     segment after an unclean stop, and nothing else wrong\n"
		"  4  intact as far as the key reaches: --key with a sealing state checked\n"
		"     epochs E..L only (the older ones for order; --verification-key checks\n"
		"     them)\n\n"
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
	char err[512];
	size_t na = 0;
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
	if (rc < 0)
		return cmd_error("verify", 1, "%s", err);
	return verify_print(&vo, &v, rc, quiet);
}
