// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_audit_writer.c - the writer: rotation boundaries, --keep, recovery
 * after a crash, full-disk policies, reopen, the lock, option parsing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "audit_util.h"
#include "chain.h"
#include "codec.h"
#include "log_impl.h"
#include "log_test.h"

static struct tlog t;
static struct audit_verify v;

static void setup(void)
{
	tlog_init(&t, AUDIT_FMT_JSON);
}

static void teardown(void)
{
	audit_log_write_fn = NULL;
	tlog_cleanup(&t);
}

TestSuite(audit_writer, .init = setup, .fini = teardown);

static off_t fsize(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

static struct audit_log *topen(void)
{
	char err[512];
	struct audit_log *l = audit_log_open(&t.o, err, sizeof(err));

	cr_assert_not_null(l, "open: %s", err);
	return l;
}

static void append_n(struct audit_log *l, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct json_object *e = tevent(2000 + i, "ip", 2);

		cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
		json_object_put(e);
	}
}

/* Length of the line e would be written as in a new log (format version 3;
 * MAC values do not change it). */
static size_t line_len(struct json_object *e, uint64_t seq)
{
	static const uint8_t k[AUDIT_KEY_LEN], z[AUDIT_MAC_LEN];
	uint8_t mac[AUDIT_MAC_LEN];
	struct audit_chain c;
	struct sbuf b = {0};
	size_t n;

	audit_chain_init(&c, audit_mac_kind(AUDIT_LOG_VERSION), k, NULL);
	cr_assert_eq(audit_encode_chain(t.o.format, e, seq, &c, z, &b, mac), 0);
	n = b.len;
	sb_free(&b);
	return n;
}

/* An event whose line is exactly want bytes. */
static struct json_object *sized_event(uint64_t seq, size_t want)
{
	struct json_object *e = tevent(1, "", 0);
	size_t base = line_len(e, seq);
	char *pad;

	cr_assert_geq(want, base);
	pad = malloc(want - base + 1);
	memset(pad, 'a', want - base);
	json_object_object_add(e, "comm", json_object_new_string_len(pad, (int)(want - base)));
	free(pad);
	cr_assert_eq(line_len(e, seq), want);
	return e;
}

Test(audit_writer, record_exactly_at_max_size_stays)
{
	struct audit_log *l;
	struct json_object *e;
	char seg1[128];
	off_t s;

	t.o.max_size = 4096;
	l = topen();
	tseg_path(&t, 1, seg1, sizeof(seg1));
	s = fsize(seg1);
	e = sized_event(audit_log_next_seq(l), (size_t)(4096 - s));
	cr_assert_eq(audit_log_append(l, e), 0);
	json_object_put(e);
	cr_expect_eq(fsize(seg1), 4096, "segment is %lld bytes", (long long)fsize(seg1));
	cr_expect_eq(tseg_count(&t), 1);
	cr_expect_eq(audit_log_segment(l), 1);
	append_n(l, 1); /* the next one does not fit */
	cr_expect_eq(tseg_count(&t), 2);
	cr_expect_eq(fsize(seg1), 4096);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
}

Test(audit_writer, record_one_byte_over_goes_to_next_segment)
{
	struct audit_log *l;
	struct json_object *e;
	char seg1[128];
	off_t s;

	t.o.max_size = 4096;
	l = topen();
	tseg_path(&t, 1, seg1, sizeof(seg1));
	s = fsize(seg1);
	e = sized_event(audit_log_next_seq(l), (size_t)(4096 - s + 1));
	cr_assert_eq(audit_log_append(l, e), 0);
	json_object_put(e);
	cr_expect_eq(fsize(seg1), s);
	cr_expect_eq(tseg_count(&t), 2);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
}

Test(audit_writer, oversized_record_gets_a_segment_of_its_own)
{
	struct audit_log *l;
	struct json_object *e;

	t.o.max_size = 1024;
	l = topen();
	append_n(l, 2);
	e = sized_event(audit_log_next_seq(l), 3000);
	cr_assert_eq(audit_log_append(l, e), 0);
	json_object_put(e);
	append_n(l, 2);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
}

Test(audit_writer, keep_count_and_gapless_seq)
{
	struct audit_log *l;
	unsigned int i;

	t.o.max_size = 1024;
	t.o.keep = 3;
	l = topen();
	for (i = 0; i < 50; i++) {
		append_n(l, 1);
		cr_assert_leq(tseg_count(&t), 3);
	}
	cr_expect_gt(audit_log_segment(l), 3);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tseg_count(&t), 3);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.last_seq - v.first_seq + 1, v.records);
	cr_expect_eq(v.first_segment + 2, v.last_segment);
}

Test(audit_writer, seq_is_the_logs_own_and_persists)
{
	struct audit_log *l;
	struct json_object *e, *s;

	tlog_write(&t, 3); /* header, start, 3 events, close: seq 1..6 */
	l = topen();
	e = tevent(1, "x", 1);
	cr_assert_eq(audit_log_append(l, e), 0);
	cr_assert(json_object_object_get_ex(e, "seq", &s));
	/* the second session: header not repeated (same segment), start = 7 */
	cr_expect_eq(json_object_get_int64(s), 8);
	cr_expect(json_object_object_get_ex(e, "mac", NULL));
	json_object_put(e);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.starts, 2);
	cr_expect_eq(v.records, 9);
}

/* A recorder killed without closing: a child that exits mid-log. */
static void crash_after(int n, bool flush)
{
	pid_t pid = fork();
	int status;

	cr_assert_geq(pid, 0);
	if (!pid) {
		char err[256];
		struct audit_log *l = audit_log_open(&t.o, err, sizeof(err));
		int i;

		if (!l)
			_exit(3);
		for (i = 0; i < n; i++) {
			struct json_object *e = tevent(i, "x", 1);

			if (audit_log_append(l, e))
				_exit(4);
			json_object_put(e);
		}
		if (flush)
			audit_log_flush(l);
		_exit(0); /* no close record */
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed");
}

Test(audit_writer, unclean_stop_is_recorded_and_chained)
{
	struct audit_log *l;

	crash_after(5, false);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_not(v.closed);
	l = topen();
	append_n(l, 2);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.recoveries, 1);
	cr_expect_eq(v.starts, 2);
	cr_expect(v.closed);
}

Test(audit_writer, torn_last_record_is_removed_on_start)
{
	struct audit_log *l;
	char seg1[128];
	FILE *f;

	crash_after(5, false);
	tseg_path(&t, 1, seg1, sizeof(seg1));
	f = fopen(seg1, "a");
	fputs("{\"seq\":8,\"time\":\"2026-", f); /* killed mid-write */
	fclose(f);
	/* a crash tail, told apart from tampering */
	cr_assert_eq(tlog_verify(&t, &v), AUDIT_VERIFY_CRASH);
	cr_expect(strstr(v.what, "unfinished"), "%s", v.what);
	l = topen();
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.recoveries, 1);
}

Test(audit_writer, tail_cut_while_stopped_is_reported)
{
	struct audit_log *l;
	char seg1[128];
	size_t len;
	char *d;

	t.o.sync = AUDIT_SYNC_BATCH;
	crash_after(5, true); /* the state file names the last record */
	tseg_path(&t, 1, seg1, sizeof(seg1));
	d = tslurp(seg1, &len);
	tdel_line(seg1, tlines(d, len));
	free(d);
	l = topen();
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 1);
	cr_expect(strstr(v.what, "1 records missing") || strstr(v.what, "found 1 records missing"),
		  "%s", v.what);
}

Test(audit_writer, second_recorder_is_refused)
{
	struct audit_log *l = topen(), *l2;
	char err[256] = "";

	l2 = audit_log_open(&t.o, err, sizeof(err));
	cr_expect_null(l2);
	cr_expect(strstr(err, "another nsaudit record"), "%s", err);
	cr_assert_eq(audit_log_close(l), 0);
}

Test(audit_writer, wrong_key_is_refused_at_open)
{
	char err[256] = "", other[128];

	tlog_write(&t, 1);
	snprintf(other, sizeof(other), "%s/other", t.root);
	cr_assert_eq(audit_key_generate(other, false, err, sizeof(err)), 0);
	t.o.key_path = other;
	cr_expect_null(audit_log_open(&t.o, err, sizeof(err)));
	/* the state file is checked first; either way the message says key */
	cr_expect(strstr(err, "another key") || strstr(err, "wrong key"), "%s", err);
}

Test(audit_writer, default_key_generated_0600_and_dir_0700)
{
	struct stat st;
	char path[160];

	t.o.key_path = NULL;
	tlog_write(&t, 1);
	snprintf(path, sizeof(path), "%s/.key", t.dir);
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600);
	cr_assert_eq(stat(t.dir, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0700);
	tseg_path(&t, 1, path, sizeof(path));
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600);
	snprintf(path, sizeof(path), "%s/%s", t.dir, AUDIT_STATE_FILE);
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600);
	cr_assert_eq(audit_verify_dir(t.dir, NULL, false, &v, path, sizeof(path)), 0);
}

Test(audit_writer, directory_holds_only_segments_and_dotfiles)
{
	struct dirent *de;
	DIR *d;

	t.o.max_size = 1024;
	t.o.keep = 2;
	tlog_write(&t, 30);
	d = opendir(t.dir);
	cr_assert_not_null(d);
	while ((de = readdir(d)))
		cr_expect(de->d_name[0] == '.' || !strncmp(de->d_name, "nsaudit-", 8), "%s",
			  de->d_name);
	closedir(d);
}

Test(audit_writer, reopen_same_file_and_moved_file)
{
	struct audit_log *l = topen();
	char seg1[128], moved[160];

	append_n(l, 3);
	cr_assert_eq(audit_log_reopen(l), 0);
	append_n(l, 1);
	cr_expect_eq(audit_log_segment(l), 1);
	/* logrotate moves the file away, then sends SIGHUP */
	tseg_path(&t, 1, seg1, sizeof(seg1));
	snprintf(moved, sizeof(moved), "%s/moved.log", t.root);
	cr_assert_eq(rename(seg1, moved), 0);
	cr_assert_eq(audit_log_reopen(l), 0);
	append_n(l, 3);
	cr_expect_eq(audit_log_segment(l), 2);
	cr_assert_eq(audit_log_close(l), 0);
	/* the moved segment's records are not in the log: not intact (this
	 * used to be accepted because a MAC'd "missing" record said so) */
	cr_assert_eq(tlog_verify(&t, &v), 1);
	cr_expect(strstr(v.where, "nsaudit-000001.log") && strstr(v.what, "moved away"), "%s: %s",
		  v.where, v.what);
	/* put back, the log is whole again */
	cr_assert_eq(rename(moved, seg1), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
}

/* --- full disk ------------------------------------------------------------------ */

/* A disk of disk_cap bytes holding the log directory's files. */
static long disk_cap;

static ssize_t small_disk_write(int fd, const void *buf, size_t n)
{
	long used = 0;
	struct dirent *de;
	DIR *d = opendir(t.dir);

	while (d && (de = readdir(d))) {
		char p[600];

		if (strncmp(de->d_name, "nsaudit-", 8) && strcmp(de->d_name, ".nsaudit-reserve"))
			continue;
		snprintf(p, sizeof(p), "%s/%s", t.dir, de->d_name);
		used += (long)fsize(p);
	}
	if (d)
		closedir(d);
	if (used + (long)n <= disk_cap)
		return write(fd, buf, n);
	if (used < disk_cap && n > 1) /* a partial write first, like a real disk */
		return write(fd, buf,
			     (size_t)(disk_cap - used) < n ? (size_t)(disk_cap - used) : 1);
	errno = ENOSPC;
	return -1;
}

static int count_in_log(const char *what)
{
	int n = 0, i;
	char path[128], *d, *p;
	size_t len;

	for (i = 1; i < 200; i++) {
		tseg_path(&t, (unsigned int)i, path, sizeof(path));
		if (access(path, F_OK))
			continue;
		d = tslurp(path, &len);
		for (p = d; (p = strstr(p, what)); p++)
			n++;
		free(d);
	}
	return n;
}

Test(audit_writer, full_disk_suspend_counts_and_resumes)
{
	struct audit_log *l;

	t.o.on_full = AUDIT_FULL_SUSPEND;
	l = topen();
	audit_log_write_fn = small_disk_write;
	disk_cap = 3000;
	append_n(l, 40); /* all "succeed": dropped ones are counted */
	cr_expect_gt(audit_log_suspended(l), 0);
	disk_cap = 1 << 30; /* space is back */
	append_n(l, 1);
	cr_assert_eq(audit_log_close(l), 0);
	audit_log_write_fn = NULL;
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_gt(v.lost, 0);
	/* every event is either in the log or counted as lost */
	cr_expect_eq((uint64_t)count_in_log("\"op\":\"setns\"") + v.lost, 41);
	cr_expect_eq(count_in_log("disk full"), 1);
}

Test(audit_writer, full_disk_stop_fails_and_leaves_whole_records)
{
	struct audit_log *l;
	int i, rc;

	t.o.on_full = AUDIT_FULL_STOP;
	l = topen();
	audit_log_write_fn = small_disk_write;
	disk_cap = 3000;
	for (i = 0, rc = 0; i < 40 && !rc; i++) {
		struct json_object *e = tevent(i, "ip", 2);

		rc = audit_log_append(l, e);
		json_object_put(e);
	}
	cr_expect_eq(rc, -1);
	cr_expect(strstr(audit_log_error(l), "disk full"), "%s", audit_log_error(l));
	{
		struct json_object *e = tevent(99, "ip", 2);

		cr_expect_eq(audit_log_append(l, e), -1, "stays stopped");
		json_object_put(e);
	}
	cr_expect_eq(audit_log_close(l), -1);
	audit_log_write_fn = NULL;
	/* no half record: what is there verifies (just not closed) */
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_not(v.closed);
}

Test(audit_writer, full_disk_rotate_deletes_oldest_and_says_so)
{
	struct audit_log *l;

	t.o.max_size = 1024;
	t.o.keep = 100;
	t.o.on_full = AUDIT_FULL_ROTATE; /* no longer the default: asked for */
	l = topen();
	audit_log_write_fn = small_disk_write;
	disk_cap = 4000 + 8192; /* and the reserve that lets a drop record in */
	append_n(l, 60);
	cr_expect_eq(audit_log_suspended(l), 0);
	cr_assert_eq(audit_log_close(l), 0);
	audit_log_write_fn = NULL;
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_gt(v.first_segment, 1);
	cr_expect_geq(count_in_log("\"reason\":\"disk full\""), 1);
}

/* --- options ---------------------------------------------------------------------- */

static int popt(struct audit_log_opts *o, const char *a, const char *b, int *used, char *err)
{
	char *argv[3] = {(char *)a, (char *)b, NULL};

	return audit_log_parse_opt(o, b ? 2 : 1, argv, used, err, 200);
}

Test(audit_writer, option_parsing)
{
	struct audit_log_opts o;
	char err[200];
	int used;

	audit_log_opts_init(&o);
	cr_expect_eq(o.sync, AUDIT_SYNC_BATCH);
	cr_expect_eq(o.keep, 16);
	cr_expect_eq(o.max_size, 256ull << 20);
	cr_expect_eq(popt(&o, "--max-size", "64K", &used, err), 1);
	cr_expect_eq(used, 2);
	cr_expect_eq(o.max_size, 65536);
	cr_expect_eq(popt(&o, "--max-size=2M", NULL, &used, err), 1);
	cr_expect_eq(used, 1);
	cr_expect_eq(o.max_size, 2 << 20);
	cr_expect_eq(popt(&o, "--max-size", "1G", &used, err), 1);
	cr_expect_eq(o.max_size, 1ull << 30);
	cr_expect_eq(popt(&o, "--max-size", "12", &used, err), -1);
	cr_expect_eq(popt(&o, "--max-size", "5X", &used, err), -1);
	cr_expect_eq(popt(&o, "--max-size", "-5", &used, err), -1);
	cr_expect_eq(popt(&o, "--keep", "3", &used, err), 1);
	cr_expect_eq(o.keep, 3);
	cr_expect_eq(popt(&o, "--keep", "0", &used, err), -1);
	cr_expect_eq(popt(&o, "--keep", "abc", &used, err), -1);
	cr_expect(strstr(err, "abc"), "%s", err);
	cr_expect_eq(popt(&o, "--format", "audit", &used, err), 1);
	cr_expect_eq(o.format, AUDIT_FMT_AUDIT);
	cr_expect_eq(popt(&o, "--format", "xml", &used, err), -1);
	cr_expect(strstr(err, "xml") && strstr(err, "json"), "%s", err);
	cr_expect_eq(popt(&o, "--on-full", "stop", &used, err), 1);
	cr_expect_eq(o.on_full, AUDIT_FULL_STOP);
	cr_expect_eq(popt(&o, "--on-full", "panic", &used, err), -1);
	cr_expect_eq(popt(&o, "--sync", "every", &used, err), 1);
	cr_expect_eq(o.sync, AUDIT_SYNC_EVERY);
	cr_expect_eq(popt(&o, "--log-dir", "/x", &used, err), 1);
	cr_expect_str_eq(o.dir, "/x");
	cr_expect_eq(popt(&o, "--key", NULL, &used, err), -1);
	cr_expect(strstr(err, "needs a value"), "%s", err);
	cr_expect_eq(popt(&o, "--type", "net", &used, err), 0);
	cr_expect_eq(popt(&o, "--keepx", "1", &used, err), 0);
	cr_expect_eq(popt(&o, "net", NULL, &used, err), 0);
}

/* --- issue 14: a full disk must not be a way to erase history ------------------- */

static ssize_t full_disk_write(int fd, const void *buf, size_t n)
{
	errno = ENOSPC;
	return -1;
}

Test(audit_writer, full_disk_by_default_deletes_nothing)
{
	struct audit_log *l;
	int before;

	t.o.max_size = 1024;
	t.o.keep = 100;
	l = topen(); /* default --on-full: suspend */
	append_n(l, 20);
	before = tseg_count(&t);
	cr_assert_geq(before, 3);
	audit_log_write_fn = full_disk_write; /* a local user filled the disk */
	append_n(l, 50);
	cr_expect_eq(tseg_count(&t), before, "history was deleted to make room");
	cr_expect_eq(audit_log_suspended(l), 50);
	audit_log_write_fn = NULL;
	append_n(l, 1);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.lost, 50);
}

Test(audit_writer, rotate_deletes_nothing_it_cannot_first_record)
{
	struct audit_log *l;
	int before;

	t.o.max_size = 1024;
	t.o.keep = 100;
	t.o.on_full = AUDIT_FULL_ROTATE;
	l = topen();
	append_n(l, 20);
	before = tseg_count(&t);
	/* not even the drop record fits: the old code deleted segment after
	 * segment, then owed a drop record it could never write */
	audit_log_write_fn = full_disk_write;
	append_n(l, 10);
	cr_expect_eq(tseg_count(&t), before, "a segment went without a durable drop record");
	audit_log_write_fn = NULL;
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
}

/* The seq the tail state file names (it is written after each sync). */
static unsigned long long state_seq(void)
{
	char path[160], buf[512];
	unsigned long long seq = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t.dir, AUDIT_STATE_FILE);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_not_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	cr_assert_eq(sscanf(strstr(buf, " seq=") ?: "", " seq=%llu", &seq), 1, "%s", buf);
	return seq;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * --sync batch is a group commit: a flush soon after a sync writes the
 * records but leaves syncing them (and naming them in the state file) to
 * the first flush after AUDIT_SYNC_GROUP_NS; --sync every is not held back.
 */
Test(audit_writer, batch_sync_is_a_group_commit)
{
	struct audit_log *l;
	unsigned long long s1;
	char seg1[128];
	int64_t t0;
	size_t len;
	char *d;

	t.o.sync = AUDIT_SYNC_BATCH;
	l = topen();
	append_n(l, 1);
	t0 = mono_ns();
	cr_assert_eq(audit_log_flush(l), 0, "%s", audit_log_error(l));
	s1 = state_seq();
	append_n(l, 3);
	cr_assert_eq(audit_log_flush(l), 0, "%s", audit_log_error(l));
	tseg_path(&t, 1, seg1, sizeof(seg1));
	d = tslurp(seg1, &len);
	cr_expect_geq(tlines(d, len), 6, "records not written"); /* header, start, 4 */
	free(d);
	/* on a machine too slow for this the interval is over: nothing to hold */
	if (mono_ns() - t0 < AUDIT_SYNC_GROUP_NS)
		cr_expect_eq(state_seq(), s1, "synced within the group interval");
	usleep(AUDIT_SYNC_GROUP_NS / 1000 + 10000);
	cr_assert_eq(audit_log_flush(l), 0, "%s", audit_log_error(l));
	cr_expect_eq(state_seq(), s1 + 3, "not synced after the group interval");
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
}

Test(audit_writer, every_sync_is_not_held_back)
{
	struct audit_log *l;
	unsigned long long s1;

	t.o.sync = AUDIT_SYNC_EVERY;
	l = topen();
	append_n(l, 1);
	cr_assert_eq(audit_log_flush(l), 0, "%s", audit_log_error(l));
	s1 = state_seq();
	append_n(l, 2);
	cr_assert_eq(audit_log_flush(l), 0, "%s", audit_log_error(l));
	cr_expect_eq(state_seq(), s1 + 2);
	cr_assert_eq(audit_log_close(l), 0);
}

/*
 * A group commit of a megabyte or more syncs on a thread while records go
 * on being written: the state file it writes names the last record written
 * when it started (not the ones after), and the log closes intact.
 */
Test(audit_writer, large_group_commit_syncs_in_the_background)
{
	struct audit_log *l;
	unsigned long long last;

	t.o.sync = AUDIT_SYNC_BATCH;
	l = topen();
	append_n(l, 1);
	cr_assert_eq(audit_log_flush(l), 0, "%s", audit_log_error(l));
	cr_expect_null(l->bg, "a small sync is done at once");
	while (alog_sync_pending_bytes(l) < AUDIT_SYNC_ASYNC_BYTES)
		append_n(l, 16);
	usleep(AUDIT_SYNC_GROUP_NS / 1000 + 10000);
	last = l->seq - 1;
	cr_assert_eq(audit_log_flush(l), 0, "%s", audit_log_error(l));
	cr_assert_not_null(l->bg, "a large sync goes to the background");
	append_n(l, 5); /* written while it syncs */
	cr_assert_eq(alog_sync_reap(l, true), 0, "%s", audit_log_error(l));
	cr_expect_eq(state_seq(), last, "the state names what was written before the sync");
	cr_assert_eq(audit_log_close(l), 0);
	cr_expect_eq(state_seq(), last + 5 + 1, "close: the closing record");
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
}
