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
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"force", no_argument, NULL, 'f'},
	    {NULL, 0, NULL, 0},
	};
	const char *file = NULL;
	bool force = false;
	char err[300];
	int c;

	cmd_getopt_reset();
	while ((c = getopt_long(argc, argv, ":hf", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			keygen_usage(stdout);
			return 0;
		case 'f':
			force = true;
			break;
		default:
			return cmd_error("keygen", EXIT_USAGE,
					 "unknown option '%.64s' (try --help)",
					 cmd_bad_option(argv));
		}
	}
	if (argc - optind > 1)
		return cmd_error("keygen", EXIT_USAGE, "one FILE only (try --help)");
	file = optind < argc ? argv[optind] : NULL;
	if (!file || !*file)
		return cmd_error("keygen", EXIT_USAGE, "FILE is required (try --help)");
	if (audit_key_generate(file, force, err, sizeof(err)))
		return cmd_error("keygen", 1, "%s", err);
	return 0;
}
