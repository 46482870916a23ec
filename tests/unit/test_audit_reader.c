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
#include "codec_impl.h"
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

/*
 * A line taken the short way is taken whole (audit_rec_plain) and flat too,
 * with the same seq and body: a search printing every record as JSON
 * prints the same bytes either way.
 */
static void plain_is_flat(const char *line, size_t len, uint64_t seq)
{
	struct audit_flat fl = {0};
	struct audit_rec a, b;

	cr_assert_eq(audit_rec_plain(line, len, &a), 0);
	cr_assert_eq(audit_rec_flat(line, len, &fl, &b), 0, "plain, not flat: %.*s", (int)len,
		     line);
	cr_assert(a.raw == line && !a.obj && !a.flat && a.seq == seq && b.seq == seq);
	cr_assert_eq(a.body_len, b.body_len);
	cr_assert_null(audit_rec_str(&a, "op", NULL));
	audit_flat_free(&fl);
}

/*
 * The short way through a plain line (codec_json_plain.c) is taken for the
 * writer's lines and agrees with the full walk on every mutation of them
 * that stays plain: bytes of JSON's structure, digits and letters put in,
 * changed or taken out, and keys copied over other keys (a duplicate, or
 * a line of a kind seen before with one key changed).
 */
Test(audit_reader, plain_lines_agree_with_the_full_walk)
{
	/* as the recorder writes them (the corpus is mostly hostile names) */
	static const char *const writer[] = {
	    "{\"seq\":1,\"time\":\"2026-12-07T18:10:09.760981963Z\",\"op\":\"log\",\"action\":"
	    "\"segment\",\"segment\":1,\"prev_mac\":\"00000000000000000000000000000000\",\"key_id"
	    "\":\"addb0c1e9b9d73d8\",\"format\":\"json\",\"lost_total\":0,\"log_version\":3" MAC,
	    HEAD ",\"result\":0,\"ns_type\":\"net\",\"ns_inum\":4026531833,\"ns_id\":3,\"ns_name\""
	    ":\"host\",\"old_inum\":4026531833,\"old_ns_id\":3,\"pid\":9204,\"tid\":9204,\"ppid\":"
	    "9200,\"uid\":0,\"auid\":4294967295,\"comm\":\"nsbench\",\"exe\":\"/usr/bin/ip\",\"c"
	    "group\":\"/\",\"cgroup_id\":1,\"fd\":3,\"via\":\"proc\",\"kseq\":1,\"thread\":false,"
	    "\"x\":null,\"n\":-9223372036854775808,\"u\":18446744073709551615" MAC,
	};
	static const char bytes[] = "\"{}[],:-0123456789.eEtruefalsnlmacq x";
	unsigned int seed = 48, fast = 0, took = 0, both = 0;
	char buf[8192];
	uint64_t seq;
	int i, m;

	for (i = 0; i < CORPUS_N + 2; i++) {
		const char *line = i < CORPUS_N ? golden_log_json[i] : writer[i - CORPUS_N];
		size_t len = strlen(line) - (i < CORPUS_N), b;

		/* every plain one (printable ASCII, no escape) */
		for (b = 0; b < len && line[b] >= 0x20 && line[b] < 0x7f && line[b] != '\\'; b++)
			;
		if (b == len) {
			cr_assert_eq(codec_json_plain_check(line, len, &seq), 0,
				     "line %d, plain, not taken", i);
			plain_is_flat(line, len, seq);
			fast++;
		}
		for (m = 0; m < (i < CORPUS_N ? 400 : 6000); m++) {
			size_t n = len, at, k, j;
			char *q, *r;

			memcpy(buf, line, len);
			for (k = 0; k <= (size_t)(rand_r(&seed) % 3); k++) {
				at = (size_t)rand_r(&seed) % n;
				switch (rand_r(&seed) % 4) {
				case 0: /* a byte changed */
					buf[at] = bytes[rand_r(&seed) % (sizeof(bytes) - 1)];
					break;
				case 1: /* a byte put in */
					memmove(buf + at + 1, buf + at, n - at);
					buf[at] = bytes[rand_r(&seed) % (sizeof(bytes) - 1)];
					n++;
					break;
				case 2: /* a byte taken out */
					memmove(buf + at, buf + at + 1, n - at - 1);
					n--;
					break;
				default: /* the key at or after at copied over the next one */
					q = memmem(buf + at, n - at, "\":", 2);
					r = q ? memmem(q + 2, (size_t)(buf + n - q - 2), "\":", 2) : NULL;
					if (!r)
						break;
					for (j = 1; j <= 40 && q - j > buf && r - j > q; j++) {
						if (q[-(long)j] == '"' && r[-(long)j] == '"')
							break;
						r[-(long)j] = q[-(long)j];
					}
				}
			}
			if (!codec_json_plain_check(buf, n, &seq)) {
				took++;
				plain_is_flat(buf, n, seq);
			}
			if (!readings(buf, n))
				both++;
		}
	}
	/* a line of a kind read before (its keys kept), one key now another's */
	for (i = 0; i < 2; i++) {
		const char *from = i ? "\"tid\"" : "\"cgroup_id\"", *to = i ? "\"pid\"" : "\"old_ns_id\"";
		size_t len = strlen(writer[1]);

		cr_assert_eq(readings(writer[1], len), 0);
		memcpy(buf, writer[1], len);
		memcpy(memmem(buf, len, from, strlen(from)), to, strlen(to));
		cr_assert_eq(readings(buf, len), 1, "%s copied over %s: taken", to, from);
	}
	cr_assert_geq(fast, 6, "plain lines taken the short way: %u", fast);
	cr_assert_gt(took, 1000, "mutated lines taken the short way: %u", took);
	cr_assert_leq(took, both, "taken %u, accepted %u", took, both);
}

/*
 * The short way keeps nothing of a key that is the last line's kind's
 * (its shape: no key twice there), so when a line leaves that shape --
 * fewer keys, more, another one midway -- the keys so far are the
 * shape's, and a key after them that repeats one is still found. Each
 * variant right after the line whose shape it starts from.
 */
Test(audit_reader, a_line_leaving_the_shape_keeps_its_keys)
{
	static const char shape[] = HEAD ",\"pid\":1,\"tid\":2,\"uid\":3" MAC;
	static const struct {
		const char *line;
		int refused; /* 2: read, but by the full walk (not the short way) */
	} v[] = {
		{ HEAD ",\"pid\":1,\"tid\":2" MAC, 0 },		  /* fewer */
		{ HEAD MAC, 0 },
		{ HEAD ",\"pid\":1,\"tid\":2,\"op\":\"x\"" MAC, 1 },  /* then a repeat */
		{ HEAD ",\"pid\":1,\"tid\":2,\"pid\":3" MAC, 1 },
		{ HEAD ",\"pid\":1,\"tid\":2,\"seq\":3" MAC, 1 },
		{ HEAD ",\"pid\":1,\"tid\":2,\"uid\":3,\"x\":4" MAC, 0 }, /* more */
		{ HEAD ",\"pid\":1,\"tid\":2,\"uid\":3,\"time\":4" MAC, 1 },
		{ HEAD ",\"pid\":1,\"tid\":2,\"uid\":3,\"uid\":4" MAC, 1 },
		{ HEAD ",\"pid\":1,\"x\":2,\"uid\":3" MAC, 0 },	  /* another midway */
		{ HEAD ",\"pid\":1,\"x\":2,\"pid\":3" MAC, 1 },
		{ HEAD ",\"pid\":1,\"\":2,\"uid\":3" MAC, 2 },		  /* empty */
		{ HEAD ",\"pid\":1,\"mac\":\"00\",\"uid\":3" MAC, 1 },
		{ "{\"seq\":7,\"pid\":1,\"time\":\"x\"" MAC, 0 },
		{ "{\"seq\":7,\"time\":\"x\",\"seq\":8" MAC, 1 },
	};
	uint64_t seq;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		cr_assert_eq(reads(shape), 0);
		cr_assert_eq(codec_json_plain_check(shape, strlen(shape), &seq), 0);
		cr_assert_eq(codec_json_plain_check(v[i].line, strlen(v[i].line), &seq),
			     v[i].refused ? -1 : 0, "short way: %s", v[i].line);
		cr_assert_eq(reads(shape), 0);
		cr_assert_eq(reads(v[i].line), v[i].refused == 1, "%s", v[i].line);
	}
}

/*
 * The short way's first pass (codec_json_plain.c): the quotes and digits
 * of a line as bits, and whether every byte is plain, found alike a byte
 * at a time, 16 bytes at a time and 32 (where the CPU has AVX2), for
 * lines of every length around the vector and word sizes, the last part
 * read as the vector that ends the line. Bytes from the edges of what is
 * plain: controls, DEL, high bytes, a backslash, quotes, digits.
 */
Test(audit_reader, plain_bits_alike_every_way)
{
	static const unsigned char pick[] = { '"', '"', '0', '5', '9', '/', ':', ',', 'a',
					      'z', ' ', '~', '{', 0x1f, 0x7f, 0x80, 0xff, '\\' };
	uint64_t q[3][130], d[3][130];
	char *line = malloc(8300);
	unsigned int seed = 48;
	int how, got[3], ways = 0;
	size_t n, i, w, plain = 0;

	cr_assert(line);
	for (int round = 0; round < 20000; round++) {
		n = round < 700 ? (size_t)round : (size_t)rand_r(&seed) % 8200;
		for (i = 0; i < n; i++) {
			unsigned int r = (unsigned int)rand_r(&seed);

			/* mostly plain, so that lines get to the end; every other
			 * line nearly all plain, so that long ones do too */
			line[i] = (char)(r % (round & 1 ? 40 : 20000) ? pick[r % 13]
								     : pick[r % sizeof(pick)]);
		}
		memset(q, 0, sizeof(q));
		memset(d, 0, sizeof(d));
		for (how = 0; how < 3; how++)
			got[how] = codec_json_plain_bits(line, n, q[how], d[how], how);
		cr_assert_geq(got[0], 0);
		cr_assert_eq(got[1], got[0], "length %zu: SSE2 %d, bytes %d", n, got[1], got[0]);
		if (got[2] >= 0) {
			ways = 3;
			cr_assert_eq(got[2], got[0], "length %zu: AVX2 %d, bytes %d", n, got[2],
				     got[0]);
		}
		if (!got[0])
			continue;
		plain += n >= 256;
		for (how = 1; how < 3; how++) {
			if (got[how] < 0)
				continue;
			for (w = 0; w < (n + 63) / 64; w++) {
				cr_assert_eq(q[how][w], q[0][w], "length %zu way %d word %zu quotes",
					     n, how, w);
				cr_assert_eq(d[how][w], d[0][w], "length %zu way %d word %zu digits",
					     n, how, w);
			}
		}
	}
	cr_assert_gt(plain, 1000, "long plain lines compared: %zu", plain);
	cr_log_info("plain bits: %d ways compared", ways ? ways : 2);
	free(line);
}
