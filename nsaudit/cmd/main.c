// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* main.c - "nsaudit COMMAND ...": dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "array.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "trace", cmd_trace, "stream namespace pins, entries and creations live" },
	{ "record", cmd_record, "record them into durable, tamper-evident log segments" },
	{ "verify", cmd_verify, "check that a recorded log is complete and unchanged" },
	{ "search", cmd_search, "find records in a recorded log, like ausearch" },
	{ "keygen", cmd_keygen, "write a fresh key for record and verify" },
	{ "holders", cmd_holders, "list what keeps a namespace alive, with its refcount" },
	{ "lifetime", cmd_lifetime, "one namespace's timeline from a log: created ... freed" },
	{ "probe", cmd_probe, "show which hooks this kernel allows and which are used" },
	{ "detach", cmd_detach, "remove the programs a recorder left pinned" },
	{ "retire", cmd_retire, "end a recorded log for good (an end record and anchor)" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: nsaudit COMMAND [OPTIONS]\n"
		   "       nsaudit COMMAND --help\n\n"
		   "Observe who pinned or entered which Linux namespace, and when it died.\n\n"
		   "Commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nExamples:\n"
		   "  nsaudit trace                       # everything, readable lines\n"
		   "  nsaudit trace --format json --type net --op setns\n"
		   "  nsaudit probe                       # what this kernel lets us hook\n"
		   "  nsaudit holders /run/netns/blue     # why is this netns still alive?\n"
		   "  nsaudit lifetime blue --log-dir /var/log/nsaudit   # and its history\n"
		   "  nsaudit verify --log-dir /var/log/nsaudit\n"
		   "  nsaudit search --log-dir /var/log/nsaudit --op setns --since 1h\n"
		   "\nnsaudit %s. See docs/records.md or nsaudit(1) for the record fields.\n",
		NSAUDIT_VERSION);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		fprintf(stderr, "nsaudit: no command given (try 'nsaudit --help')\n");
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("nsaudit %s\n", NSAUDIT_VERSION);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "nsaudit: unknown command '%s' (try 'nsaudit --help')\n", argv[1]);
	return EXIT_USAGE;
}
