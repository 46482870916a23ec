/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * needle.h - a fixed string looked for in many lines (search's prefilter):
 * memmem's answer, found by two of the needle's rarer bytes, 32 or 16
 * positions at a time.
 */
#ifndef NSAUDIT_AUDIT_NEEDLE_H
#define NSAUDIT_AUDIT_NEEDLE_H

#include <stddef.h>

struct audit_needle {
	const char *s; /* not copied: lives as long as the needle is used */
	size_t n;
	size_t a, b; /* the two bytes looked for first (a == b when n == 1) */
};

/* s[0..n) as a needle (n >= 1): which two bytes are looked for first. */
void audit_needle_init(struct audit_needle *nd, const char *s, size_t n);

/* The first place in h[0..len) where the needle starts, or NULL: always
 * what memmem(h, len, nd->s, nd->n) returns. */
const char *audit_needle_find(const struct audit_needle *nd, const char *h, size_t len);

/* For tests: the same by how (0 a byte at a time, 1 SSE2, 2 AVX2) into
 * *at; 0, or -1 when this CPU or build has no such way. */
int audit_needle_find_how(const struct audit_needle *nd, const char *h, size_t len, int how,
			  const char **at);

#endif
