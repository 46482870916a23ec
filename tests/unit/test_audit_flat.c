// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * A line search takes flat (audit/codec_flat.c: no json-c object, printed
 * as it lies on disk) must give exactly what the full parse gives: the same
 * JSON output byte for byte, the same text line, the same answer from every
 * filter. Checked over the golden log lines of the record corpus (every op,
 * field, hostile comm and path with quotes, backslashes, control bytes,
 * UTF-8), over hand-made spellings the writer never makes, and over
 * thousands of mutations of the golden lines. A line the flat walk refuses
 * is parsed, so refusing is always safe; accepting wrongly is the bug.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "nstype.h"
#include "record_corpus.h"
#include "search.h"
#include "record_fmt_golden.h"

/* Filters made of record r's own values, and of values it lacks. */
static size_t filters_of(const struct audit_rec *r, struct audit_filter *fs)
{
	const char *op = audit_rec_str(r, "op", NULL), *comm = audit_rec_str(r, "comm", NULL);
	const char *t = audit_rec_str(r, "time", NULL), *c = audit_rec_str(r, "container", NULL);
	size_t n = 0;
	int64_t v;

	memset(fs, 0, 20 * sizeof(*fs));
	if (op && op_from_name(op) > 0)
		fs[n++].ops = 1u << op_from_name(op);
	fs[n++].op_log = true;
	fs[n++].op_alert = true;
	fs[n++].severity = "debug";
	if (audit_rec_int(r, "pid", &v))
		fs[n].n_pid = 1, fs[n++].pid[0] = v;
	if (audit_rec_int(r, "uid", &v))
		fs[n].n_uid = 1, fs[n++].uid[0] = v;
	if (comm && *comm)
		fs[n].n_comm = 1, fs[n++].comm[0] = comm;
	fs[n].n_comm = 1, fs[n++].comm[0] = "ip";
	fs[n].n_exe = 1, fs[n++].exe[0] = "/usr/bin/host";
	fs[n++].result = AUDIT_RESULT_FAIL;
	fs[n++].types = 1u << NSAUDIT_NS_NET;
	fs[n++].container = c ? c : "0123456789ab";
	if (audit_rec_int(r, "ns_inum", &v) && v >= 0 && v <= UINT32_MAX)
		fs[n].n_ns = 1, fs[n].ns[0].type = -1, fs[n].ns[0].whole = true,
		fs[n++].ns[0].inum = (uint32_t)v;
	if (t && !audit_time_parse(t, &v)) {
		fs[n].has_since = true, fs[n++].since_ns = v;
		fs[n].has_until = true, fs[n++].until_ns = v - 1;
	}
	return n;
}

static char *text_of(const struct audit_rec *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct sbuf line = {0};

	cr_assert(f);
	cr_assert(audit_print_text(f, &line, r));
	sb_free(&line);
	fclose(f);
	return buf;
}

/*
 * If the flat walk takes line, the parser must take it too, with the same
 * outputs and matches. Returns whether the flat walk took it.
 */
static bool same_both_ways(struct audit_flat *fl, const char *line, size_t len, const char *what)
{
	struct audit_filter fs[20];
	struct audit_rec flat, full;
	struct sbuf json = { 0 };
	char err[256], *t1, *t2;
	size_t l1, l2, k, n;

	if (audit_rec_flat(line, len, fl, &flat))
		return false;
	cr_assert_eq(audit_rec_parse(line, len, &full, err, sizeof(err)), 0,
		     "%s: flat took a line the parser refuses (%s): %.*s", what, err, (int)len,
		     line);
	cr_assert_eq(flat.seq, full.seq, "%s", what);
	cr_assert_eq(flat.body_len, full.body_len, "%s", what);
	cr_assert_eq(flat.mac_len, full.mac_len, "%s", what);
	cr_assert(!memcmp(flat.mac, full.mac, full.mac_len), "%s", what);
	/* JSON: the line before ,"mac" and a '}', as the parsed record writes */
	audit_json_object(&json, full.obj);
	cr_assert(!json.oom);
	cr_assert(json.len == flat.body_len + 1 && !memcmp(json.p, line, flat.body_len) &&
			  json.p[json.len - 1] == '}',
		  "%s: JSON differs:\n flat %.*s}\n full %.*s", what, (int)flat.body_len, line,
		  (int)json.len, json.p);
	t1 = text_of(&flat, &l1);
	t2 = text_of(&full, &l2);
	cr_assert(l1 == l2 && !memcmp(t1, t2, l1), "%s: text differs:\n flat %s full %s", what,
		  t1, t2);
	n = filters_of(&full, fs);
	for (k = 0; k < n; k++)
		cr_assert_eq(audit_filter_match(&fs[k], &flat), audit_filter_match(&fs[k], &full),
			     "%s: filter %zu answers differently", what, k);
	free(t1);
	free(t2);
	sb_free(&json);
	audit_rec_free(&full);
	return true;
}

Test(audit_flat, golden_lines_flat_and_identical)
{
	struct audit_flat fl = { 0 };
	int i, took = 0;

	for (i = 0; i < CORPUS_N; i++) {
		const char *g = golden_log_json[i];
		char what[32];

		snprintf(what, sizeof(what), "golden %d", i);
		took += same_both_ways(&fl, g, strlen(g) - 1, what);
		/* the audit format is always parsed */
		cr_assert(!same_both_ways(&fl, golden_log_audit[i],
					  strlen(golden_log_audit[i]) - 1, "audit"));
	}
	/* the writer's own lines, hostile strings and extreme numbers too,
	 * are what the fast path is for: every one is taken flat */
	cr_assert_eq(took, CORPUS_N, "only %d of %d golden lines taken flat", took, CORPUS_N);
	audit_flat_free(&fl);
}

/* Spellings a writer never makes, or a parser refuses: never taken flat,
 * or taken with the same answer (same_both_ways checks which). */
Test(audit_flat, other_spellings_parsed)
{
	static const char *const refused[] = {
		"{\"seq\":1,\"comm\":\"\\u0041\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"a\\/b\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"\\u00c3\\u00a9\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"\\u00E9\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"\\b\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"\x7f\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"\xc3\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"\xed\xa0\x80\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"a\tb\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\":-0,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\":007,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\":1.0,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\":1e3,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\":18446744073709551616,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\":-9223372036854775809,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\":123456789012345678901,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\": 1,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1 ,\"pid\":1,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{ \"seq\":1,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\":1,\"pid\":2,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"mac\":\"00\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"a\":[1,2],\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"a\":{\"b\":1},\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"p\\u0069d\":42,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":0,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":\"1\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"pid\":1,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"mac\":\"00112233445566778899AABBCCDDEEFF\"}",
		"{\"seq\":1,\"mac\":\"00112233445566778899aabbccddeef\"}",
		"{\"seq\":1,\"x\":tru,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"\":1,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{,\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"a\",\"mac\":\"00112233445566778899aabbccddeeff\"} ",
	};
	static const char *const taken[] = {
		"{\"seq\":1,\"comm\":\"caf\xc3\xa9 \\\"q\\\" \\\\ \\n\\r\\t\\u0001\\u007f\\u00ff\","
		"\"pid\":-5,\"ok\":true,\"no\":false,\"none\":null,"
		"\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":123456789012345678,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\","
		"\"mac\":\"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"\\u00c3\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"comm\":\"\\u0000x\",\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\":18446744073709551615,\"uid\":-9223372036854775808,"
		"\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":1,\"pid\":9223372036854775807,\"uid\":9223372036854775808,"
		"\"mac\":\"00112233445566778899aabbccddeeff\"}",
		/* a seq past INT64_MAX: the parser reads a uint64 (fuzz_one_reader) */
		"{\"seq\":9232330726854775805,\"for_child\":92233720368805,\"via\":\"bindk\","
		"\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":18446744073709551615,\"op\":\"setns\","
		"\"mac\":\"00112233445566778899aabbccddeeff\"}",
		"{\"seq\":9223372036854775808,\"op\":\"setns\","
		"\"mac\":\"00112233445566778899aabbccddeeff\"}",
	};
	struct audit_flat fl = { 0 };
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct audit_rec r;

		cr_assert(audit_rec_flat(refused[i], strlen(refused[i]), &fl, &r),
			  "taken flat: %s", refused[i]);
	}
	for (i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		cr_assert(same_both_ways(&fl, taken[i], strlen(taken[i]), taken[i]),
			  "not taken flat: %s", taken[i]);
	audit_flat_free(&fl);
}

/* Mutations of the golden lines: whatever the flat walk takes, the parser
 * takes, with the same outputs and matches. */
Test(audit_flat, mutations_agree_with_the_parser)
{
	static const char bytes[] = "\\\"{}[],:- 0159eE.untfl\x7f\x80\xc3\xa9\x01\n\t/";
	struct audit_flat fl = { 0 };
	unsigned int seed = 48;
	int i, m, took = 0;

	for (i = 0; i < CORPUS_N; i++) {
		size_t len = strlen(golden_log_json[i]) - 1;
		char *buf = malloc(len + 8);

		for (m = 0; m < 400; m++) {
			size_t at, n = len;
			char what[48];

			memcpy(buf, golden_log_json[i], len);
			at = (size_t)rand_r(&seed) % len;
			switch (rand_r(&seed) % 3) {
			case 0: /* replace */
				buf[at] = bytes[rand_r(&seed) % (sizeof(bytes) - 1)];
				break;
			case 1: /* insert */
				memmove(buf + at + 1, buf + at, len - at);
				buf[at] = bytes[rand_r(&seed) % (sizeof(bytes) - 1)];
				n++;
				break;
			default: /* delete */
				memmove(buf + at, buf + at + 1, len - at - 1);
				n--;
			}
			snprintf(what, sizeof(what), "golden %d mutation %d", i, m);
			took += same_both_ways(&fl, buf, n, what);
		}
		free(buf);
	}
	cr_assert_gt(took, 0); /* some mutations stay canonical (a digit for a digit) */
	audit_flat_free(&fl);
}

/*
 * search --format text: a name with a space is one quoted value, never
 * more fields of the line (a bind-mount path "/x actor_container=host", a
 * comm "seq=1 op=alert"); a quote inside it is \". Flat and parsed alike.
 */
Test(audit_flat, text_values_with_spaces_are_quoted)
{
	static const char line[] =
		"{\"seq\":7,\"time\":\"2026-12-08T01:00:00.000000001Z\",\"op\":\"mount\",\"result\":0,"
		"\"comm\":\"seq=1 op=alert\",\"path\":\"/tmp/p\\\" actor_container=host\","
		"\"exe\":\"/usr/bin/a\\\"b\",\"cgroup\":\"/\",\"actor_container\":\"0123456789ab\","
		"\"mac\":\"00112233445566778899aabbccddeeff\"}";
	struct audit_flat fl = { 0 };
	struct audit_rec flat, full;
	char err[256], *t;
	size_t len;

	cr_assert(same_both_ways(&fl, line, sizeof(line) - 1, "spaced values"));
	cr_assert_eq(audit_rec_parse(line, sizeof(line) - 1, &full, err, sizeof(err)), 0, "%s", err);
	t = text_of(&full, &len);
	cr_expect(strstr(t, " comm=\"seq=1 op=alert\" "), "%s", t);
	cr_expect(strstr(t, " path=\"/tmp/p\\\" actor_container=host\" "), "%s", t);
	/* a quote without a space: quoted too (no value can open a quote) */
	cr_expect(strstr(t, " exe=\"/usr/bin/a\\\"b\" "), "%s", t);
	/* plain values as before */
	cr_expect(strstr(t, " cgroup=/ actor_container=0123456789ab"), "%s", t);
	free(t);
	audit_rec_free(&full);
	cr_assert_eq(audit_rec_flat(line, sizeof(line) - 1, &fl, &flat), 0);
	t = text_of(&flat, &len);
	cr_expect(strstr(t, " comm=\"seq=1 op=alert\" "), "%s", t);
	free(t);
	audit_flat_free(&fl);
}
