/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * ksyms.h - where kernel functions lie, from /proc/kallsyms (root sees
 * addresses; others see zeros and get nothing).
 */
#ifndef NSAUDIT_KSYMS_H
#define NSAUDIT_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksym_range {
	const char *name;	/* in: a text symbol (or data: below) */
	int data;		/* in: a data or bss symbol (a variable) instead */
	uint64_t lo;		/* out: its address, 0 if not found */
	uint64_t len;		/* out: up to the next symbol's address */
};

/* Fill each range of r[0..n); the number found, or -errno. */
int ksym_ranges(struct ksym_range *r, size_t n);

#endif
