// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * One reader of a JSON log line (issue 40): audit_json_check() -- what
 * verify's fast path and search's prefilter rely on -- and the full parser
 * audit_rec_parse() accept exactly the same lines, read the same seq, and
 * refuse every spelling the writer never uses: a second "op", a duplicate
 * field (also spelt with escapes, also nested), raw bytes that are not
 * UTF-8, a raw NUL, values nested deeper than the writer writes, `0123`,
 * `-0`, white space, numbers out of range.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "record_corpus.h"
#include "record_fmt_golden.h"

#define MAC ",\"mac\":\"0123456789abcdef0123456789abcdef\"}"
#define HEAD "{\"seq\":7,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\""

/* 0 when both accept (same seq), 1 when both refuse; fails if they differ */
static int readings(const char *line, size_t len)
{
	struct audit_rec r;
	char e1[200], e2[200];
	uint64_t seq = 0;
	int a = audit_rec_parse(line, len, &r, e1, sizeof(e1));
	int b = audit_json_check(line, len, &seq, e2, sizeof(e2));

	cr_assert_eq(a, b, "two readings of '%.*s': parse %d (%s), check %d (%s)", (int)len, line,
		     a, a ? e1 : "", b, b ? e2 : "");
	if (!a) {
		cr_assert_eq(r.seq, seq, "seq %llu vs %llu", (unsigned long long)r.seq,
			     (unsigned long long)seq);
		audit_rec_free(&r);
	}
	return a ? 1 : 0;
}

static int reads(const char *line)
{
	return readings(line, strlen(line));
}

Test(audit_reader, writer_lines_are_read_alike)
{
	int i;

	for (i = 0; i < CORPUS_N; i++)
		cr_assert_eq(readings(golden_log_json[i], strlen(golden_log_json[i]) - 1), 0,
			     "golden line %d", i);
	cr_assert_eq(reads(HEAD ",\"pid\":0,\"n\":-5,\"d\":0.5,\"e\":1e-3,\"u\":18446744073709551615,"
			     "\"s\":\"\\u00ff\\n\\\"\xc3\xa9\",\"a\":[1,[2,{}]],\"o\":{\"k\":null}" MAC),
		     0);
}

Test(audit_reader, hostile_spellings_are_refused_by_both)
{
	static const char *const bad[] = {
	    HEAD ",\"pid\":1,\"op\":\"mount\"" MAC,		/* a second op */
	    HEAD ",\"pid\":1,\"pid\":2" MAC,			/* a duplicate field */
	    HEAD ",\"pid\":1,\"p\\u0069d\":2" MAC,		/* the same, escaped */
	    HEAD ",\"o\":{\"k\":1,\"k\":2}" MAC,		/* nested duplicate */
	    HEAD ",\"pid\":0123" MAC,				/* leading zero */
	    HEAD ",\"pid\":-0" MAC,				/* minus zero */
	    HEAD ",\"pid\":1.5.2" MAC,
	    HEAD ",\"pid\":1e999" MAC,				/* not finite */
	    HEAD ",\"pid\":18446744073709551616" MAC,		/* beyond uint64 */
	    HEAD ",\"pid\":-9223372036854775809" MAC,
	    HEAD ",\"pid\": 1" MAC,				/* white space */
	    HEAD ",\"comm\":\"\xff\"" MAC,			/* not UTF-8 */
	    HEAD ",\"comm\":\"\xc0\xaf\"" MAC,			/* overlong */
	    HEAD ",\"comm\":\"\xed\xa0\x80\"" MAC,		/* a surrogate */
	    HEAD ",\"comm\":\"a\tb\"" MAC,			/* raw control */
	    HEAD ",\"x\":tru" MAC,
	    HEAD ",\"x\":'a'" MAC,
	    HEAD ",\"x\":[1,]" MAC,
	    HEAD ",\"x\":{\"a\":1,}" MAC,
	    HEAD ",\"\\u0000\":1" MAC,				/* NUL in a key */
	    HEAD ",\"mac\":\"00\"" MAC,				/* mac not last */
	    HEAD MAC "x",
	    "{\"seq\":0" MAC,					/* seq 0 */
	    "{\"seq\":\"7\"" MAC,
	    "{\"time\":\"x\"" MAC,				/* no seq */
	};
	char deep[400], nul[200];
	size_t i, n;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(reads(bad[i]), 1, "accepted: %s", bad[i]);
	/* raw NUL inside a string */
	n = (size_t)snprintf(nul, sizeof(nul), HEAD ",\"comm\":\"aXb\"" MAC);
	*strchr(nul, 'X') = '\0';
	cr_assert_eq(readings(nul, n), 1);
	/* 17 containers inside a field value are the writer's limit; 18 are not */
	for (n = 17; n <= 18; n++) {
		size_t k = (size_t)snprintf(deep, sizeof(deep), HEAD ",\"x\":");

		for (i = 0; i < n; i++)
			deep[k++] = '[';
		for (i = 0; i < n; i++)
			deep[k++] = ']';
		snprintf(deep + k, sizeof(deep) - k, MAC);
		cr_assert_eq(reads(deep), n == 17 ? 0 : 1, "%zu deep", n);
	}
}

/* A key set with a keyed hash: a line of 60000 distinct keys is read in
 * one pass (no quadratic work), and a duplicate among them is found. */
Test(audit_reader, many_keys)
{
	size_t cap = 2000000, k = 0, i;
	char *l = malloc(cap);

	k += (size_t)snprintf(l + k, cap - k, HEAD);
	for (i = 0; i < 60000; i++)
		k += (size_t)snprintf(l + k, cap - k, ",\"k%zu\":1", i);
	k += (size_t)snprintf(l + k, cap - k, MAC);
	cr_assert_eq(readings(l, k), 0);
	memcpy(strstr(l, "\"k59999\""), "\"k12345\"", 8);
	cr_assert_eq(readings(l, k), 1);
	free(l);
}
