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

enum { OPT_LOG_DIR = 0x100, OPT_KEY, OPT_VK, OPT_ANCHOR };

static const struct optab verify_optab[] = {
	{ "log-dir", OPT_LOG_DIR, "DIR", "the log directory" },
	{ "verification-key", OPT_VK, "KEY",
	  "as printed by 'nsaudit keygen' (or a file holding\n"
	  "it): checks every epoch" },
	{ "key", OPT_KEY, "FILE",
	  "the sealing state (checks the epochs whose keys it\n"
	  "still has, the order of the others) or a static key;\n"
	  "default DIR/.key, which proves nothing against\n"
	  "whoever can write DIR (said on stderr)" },
	{ "anchor", OPT_ANCHOR, "FILE",
	  "a syslog file (as rsyslog wrote it), an auditd log,\n"
	  "a file: sink's JSON lines (flat, OCSF, ECS) or\n"
	  "journalctl -o json output holding the log's anchors:\n"
	  "nothing up to the last one may be missing" },
	{ "quiet", 'q', NULL, "no summary line when intact" },
	{ "help", 'h', NULL, "this help" },
	OPTAB_END,
};

static void verify_usage(FILE *f, const struct cmd_opts *opts)
{
	fprintf(f,
		"Usage: nsaudit verify --log-dir DIR [--verification-key KEY | --key FILE]\n"
		"                      [--anchor FILE]... [--quiet]\n\n"
		"Check that a log written by 'nsaudit record' is intact: every record's chained\n"
		"MAC with the key of its own sealing epoch (and no later one), sequence numbers\n"
		"without gaps, every segment present (or dropped by a rotation the log records),\n"
		"the tail against the state file and against anchors that left the host.\n\n");
	cmd_help(f, opts);
	fprintf(f, "\n"
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
		"     them)\n"
		"  5  intact, but its recorder was deaf for a while: it found the kernel's\n"
		"     records no longer came (record --hearing-interval), wrote a \"deaf\"\n"
		"     record and stopped; stdout says from when (what happened then is\n"
		"     neither in the log nor counted lost)\n\n"
		"Examples:\n"
		"  nsaudit verify --log-dir /var/log/nsaudit --verification-key nsaudit-vk2-...\n"
		"  nsaudit verify --log-dir /mnt/copy --verification-key /root/nsaudit.vk \\\n"
		"                 --anchor /var/log/auth.log\n"
		"  nsaudit verify --log-dir /mnt/copy --verification-key /root/nsaudit.vk \\\n"
		"                 --anchor /var/log/nsaudit.ocsf.json   # a file:PATH,format=ocsf sink\n");
}

#define MAX_ANCHORS 16

int cmd_verify(int argc, char **argv)
{
	struct cmd_opts opts;
	const char *name;
	const char *anchors[MAX_ANCHORS + 1] = { 0 };
	struct audit_verify_opts vo = { 0 };
	struct audit_verify v;
	bool quiet = false;
	char err[512];
	size_t na = 0;
	int c, rc;

	cmd_opts_set(&opts, verify_optab);
	cmd_getopt_reset();
	while ((c = cmd_getopt(&opts, argc, argv, &name)) != -1) {
		switch (c) {
		case 'h':
			verify_usage(stdout, &opts);
			return 0;
		case 'q':
			quiet = true;
			break;
		case OPT_LOG_DIR:
			vo.dir = optarg;
			break;
		case OPT_KEY:
			vo.key_path = optarg;
			break;
		case OPT_VK:
			vo.vk = optarg;
			break;
		case OPT_ANCHOR:
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
