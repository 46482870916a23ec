// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * One option table makes both getopt_long's tables and --help: every row
 * is accepted under its long name (and its letter), every row is in the
 * help, and nothing else is accepted.
 */
#include <criterion/criterion.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optab.h"

static const struct optab own[] = {
	OPTAB_HEADING("Options:"),
	{ "pid", 'p', "PID", "a process\nsecond line" },
	{ "long-option-name", 0x101, "VERYLONGVALUE", "text after two spaces" },
	{ "flag", 0x102, NULL, "no value" },
	{ "help", 'h', NULL, "this text" },
	OPTAB_END,
};
static const struct optab lib[] = {
	{ "keep", 0x120, "N", "segments" },
	OPTAB_END,
};

static char *help_of(const struct optab *tab)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	optab_help(f, tab);
	fclose(f);
	return buf;
}

Test(optab, getopt_from_the_table)
{
	struct optab tab[16] = { 0 };
	struct option lo[16];
	char so[16];

	optab_cat(tab, 16, own);
	optab_cat(tab, 16, lib);
	optab_getopt(tab, lo, 16, so, sizeof(so));
	cr_assert_str_eq(so, ":p:h");
	cr_assert_str_eq(lo[0].name, "pid");
	cr_assert_eq(lo[0].has_arg, required_argument);
	cr_assert_eq(lo[2].has_arg, no_argument);
	cr_assert_str_eq(lo[4].name, "keep");
	cr_assert_null(lo[5].name, "terminated after the last option");
	cr_assert_str_eq(optab_find(tab, 0, 4)->name, "keep", "longindex skips headings");
	cr_assert_str_eq(optab_find(tab, 'p', -1)->name, "pid");
	cr_assert_null(optab_find(tab, 'x', -1));
}

Test(optab, help_lists_every_row)
{
	struct optab tab[16] = { 0 };
	char *h;

	optab_cat(tab, 16, own);
	optab_cat(tab, 16, lib);
	h = help_of(tab);
	cr_assert_str_eq(h,
			 "Options:\n"
			 "  -p, --pid PID        a process\n"
			 "                       second line\n"
			 "      --long-option-name VERYLONGVALUE  text after two spaces\n"
			 "      --flag           no value\n"
			 "  -h, --help           this text\n"
			 "      --keep N         segments\n");
	free(h);
}

/* what the parser takes is what the help says, option by option */
Test(optab, accepted_iff_listed)
{
	struct optab tab[16] = { 0 };
	struct option lo[16];
	char so[16], *h, arg[64];
	const struct optab *o;

	optab_cat(tab, 16, own);
	optab_getopt(tab, lo, 16, so, sizeof(so));
	h = help_of(tab);
	for (o = tab; o->name || o->help; o++) {
		char *argv[] = { "cmd", arg, "v", NULL };
		int c;

		if (!o->name)
			continue;
		snprintf(arg, sizeof(arg), "--%s", o->name);
		cr_assert(strstr(h, arg), "%s in --help", arg);
		optind = 0;
		opterr = 0;
		c = getopt_long(3, argv, so, lo, NULL);
		cr_assert_eq(c, o->val, "%s accepted", arg);
	}
	{
		char *argv[] = { "cmd", "--keep", "1", NULL };

		optind = 0;
		cr_assert_eq(getopt_long(3, argv, so, lo, NULL), '?', "not in the table");
	}
	free(h);
}
