// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * Issue 40: the anchor stream as a witness of the whole history. Anchors
 * are numbered and chained (each names the one before), the log's seals
 * and state say how many were sent, and verify proves that an anchor
 * deleted from the middle or the end of the stream is seen, while honest
 * restarts (clean, and after a crash) keep the chain whole.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "anchor.h"
#include "audit_util.h"
#include "codec.h"
#include "log_test.h"
#include "seal.h"

static struct tlog t;
static struct audit_verify v;
static char vk[AUDIT_VK_LEN + 1], anchors[160];

static void setup(void)
{
	char err[256];

	tlog_init(&t, AUDIT_FMT_JSON);
	unlink(t.key);
	cr_assert_eq(audit_seal_keygen(t.key, false, vk, err, sizeof(err)), 0, "%s", err);
	t.o.seal_interval = 1;	     /* epochs of a second */
	t.o.anchor_interval_ms = 1;  /* an anchor after every commit */
	t.o.sync = AUDIT_SYNC_EVERY; /* (anchors name durable records) */
	snprintf(anchors, sizeof(anchors), "%s/messages", t.root);
}

static void teardown(void)
{
	tlog_cleanup(&t);
}

TestSuite(audit_chain, .init = setup, .fini = teardown);

/* The sink: each anchor as rsyslog writes it, appended (a child's too). */
static void to_syslog(void *ctx, struct json_object *a)
{
	char text[400];
	FILE *f;

	(void)ctx;
	cr_assert_eq(audit_anchor_text(a, text, sizeof(text)), 0);
	f = fopen(anchors, "a");
	cr_assert_not_null(f);
	fprintf(f, "Dec  4 15:30:00 host nsaudit[42]: %s\n", text);
	fclose(f);
}

static struct audit_log *aopen(void)
{
	char err[512];
	struct audit_log *l = audit_log_open(&t.o, err, sizeof(err));

	cr_assert_not_null(l, "open: %s", err);
	audit_log_set_anchor(l, to_syslog, NULL);
	return l;
}

static void append(struct audit_log *l, int n)
{
	char now[40];
	int i;

	for (i = 0; i < n; i++) {
		struct json_object *e = tevent(3000 + i, "ip", 2);

		audit_time_now(now);
		json_object_object_add(e, "time", json_object_new_string(now));
		cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
		json_object_put(e);
		audit_log_flush(l);
		usleep(2000);
	}
}

static int vverify(void)
{
	const char *files[2] = {anchors, NULL};
	struct audit_verify_opts o = {.dir = t.dir, .vk = vk, .anchors = files};
	char err[512];
	int rc = audit_verify(&o, &v, err, sizeof(err));

	cr_assert_geq(rc, 0, "verify could not run: %s", err);
	return rc;
}

/* A log over two epochs and a clean stop, every anchor in the file. */
static int pristine(void)
{
	struct audit_log *l = aopen();

	append(l, 4);
	usleep(1100 * 1000);
	cr_assert_eq(audit_log_tick(l), 0, "%s", audit_log_error(l));
	append(l, 4);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 0, "%s: %s", v.where, v.what);
	cr_assert_eq(v.anchor_chain_first, 1);
	cr_assert_geq(v.anchor_chain_last, 8, "%" PRIu64 " anchors", v.anchor_chain_last);
	return (int)v.anchor_chain_last;
}

Test(audit_chain, text_round_trip_and_canon)
{
	struct audit_log *l = aopen();
	struct audit_anchor a;
	static const char unchained[] =
		"x: nsaudit-anchor log_id=0123456789abcdef "
		"key_id=fedcba9876543210 seq=1 segment=1 epoch=0 "
		"first_segment=1 first_seq=1 mac="
		"00112233445566778899aabbccddeeff why=seal amac="
		"00112233445566778899aabbccddeeff";
	char *d, canon[AUDIT_ANCHOR_CANON_MAX];
	size_t len, s, ll;

	append(l, 2);
	cr_assert_eq(audit_log_close(l), 0);
	d = tslurp(anchors, &len);
	cr_assert(tline(d, len, tlines(d, len), &s, &ll));
	cr_assert_eq(audit_anchor_parse_line(d + s, ll - 1, &a), 0, "%.*s", (int)ll, d + s);
	cr_expect(a.chained);
	cr_expect_eq(a.n, (uint64_t)tlines(d, len), "numbered from 1, one per line");
	cr_expect_eq(a.first_seq, 1);
	cr_expect_str_eq(a.why, "close");
	audit_anchor_canon(&a, canon);
	cr_expect(strstr(canon, "nsaudit anchor v3 ") == canon, "%s", canon);
	/* a field changed or one of the new ones dropped: not an anchor */
	cr_expect_eq(audit_anchor_parse_line(unchained, strlen(unchained), &a), -1,
		     "a chained anchor without prev");
	free(d);
}

Test(audit_chain, a_middle_anchor_deleted_is_a_gap)
{
	int n = pristine();

	tdel_line(anchors, n / 2);
	cr_assert_eq(vverify(), 1, "a middle anchor deleted went unseen");
	cr_expect(tfinding(&v, "anchors deleted: anchor"), "%s", v.what);
}

/* Two --anchor files (a rotated syslog and the current one): a finding
 * names the file the anchor is in, not the last one given. */
Test(audit_chain, a_finding_names_the_anchor_file_it_is_in)
{
	const char *files[3] = {NULL, anchors, NULL};
	struct audit_verify_opts o = {.dir = t.dir, .vk = vk, .anchors = files};
	char older[200], cmd[600], err[512];
	int n = pristine();

	/* the first half of the anchors went to the older file */
	snprintf(older, sizeof(older), "%s/messages.1", t.root);
	snprintf(cmd, sizeof(cmd), "head -n %d %s >%s && sed -i 1,%dd %s", n / 2, anchors, older,
		 n / 2, anchors);
	cr_assert_eq(system(cmd), 0);
	files[0] = older;
	cr_assert_eq(audit_verify(&o, &v, err, sizeof(err)), 0, "%s: %s %s", v.where, v.what, err);
	tdel_line(older, 2);
	cr_assert_eq(audit_verify(&o, &v, err, sizeof(err)), 1, "an anchor deleted went unseen");
	cr_expect(tfinding(&v, "anchors deleted: anchor"), "%s", v.what);
	cr_expect_eq(strncmp(v.where, older, strlen(older)), 0, "named %s", v.where);
}

Test(audit_chain, the_newest_anchors_deleted_are_seen_from_the_log)
{
	int n = pristine(), i;
	char *d;
	size_t len;

	/* the close's anchor alone: the state names it */
	tdel_line(anchors, n);
	cr_assert_eq(vverify(), 1, "the newest anchor deleted went unseen");
	cr_expect(tfinding(&v, "anchors deleted: the state file says anchor"), "%s", v.what);
	/* the newest three: the close's seal says how many were sent before it */
	for (i = 1; i < 3; i++)
		tdel_line(anchors, n - i);
	d = tslurp(anchors, &len);
	cr_assert_eq(tlines(d, len), n - 3);
	free(d);
	cr_assert_eq(vverify(), 1);
	cr_expect(tfinding(&v, "anchors deleted: the seal of epoch"), "%s", v.what);
}

/* A sink that loses the anchors numbered lost_lo..lost_hi (its lane full
 * while the receiver was down): they never reach the file. */
static uint64_t lost_lo, lost_hi;

static void lossy_syslog(void *ctx, struct json_object *a)
{
	struct json_object *n;
	uint64_t k;

	k = json_object_object_get_ex(a, "n", &n) ? (uint64_t)json_object_get_int64(n) : 0;
	if (k >= lost_lo && k <= lost_hi)
		return;
	to_syslog(ctx, a);
}

/* A log whose sink lost anchors 3..5; told records how many it admits. */
static void lossy_log(uint64_t told_hi)
{
	char err[512];
	struct audit_log *l = audit_log_open(&t.o, err, sizeof(err));

	cr_assert_not_null(l, "open: %s", err);
	lost_lo = 3, lost_hi = 5;
	audit_log_set_anchor(l, lossy_syslog, NULL);
	append(l, 8);
	/* what the recorder does once its sink says so */
	cr_assert_eq(audit_log_anchors_lost(l, "syslog:unix:/dev/log", 3, told_hi, told_hi - 2),
		     0, "%s", audit_log_error(l));
	append(l, 2);
	cr_assert_eq(audit_log_close(l), 0);
}

/*
 * Anchors a sink lost (issue 40, 3): the log says so in an anchors_lost
 * record, chained like any other, and verify counts the gap as that loss
 * (intact); a gap the log does not admit in full is still a deletion.
 */
Test(audit_chain, anchors_a_sink_lost_are_a_loss_the_log_admits)
{
	lossy_log(5);
	cr_assert_eq(vverify(), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.anchors_lost_sink, 3);
	cr_expect_eq(v.anchor_chain_first, 1);
	cr_expect_gt(v.anchor_chain_last, 8);
}

Test(audit_chain, a_gap_the_log_does_not_admit_in_full_is_a_deletion)
{
	lossy_log(4); /* anchor 5 missing too, the log says 3..4 only */
	cr_assert_eq(vverify(), 1, "a gap wider than the admitted loss went unseen");
	cr_expect(tfinding(&v, "anchors deleted: anchor 5 "), "%s", v.what);
}

Test(audit_chain, an_anchor_replaced_by_another_of_the_log_is_a_fork)
{
	int n = pristine();

	/* anchor 3 where anchor 2 was: the later ones still name anchor 2 */
	tdup_line(anchors, 3, 2);
	tdel_line(anchors, 3);
	cr_assert_eq(vverify(), 1);
	cr_expect(tfinding(&v, "anchors deleted: anchor 2 ") || tfinding(&v, "forked"), "%s", v.what);
	(void)n;
}

/*
 * The log deleted and begun again with the host's sealing state, this time
 * with no sink: the file holds none of the new log's anchors, only the
 * erased one's. That is the finding ("another history"), not "no anchor to
 * check against" (which named neither log).
 */
Test(audit_chain, a_new_log_that_sent_no_anchor_is_still_another_history)
{
	struct audit_log *l;
	char err[512], cmd[600];

	pristine();
	snprintf(cmd, sizeof(cmd), "rm -f %s/nsaudit-* %s/.nsaudit-state", t.dir, t.dir);
	cr_assert_eq(system(cmd), 0);
	l = audit_log_open(&t.o, err, sizeof(err));
	cr_assert_not_null(l, "open: %s", err);
	append(l, 3);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), AUDIT_VERIFY_TAMPERED, "%s: %s", v.where, v.what);
	cr_assert_not_null(strstr(v.what, "another history under this key"), "%s", v.what);
}

/*
 * Three logs under one key: the first retired (its newest anchor an
 * authentic end), the second erased without an end, the third in the
 * directory. The erased one is the finding, whatever comes after its
 * anchors in the file: a line replayed with logger (the first log's end
 * anchor, authentic) made the newest other anchor in file order an end
 * and verify called the replaced history intact.
 */
Test(audit_chain, an_ended_log_replayed_does_not_end_another)
{
	struct audit_log *l;
	char err[512], cmd[900], endline[600] = "";
	FILE *f;

	l = aopen();
	append(l, 2);
	cr_assert_eq(audit_log_retire(l, err, sizeof(err)), 0, "%s", err);
	f = fopen(anchors, "r");
	cr_assert_not_null(f);
	while (fgets(endline, sizeof(endline), f) && !strstr(endline, "why=end"))
		;
	fclose(f);
	cr_assert_not_null(strstr(endline, "why=end"), "no end anchor: %s", endline);
	/* the second log, in a fresh directory, erased without an end */
	snprintf(cmd, sizeof(cmd), "rm -rf %s", t.dir);
	cr_assert_eq(system(cmd), 0);
	l = aopen();
	append(l, 2);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(system(cmd), 0);
	/* the third: this directory's */
	l = aopen();
	append(l, 2);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), AUDIT_VERIFY_TAMPERED, "%s: %s", v.where, v.what);
	cr_expect_not_null(strstr(v.what, "another history under this key"), "%s", v.what);
	/* anyone logs the first log's end anchor again */
	f = fopen(anchors, "a");
	cr_assert_not_null(f);
	fputs(endline, f);
	fclose(f);
	cr_assert_eq(vverify(), AUDIT_VERIFY_TAMPERED, "a replayed end hid an erased log: %s",
		     v.what);
	cr_expect_not_null(strstr(v.what, "another history under this key"), "%s", v.what);
	cr_expect_eq(v.other_logs, 2);
}

/* The first segment's header removed: no log id, no schedule, so no anchor
 * authenticates. The damage is the verdict, not "no authentic anchor"
 * (which made verify give up and call the anchors forged). */
Test(audit_chain, a_log_without_its_first_header_is_not_intact_with_anchors)
{
	char seg[300];

	pristine();
	snprintf(seg, sizeof(seg), "%s/nsaudit-000001.log", t.dir);
	tdel_line(seg, 1);
	cr_assert_eq(vverify(), AUDIT_VERIFY_TAMPERED, "%s: %s", v.where, v.what);
	cr_expect(tfinding(&v, "does not start with a segment header"), "%s", v.what);
}

Test(audit_chain, restarts_clean_and_after_a_crash_keep_the_chain)
{
	struct audit_log *l;
	pid_t pid;
	int st;

	l = aopen();
	append(l, 3);
	cr_assert_eq(audit_log_close(l), 0);
	l = aopen(); /* a clean restart: the state names the close's anchor */
	append(l, 3);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 0, "%s: %s", v.where, v.what);
	/* a crash right after a commit's anchor, which no state names yet */
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		l = aopen();
		append(l, 3);
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	l = aopen();
	append(l, 2);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(vverify(), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.anchor_chain_first, 1);
	cr_expect_gt(v.anchor_chain_last, 10);
}

static int commits;

static void count_commits(void *ctx, struct json_object *a)
{
	struct json_object *why;

	(void)ctx;
	if (json_object_object_get_ex(a, "why", &why) &&
	    !strcmp(json_object_get_string(why), "commit"))
		commits++;
}

/*
 * Under a flood the group sync runs on a thread of its own and the log is
 * never idle: anchors must still leave, naming what each sync made durable
 * (before: none between the start and the close).
 */
Test(audit_chain, anchors_leave_while_the_log_is_never_idle, .timeout = 60)
{
	struct audit_log *l;
	char err[512], pad[400];
	int i, j;

	t.o.sync = AUDIT_SYNC_BATCH;
	t.o.seal_interval = 3600;
	t.o.anchor_interval_ms = 50;
	l = audit_log_open(&t.o, err, sizeof(err));
	cr_assert_not_null(l, "open: %s", err);
	audit_log_set_anchor(l, count_commits, NULL);
	memset(pad, 'x', sizeof(pad) - 1);
	pad[sizeof(pad) - 1] = '\0';
	commits = 0;
	for (i = 0; i < 12; i++) {
		/* more than a background sync's worth (1 MiB) between flushes */
		for (j = 0; j < 3000; j++) {
			struct json_object *e = tevent(3000 + j, pad, strlen(pad));
			char now[40];

			audit_time_now(now);
			json_object_object_add(e, "time", json_object_new_string(now));
			cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
			json_object_put(e);
		}
		usleep(60 * 1000); /* past the group interval and the anchor interval */
		cr_assert_eq(audit_log_flush(l), 0, "%s", audit_log_error(l));
	}
	cr_expect_geq(commits, 3, "%d commit anchors while the log was never idle", commits);
	cr_assert_eq(audit_log_close(l), 0);
}

static void lost_rec(struct audit_log *l, int total)
{
	struct json_object *e = tevent(1, "x", 1);
	char now[40];

	audit_time_now(now);
	json_object_object_add(e, "time", json_object_new_string(now));
	json_object_object_add(e, "op", json_object_new_string("lost"));
	json_object_object_add(e, "count", json_object_new_int(4));
	json_object_object_add(e, "lost_total", json_object_new_int(total));
	cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
	json_object_put(e);
	audit_log_note_lost_total(l, (uint64_t)total);
}

/*
 * The state names an earlier record than the log's last after a crash:
 * its lost_total is the chain's at that record, not at the end (a kill -9
 * under a flood with losses was called "lost counter changed").
 */
Test(audit_chain, a_state_behind_the_log_after_a_crash_is_no_lost_counter_change)
{
	struct audit_verify_opts o = {.dir = t.dir, .vk = vk};
	char err[512];
	pid_t pid;
	int st, rc;

	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		struct audit_log *l = audit_log_open(&t.o, err, sizeof(err));

		if (!l)
			_exit(2);
		lost_rec(l, 5);
		audit_log_flush(l); /* the state names it, lost_total 5 */
		lost_rec(l, 9);	    /* on disk, the state not moved yet */
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert_eq(WEXITSTATUS(st), 0);
	rc = audit_verify(&o, &v, err, sizeof(err));
	cr_assert(rc == 0 || rc == 3, "rc %d: %s %s", rc, err, v.what);
	cr_expect(!tfinding(&v, "lost counter changed"), "%s", v.what);
}
