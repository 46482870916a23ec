// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_audit_batch.c - the recorder's fast path (audit_log_append_fields,
 * audit_log_commit): the same lines as the per-record path, one write per
 * batch, rotation inside a batch, the log's own records in order, and a
 * batch whose write fails handled per record by the full-disk policies.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <json-c/json.h>

#include "audit_util.h"
#include "codec.h"
#include "output/event_json.h"
#include "log_test.h"
#include "record_corpus.h"
#include "output/record_fmt.h"
#include "nstype.h"

static struct tlog t;
static struct audit_verify v;
static int writes;
static long disk_cap;

static void setup(void)
{
	tlog_init(&t, AUDIT_FMT_JSON);
	writes = 0;
}

static void teardown(void)
{
	audit_log_write_fn = NULL;
	tlog_cleanup(&t);
}

TestSuite(audit_batch, .init = setup, .fini = teardown);

static ssize_t counting_write(int fd, const void *buf, size_t n)
{
	writes++;
	return write(fd, buf, n);
}

/* Bytes the log takes in t.dir: segments and the full-disk reserve. */
static long used(void)
{
	long sum = 0;
	struct dirent *de;
	DIR *d = opendir(t.dir);

	while (d && (de = readdir(d))) {
		char p[600];
		struct stat st;

		snprintf(p, sizeof(p), "%s/%s", t.dir, de->d_name);
		if ((!strncmp(de->d_name, "nsaudit-", 8) || !strcmp(de->d_name, ".nsaudit-reserve")) &&
		    !stat(p, &st))
			sum += st.st_size;
	}
	if (d)
		closedir(d);
	return sum;
}

/* A disk of disk_cap bytes that takes what fits of a write, then ENOSPC. */
static ssize_t small_disk_write(int fd, const void *buf, size_t n)
{
	long u = used();

	writes++;
	if (u + (long)n <= disk_cap)
		return write(fd, buf, n);
	if (u < disk_cap)
		return write(fd, buf, (size_t)(disk_cap - u));
	errno = ENOSPC;
	return -1;
}

static struct audit_log *topen(void)
{
	char err[256];
	struct audit_log *l = audit_log_open(&t.o, err, sizeof(err));

	cr_assert_not_null(l, "%s", err);
	return l;
}

/* Corpus record i through the fast path. */
static int append_corpus(struct audit_log *l, int i)
{
	struct nsaudit_event e;
	struct event_extra x;
	struct corpus_bufs b;
	struct enriched_event r = { &e, &x };

	corpus_record(i % CORPUS_N, &e, &x, &b);
	return audit_log_append_fields(l, x.realtime_ns, record_fields_of, &r);
}

/* A setns record of process 1000 + i through the fast path. */
static int append_fast(struct audit_log *l, int i)
{
	struct nsaudit_event e = { 0 };
	struct event_extra x = { .seq = (uint64_t)i + 1, .realtime_ns = 1796286000000000000LL };
	struct enriched_event r = { &e, &x };

	e.op = NSAUDIT_OP_SETNS;
	e.ns_type = NSAUDIT_NS_NET;
	e.flags = NSAUDIT_F_HAS_NS | NSAUDIT_F_HAS_OLD;
	e.ns_inum = e.old_inum = 4026531833u;
	e.pid = e.tid = 1000 + (uint32_t)i;
	e.fd = 3;
	e.probe = NSAUDIT_PROBE_TP_SYSCALLS;
	strcpy(e.comm, "nsbench");
	return audit_log_append_fields(l, x.realtime_ns, record_fields_of, &r);
}

/* ... and through the per-record path. */
static int append_object(struct audit_log *l, int i)
{
	struct nsaudit_event e;
	struct event_extra x;
	struct corpus_bufs b;
	struct json_object *o;
	int rc;

	corpus_record(i % CORPUS_N, &e, &x, &b);
	o = event_to_json(&e, &x);
	rc = audit_log_append(l, o);
	json_object_put(o);
	return rc;
}

/* The newest segment's lines from the third on (after the header and the
 * start record, which carry the time of the run). */
static char *records_of(const char *dir, size_t *len)
{
	char path[600], *d, *p;
	size_t n;
	int k;

	snprintf(path, sizeof(path), "%s/nsaudit-000001.log", dir);
	d = tslurp(path, &n);
	for (p = d, k = 0; k < 2; k++)
		p = strchr(p, '\n') + 1;
	*len = n - (size_t)(p - d);
	memmove(d, p, *len + 1);
	return d;
}

Test(audit_batch, same_lines_as_the_per_record_path)
{
	static const enum audit_format fmts[2] = { AUDIT_FMT_JSON, AUDIT_FMT_AUDIT };
	int k, i;

	for (k = 0; k < 2; k++) {
		struct tlog a, o;
		struct audit_log *l;
		char *da, *dob, err[256];
		size_t la, lo;

		tlog_init(&a, fmts[k]);
		tlog_init(&o, fmts[k]);
		/* the same key and start, so that the chains are the same */
		strcpy(a.key, t.key);
		strcpy(o.key, t.key);
		l = audit_log_open(&a.o, err, sizeof(err));
		cr_assert_not_null(l, "%s", err);
		for (i = 0; i < 3 * CORPUS_N; i++)
			cr_assert_eq(append_corpus(l, i), 0, "%s", audit_log_error(l));
		cr_assert_eq(audit_log_close(l), 0);
		l = audit_log_open(&o.o, err, sizeof(err));
		cr_assert_not_null(l, "%s", err);
		for (i = 0; i < 3 * CORPUS_N; i++)
			cr_assert_eq(append_object(l, i), 0, "%s", audit_log_error(l));
		cr_assert_eq(audit_log_close(l), 0);
		cr_assert_eq(tlog_verify(&a, &v), 0, "%s: %s", v.where, v.what);
		cr_expect_eq(v.records, 3 * CORPUS_N + 3);
		/* lines after the header and start differ only where those did:
		 * compare them without their MACs */
		da = records_of(a.dir, &la);
		dob = records_of(o.dir, &lo);
		for (i = 0; i < 3 * CORPUS_N; i++) {
			char *ea = strchr(da, '\n'), *eo = strchr(dob, '\n');
			size_t ma = fmts[k] == AUDIT_FMT_JSON ? 75 : 69;

			cr_assert(ea && eo);
			cr_assert_eq(ea - da, eo - dob, "record %d: lengths", i);
			cr_assert_eq(memcmp(da, dob, (size_t)(ea - da) - ma), 0, "record %d: %.*s", i,
				     (int)(ea - da), da);
			memmove(da, ea + 1, strlen(ea + 1) + 1);
			memmove(dob, eo + 1, strlen(eo + 1) + 1);
		}
		free(da);
		free(dob);
		tlog_cleanup(&a);
		tlog_cleanup(&o);
	}
}

Test(audit_batch, one_write_per_batch)
{
	struct audit_log *l = topen();
	int i;

	audit_log_write_fn = counting_write;
	for (i = 0; i < 200; i++)
		cr_assert_eq(append_fast(l, i), 0);
	cr_expect_eq(writes, 0, "nothing written before the commit");
	cr_assert_eq(audit_log_commit(l), 0);
	cr_expect_eq(writes, 1, "one write for the batch");
	cr_assert_eq(audit_log_commit(l), 0);
	cr_expect_eq(writes, 1, "an empty batch writes nothing");
	cr_assert_eq(audit_log_close(l), 0);
	audit_log_write_fn = NULL;
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.records, 203);
}

/* Own records, reopen and flush come after what is batched, in order. */
Test(audit_batch, the_logs_own_records_keep_their_place)
{
	struct audit_log *l = topen();
	struct json_object *e;
	char path[600];
	int i;

	for (i = 0; i < 10; i++)
		cr_assert_eq(append_fast(l, i), 0);
	e = tevent(4242, "own", 3);
	cr_assert_eq(audit_log_append(l, e), 0);
	json_object_put(e);
	for (i = 0; i < 10; i++)
		cr_assert_eq(append_fast(l, i), 0);
	/* logrotate moves the segment away: a new one, after the batch */
	snprintf(path, sizeof(path), "%s/nsaudit-000001.log", t.dir);
	cr_assert_eq(rename(path, "/tmp/nsaudit-batch-moved.log"), 0);
	cr_assert_eq(audit_log_reopen(l), 0);
	for (i = 0; i < 10; i++)
		cr_assert_eq(append_fast(l, i), 0);
	cr_assert_eq(audit_log_flush(l), 0);
	cr_assert_eq(audit_log_close(l), 0);
	/* a moved segment is part of the log again once it is back */
	cr_assert_eq(rename("/tmp/nsaudit-batch-moved.log", path), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.moved_segments, 1);
	cr_expect_eq(v.last_seq - v.first_seq + 1, v.records, "gapless");
}

/* Rotation falls inside batches: each segment within --max-size. */
Test(audit_batch, rotation_inside_a_batch)
{
	struct audit_log *l;
	struct dirent *de;
	DIR *d;
	int i;

	t.o.max_size = 4096;
	t.o.keep = 1000;
	l = topen();
	for (i = 0; i < 300; i++) {
		cr_assert_eq(append_fast(l, i), 0, "%s", audit_log_error(l));
		if (i % 37 == 36)
			cr_assert_eq(audit_log_commit(l), 0);
	}
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_gt(v.segments, 10);
	cr_expect_eq(v.dropped_segments, 0);
	d = opendir(t.dir);
	while ((de = readdir(d))) {
		char p[600];
		struct stat st;

		snprintf(p, sizeof(p), "%s/%s", t.dir, de->d_name);
		if ((!strncmp(de->d_name, "nsaudit-", 8) || !strcmp(de->d_name, ".nsaudit-reserve")) &&
		    !stat(p, &st))
			cr_expect_leq(st.st_size, 4096 + 2500, "%s: %ld", de->d_name,
				      (long)st.st_size); /* a header + one record may pass it */
	}
	closedir(d);
}

Test(audit_batch, full_disk_mid_batch_suspend_counts_every_record)
{
	struct audit_log *l;
	int i;

	t.o.on_full = AUDIT_FULL_SUSPEND;
	l = topen();
	audit_log_write_fn = small_disk_write;
	disk_cap = used() + 20000;	/* room for some of the batch, not all */
	for (i = 0; i < 200; i++)
		cr_assert_eq(append_fast(l, i), 0);
	cr_assert_eq(audit_log_commit(l), 0, "suspend: not an error");
	cr_expect_gt(audit_log_suspended(l), 0);
	disk_cap = 1 << 30;
	cr_assert_eq(append_fast(l, 0), 0);
	cr_assert_eq(audit_log_close(l), 0);
	audit_log_write_fn = NULL;
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	/* every record is in the log or counted in a lost record (the
	 * log's own: segment, start, lost, close) */
	cr_expect_eq(v.records - 4 + v.lost, 201, "records %lu lost %lu",
		     (unsigned long)v.records, (unsigned long)v.lost);
}

Test(audit_batch, full_disk_mid_batch_stop_leaves_whole_records)
{
	struct audit_log *l;
	int i;

	t.o.on_full = AUDIT_FULL_STOP;
	l = topen();
	audit_log_write_fn = small_disk_write;
	disk_cap = used() + 20000;
	for (i = 0; i < 200; i++)
		cr_assert_eq(append_fast(l, i), 0);
	cr_expect_eq(audit_log_commit(l), -1);
	cr_expect(strstr(audit_log_error(l), "disk full"), "%s", audit_log_error(l));
	cr_expect_eq(append_fast(l, 1), -1, "stays stopped");
	cr_expect_eq(audit_log_close(l), -1);
	audit_log_write_fn = NULL;
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_not(v.closed);
	cr_expect_gt(v.records, 10, "what fitted was written, record by record");
}

Test(audit_batch, full_disk_mid_batch_rotate_drops_oldest)
{
	struct audit_log *l;
	int i;

	/* as audit_writer's per-record test of the same policy */
	t.o.max_size = 1024;
	t.o.keep = 100;
	t.o.on_full = AUDIT_FULL_ROTATE;
	l = topen();
	audit_log_write_fn = small_disk_write;
	disk_cap = 4000 + 8192; /* and the reserve that lets a drop record in */
	for (i = 0; i < 60; i++) {
		cr_assert_eq(append_fast(l, i), 0, "%s", audit_log_error(l));
		if (i % 20 == 19)
			cr_assert_eq(audit_log_commit(l), 0, "%s", audit_log_error(l));
	}
	cr_assert_eq(audit_log_close(l), 0, "%s", audit_log_error(l));
	audit_log_write_fn = NULL;
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_gt(v.first_segment, 1);
	cr_expect_eq(v.lost, 0);
}


/*
 * A record that fits a segment alone but not after its header and the
 * drop record --keep writes there: it stays (a segment of its own) instead
 * of rotating again and again (it made segments forever, a drop each).
 */
Test(audit_batch, a_record_after_the_drop_of_a_rotation_stays, .timeout = 30)
{
	char err[256], comm[600];
	struct audit_log *l;
	int i;

	memset(comm, 'c', sizeof(comm));
	t.o.max_size = 1024;
	t.o.keep = 2;
	l = audit_log_open(&t.o, err, sizeof(err));
	cr_assert_not_null(l, "%s", err);
	for (i = 0; i < 6; i++) {
		struct json_object *e = tevent(2000 + i, comm, sizeof(comm));

		cr_assert_eq(audit_log_append(l, e), 0, "%s", audit_log_error(l));
		json_object_put(e);
	}
	cr_assert_lt(audit_log_segment(l), 20, "segment %u after 6 records", audit_log_segment(l));
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
}

/* A lost record of actor pid (comm) through the fast path: count calls,
 * the kernel's running total lost_total. */
static int append_lost(struct audit_log *l, uint32_t pid, const char *comm, uint64_t count,
		       uint64_t lost_total)
{
	struct nsaudit_event e = { 0 };
	struct event_extra x = { .realtime_ns = 1796286000000000000LL };
	struct enriched_event r = { &e, &x };

	e.op = NSAUDIT_OP_LOST;
	e.ns_type = NSAUDIT_NS_UNKNOWN;
	e.fd = -1;
	e.probe = NSAUDIT_PROBE_USER;
	e.lost_reason = NSAUDIT_LOST_BUDGET;
	e.pid = pid;
	e.uid = 65534;
	e.ns_refs = NSAUDIT_OP_SETNS;
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	e.count = count;
	e.arg = lost_total;
	return audit_log_append_fields(l, x.realtime_ns, record_fields_of, &r);
}

/* The lost records of the log's first segment: their count summed, of the
 * actor comm (NULL: of the disk-full count), and the last one's lost_total. */
static uint64_t lost_in_log(const char *comm, int64_t *last_total)
{
	char path[600], *d, *p, *nl;
	struct json_object *o, *f;
	uint64_t sum = 0;
	size_t n;

	snprintf(path, sizeof(path), "%s/nsaudit-000001.log", t.dir);
	d = tslurp(path, &n);
	for (p = d; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		o = json_tokener_parse(p);
		if (o && json_object_object_get_ex(o, "op", &f) &&
		    !strcmp(json_object_get_string(f), "lost")) {
			bool has_comm = json_object_object_get_ex(o, "comm", &f);

			if (comm ? has_comm && !strcmp(json_object_get_string(f), comm) : !has_comm) {
				json_object_object_get_ex(o, "count", &f);
				sum += (uint64_t)json_object_get_int64(f);
				if (last_total && json_object_object_get_ex(o, "lost_total", &f))
					*last_total = json_object_get_int64(f);
			}
		}
		json_object_put(o);
	}
	free(d);
	return sum;
}

/*
 * A lost record dropped on a full disk names another actor's calls (a
 * flooder's, a process no --comm filter hides): they stay its, in a lost
 * record of their own when space is back. Folded into the nameless
 * disk-full count, they read as the workload's own dropped records (47's
 * "127 + 6682, want 3010" under other users' floods).
 */
Test(audit_batch, a_lost_record_dropped_on_a_full_disk_keeps_its_actor)
{
	int64_t last_total = 0;
	struct audit_log *l;
	int i;

	t.o.on_full = AUDIT_FULL_SUSPEND;
	l = topen();
	audit_log_write_fn = small_disk_write;
	disk_cap = used(); /* full */
	for (i = 0; i < 3; i++)
		cr_assert_eq(append_fast(l, i), 0);
	cr_assert_eq(append_lost(l, 4242, "flooder", 1000, 1000), 0);
	cr_assert_eq(audit_log_commit(l), 0, "suspend: not an error");
	cr_assert_eq(append_fast(l, 3), 0);
	cr_assert_eq(append_lost(l, 4343, "other", 7, 1007), 0);
	cr_assert_eq(append_lost(l, 4242, "flooder", 500, 1507), 0);
	cr_assert_eq(audit_log_commit(l), 0);
	disk_cap = 1 << 30;
	cr_assert_eq(append_fast(l, 4), 0);
	cr_assert_eq(audit_log_close(l), 0, "%s", audit_log_error(l));
	audit_log_write_fn = NULL;
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(lost_in_log("flooder", NULL), 1500, "the flooder's calls, named");
	cr_expect_eq(lost_in_log("other", NULL), 7);
	cr_expect_eq(lost_in_log(NULL, NULL), 4, "the disk-full count: the 4 setns records only");
	cr_expect_eq(v.lost, 1511, "each call counted once");
	/* the newest report last: what a restarted recorder resumes from */
	lost_in_log("flooder", &last_total);
	cr_expect_eq(last_total, 1507);
}

/*
 * A sink's lost record counts records the log holds (the recorder hands a
 * sink what it appended): verify's lost sum is of calls the log lacks, so
 * it says them apart, never in the sum (a workload's written records would
 * read as lost too).
 */
Test(audit_batch, a_sinks_losses_are_not_in_the_lost_sum)
{
	struct nsaudit_event e = { 0 };
	struct event_extra x = { .realtime_ns = 1796286000000000000LL, .cause = "sink syslog" };
	struct enriched_event r = { &e, &x };
	struct audit_log *l;
	int i;

	l = topen();
	for (i = 0; i < 5; i++)
		cr_assert_eq(append_fast(l, i), 0);
	cr_assert_eq(append_lost(l, 4242, "flooder", 9, 9), 0);
	e.op = NSAUDIT_OP_LOST;
	e.ns_type = NSAUDIT_NS_UNKNOWN;
	e.fd = -1;
	e.probe = NSAUDIT_PROBE_USER;
	e.lost_reason = NSAUDIT_LOST_SINK;
	e.count = 5;
	cr_assert_eq(audit_log_append_fields(l, x.realtime_ns, record_fields_of, &r), 0);
	cr_assert_eq(audit_log_close(l), 0);
	cr_assert_eq(tlog_verify(&t, &v), 0, "%s: %s", v.where, v.what);
	cr_expect_eq(v.lost, 9, "the flooder's calls only");
	cr_expect_eq(v.lost_sink, 5);
}
