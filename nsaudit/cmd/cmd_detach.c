// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cmd_detach.c - "nsaudit detach": remove what a recorder left pinned. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "tracer/tracer.h"

#define OPT_PIN_DIR 0x100

static const struct optab detach_optab[] = {
	{ "pin-dir", OPT_PIN_DIR, "DIR", "where the recorder pinned them (default\n" NSAUDIT_PIN_DIR ")" },
	{ "help", 'h', NULL, "this help" },
	OPTAB_END,
};

int cmd_detach(int argc, char **argv)
{
	const char *dir = NSAUDIT_PIN_DIR, *name;
	struct cmd_opts opts;
	pid_t who;
	int c, rc;

	cmd_opts_set(&opts, detach_optab);
	cmd_getopt_reset();
	while ((c = cmd_getopt(&opts, argc, argv, &name)) != -1) {
		switch (c) {
		case 'h':
			printf("Usage: nsaudit detach [--pin-dir DIR]\n\n"
			       "Detach the BPF programs that 'nsaudit record' keeps pinned in\n"
			       "DIR (default %s) and free their ring buffer. Events the ring\n"
			       "still holds are discarded: stop the recorder with SIGTERM first\n"
			       "so it drains them.\n\n", NSAUDIT_PIN_DIR);
			cmd_help(stdout, &opts);
			return 0;
		case OPT_PIN_DIR:
			if (!optarg[0])
				return cmd_error("detach", EXIT_USAGE, "--pin-dir needs a directory");
			dir = optarg;
			break;
		case ':':
			return cmd_error("detach", EXIT_USAGE, "--pin-dir needs a directory");
		default:
			return cmd_error("detach", EXIT_USAGE, "unknown option '%.64s' (see --help)",
					 cmd_bad_option(argv));
		}
	}
	if (optind < argc)
		return cmd_error("detach", EXIT_USAGE, "unknown option '%.64s' (see --help)",
				 argv[optind]);
	who = tracer_pin_dir_user(dir);
	if (who > 0)
		return cmd_error("detach", 1, "%s: recorder pid %d is using it: stop it first "
				 "(SIGTERM drains the ring and detaches)", dir, (int)who);
	if (who < 0)
		return cmd_error("detach", 1, "%s: a recorder is using it: stop it first", dir);
	rc = tracer_unpin(dir);
	if (rc == -ENOENT)
		return cmd_error("detach", 0, "nothing pinned in %s", dir);
	if (rc == -EMEDIUMTYPE)
		return cmd_error("detach", 1,
				 "%s: not a directory in a bpf file system (nothing removed)", dir);
	if (rc)
		return cmd_error("detach", 1, "%s: %s", dir, strerror(-rc));
	return cmd_error("detach", 0, "removed %s", dir);
}
