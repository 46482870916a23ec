// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cmd_detach.c - "nsaudit detach": remove what a recorder left pinned. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "tracer.h"

int cmd_detach(int argc, char **argv)
{
	const char *dir = NSAUDIT_PIN_DIR;
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("Usage: nsaudit detach [--pin-dir DIR]\n\n"
			       "Detach the BPF programs that 'nsaudit record' keeps pinned in\n"
			       "DIR (default %s) and free their ring buffer. Events the ring\n"
			       "still holds are discarded: stop the recorder with SIGTERM first\n"
			       "so it drains them.\n", NSAUDIT_PIN_DIR);
			return 0;
		}
		if (!strcmp(argv[i], "--pin-dir")) {
			if (i + 1 >= argc || !argv[i + 1][0]) {
				fprintf(stderr, "nsaudit detach: --pin-dir needs a directory\n");
				return EXIT_USAGE;
			}
			dir = argv[++i];
			continue;
		}
		fprintf(stderr, "nsaudit detach: unknown option '%.64s' (see --help)\n", argv[i]);
		return EXIT_USAGE;
	}
	rc = tracer_unpin(dir);
	if (rc == -ENOENT) {
		fprintf(stderr, "nsaudit detach: nothing pinned in %s\n", dir);
		return 0;
	}
	if (rc == -EMEDIUMTYPE) {
		fprintf(stderr, "nsaudit detach: %s: not a directory in a bpf file system "
			"(nothing removed)\n", dir);
		return 1;
	}
	if (rc) {
		fprintf(stderr, "nsaudit detach: %s: %s\n", dir, strerror(-rc));
		return 1;
	}
	fprintf(stderr, "nsaudit detach: removed %s\n", dir);
	return 0;
}
