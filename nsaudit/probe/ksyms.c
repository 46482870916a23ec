// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * ksyms.c - kernel function ranges from /proc/kallsyms: a function's
 * address and where the next symbol starts, which bounds the return
 * addresses (call sites) of the calls it makes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ksyms.h"

int ksym_ranges(struct ksym_range *r, size_t n)
{
	char line[512], type, sym[256];
	uint64_t addr;
	size_t i, found = 0;
	FILE *f;

	for (i = 0; i < n; i++)
		r[i].lo = r[i].len = 0;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return -errno;
	/* one pass: the starts, and for each the smallest address above it
	 * (kallsyms is sorted by address except for modules, which come
	 * after the kernel's own symbols and never fall inside them) */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, sym) != 3 || !addr)
			continue;
		for (i = 0; i < n; i++) {
			if (r[i].lo && !r[i].len && addr > r[i].lo)
				r[i].len = addr - r[i].lo;
			if (!r[i].lo && (r[i].data ? strchr("dDbB", type) != NULL
						  : type == 't' || type == 'T') &&
			    !strcmp(sym, r[i].name))
				r[i].lo = addr;
		}
	}
	fclose(f);
	for (i = 0; i < n; i++) {
		if (r[i].lo && !r[i].len)
			r[i].lo = 0;	/* no end: not trusted */
		if (r[i].lo)
			found++;
	}
	return (int)found;
}
