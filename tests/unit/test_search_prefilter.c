// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * The search prefilter (audit/search_prefilter.c) may reject a line only
 * when the full match would reject it too. Checked over the golden log
 * lines of the record corpus (every op, field, hostile string) against
 * filters made from each record's own values and from values no record
 * has, and over the same lines spelled otherwise (white space, escapes),
 * which it must leave to the parser. And the other way (issue 40, one
 * reader): a line the parser refuses (`"pid":0123`, a duplicate field) is
 * never rejected unparsed, so search reports it as damaged instead of
 * skipping it without a word.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit_util.h"
#include "segment.h"

#include "codec.h"
#include "nstype.h"
#include "record_corpus.h"
#include "search.h"
#include "record_fmt_golden.h"

/* Every filter the loop tries: one condition each, from record r. */
static size_t filters_of(const struct audit_rec *r, struct audit_filter *fs)
{
	const char *op = audit_rec_str(r, "op", NULL), *comm = audit_rec_str(r, "comm", NULL);
	const char *t = audit_rec_str(r, "time", NULL);
	size_t n = 0;
	int64_t v;

	memset(fs, 0, 20 * sizeof(*fs));
	if (op && op_from_name(op) > 0)
		fs[n++].ops = 1u << op_from_name(op);
	fs[n++].ops = 1u << NSAUDIT_OP_SETNS;
	fs[n++].op_log = true;
	fs[n].op_alert = true, fs[n++].ops = 1u << NSAUDIT_OP_SETNS;
	fs[n++].rule = "container-escape";
	fs[n++].severity = "warning";
	if (audit_rec_int(r, "pid", &v)) {
		fs[n].n_pid = 1, fs[n++].pid[0] = v;
		fs[n].n_pid = 1, fs[n++].pid[0] = v / 10; /* a prefix of it */
	}
	if (audit_rec_int(r, "uid", &v))
		fs[n].n_uid = 1, fs[n++].uid[0] = v;
	if (comm && *comm)
		fs[n].n_comm = 1, fs[n++].comm[0] = comm;
	fs[n].n_comm = 1, fs[n++].comm[0] = "nosuchcomm";
	fs[n++].container = "0123456789ab";
	if (audit_rec_int(r, "ns_inum", &v) && v >= 0 && v <= UINT32_MAX) {
		fs[n].n_ns = 1, fs[n].ns[0].type = -1, fs[n++].ns[0].inum = (uint32_t)v;
		fs[n].n_ns = 1, fs[n].ns[0].type = -1, fs[n++].ns[0].inum = (uint32_t)(v / 10);
	}
	if (t && !audit_time_parse(t, &v)) {
		fs[n].has_since = true, fs[n++].since_ns = v;
		if (v < INT64_MAX)
			fs[n].has_since = true, fs[n++].since_ns = v + 1;
		if (v > INT64_MIN)
			fs[n].has_until = true, fs[n++].until_ns = v - 1;
	}
	return n;
}

/* prefilter false => full match false, for this spelling of the line */
static void check_line(const char *line, size_t len, const char *what, int i)
{
	struct audit_filter fs[20];
	struct audit_rec r;
	char err[256];
	size_t k, n;

	cr_assert_eq(audit_rec_parse(line, len, &r, err, sizeof(err)), 0, "%s %d: %s", what, i,
		     err);
	n = filters_of(&r, fs);
	for (k = 0; k < n; k++)
		if (audit_filter_match(&fs[k], &r))
			cr_assert(audit_filter_may_match(&fs[k], line, len),
				  "%s %d: filter %zu rejected a line it matches", what, i, k);
	audit_rec_free(&r);
}

/* A line the parser refuses: every filter leaves it to the parser, which
 * reports it as damaged. */
static void check_refused(const char *line, size_t len, const char *what, int i)
{
	struct audit_filter fs[20];
	struct audit_rec r;
	char err[256];
	size_t k, n;

	cr_assert_neq(audit_rec_parse(line, len, &r, err, sizeof(err)), 0, "%s %d parsed", what,
		      i);
	cr_assert_neq(audit_json_check(line, len, NULL, err, sizeof(err)), 0, "%s %d checked",
		      what, i);
	/* the filters of the canonical record the line was made from */
	cr_assert_eq(audit_rec_parse(golden_log_json[i], strlen(golden_log_json[i]) - 1, &r, err,
				     sizeof(err)), 0);
	n = filters_of(&r, fs);
	for (k = 0; k < n; k++)
		cr_assert(audit_filter_may_match(&fs[k], line, len),
			  "%s %d: filter %zu skipped a damaged line unparsed", what, i, k);
	audit_rec_free(&r);
}

Test(search_prefilter, never_rejects_a_match)
{
	int i;

	for (i = 0; i < CORPUS_N; i++) {
		const char *g = golden_log_json[i];
		size_t len = strlen(g) - 1; /* without '\n' */
		char *alt = malloc(len + 16), *p;

		check_line(g, len, "canonical", i);
		/* the same record with white space after its first ':' */
		p = memchr(g, ':', len);
		memcpy(alt, g, (size_t)(p - g) + 1);
		alt[p - g + 1] = ' ';
		memcpy(alt + (p - g) + 2, p + 1, len - (size_t)(p - g) - 1);
		check_refused(alt, len + 1, "spaced", i);
		free(alt);
		/* the audit format: its time is looked at, nothing else */
		check_line(golden_log_audit[i], strlen(golden_log_audit[i]) - 1, "audit", i);
	}
}

/* The audit format: a line out of the time range is rejected unparsed,
 * one in range or without a time where the writer puts it is not. */
Test(search_prefilter, audit_format_time)
{
	const char *line = "type=NSAUDIT msg=nsaudit(1796284800.000:7): "
			   "time=\"2026-12-03T08:00:00.000000000Z\" op=\"setns\" pid=42 "
			   "mac=00112233445566778899aabbccddeeff";
	const char *late = "type=NSAUDIT msg=nsaudit(1796284800.000:7): op=\"setns\" "
			   "comm=\"x\" pid=42 exe=\"/usr/bin/a-rather-long-path-name\" "
			   "cgroup=\"/system.slice/a-long-unit-name.service\" "
			   "time=\"2026-12-03T08:00:00.000000000Z\" mac=00";
	struct audit_filter f = {0};
	size_t len = strlen(line);

	f.has_since = true, f.since_ns = 1796284800000000000LL;
	cr_assert(audit_filter_may_match(&f, line, len), "at the bound");
	f.since_ns++;
	cr_assert_not(audit_filter_may_match(&f, line, len));
	cr_assert(audit_filter_may_match(&f, late, strlen(late)), "time not up front: parsed");
	memset(&f, 0, sizeof(f));
	f.has_until = true, f.until_ns = 1796284800000000000LL;
	cr_assert(audit_filter_may_match(&f, line, len), "at the bound");
	f.until_ns--;
	cr_assert_not(audit_filter_may_match(&f, line, len));
	/* other conditions are left to the parser in this format */
	memset(&f, 0, sizeof(f));
	f.n_pid = 1, f.pid[0] = 43;
	cr_assert(audit_filter_may_match(&f, line, len));
}

/* Escaped key spellings that a forger could write: left to the parser. */
Test(search_prefilter, escapes_and_space_go_to_the_parser)
{
	static const char *const lines[] = {
	    "{\"seq\":1,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\",\"p\\u0069d\":42}",
	    "{\"seq\":1,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\",\"pid\": 42}",
	    "{\"seq\":1,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\",\"pid\":\t42}",
	    "{\"seq\":1,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\" ,\"pid\":42}",
	};
	struct audit_filter f = {.n_pid = 1, .pid = {42}};
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		cr_assert(audit_filter_may_match(&f, lines[i], strlen(lines[i])), "line %zu", i);
}

/* And it does reject: what makes search fast is tested, not assumed. */
Test(search_prefilter, rejects_canonical_lines_that_cannot_match)
{
	static const char line[] = "{\"seq\":7,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\","
				   "\"ns_inum\":4026531840,\"pid\":420,\"uid\":0,\"comm\":\"ip\","
				   "\"exe\":\"/usr/bin/with space\","
				   "\"mac\":\"0123456789abcdef0123456789abcdef\"}";
	struct audit_filter f;
	size_t len = strlen(line);

	memset(&f, 0, sizeof(f));
	f.n_pid = 1, f.pid[0] = 42; /* 420 is not 42 */
	cr_assert_not(audit_filter_may_match(&f, line, len));
	f.pid[0] = 420;
	cr_assert(audit_filter_may_match(&f, line, len));
	memset(&f, 0, sizeof(f));
	f.n_comm = 1, f.comm[0] = "i";
	cr_assert_not(audit_filter_may_match(&f, line, len));
	memset(&f, 0, sizeof(f));
	f.ops = 1u << NSAUDIT_OP_MOUNT;
	cr_assert_not(audit_filter_may_match(&f, line, len));
	/* --rule: that rule's alerts only, whatever their spelling */
	{
		static const char al[] =
		    "{\"seq\":9,\"op\":\"alert\",\"rule\":\"cross-container\","
		    "\"severity\":\"err\",\"mac\":\"0123456789abcdef0123456789abcdef\"}";
		struct audit_filter g = {.rule = "cross-container"};
		struct audit_rec r;
		char err[128];

		cr_assert(audit_filter_may_match(&g, al, strlen(al)));
		cr_assert_eq(audit_rec_parse(al, strlen(al), &r, err, sizeof(err)), 0, "%s", err);
		cr_assert(audit_filter_match(&g, &r));
		audit_rec_free(&r);
		g.rule = "container-escape";
		cr_assert_not(audit_filter_may_match(&g, al, strlen(al)));
		g.rule = NULL, g.severity = "crit";
		cr_assert(audit_filter_may_match(&g, al, strlen(al))); /* level: parsed */
		cr_assert_not(audit_filter_may_match(&g, line, len));  /* not an alert */
	}
	/* --op mount,alert: an alert line is a candidate */
	f.op_alert = true;
	cr_assert(audit_filter_may_match(&f, "{\"seq\":8,\"op\":\"alert\",\"rule\":\"x\"}", 33));
	memset(&f, 0, sizeof(f));
	f.n_ns = 1, f.ns[0].type = -1, f.ns[0].inum = 402653184;
	cr_assert_not(audit_filter_may_match(&f, line, len));
	memset(&f, 0, sizeof(f));
	f.has_since = true, f.since_ns = 1796284800000000001LL; /* after 08:00:00 */
	cr_assert_not(audit_filter_may_match(&f, line, len));
}

/* Issue 40: lines the parser refuses are never skipped unparsed, whatever
 * needle they hold: `"pid":0123` is no pid 123 to either reader. */
Test(search_prefilter, refused_lines_go_to_the_parser)
{
	static const char *const lines[] = {
	    "{\"seq\":7,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\",\"pid\":0123,"
	    "\"mac\":\"0123456789abcdef0123456789abcdef\"}",
	    "{\"seq\":7,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\",\"pid\":5,"
	    "\"op\":\"mount\",\"mac\":\"0123456789abcdef0123456789abcdef\"}",
	    "{\"seq\":7,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\",\"comm\":\"\xff\","
	    "\"mac\":\"0123456789abcdef0123456789abcdef\"}",
	    "{\"seq\":7,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\",\"pid\":-0,"
	    "\"mac\":\"0123456789abcdef0123456789abcdef\"}",
	};
	struct audit_filter f = {.n_pid = 1, .pid = {999}};
	struct audit_rec r;
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		cr_assert_neq(audit_rec_parse(lines[i], strlen(lines[i]), &r, err, sizeof(err)),
			      0, "line %zu parsed", i);
		cr_assert(audit_filter_may_match(&f, lines[i], strlen(lines[i])), "line %zu", i);
	}
}

/*
 * The needles of --comm/--exe are made once and kept while the same
 * value comes again (search_prefilter.c): a value changed in place, one
 * at the address another had, or one too long to keep, is never looked
 * for by a needle made from other bytes.
 */
Test(search_prefilter, kept_needles_follow_the_value)
{
	static const char line[] = "{\"seq\":7,\"time\":\"2026-12-03T08:00:00Z\",\"op\":\"setns\","
				   "\"pid\":420,\"comm\":\"ip\",\"exe\":\"/usr/bin/ip\","
				   "\"mac\":\"0123456789abcdef0123456789abcdef\"}";
	struct audit_filter f;
	size_t len = strlen(line);
	char v[700];

	memset(&f, 0, sizeof(f));
	f.n_comm = 1, f.comm[0] = v;
	strcpy(v, "ip");
	cr_assert(audit_filter_may_match(&f, line, len));
	strcpy(v, "iq"); /* the same pointer, other bytes */
	cr_assert_not(audit_filter_may_match(&f, line, len));
	strcpy(v, "ip");
	cr_assert(audit_filter_may_match(&f, line, len));
	strcpy(v, "i"); /* shorter */
	cr_assert_not(audit_filter_may_match(&f, line, len));
	/* the same value as an exe: its own needle */
	memset(&f, 0, sizeof(f));
	f.n_exe = 1, f.exe[0] = v;
	strcpy(v, "ip");
	cr_assert_not(audit_filter_may_match(&f, line, len));
	strcpy(v, "/usr/bin/ip");
	cr_assert(audit_filter_may_match(&f, line, len));
	/* too long to keep: made each time */
	memset(v, 'a', sizeof(v) - 1);
	v[sizeof(v) - 1] = '\0';
	cr_assert(audit_filter_may_match(&f, line, len), "no needle fits: parsed");
	memset(v, 'a', 550);
	v[550] = '\0';
	cr_assert_not(audit_filter_may_match(&f, line, len));
	strcpy(v, "/usr/bin/ip");
	cr_assert(audit_filter_may_match(&f, line, len));
	/* escaped in JSON: never by a needle */
	strcpy(v, "/usr/bin/\"ip");
	cr_assert(audit_filter_may_match(&f, line, len));
	/* several values: each its own */
	memset(&f, 0, sizeof(f));
	f.n_comm = 3, f.comm[0] = "a", f.comm[1] = "b", f.comm[2] = v;
	strcpy(v, "ip");
	cr_assert(audit_filter_may_match(&f, line, len));
	strcpy(v, "c");
	cr_assert_not(audit_filter_may_match(&f, line, len));
}
