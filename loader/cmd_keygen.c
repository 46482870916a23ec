// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* cmd_keygen.c - "nsaudit keygen FILE": a fresh key for record and verify. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "chain.h"
#include "commands.h"

static void keygen_usage(FILE *f)
{
	fprintf(f,
		"Usage: nsaudit keygen [--force] FILE\n\n"
		"Write a fresh random key (32 bytes as 64 hex digits) to FILE, mode 0600.\n"
		"'nsaudit record --key FILE' MACs every record with it and 'nsaudit verify\n"
		"--key FILE' checks them. Keep a copy where whoever can write the log cannot.\n\n"
		"  --force   replace an existing FILE\n\n"
		"Examples:\n"
		"  nsaudit keygen /etc/nsaudit/key\n"
		"  nsaudit keygen --force /etc/nsaudit/key   # new key: start a new log dir too\n");
}

int cmd_keygen(int argc, char **argv)
{
	const char *file = NULL;
	bool force = false;
	char err[300];
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			keygen_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--force") || !strcmp(argv[i], "-f")) {
			force = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "nsaudit keygen: unknown option '%.64s' (try --help)\n",
				argv[i]);
			return EXIT_USAGE;
		} else if (file) {
			fprintf(stderr, "nsaudit keygen: one FILE only (try --help)\n");
			return EXIT_USAGE;
		} else {
			file = argv[i];
		}
	}
	if (!file || !*file) {
		fprintf(stderr, "nsaudit keygen: FILE is required (try --help)\n");
		return EXIT_USAGE;
	}
	if (audit_key_generate(file, force, err, sizeof(err))) {
		fprintf(stderr, "nsaudit keygen: %s\n", err);
		return 1;
	}
	return 0;
}
