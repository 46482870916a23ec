// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cmd_detach.c - "nsaudit detach": remove what a recorder left pinned. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "tracer/tracer.h"

int cmd_detach(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "pin-dir", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NSAUDIT_PIN_DIR;
	pid_t who;
	int c, rc;

	cmd_getopt_reset();
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("Usage: nsaudit detach [--pin-dir DIR]\n\n"
			       "Detach the BPF programs that 'nsaudit record' keeps pinned in\n"
			       "DIR (default %s) and free their ring buffer. Events the ring\n"
			       "still holds are discarded: stop the recorder with SIGTERM first\n"
			       "so it drains them.\n", NSAUDIT_PIN_DIR);
			return 0;
		case 'p':
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
