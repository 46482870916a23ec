// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* optab.c - getopt_long tables and --help from one option table (optab.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "optab.h"

/* where an option's help text starts in --help */
#define HELP_COLUMN 23

static void too_small(void)
{
	/* a table too small would drop options: never silently */
	fprintf(stderr, "nsaudit: internal error: option table too small\n");
	abort();
}

static int is_short(int val)
{
	return val > 0 && val < 0x80 && isalnum(val);
}

static int is_end(const struct optab *o)
{
	return !o->name && !o->help;
}

void optab_cat(struct optab *dst, size_t cap, const struct optab *src)
{
	size_t n = 0;

	while (n < cap && !is_end(&dst[n]))
		n++;
	for (; !is_end(src); src++) {
		if (n + 1 >= cap)
			too_small();
		dst[n++] = *src;
	}
	memset(&dst[n], 0, sizeof(dst[n]));
}

void optab_getopt(const struct optab *tab, struct option *longopts, size_t cap,
		  char *shortopts, size_t shortlen)
{
	size_t nl = 0, ns = 0;

	if (shortlen < 2)
		too_small();
	shortopts[ns++] = ':';
	for (; !is_end(tab); tab++) {
		if (!tab->name)
			continue;
		if (nl + 1 >= cap)
			too_small();
		longopts[nl].name = tab->name;
		longopts[nl].has_arg = tab->arg ? required_argument : no_argument;
		longopts[nl].flag = NULL;
		longopts[nl++].val = tab->val;
		if (!is_short(tab->val))
			continue;
		if (ns + 3 >= shortlen)
			too_small();
		shortopts[ns++] = (char)tab->val;
		if (tab->arg)
			shortopts[ns++] = ':';
	}
	memset(&longopts[nl], 0, sizeof(longopts[nl]));
	shortopts[ns] = '\0';
}

void optab_help(FILE *f, const struct optab *tab)
{
	for (; !is_end(tab); tab++) {
		const char *h = tab->help ? tab->help : "", *nl;
		int w;

		if (!tab->name) {
			fprintf(f, "%s\n", h);
			continue;
		}
		if (is_short(tab->val))
			w = fprintf(f, "  -%c, --%s", tab->val, tab->name);
		else
			w = fprintf(f, "      --%s", tab->name);
		if (tab->arg)
			w += fprintf(f, " %s", tab->arg);
		if (!*h) {
			fputc('\n', f);
			continue;
		}
		/* a long option and value: its text after two spaces */
		fprintf(f, "%*s", w < HELP_COLUMN - 1 ? HELP_COLUMN - w : 2, "");
		for (;;) {
			nl = strchr(h, '\n');
			fprintf(f, "%.*s\n", (int)(nl ? nl - h : (long)strlen(h)), h);
			if (!nl || !nl[1])
				break;
			h = nl + 1;
			fprintf(f, "%*s", HELP_COLUMN, "");
		}
	}
}

const struct optab *optab_find(const struct optab *tab, int c, int idx)
{
	const struct optab *o;
	int i = 0;

	/* longindex counts the options only, as optab_getopt laid them out */
	for (o = tab; !is_end(o); o++) {
		if (!o->name)
			continue;
		if (idx >= 0 ? i++ == idx : o->val == c)
			return o;
	}
	return NULL;
}
