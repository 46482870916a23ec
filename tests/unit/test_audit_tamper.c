// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_audit_tamper.c - every way of editing a log that verify must catch,
 * and the ways of changing it that are legitimate (rotation).
 *
 * A fresh log of tlog_write(t, 10) is one segment: line 1 the segment
 * header (seq 1), line 2 the start record, lines 3..12 the events, line 13
 * the closing record (seq 13).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "audit_util.h"
#include "chain.h"
#include "seal.h"
#include "state.h"

static struct tlog t;
static struct audit_verify v;
static char seg1[128];

static void setup_json(void)
{
	tlog_init(&t, AUDIT_FMT_JSON);
	tlog_write(&t, 10);
	tseg_path(&t, 1, seg1, sizeof(seg1));
}

static void teardown(void)
{
	tlog_cleanup(&t);
}

#define expect_bad(where_sub, what_sub)                                                            \
	do {                                                                                       \
		cr_assert_eq(tlog_verify(&t, &v), 1, "verify said intact");                        \
		cr_expect(strstr(v.where, where_sub), "where: '%s' lacks '%s'", v.where,           \
			  where_sub);                                                              \
		cr_expect(strstr(v.what, what_sub), "what: '%s' lacks '%s'", v.what, what_sub);    \
	} while (0)

TestSuite(audit_tamper, .init = setup_json, .fini = teardown);

Test(audit_tamper, intact_log_verifies)
{
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.records, 13);
	cr_expect_eq(v.first_seq, 1);
	cr_expect_eq(v.last_seq, 13);
	cr_expect_eq(v.segments, 1);
	cr_expect(v.closed);
	cr_expect_eq(v.starts, 1);
}

Test(audit_tamper, changed_byte_in_a_record)
{
	size_t len, s, l;
	char *d = tslurp(seg1, &len), *p;

	cr_assert(tline(d, len, 7, &s, &l));
	p = memmem(d + s, l, "\"pid\":1004", 10);
	cr_assert_not_null(p);
	p[9] = '5'; /* pid 1004 -> 1005 */
	tspit(seg1, d, len);
	free(d);
	expect_bad("nsaudit-000001.log line 7", "changed");
	cr_expect_eq(v.bad_seq, 7);
}

Test(audit_tamper, changed_byte_in_the_mac)
{
	size_t len, s, l;
	char *d = tslurp(seg1, &len);

	cr_assert(tline(d, len, 5, &s, &l));
	d[s + l - 4] = d[s + l - 4] == '0' ? '1' : '0';
	tspit(seg1, d, len);
	free(d);
	expect_bad("line 5", "MAC does not match");
}

Test(audit_tamper, deleted_record)
{
	tdel_line(seg1, 6);
	expect_bad("line 6", "missing (deleted)");
	cr_expect(strstr(v.what, "seq 6..6") || strstr(v.what, "seq 6"), "%s", v.what);
}

Test(audit_tamper, inserted_copy_of_a_record)
{
	tdup_line(seg1, 4, 8);
	expect_bad("line 8", "inserted");
}

Test(audit_tamper, reordered_records)
{
	tswap_lines(seg1, 5, 6);
	expect_bad("line 5", "out of order");
}

Test(audit_tamper, deleted_header)
{
	tdel_line(seg1, 1);
	expect_bad("nsaudit-000001.log line 1", "segment header");
}

Test(audit_tamper, truncated_tail_of_a_cleanly_closed_log)
{
	/* the closing record and the last event: looks like a log that just ended */
	tdel_line(seg1, 13);
	tdel_line(seg1, 12);
	expect_bad("nsaudit-000001.log", "cut short");
}

Test(audit_tamper, cut_in_the_middle_of_the_last_line)
{
	size_t len;
	char *d = tslurp(seg1, &len);

	tspit(seg1, d, len - 20);
	free(d);
	expect_bad("line 13", "unfinished last record");
}

Test(audit_tamper, wrong_key)
{
	char err[256];

	cr_assert_eq(audit_key_generate(t.key, true, err, sizeof(err)), 0);
	cr_assert_eq(tlog_verify(&t, &v), 1);
	cr_expect(strstr(v.what, "wrong key") || strstr(v.what, "this key"), "%s", v.what);
}

Test(audit_tamper, state_file_removed)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", t.dir, AUDIT_STATE_FILE);
	cr_assert_eq(unlink(path), 0);
	expect_bad(AUDIT_STATE_FILE, "missing");
}

Test(audit_tamper, state_file_edited)
{
	char path[160], *d, *p;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", t.dir, AUDIT_STATE_FILE);
	d = tslurp(path, &len);
	p = strstr(d, "seq=13");
	cr_assert_not_null(p);
	p[5] = '1'; /* claim a shorter log, to hide a cut */
	tspit(path, d, len);
	free(d);
	expect_bad(AUDIT_STATE_FILE, "does not verify");
}

Test(audit_tamper, garbage_line_inserted)
{
	size_t len;
	char *d = tslurp(seg1, &len), *o = malloc(len + 64);
	size_t s, l;

	cr_assert(tline(d, len, 4, &s, &l));
	memcpy(o, d, s);
	memcpy(o + s, "hello world\n", 12);
	memcpy(o + s + 12, d + s, len - s);
	tspit(seg1, o, len + 12);
	free(d);
	free(o);
	expect_bad("line 4", "not a record");
}

Test(audit_tamper, forged_newline_record_in_a_string_is_caught)
{
	/* An attacker without the key appends a well-formed record. */
	FILE *f = fopen(seg1, "a");

	cr_assert_not_null(f);
	fprintf(f, "{\"seq\":14,\"op\":\"setns\",\"mac\":\"%064d\"}\n", 0);
	fclose(f);
	expect_bad("line 14", "changed or forged");
}

/* --- several segments --------------------------------------------------------- */

static void setup_rotated(void)
{
	tlog_init(&t, AUDIT_FMT_JSON);
	t.o.max_size = 2048;
	t.o.keep = 100;
	tlog_write(&t, 40);
}

TestSuite(audit_tamper_segments, .init = setup_rotated, .fini = teardown);

Test(audit_tamper_segments, rotated_log_verifies)
{
	cr_assert_geq(tseg_count(&t), 4);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.first_seq, 1);
	cr_expect_eq(v.segments, (unsigned int)tseg_count(&t));
}

Test(audit_tamper_segments, missing_middle_segment)
{
	char path[128];

	tseg_path(&t, 2, path, sizeof(path));
	cr_assert_eq(unlink(path), 0);
	expect_bad("nsaudit-000002.log", "segment deleted");
}

Test(audit_tamper_segments, deleted_oldest_segment)
{
	char path[128];

	tseg_path(&t, 1, path, sizeof(path));
	cr_assert_eq(unlink(path), 0);
	expect_bad("nsaudit-000001.log", "older segment deleted");
}

Test(audit_tamper_segments, deleted_newest_segment)
{
	char path[128];

	tseg_path(&t, (unsigned int)tseg_count(&t), path, sizeof(path));
	cr_assert_eq(unlink(path), 0);
	expect_bad("nsaudit-", "newest segment deleted");
}

Test(audit_tamper_segments, tail_cut_off_a_middle_segment)
{
	char path[128];
	size_t len;
	char *d;
	int n;

	tseg_path(&t, 2, path, sizeof(path));
	d = tslurp(path, &len);
	n = tlines(d, len);
	free(d);
	tdel_line(path, n);
	expect_bad("nsaudit-000003.log line 1", "missing from the end of the previous segment");
}

Test(audit_tamper_segments, segments_swapped)
{
	char a[128], b[128], tmp[140];

	tseg_path(&t, 2, a, sizeof(a));
	tseg_path(&t, 3, b, sizeof(b));
	snprintf(tmp, sizeof(tmp), "%s.x", a);
	cr_assert_eq(rename(a, tmp), 0);
	cr_assert_eq(rename(b, a), 0);
	cr_assert_eq(rename(tmp, b), 0);
	expect_bad("nsaudit-000002.log line 1", "segment");
}

Test(audit_tamper_segments, oldest_dropped_by_rotation_is_fine)
{
	struct audit_log *l;
	char err[256];
	int i;

	t.o.keep = 2;
	l = audit_log_open(&t.o, err, sizeof(err));
	cr_assert_not_null(l, "%s", err);
	for (i = 0; i < 30; i++) {
		struct json_object *e = tevent(i, "x", 1);

		cr_assert_eq(audit_log_append(l, e), 0);
		json_object_put(e);
	}
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tseg_count(&t), 2);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_gt(v.first_seq, 1);
}

/* --- audit format ------------------------------------------------------------- */

static void setup_audit(void)
{
	tlog_init(&t, AUDIT_FMT_AUDIT);
	tlog_write(&t, 10);
	tseg_path(&t, 1, seg1, sizeof(seg1));
}

TestSuite(audit_tamper_auditfmt, .init = setup_audit, .fini = teardown);

Test(audit_tamper_auditfmt, intact)
{
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.records, 13);
}

Test(audit_tamper_auditfmt, changed_value)
{
	size_t len, s, l;
	char *d = tslurp(seg1, &len), *p;

	cr_assert(tline(d, len, 9, &s, &l));
	p = memmem(d + s, l, "uid=0", 5);
	cr_assert_not_null(p);
	p[4] = '1';
	tspit(seg1, d, len);
	free(d);
	expect_bad("line 9", "changed");
}

Test(audit_tamper_auditfmt, deleted_and_reordered)
{
	tswap_lines(seg1, 3, 4);
	expect_bad("line 3", "out of order");
}
