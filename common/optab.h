/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * optab.h - a command's options as one table, from which both its
 * getopt_long tables and the option part of its --help are made: an option
 * the command accepts cannot be missing from its --help, nor one --help
 * lists be unknown to the parser (tests/integration/03-interface.sh then
 * checks the docs, man page and completion against that --help).
 */
#ifndef NSAUDIT_OPTAB_H
#define NSAUDIT_OPTAB_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

/*
 * One option, or a heading. name: the long option without "--" (NULL: a
 * heading row, whose help is the heading line, e.g. "Sinks:"; a row with
 * neither ends the table). val: what getopt_long returns for it; a letter
 * or digit is also its short option ("-v"), anything else is >= 0x100.
 * arg: the value's name in --help ("PID", "json|audit"), NULL for an
 * option without a value. help: its --help text, lines split by '\n'.
 */
struct optab {
	const char *name;
	int val;
	const char *arg;
	const char *help;
};

#define OPTAB_END { NULL, 0, NULL, NULL }
#define OPTAB_HEADING(text) { NULL, 0, NULL, text }

/* Append table src (headings too) to dst, cap rows, kept terminated. */
void optab_cat(struct optab *dst, size_t cap, const struct optab *src);

/*
 * getopt_long's tables for tab: longopts (cap entries, terminated) and
 * shortopts (":" first, so that a missing value returns ':'; then each
 * short option, with ':' when it takes a value).
 */
void optab_getopt(const struct optab *tab, struct option *longopts, size_t cap,
		  char *shortopts, size_t shortlen);

/* The options of tab as --help lists them, aligned, headings between. */
void optab_help(FILE *f, const struct optab *tab);

/* The row getopt_long's c (and longindex idx, or -1) stands for; NULL if none. */
const struct optab *optab_find(const struct optab *tab, int c, int idx);

#endif
