// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * The prefilter's needle search (audit/needle.c) gives memmem's answer
 * every way (a byte at a time, SSE2, AVX2 where the CPU has it): needles
 * at every offset of a line around the vector sizes, at its very end, one
 * byte past it (not there), lines shorter than the needle or a vector,
 * and lines of few letters where candidates and near misses abound. Each
 * line is its own allocation of its exact length (the ASan build sees any
 * byte read past it).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "needle.h"

/* every way against memmem; how many ways there were */
static int alike(const char *h, size_t len, const char *s, size_t n)
{
	struct audit_needle nd;
	const char *want = memmem(h, len, s, n), *got;
	int how, ways = 0;

	audit_needle_init(&nd, s, n);
	cr_assert_lt(nd.a, n > 0 ? n : 1);
	cr_assert_lt(nd.b, n > 0 ? n : 1);
	cr_assert_eq(audit_needle_find(&nd, h, len), want, "len %zu needle %zu: %.*s", len, n,
		     (int)n, s);
	for (how = 0; how < 3; how++) {
		if (audit_needle_find_how(&nd, h, len, how, &got))
			continue;
		ways++;
		cr_assert_eq(got, want, "way %d, len %zu needle %zu (%.*s): at %td, want %td", how,
			     len, n, (int)n, s, got ? got - h : -1, want ? want - h : -1);
	}
	return ways;
}

/* a copy of h[0..len) in a buffer of exactly len bytes */
static char *exact(const char *h, size_t len)
{
	char *p = malloc(len ? len : 1);

	cr_assert(p);
	memcpy(p, h, len);
	return p;
}

Test(needle, at_every_offset_and_the_end)
{
	static const char *const needles[] = { "\"comm\":\"nsaudit-nomatch\"", "\"pid\":42", "x",
					       "\"op\":\"setns\"", "Zq", "ab" };
	char buf[200], *h;
	size_t len, off, i, n;
	int ways = 0;

	for (i = 0; i < sizeof(needles) / sizeof(needles[0]); i++) {
		n = strlen(needles[i]);
		for (len = 0; len < 140; len++) {
			/* a record-like filler with none of the needle's letters */
			for (off = 0; off < len; off++)
				buf[off] = "\"::,0912_"[off % 9];
			h = exact(buf, len);
			ways = alike(h, len, needles[i], n);
			free(h);
			for (off = 0; off + n <= len; off++) {
				memcpy(buf + off, needles[i], n);
				h = exact(buf, len);
				alike(h, len, needles[i], n);
				/* cut one byte short at the end: not there */
				if (off + n == len)
					alike(h, len - 1, needles[i], n);
				free(h);
				for (size_t j = 0; j < n; j++)
					buf[off + j] = "\"::,0912_"[(off + j) % 9];
			}
		}
	}
	cr_log_info("needle: %d ways compared", ways);
}

Test(needle, few_letters_many_candidates)
{
	unsigned int seed = 48;
	char buf[700], nb[40], *h;
	size_t len, n, i;

	for (int round = 0; round < 40000; round++) {
		len = round < 300 ? (size_t)round % 100 : (size_t)rand_r(&seed) % sizeof(buf);
		for (i = 0; i < len; i++) /* three letters: near misses everywhere */
			buf[i] = "ab\""[rand_r(&seed) % 3];
		n = 1 + (size_t)rand_r(&seed) % 12;
		if (len >= n && rand_r(&seed) % 2) /* one from the line, often its end */
			memcpy(nb, buf + (rand_r(&seed) % 3 ? (size_t)rand_r(&seed) % (len - n + 1)
							    : len - n), n);
		else
			for (i = 0; i < n; i++)
				nb[i] = "ab\""[rand_r(&seed) % 3];
		h = exact(buf, len);
		alike(h, len, nb, n);
		free(h);
	}
}

/*
 * The MAC's hex checked without decoding (audit_is_hex, 16 bytes at a time
 * and the rest a byte at a time) says what audit_unhex says: every byte
 * value at every offset of strings 0-70 bytes long, each its own
 * allocation of its exact length.
 */
Test(needle, hex_checked_as_unhex_reads_it)
{
	uint8_t out[40];
	char buf[72], *h;
	size_t n, at;
	int c;

	for (n = 0; n <= 70; n += 1 + (n > 40)) {
		for (at = 0; at < n; at++)
			buf[at] = "0123456789abcdef"[(at * 7) % 16];
		h = exact(buf, n);
		cr_assert(audit_is_hex(h, n), "length %zu", n);
		free(h);
		for (at = 0; at < n; at++)
			for (c = 0; c < 256; c++) {
				char keep = buf[at];

				buf[at] = (char)c;
				h = exact(buf, n);
				/* unhex takes an even length only */
				if (!(n % 2))
					cr_assert_eq(audit_is_hex(h, n), !audit_unhex(h, n, out, n / 2),
						     "length %zu byte %d at %zu", n, c, at);
				cr_assert_eq(audit_is_hex(h, n), c && strchr("0123456789abcdef", c),
					     "length %zu byte %d at %zu", n, c, at);
				free(h);
				buf[at] = keep;
			}
	}
}
